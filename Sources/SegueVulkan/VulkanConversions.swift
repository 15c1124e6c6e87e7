// Every mapping between Segue's Swift types and Vulkan's (and shaderc's) enums, flags, formats,
// layouts and result codes, in one place, in the spirit of wgpu-hal's `vulkan/conv.rs`. The rest
// of the layer says what it means in Swift terms (`ImageUsage`, `ImageLayout`, `PixelFormat`, …)
// and converts here; no `Vk*` type reaches a public signature. Fixed create-info constants that
// no Swift value chooses (structure types, triangle lists, one-time-submit command buffers) stay
// next to the structures they fill.
import CSegueVulkan

// MARK: - Results and versions

/// Throws for a failing VkResult: the one place Vulkan results are checked (and where tests
/// inject failures, see `VulkanFault`).
@inline(__always)
func check(_ result: VkResult, _ what: @autoclosure () -> String) throws(VulkanError) {
    var result = result
    if let fault = VulkanFault.injected, what().hasPrefix(fault.call) { result = VkResult(rawValue: fault.result) }
    if result == VK_SUCCESS { return }
    switch result {
    case VK_ERROR_OUT_OF_HOST_MEMORY, VK_ERROR_OUT_OF_DEVICE_MEMORY:
        throw .outOfMemory(what())
    case VK_ERROR_DEVICE_LOST:
        throw .deviceLost(work: nil)
    case VK_TIMEOUT:
        throw .gpuTimeout(seconds: .infinity, work: nil)
    case VK_ERROR_INCOMPATIBLE_DRIVER:
        throw .noDriver(detail: "\(what()) reported an incompatible driver")
    default:
        throw .call(what(), code: result.rawValue)
    }
}

/// A failure to report instead of a Vulkan call's real result, for tests of the paths that
/// only a broken GPU takes (a lost device, a shader that never ends). Task-local: it applies to
/// the calls made by the task that sets it (on its thread), so tests running beside it are not
/// touched.
package struct VulkanFault: Sendable {
    /// The call (a prefix of the name `check` is given, e.g. "vkWaitForFences").
    package var call: String
    /// The `VkResult` to report (e.g. `VK_ERROR_DEVICE_LOST.rawValue`).
    package var result: Int32

    /// A fault for `call`.
    package init(call: String, result: Int32) {
        self.call = call
        self.result = result
    }

    /// The fault in force, nil outside `$injected.withValue`.
    @TaskLocal package static var injected: VulkanFault?
}

/// Throws for a failing vkCreateInstance: no driver, or an incompatible one, is `.noDriver`.
func checkInstanceCreation(_ result: VkResult) throws(VulkanError) {
    if result == VK_ERROR_INCOMPATIBLE_DRIVER || result == VK_ERROR_INITIALIZATION_FAILED {
        throw .noDriver(detail: "vkCreateInstance returned \(result.rawValue)")
    }
    try check(result, "vkCreateInstance")
}

/// `VK_MAKE_API_VERSION(0, major, minor, 0)`; the C macro does not import into Swift.
func vkVersion(_ major: UInt32, _ minor: UInt32) -> UInt32 { (major << 22) | (minor << 12) }

/// "1.3.230" from a packed version.
func versionString(_ v: UInt32) -> String { "\(v >> 22 & 0x7f).\(v >> 12 & 0x3ff).\(v & 0xfff)" }

// MARK: - Strings

/// A String from a fixed-size C char array imported as a tuple.
func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}

// MARK: - Devices

extension GPUDeviceType {
    /// The Swift type of a Vulkan physical-device type.
    init(_ type: VkPhysicalDeviceType) {
        switch type {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: self = .discrete
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: self = .integrated
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: self = .virtual
        case VK_PHYSICAL_DEVICE_TYPE_CPU: self = .cpu
        default: self = .other
        }
    }
}

extension VkQueueFamilyProperties {
    /// Whether the family's queues run graphics work.
    var supportsGraphics: Bool { queueFlags & VK_QUEUE_GRAPHICS_BIT.rawValue != 0 }
}

// MARK: - Shaders

extension ShaderStage {
    /// shaderc's kind for the stage.
    var shadercKind: shaderc_shader_kind {
        switch self {
        case .vertex: shaderc_glsl_vertex_shader
        case .fragment: shaderc_glsl_fragment_shader
        }
    }

    /// Vulkan's stage bit.
    var vk: VkShaderStageFlagBits {
        switch self {
        case .vertex: VK_SHADER_STAGE_VERTEX_BIT
        case .fragment: VK_SHADER_STAGE_FRAGMENT_BIT
        }
    }
}

