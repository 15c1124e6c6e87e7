// The Vulkan instance, the chosen device and its graphics queue, shared by every renderer.
//
// Device choice: `Configuration.deviceSelector`, all digits for an index (never a name), anything
// else a case-insensitive name substring; otherwise the first usable device in the order discrete
// GPU, integrated GPU, virtual GPU, CPU (lavapipe). Segue needs Vulkan 1.3 (dynamic rendering,
// synchronization2). The library reads no environment: the executable builds the Configuration.
//
// Ownership: every object that uses the device (buffers, images, pools, rings, renderers) holds
// its context strongly, so the device is destroyed only after the last of them.
import CSegueVulkan
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Vulkan device ready to render; thread-safe (queue submission is serialized internally).
// @unchecked: the Vulkan handles and limits never change after `init`; the pipeline cache,
// the transfer pool (allocating, recording, freeing), queue submission and `broken` are used only
// under `lock`.
public final class GPUContext: @unchecked Sendable {
    let instance: VkInstance
    let physicalDevice: VkPhysicalDevice
    let device: VkDevice
    let queue: VkQueue
    let queueFamily: UInt32
    let memoryProperties: VkPhysicalDeviceMemoryProperties
    let limits: VkPhysicalDeviceLimits
    /// Whether the `depthClamp` feature is on (mesh depth clamps instead of clipping).
    let depthClampEnabled: Bool
    /// The device in use.
    public let info: GPUDeviceInfo
    let compiler: ShaderCompiler

    private let lock = PlainLock()
    /// The process that opened the device (a child made by fork() inherits the object, not the device).
    private let process = getpid()
    private let transferPool: VkCommandPool
    private var pipelines: [PipelineKey: GraphicsPipeline] = [:]
    /// Why the context cannot be used any more (under `lock`); nil while it works.
    private var broken: VulkanError?

    // MARK: - Creation

    /// How a context is set up. The library reads no environment variables: the executable
    /// passes what it read (see `init(environment:deviceSelector:)`).
    public struct Configuration: Sendable, Equatable {
        /// The device: all digits select the device with that index, anything else is a
        /// case-insensitive name substring; nil picks the preferred device (discrete GPU,
        /// integrated GPU, virtual GPU, CPU).
        public var deviceSelector: String?
        /// Where compiled SPIR-V is cached between runs; nil keeps no disk cache.
        public var shaderCacheDirectory: String?
        /// Instance extensions a window system needs for presenting (e.g. `VK_KHR_surface` and
        /// `VK_KHR_xlib_surface`, as a window reports them). When `VK_KHR_surface` is among them
        /// the device is opened with `VK_KHR_swapchain`, so a `SwapchainPresenter` can show frames.
        public var presentationExtensions: [String]
        /// Seconds a render waits for the GPU before it gives up with `VulkanError.gpuTimeout`
        /// (a shader that never ends can hang a GPU, where lavapipe's own limit ends it). The
        /// context cannot be used after a timeout. A value that is not a positive finite number
        /// is `defaultGPUTimeout`, and one longer than `maximumGPUTimeout` is that maximum
        /// (however it is set).
        public var gpuTimeout: Double {
            didSet { gpuTimeout = Self.bounded(gpuTimeout) }
        }

        /// The wait for the GPU unless told otherwise: a minute, far beyond any frame Segue renders
        /// (a 16384² frame of the heaviest built-in takes seconds on lavapipe on two cores).
        public static let defaultGPUTimeout = 60.0

        /// The longest wait for the GPU: a day. Vulkan counts the wait in 64-bit nanoseconds
        /// (about 584 years), and a day is already beyond any frame; a longer limit is a day.
        public static let maximumGPUTimeout = 86_400.0

