// The Vulkan layer's one error type, and the mapping of VkResult codes onto it.
import SegueMath
import CSegueVulkan

/// What went wrong on the GPU side, with a message a user can act on.
public enum VulkanError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// No Vulkan driver (ICD) answered.
    case noDriver(detail: String)
    /// `SEGUE_DEVICE` / `--device` matched no device.
    case deviceNotFound(selector: String, available: [String])
    /// The device lacks something Segue needs (Vulkan 1.3, a graphics queue, a format).
    case unsupportedDevice(String)
    /// GLSL failed to compile; `log` carries the compiler's `file:line: error` lines.
    case shaderCompilation(file: String, log: String)
    /// The device or host ran out of memory.
    case outOfMemory(String)
    /// The device was lost (driver crash or reset).
    case deviceLost
    /// Any other failing call, with the VkResult code.
    case call(String, code: Int32)

    public var description: String {
        switch self {
        case let .noDriver(detail):
            return "no Vulkan driver found (\(detail)); install a driver, e.g. the Debian package 'mesa-vulkan-drivers' for the CPU renderer lavapipe"
        case let .deviceNotFound(selector, available):
            return "no Vulkan device matches '\(selector)'; available: \(available.isEmpty ? "none" : available.joined(separator: ", "))"
        case let .unsupportedDevice(why):
            return "the Vulkan device cannot run Segue: \(why)"
        case let .shaderCompilation(file, log):
            return "shader '\(file)' does not compile:\n\(log)"
        case let .outOfMemory(what):
            return "out of memory while \(what)"
        case .deviceLost:
            return "the Vulkan device was lost (driver reset or crash)"
        case let .call(what, code):
            return "Vulkan call \(what) failed (VkResult \(code))"
        }
    }
}

/// Throws for a failing VkResult.
@inline(__always)
func check(_ result: VkResult, _ what: @autoclosure () -> String) throws(VulkanError) {
    if result == VK_SUCCESS { return }
    switch result {
    case VK_ERROR_OUT_OF_HOST_MEMORY, VK_ERROR_OUT_OF_DEVICE_MEMORY:
        throw .outOfMemory(what())
    case VK_ERROR_DEVICE_LOST:
        throw .deviceLost
    case VK_ERROR_INCOMPATIBLE_DRIVER:
        throw .noDriver(detail: "\(what()) reported an incompatible driver")
    default:
        throw .call(what(), code: result.rawValue)
    }
}

/// `VK_MAKE_API_VERSION(0, major, minor, 0)`; the C macro does not import into Swift.
func vkVersion(_ major: UInt32, _ minor: UInt32) -> UInt32 { (major << 22) | (minor << 12) }

/// "1.3.230" from a packed version.
func versionString(_ v: UInt32) -> String { "\(v >> 22 & 0x7f).\(v >> 12 & 0x3ff).\(v & 0xfff)" }