/// Shader stages that read a binding.
struct ShaderStages: OptionSet {
    let rawValue: VkShaderStageFlags
    static let vertex = ShaderStages(rawValue: VK_SHADER_STAGE_VERTEX_BIT.rawValue)
    static let fragment = ShaderStages(rawValue: VK_SHADER_STAGE_FRAGMENT_BIT.rawValue)

    /// Vulkan's stage flags.
    var vk: VkShaderStageFlags { rawValue }
}

extension Bool {
    /// VK_TRUE or VK_FALSE.
    var vk: VkBool32 { VkBool32(self ? VK_TRUE : VK_FALSE) }
}

// MARK: - Formats

/// The image formats Segue renders and samples.
enum PixelFormat {
    /// RGBA, 8 bits a channel, stored as given (premultiplied, sRGB-encoded values).
    case rgba8Unorm
    /// 32-bit float depth.
    case depth32Float

    var vk: VkFormat {
        switch self {
        case .rgba8Unorm: VK_FORMAT_R8G8B8A8_UNORM
        case .depth32Float: VK_FORMAT_D32_SFLOAT
        }
    }

    /// The one mip level and layer of an image of this format, with its aspect.
    var subresourceRange: VkImageSubresourceRange {
        VkImageSubresourceRange(aspectMask: aspect, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0, layerCount: 1)
    }

    /// The subresource layers of a copy from or to an image of this format.
    var subresourceLayers: VkImageSubresourceLayers {
        VkImageSubresourceLayers(aspectMask: aspect, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
    }

    private var aspect: VkImageAspectFlags {
        switch self {
        case .rgba8Unorm: VK_IMAGE_ASPECT_COLOR_BIT.rawValue
        case .depth32Float: VK_IMAGE_ASPECT_DEPTH_BIT.rawValue
        }
    }
}

/// The formats of vertex attributes.
enum VertexFormat {
    case float, float2, float3

    var vk: VkFormat {
        switch self {
        case .float: VK_FORMAT_R32_SFLOAT
        case .float2: VK_FORMAT_R32G32_SFLOAT
        case .float3: VK_FORMAT_R32G32B32_SFLOAT
        }
    }
}

/// Rasterization samples per pixel.
enum SampleCount: Int {
    case one = 1, four = 4

    var vk: VkSampleCountFlagBits {
        switch self {
        case .one: VK_SAMPLE_COUNT_1_BIT
        case .four: VK_SAMPLE_COUNT_4_BIT
        }
    }
}

// MARK: - Usage and memory

// The option sets below hold Vulkan's own bits (a member is declared with the bits it stands
// for), so converting one is reading its raw value.

/// What a buffer is used for.
struct BufferUsage: OptionSet {
    let rawValue: VkBufferUsageFlags
    static let uniform = BufferUsage(rawValue: VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT.rawValue)
    static let vertex = BufferUsage(rawValue: VK_BUFFER_USAGE_VERTEX_BUFFER_BIT.rawValue)
    static let index = BufferUsage(rawValue: VK_BUFFER_USAGE_INDEX_BUFFER_BIT.rawValue)
    static let transferSource = BufferUsage(rawValue: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue)
    static let transferDestination = BufferUsage(rawValue: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue)

    var vk: VkBufferUsageFlags { rawValue }
}

/// What an image is used for.
struct ImageUsage: OptionSet {
    let rawValue: VkImageUsageFlags
    static let sampled = ImageUsage(rawValue: VK_IMAGE_USAGE_SAMPLED_BIT.rawValue)
    static let colorAttachment = ImageUsage(rawValue: VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue)
    static let depthAttachment = ImageUsage(rawValue: VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue)
    static let transferSource = ImageUsage(rawValue: VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue)
    static let transferDestination = ImageUsage(rawValue: VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue)

    var vk: VkImageUsageFlags { rawValue }
}

/// Properties of a memory type.
struct MemoryProperties: OptionSet {
    let rawValue: VkMemoryPropertyFlags
    static let deviceLocal = MemoryProperties(rawValue: VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue)
    static let hostVisible = MemoryProperties(rawValue: VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue)
    static let hostCoherent = MemoryProperties(rawValue: VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue)
    static let hostCached = MemoryProperties(rawValue: VK_MEMORY_PROPERTY_HOST_CACHED_BIT.rawValue)

    var vk: VkMemoryPropertyFlags { rawValue }