        /// A configuration with the given values (defaults: preferred device, no disk cache, no
        /// presentation, `defaultGPUTimeout`).
        public init(
            deviceSelector: String? = nil, shaderCacheDirectory: String? = nil, presentationExtensions: [String] = [],
            gpuTimeout: Double = defaultGPUTimeout
        ) {
            self.deviceSelector = deviceSelector
            self.shaderCacheDirectory = shaderCacheDirectory
            self.presentationExtensions = presentationExtensions
            self.gpuTimeout = Self.bounded(gpuTimeout)
        }

        /// `seconds` as a wait for the GPU: `defaultGPUTimeout` for what is not a positive finite
        /// number, at most `maximumGPUTimeout`.
        static func bounded(_ seconds: Double) -> Double {
            seconds.isFinite && seconds > 0 ? min(seconds, maximumGPUTimeout) : defaultGPUTimeout
        }

        /// The wait for the GPU that `text`, the value of `SEGUE_GPU_TIMEOUT`, asks for (the one
        /// reading of the variable, for the executable's environment and libsegue's `getenv`):
        /// seconds as a decimal number, bounded as `gpuTimeout` is; `defaultGPUTimeout` when it
        /// is unset or not a number (a number too large for a `Double` reads as infinite).
        package static func gpuTimeout(environmentValue text: String?) -> Double {
            bounded(text.flatMap(Double.init) ?? defaultGPUTimeout)
        }

        /// The configuration an executable derives from its environment: `deviceSelector`
        /// (e.g. `--device`) or else `SEGUE_DEVICE`, the cache directory of
        /// `ShaderCache.defaultDirectory(environment:)`, and `SEGUE_GPU_TIMEOUT` (seconds; a
        /// value that is not a positive finite number is ignored, one longer than
        /// `maximumGPUTimeout` is that maximum). Empty values count as unset.
        public init(environment: [String: String], deviceSelector: String? = nil) {
            self.init(variable: { environment[$0] }, deviceSelector: deviceSelector)
        }

        /// The configuration of `init(environment:)`, each variable asked of `variable` (a library
        /// calls `getenv` for each rather than walk `environ`, which a host's thread may be changing).
        package init(variable: (String) -> String?, deviceSelector: String? = nil) {
            self.init(
                deviceSelector: deviceSelector ?? variable("SEGUE_DEVICE").flatMap { $0.isEmpty ? nil : $0 },
                shaderCacheDirectory: ShaderCache.defaultDirectory(variable: variable),
                gpuTimeout: Self.gpuTimeout(environmentValue: variable("SEGUE_GPU_TIMEOUT")))
        }
    }

    /// The configuration the context was created with.
    public let configuration: Configuration

    /// Opens the device chosen by `selector` (an index or a name substring; nil: the preferred
    /// device), without a disk cache for shaders.
    /// - Throws: as `init(configuration:)`.
    public convenience init(device selector: String?) throws(VulkanError) {
        try self.init(configuration: Configuration(deviceSelector: selector))
    }

