// The Vulkan layer's one error type (VkResult codes map onto it in VulkanConversions.swift).
import SegueMath
import SegueSystem

/// What went wrong on the GPU side, with a message a user can act on.
public enum VulkanError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// No Vulkan driver (ICD) answered.
    case noDriver(detail: String)
    /// The device selector matched no device (an all-digits selector is an index only).
    case deviceNotFound(selector: String, available: [String])
    /// The device lacks something Segue needs (Vulkan 1.3, a graphics queue, a format).
    case unsupportedDevice(String)
    /// GLSL failed to compile; `log` carries the compiler's `file:line: error` lines.
    case shaderCompilation(file: String, log: String)
    /// A shader declares more local or global (private) memory than Segue allows: `detail`
    /// names the size and the limit.
    case shaderTooLarge(file: String, detail: String)
    /// An effect's uniform block is larger than the device can bind. (`indirect`: with an
    /// inline `(Int, Int)` payload, Swift 6.3 debug builds crash when this case is thrown
    /// through `throws(VulkanError)` under swift-testing's throw hook.)
    indirect case uniformBlockTooLarge(bytes: Int, limit: Int)
    /// The device or host ran out of memory.
    case outOfMemory(String)
    /// The device was lost (a driver crash or reset, a shader that ran too long); `work` names
    /// what was rendering (an effect), nil when unknown. The context cannot be used again.
    indirect case deviceLost(work: String?)
    /// The GPU did not finish within the context's `gpuTimeout` (`seconds`); `work` as for
    /// `deviceLost`. The context cannot be used again.
    indirect case gpuTimeout(seconds: Double, work: String?)
    /// Any other failing call, with the VkResult code.
    case call(String, code: Int32)
    /// A device refused to a child made by fork() while its parent had contexts open: some
    /// drivers (NVIDIA's) open none in such a child.
    case refusedAfterFork(ForkRefusal)

    public var description: String {
        switch self {
        case let .noDriver(detail):
            return
                "no Vulkan driver found (\(detail)); install a driver, e.g. the Debian package 'mesa-vulkan-drivers' for the CPU renderer lavapipe"
        case let .deviceNotFound(selector, available):
            let list = available.isEmpty ? "none" : available.joined(separator: ", ")
            if !selector.isEmpty, selector.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                return
                    "no Vulkan device has the index \(selector) (available: \(list)); choose one of these indices or part of a device name"
            }
            return "no Vulkan device name contains '\(selector)' (available: \(list)); choose a device by its index or part of its name"
        case let .unsupportedDevice(why):
            return "the Vulkan device cannot run Segue: \(why)"
        case let .shaderCompilation(file, log):
            return "shader '\(file)' does not compile:\n\(log)"
        case let .shaderTooLarge(file, detail):
            return "shader '\(file)' declares \(detail); make its arrays smaller"
        case let .uniformBlockTooLarge(bytes, limit):
            return
                "the effect's parameters take \(bytes) bytes, more than this device's limit of \(limit) bytes for a uniform block (maxUniformBufferRange); declare fewer or smaller parameters"
        case let .outOfMemory(what):
            return "out of memory while \(what)"
        case let .deviceLost(work):
            return "the Vulkan device was lost\(work.map { " while rendering \($0)" } ?? "") (a driver reset or crash, or a shader "
                + "that runs too long); this GPU context cannot be used again: create a new one"
        case let .gpuTimeout(seconds, work):
            let limit = !seconds.isFinite ? " in time" : " within \(String(exactNumber: seconds)) s"
            return "the GPU did not finish\(work.map { " rendering \($0)" } ?? "")\(limit) (a shader that runs too long or never ends?); "
                + "this GPU context cannot be used again: create a new one (the limit is the context's gpuTimeout, SEGUE_GPU_TIMEOUT in seconds)"
        case let .call(what, code):
            return "Vulkan call \(what) failed (VkResult \(code))"
        case let .refusedAfterFork(r):
            return "could not open a GPU context in process \(r.process), a child made by fork() while process \(r.parent) had "
                + "\(r.open == 1 ? "a context" : "\(r.open) contexts") open (\(r.refusal)): this Vulkan driver opens no device in a child "
                + "forked from a process that holds one (NVIDIA's does not); create contexts only after forking, or start the "
                + "child with exec (posix_spawn; Python's multiprocessing 'spawn' or 'forkserver' start methods)"
        }
    }
}

extension VulkanError {
    /// Whether the error leaves the context unusable (a lost device, a wait that timed out).
    public var breaksContext: Bool {
        switch self {
        case .deviceLost, .gpuTimeout: true
        default: false
        }
    }

    /// The error with `work` (what was rendering, e.g. an effect's quoted name) named, when it
    /// is about the GPU's work and names none yet.
    public func naming(_ work: String?) -> VulkanError {
        switch self {
        case .deviceLost(nil): .deviceLost(work: work)
        case let .gpuTimeout(seconds, nil): .gpuTimeout(seconds: seconds, work: work)
        default: self
        }
    }
}

/// What `VulkanError.refusedAfterFork` tells: a failing call in a child made by fork() while its
/// parent had contexts open.
public struct ForkRefusal: Sendable, Equatable {
    /// The child.
    public let process: Int32
    /// The process it was forked from.
    public let parent: Int32
    /// The contexts the parent had open.
    public let open: Int
    /// The failing call's message.
    public let refusal: String
}