    /// The properties Segue knows among Vulkan's flags.
    init(vk flags: VkMemoryPropertyFlags) {
        self = MemoryProperties(rawValue: flags).intersection([.deviceLocal, .hostVisible, .hostCoherent, .hostCached])
    }

    init(rawValue: VkMemoryPropertyFlags) { self.rawValue = rawValue }
}

// MARK: - Layouts, stages and access

/// The layouts Segue's images pass through.
enum ImageLayout {
    case undefined, transferSource, transferDestination, shaderReadOnly, colorAttachment, depthAttachment

    var vk: VkImageLayout {
        switch self {
        case .undefined: VK_IMAGE_LAYOUT_UNDEFINED
        case .transferSource: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
        case .transferDestination: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL
        case .shaderReadOnly: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
        case .colorAttachment: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
        case .depthAttachment: VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL
        }
    }
}

/// Pipeline stages in barriers (empty: none).
struct PipelineStages: OptionSet {
    let rawValue: VkPipelineStageFlags2
    static let transfer = PipelineStages(rawValue: VK_PIPELINE_STAGE_2_TRANSFER_BIT)
    static let host = PipelineStages(rawValue: VK_PIPELINE_STAGE_2_HOST_BIT)
    static let vertexInput = PipelineStages(rawValue: VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT)
    static let fragmentShader = PipelineStages(rawValue: VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT)
    static let fragmentTests = PipelineStages(
        rawValue: VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT)
    static let colorAttachmentOutput = PipelineStages(rawValue: VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT)

    var vk: VkPipelineStageFlags2 { rawValue }
}

/// Memory accesses in barriers (empty: none).
struct MemoryAccess: OptionSet {
    let rawValue: VkAccessFlags2
    static let transferRead = MemoryAccess(rawValue: VK_ACCESS_2_TRANSFER_READ_BIT)
    static let transferWrite = MemoryAccess(rawValue: VK_ACCESS_2_TRANSFER_WRITE_BIT)
    static let hostRead = MemoryAccess(rawValue: VK_ACCESS_2_HOST_READ_BIT)
    static let shaderSampledRead = MemoryAccess(rawValue: VK_ACCESS_2_SHADER_SAMPLED_READ_BIT)
    static let colorAttachmentRead = MemoryAccess(rawValue: VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT)
    static let colorAttachmentWrite = MemoryAccess(rawValue: VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT)
    static let depthAttachmentRead = MemoryAccess(rawValue: VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT)
    static let depthAttachmentWrite = MemoryAccess(rawValue: VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT)
    static let vertexAttributeRead = MemoryAccess(rawValue: VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT)
    static let indexRead = MemoryAccess(rawValue: VK_ACCESS_2_INDEX_READ_BIT)

    var vk: VkAccessFlags2 { rawValue }
}

// MARK: - Descriptors, blending, attachments

/// The kinds of descriptor Segue's pipelines bind.
enum DescriptorKind {
    case uniformBuffer, sampledTexture

    var vk: VkDescriptorType {
        switch self {
        case .uniformBuffer: VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
        case .sampledTexture: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
        }
    }
}

/// How a pipeline writes its colour attachment.
enum BlendMode {
    /// The fragment replaces the pixel.
    case replace
    /// Premultiplied-alpha "over": ONE, ONE_MINUS_SRC_ALPHA for colour and alpha.
    case premultipliedOver

    var vk: VkPipelineColorBlendAttachmentState {
        var a = VkPipelineColorBlendAttachmentState()
        a.colorWriteMask =
            VK_COLOR_COMPONENT_R_BIT.rawValue | VK_COLOR_COMPONENT_G_BIT.rawValue
            | VK_COLOR_COMPONENT_B_BIT.rawValue | VK_COLOR_COMPONENT_A_BIT.rawValue
        if self == .premultipliedOver {
            a.blendEnable = true.vk
            a.srcColorBlendFactor = VK_BLEND_FACTOR_ONE
            a.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA
            a.colorBlendOp = VK_BLEND_OP_ADD
            a.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE
            a.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA
            a.alphaBlendOp = VK_BLEND_OP_ADD
        }
        return a
    }
}

/// What an attachment holds when rendering begins.
enum LoadAction {
    case clear, dontCare

    var vk: VkAttachmentLoadOp { self == .clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_DONT_CARE }
}

/// Whether an attachment's contents are kept when rendering ends.
enum StoreAction {
    case store, dontCare

    var vk: VkAttachmentStoreOp { self == .store ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE }
}