    /// Opens the device `configuration` selects.
    /// - Throws: `VulkanError.noDriver` when no driver answers, `.deviceNotFound` when the
    ///   selector matches nothing, `.unsupportedDevice` when the match cannot run Segue.
    public init(configuration: Configuration = Configuration()) throws(VulkanError) {
        // A child forked from a process with a context on a driver that refuses it: not a call
        // into that driver, which fails there or never returns.
        if let refusal = OpenContexts.refusal(in: getpid()) { throw refusal }
        let instance = try GPUContext.makeInstance(extensions: configuration.presentationExtensions)
        var ok = false
        defer { if !ok { vkDestroyInstance(instance, nil) } }

        let candidates = try GPUContext.describeDevices(instance)
        let chosen = candidates[try GPUContext.choose(configuration.deviceSelector, among: candidates.map(\.info))]
        let physical = chosen.physical

        // One graphics queue.
        var familyCount: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount, nil)
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount, &families)
        guard let family = families.firstIndex(where: \.supportsGraphics) else {
            throw .unsupportedDevice("no graphics queue")
        }

        var supported = VkPhysicalDeviceFeatures()
        vkGetPhysicalDeviceFeatures(physical, &supported)
        var enabled = VkPhysicalDeviceFeatures()
        enabled.depthClamp = supported.depthClamp
        var priority: Float = 1
        var features13 = VkPhysicalDeviceVulkan13Features()
        features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES
        features13.dynamicRendering = true.vk
        features13.synchronization2 = true.vk
        let presenting = configuration.presentationExtensions.contains("VK_KHR_surface")
        if presenting, !GPUContext.deviceExtensions(physical).contains("VK_KHR_swapchain") {
            throw .unsupportedDevice("\(chosen.info.name) cannot present to a window (no VK_KHR_swapchain)")
        }
        let deviceExtensions = CStringArray(presenting ? ["VK_KHR_swapchain"] : [])
        var device: VkDevice?
        let result = withUnsafeMutablePointer(to: &features13) { f13 in
            withUnsafePointer(to: &priority) { prio in
                var queueInfo = VkDeviceQueueCreateInfo()
                queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
                queueInfo.queueFamilyIndex = UInt32(family)
                queueInfo.queueCount = 1
                queueInfo.pQueuePriorities = prio
                return withUnsafePointer(to: &queueInfo) { q in
                    var info = VkDeviceCreateInfo()
                    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                    info.pNext = UnsafeRawPointer(f13)
                    info.queueCreateInfoCount = 1
                    info.pQueueCreateInfos = q
                    info.enabledExtensionCount = UInt32(deviceExtensions.count)
                    info.ppEnabledExtensionNames = deviceExtensions.pointer
                    return withUnsafePointer(to: &enabled) { features in
                        info.pEnabledFeatures = features
                        return vkCreateDevice(physical, &info, nil, &device)
                    }
                }
            }
        }
        do throws(VulkanError) { try check(result, "vkCreateDevice") } catch { throw OpenContexts.explain(error, in: getpid()) }
        guard let device else { throw .call("vkCreateDevice", code: 0) }

        var queue: VkQueue?
        vkGetDeviceQueue(device, UInt32(family), 0, &queue)
        var memory = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(physical, &memory)

        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT.rawValue | VK_COMMAND_POOL_CREATE_TRANSIENT_BIT.rawValue
        poolInfo.queueFamilyIndex = UInt32(family)
        var pool: VkCommandPool?
        let poolResult = vkCreateCommandPool(device, &poolInfo, nil, &pool)
        if poolResult != VK_SUCCESS { vkDestroyDevice(device, nil) }
        try check(poolResult, "vkCreateCommandPool")

        self.instance = instance
        self.physicalDevice = physical
        self.device = device
        self.queue = queue!
        self.queueFamily = UInt32(family)
        self.memoryProperties = memory
        self.limits = chosen.properties.limits
        self.depthClampEnabled = supported.depthClamp == true.vk
        self.info = chosen.info
        self.transferPool = pool!
        self.compiler = ShaderCompiler(cache: configuration.shaderCacheDirectory.map { ShaderCache(directory: $0) })
        self.configuration = configuration
        self.canPresent = presenting
        ok = true
        OpenContexts.opened(in: process, refusingDriver: chosen.driver == VK_DRIVER_ID_NVIDIA_PROPRIETARY)
    }

    /// Whether the device was opened for presenting to windows (see `Configuration.presentationExtensions`).
    public let canPresent: Bool

    /// The `VkInstance`, for a window system to make a surface with (as an opaque handle).
    public var instanceHandle: OpaquePointer { instance }

    deinit {
        let device = device, instance = instance, transferPool = transferPool, pipelines = Array(pipelines.values), process = process
        // A test's stand-in for a device that never goes idle (see `VulkanFault`).
        let stalls = VulkanFault.injected.map { "vkDeviceWaitIdle".hasPrefix($0.call) } ?? false
        let teardown = {
            if stalls { sleep(UInt32(Self.stallSeconds)) }
            vkDeviceWaitIdle(device)
            for p in pipelines { p.destroy(device) }
            vkDestroyCommandPool(device, transferPool, nil)
            vkDestroyDevice(device, nil)
            vkDestroyInstance(instance, nil)
            OpenContexts.closed(in: process)  // only now: a device still open counts for fork()
        }
        if broken == nil {
            teardown()  // every renderer has waited for its frames: the device is idle
        } else {
            Self.tearDownAlone(teardown)
        }
    }

    /// Runs the teardown of a broken context on a thread of its own, waiting for it at most
    /// `brokenTeardownWait`: after a timeout the GPU may be running a shader that never ends,
    /// and `vkDeviceWaitIdle` has no limit. Whoever releases the context (a host's
    /// `segue_context_destroy`, a GTK widget) never hangs; the thread frees the device when the
    /// GPU lets it, or the process's exit does.
    private static func tearDownAlone(_ teardown: sending @escaping () -> Void) {
        let done = Locked(false)
        do {
            try WorkerThread.start(for: "the GPU context") {
                teardown()
                done.withLock { $0 = true }
            }
        } catch {
            return  // no thread to be had: the device is left to the process's exit
        }
        done.wait(seconds: brokenTeardownWait) { $0 }
    }

    /// Seconds the release of a broken context waits for its device before leaving it to a
    /// thread: its renderers have already waited `teardownWait` for their frames.
    static let brokenTeardownWait = 1.0

    /// How long a stalled `vkDeviceWaitIdle` (`VulkanFault`) takes in tests.
    static let stallSeconds = 20.0

    /// The index into `devices` that `selector` picks: all digits select by `GPUDeviceInfo.index`
    /// only, anything else is a case-insensitive name substring; nil picks the first usable device
    /// in the order discrete, integrated, virtual, CPU.
    static func choose(_ selector: String?, among devices: [GPUDeviceInfo]) throws(VulkanError) -> Int {
        guard let selector else {
            guard
                let best = devices.indices.filter({ devices[$0].usable })
                    .min(by: { (devices[$0].type.rank, devices[$0].index) < (devices[$1].type.rank, devices[$1].index) })
            else {
                throw .unsupportedDevice(
                    "no device supports Vulkan 1.3 with a graphics queue (found: \(devices.map(\.name).joined(separator: ", ")))")
            }
            return best
        }
        let isIndex = !selector.isEmpty && selector.utf8.allSatisfy { (0x30...0x39).contains($0) }
        let match =
            isIndex
            ? Int(selector).flatMap { i in devices.indices.first { devices[$0].index == i } }
            : devices.indices.first { devices[$0].name.lowercased().contains(selector.lowercased()) }
        guard let match else {
            throw .deviceNotFound(selector: selector, available: devices.map { "\($0.index): \($0.name)" })
        }
        guard devices[match].usable else {
            throw .unsupportedDevice(
                "\(devices[match].name) supports Vulkan \(devices[match].apiVersion); Segue needs 1.3 with a graphics queue")
        }
        return match
    }

    /// Checks that `selector` picks a usable device, as a context would, without opening one:
    /// the devices are only listed, so a bad choice is found before any work starts.
    /// - Throws: `VulkanError.deviceNotFound` (with the devices there are), `.unsupportedDevice`,
    ///   `.noDriver`.
    public static func checkDeviceSelector(_ selector: String) throws(VulkanError) {
        _ = try choose(selector, among: listDevices())
    }

    /// Every Vulkan device the drivers report, usable or not.
    /// - Throws: `VulkanError.noDriver` when no driver answers.
    public static func listDevices() throws(VulkanError) -> [GPUDeviceInfo] {
        let instance = try makeInstance()
        defer { vkDestroyInstance(instance, nil) }
        return try describeDevices(instance).map(\.info)
    }

    // MARK: - Instance and device discovery

    private static func makeInstance(extensions: [String] = []) throws(VulkanError) -> VkInstance {
        var instance: VkInstance?
        let name = strdup("segue")
        defer { free(name) }
        let available = instanceExtensions()
        if let missing = extensions.first(where: { !available.contains($0) }) {
            throw .unsupportedDevice("the Vulkan driver cannot present to this window system (no instance extension \(missing))")
        }
        let names = CStringArray(extensions)
        var app = VkApplicationInfo()
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
        app.pApplicationName = UnsafePointer(name)
        app.pEngineName = UnsafePointer(name)
        app.apiVersion = vkVersion(1, 3)
        let result = withUnsafePointer(to: &app) { appPtr in
            var info = VkInstanceCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
            info.pApplicationInfo = appPtr
            info.enabledExtensionCount = UInt32(names.count)
            info.ppEnabledExtensionNames = names.pointer
            return vkCreateInstance(&info, nil, &instance)
        }
        try checkInstanceCreation(result)
        return instance!
    }

    /// The instance extensions the loader offers.
    private static func instanceExtensions() -> Set<String> {
        var count: UInt32 = 0
        guard vkEnumerateInstanceExtensionProperties(nil, &count, nil) == VK_SUCCESS, count > 0 else { return [] }
        var props = [VkExtensionProperties](repeating: VkExtensionProperties(), count: Int(count))
        guard vkEnumerateInstanceExtensionProperties(nil, &count, &props) == VK_SUCCESS else { return [] }
        return Set(props.prefix(Int(count)).map { cString($0.extensionName) })
    }

    /// The device extensions `physical` offers.
    private static func deviceExtensions(_ physical: VkPhysicalDevice) -> Set<String> {
        var count: UInt32 = 0
        guard vkEnumerateDeviceExtensionProperties(physical, nil, &count, nil) == VK_SUCCESS, count > 0 else { return [] }
        var props = [VkExtensionProperties](repeating: VkExtensionProperties(), count: Int(count))
        guard vkEnumerateDeviceExtensionProperties(physical, nil, &count, &props) == VK_SUCCESS else { return [] }
        return Set(props.prefix(Int(count)).map { cString($0.extensionName) })
    }

    /// Every device of `instance`: its handle, its description, its properties and its driver's
    /// identity (queried once, here).
    private static func describeDevices(_ instance: VkInstance) throws(VulkanError) -> [(
        physical: VkPhysicalDevice, info: GPUDeviceInfo, properties: VkPhysicalDeviceProperties, driver: VkDriverId
    )] {
        var count: UInt32 = 0
        try check(vkEnumeratePhysicalDevices(instance, &count, nil), "vkEnumeratePhysicalDevices")
        guard count > 0 else { throw .noDriver(detail: "the Vulkan loader found no devices") }
        var devices = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        try check(vkEnumeratePhysicalDevices(instance, &count, &devices), "vkEnumeratePhysicalDevices")
        return devices.prefix(Int(count)).enumerated().compactMap { index, d in
            guard let d else { return nil }
            var driver = VkPhysicalDeviceDriverProperties()
            driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES
            var props2 = VkPhysicalDeviceProperties2()
            props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
            withUnsafeMutablePointer(to: &driver) { drv in
                props2.pNext = UnsafeMutableRawPointer(drv)
                vkGetPhysicalDeviceProperties2(d, &props2)
            }
            let p = props2.properties
            let type = GPUDeviceType(p.deviceType)
            var familyCount: UInt32 = 0
            vkGetPhysicalDeviceQueueFamilyProperties(d, &familyCount, nil)
            var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
            vkGetPhysicalDeviceQueueFamilyProperties(d, &familyCount, &families)
            let graphics = families.contains(where: \.supportsGraphics)
            let driverName = cString(driver.driverName)
            let driverInfo = cString(driver.driverInfo)
            let info = GPUDeviceInfo(
                index: index, name: cString(p.deviceName), type: type,
                driver: [driverName, driverInfo].filter { !$0.isEmpty }.joined(separator: " "),
                apiVersion: versionString(p.apiVersion),
                usable: graphics && p.apiVersion >= vkVersion(1, 3))
            return (d, info, p, driver.driverID)
        }
    }

    // MARK: - Memory, submission

    /// The properties of memory type `index`.
    func memoryTypeProperties(_ index: UInt32) -> MemoryProperties {
        let types = withUnsafeBytes(of: memoryProperties.memoryTypes) { Array($0.bindMemory(to: VkMemoryType.self)) }
        return MemoryProperties(vk: types[Int(index)].propertyFlags)
    }

    /// A memory type index allowed by `bits` with all `required` properties, preferring `preferred`.
    func memoryType(bits: UInt32, required: MemoryProperties, preferred: MemoryProperties = []) throws(VulkanError) -> UInt32 {
        var fallback: UInt32?
        for i in 0..<memoryProperties.memoryTypeCount where bits & (1 << i) != 0 {
            let properties = memoryTypeProperties(i)
            guard properties.isSuperset(of: required) else { continue }
            if properties.isSuperset(of: preferred) { return i }
            if fallback == nil { fallback = i }
        }
        guard let fallback else { throw .unsupportedDevice("no memory type with properties \(required)") }
        return fallback
    }

    /// Allocates device memory for `requirements` from the best matching memory type.
    func allocate(
        _ requirements: VkMemoryRequirements, required: MemoryProperties, preferred: MemoryProperties = [],
        what: String
    ) throws(VulkanError) -> (memory: VkDeviceMemory, typeIndex: UInt32) {
        let typeIndex = try memoryType(bits: requirements.memoryTypeBits, required: required, preferred: preferred)
        var alloc = VkMemoryAllocateInfo()
        alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        alloc.allocationSize = requirements.size
        alloc.memoryTypeIndex = typeIndex
        var memory: VkDeviceMemory?
        try check(vkAllocateMemory(device, &alloc, nil, &memory), "vkAllocateMemory(\(what))")
        return (memory!, typeIndex)
    }

    // MARK: - A lost device

    /// Why the context can no longer render (a lost device, a wait for the GPU that timed out),
    /// nil while it can. Every later submission and wait fails at once with this error; a new
    /// context on the same device works (the C API and the CLI make one).
    public var failure: VulkanError? {
        lock.lock()
        defer { lock.unlock() }
        return broken
    }

    /// `error`, after noting it as the context's `failure` when it breaks the context.
    private func noting(_ error: VulkanError) -> VulkanError {
        guard error.breaksContext else { return error }
        lock.lock()
        if broken == nil { broken = error }
        lock.unlock()
        return error
    }

    /// `error` naming `work` (`VulkanError.naming`). When it is the context's failure, not named
    /// yet, the failure is named so too: later calls then fail naming the work that broke the
    /// context, not their own.
    public func naming(_ error: VulkanError, _ work: String?) -> VulkanError {
        let named = error.naming(work)
        lock.lock()
        if broken == error { broken = named }
        lock.unlock()
        return named
    }

    /// Throws the context's `failure` if it has one: before any work, so that a call on a
    /// broken context fails at once rather than after preparing its frames. A failure that no
    /// work was named for says "earlier work".
    public func checkUsable() throws(VulkanError) {
        if let failure { throw failure.naming("earlier work") }
    }

    /// `check(result, what)` for a call on the context's queue or device: an error that breaks
    /// the context (a lost device) is noted as its `failure`.
    func checkResult(_ result: VkResult, _ what: String) throws(VulkanError) {
        do throws(VulkanError) { try check(result, what) } catch { throw noting(error) }
    }

    /// Submits one command buffer, serialized with every other submission on the queue.
    /// - Throws: the context's `failure`; `VulkanError` (a lost device breaks the context).
    func submit(_ commandBuffer: VkCommandBuffer, fence: VkFence?) throws(VulkanError) {
        var cb: VkCommandBuffer? = commandBuffer
        var info = VkSubmitInfo()
        info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
        info.commandBufferCount = 1
        try withUnsafePointer(to: &cb) { (cbp) throws(VulkanError) in
            info.pCommandBuffers = cbp
            try submit(info, fence: fence)
        }
    }

    /// Submits `info` on the queue, serialized with every other submission (the pointers in
    /// `info` must stay valid for the call).
    /// - Throws: the context's `failure`; `VulkanError` (a lost device breaks the context).
    func submit(_ info: VkSubmitInfo, fence: VkFence?) throws(VulkanError) {
        try checkUsable()
        var info = info
        let result = {
            lock.lock()
            defer { lock.unlock() }
            return vkQueueSubmit(queue, 1, &info, fence)
        }()
        try checkResult(result, "vkQueueSubmit")
    }

    /// Presents on the queue, serialized with every submission.
    func present(_ info: VkPresentInfoKHR) -> VkResult {
        var info = info
        lock.lock()
        defer { lock.unlock() }
        return vkQueuePresentKHR(queue, &info)
    }

    /// Records commands with `record`, submits them and waits for them to finish (uploads,
    /// one-off transfers).
    func runOnce(_ record: (VkCommandBuffer) -> Void) throws(VulkanError) {
        let cb = try recorded(record)
        defer {
            var buffer: VkCommandBuffer? = cb
            lock.lock()
            vkFreeCommandBuffers(device, transferPool, 1, &buffer)
            lock.unlock()
        }
        let fence = try makeFence(signaled: false)
        defer { vkDestroyFence(device, fence, nil) }
        try submit(cb, fence: fence)
        do throws(VulkanError) { try wait(fence) } catch {
            waitBeforeTeardown(fence)  // the command buffer is freed below: the GPU must be done with it
            throw error
        }
    }

    /// A one-off command buffer of the transfer pool with `record`'s commands. The pool is
    /// externally synchronised: allocating and recording (a few commands) happen under the lock,
    /// as freeing does.
    private func recorded(_ record: (VkCommandBuffer) -> Void) throws(VulkanError) -> VkCommandBuffer {
        lock.lock()
        defer { lock.unlock() }
        let cb = try allocateCommandBuffer(device, pool: transferPool)
        do throws(VulkanError) {
            try beginCommandBuffer(cb, oneTimeSubmit: true)
            record(cb)
            try check(vkEndCommandBuffer(cb), "vkEndCommandBuffer")
        } catch {
            var failed: VkCommandBuffer? = cb
            vkFreeCommandBuffers(device, transferPool, 1, &failed)
            throw error
        }
        return cb
    }

    func makeFence(signaled: Bool) throws(VulkanError) -> VkFence {
        var info = VkFenceCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        info.flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT.rawValue : 0
        var fence: VkFence?
        try check(vkCreateFence(device, &info, nil, &fence), "vkCreateFence")
        return fence!
    }

    /// Waits for `fence` at most `configuration.gpuTimeout` seconds.
    /// - Parameter work: what the GPU is doing, for the error (an effect's name).
    /// - Throws: `.gpuTimeout` or `.deviceLost` naming `work` (the context is then broken: see
    ///   `failure`), the context's earlier `failure`.
    func wait(_ fence: VkFence, for work: String? = nil) throws(VulkanError) {
        try checkUsable()
        var f: VkFence? = fence
        let timeout = configuration.gpuTimeout
        do throws(VulkanError) {
            try check(vkWaitForFences(device, 1, &f, true.vk, UInt64(timeout * 1e9)), "vkWaitForFences")
        } catch {
            var error = error
            if case .gpuTimeout = error { error = .gpuTimeout(seconds: timeout, work: nil) }
            throw naming(noting(error), work)
        }
    }

    /// Waits for `fence` before its resources are destroyed, even on a broken context (the work
    /// may still run: a wait that timed out, a fault a test injected): freeing what the GPU still
    /// uses would crash the driver. At most `teardownWait` or `gpuTimeout`, the longer.
    func waitBeforeTeardown(_ fence: VkFence) {
        var f: VkFence? = fence
        _ = vkWaitForFences(device, 1, &f, true.vk, UInt64(max(configuration.gpuTimeout, Self.teardownWait) * 1e9))
    }

    /// Seconds a renderer being destroyed waits for its frames in flight, however short the
    /// context's `gpuTimeout` (a lost device answers at once).
    static let teardownWait = 60.0

    // MARK: - Limits

    /// The largest uniform block the device can bind, in bytes (`maxUniformBufferRange`);
    /// an effect whose parameters need more is refused.
    public var maxUniformBlockSize: Int { Int(limits.maxUniformBufferRange) }

    /// Throws when a uniform block of `size` bytes exceeds the device's `maxUniformBufferRange`.
    func checkUniformBlock(size: Int) throws(VulkanError) {
        let limit = maxUniformBlockSize
        if size > limit { throw .uniformBlockTooLarge(bytes: size, limit: limit) }
    }

    // MARK: - Pipeline cache

    /// The pipeline for a fragment shader, compiled and created on first use.
    func pipeline(fragmentGLSL: String, fileName: String, textureCount: Int) throws(VulkanError) -> GraphicsPipeline {
        try cachedPipeline(PipelineKey(source: fragmentGLSL, textureCount: textureCount)) { () throws(VulkanError) in
            let vertex = try compiler.compile(FullScreenPipeline.vertexSource, stage: .vertex, fileName: "segue-fullscreen.vert")
            let fragment = try compiler.compile(fragmentGLSL, stage: .fragment, fileName: fileName)
            return try FullScreenPipeline.make(context: self, vertexSPIRV: vertex, fragmentSPIRV: fragment, textureCount: textureCount)
        }
    }

    /// The pipeline cached under `key`, made by `make` on first use (kept for the context's life).
    func cachedPipeline(_ key: PipelineKey, make: () throws(VulkanError) -> GraphicsPipeline) throws(VulkanError) -> GraphicsPipeline {
        lock.lock()
        if let p = pipelines[key] { lock.unlock(); return p }
        lock.unlock()
        let p = try make()
        lock.lock()
        defer { lock.unlock() }
        if let existing = pipelines[key] { p.destroy(device); return existing }
        pipelines[key] = p
        return p
    }

    /// Compiles GLSL without creating a pipeline (for validation).
    public func validateFragmentShader(_ glsl: String, fileName: String) throws(VulkanError) {
        _ = try compiler.compile(glsl, stage: .fragment, fileName: fileName)
    }
}

struct PipelineKey: Hashable {
    let source: String
    let textureCount: Int
    /// Distinguishes pipelines built from the same source with different fixed-function state.
    var variant: String = ""
}

/// C strings for Vulkan's `const char* const*` name lists, kept alive as long as the value.
final class CStringArray {
    private let buffer: UnsafeMutablePointer<UnsafePointer<CChar>?>
    /// Number of strings.
    let count: Int
    /// The pointer to pass (nil for an empty list).
    var pointer: UnsafePointer<UnsafePointer<CChar>?>? { count == 0 ? nil : UnsafePointer(buffer) }

    init(_ strings: [String]) {
        count = strings.count
        buffer = .allocate(capacity: max(count, 1))
        for (i, s) in strings.enumerated() { buffer[i] = UnsafePointer(strdup(s)) }
    }

    deinit {
        for i in 0..<count { free(UnsafeMutablePointer(mutating: buffer[i])) }
        buffer.deallocate()
    }
}
