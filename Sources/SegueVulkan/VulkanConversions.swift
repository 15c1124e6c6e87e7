// Every mapping between Segue's Swift types and Vulkan's (and shaderc's) enums, flags, formats
// and result codes, in one place, in the spirit of wgpu-hal's `vulkan/conv.rs`. The rest of the
// layer names what it means in Swift terms and converts here; no `Vk*` type reaches a public
// signature.
import CSegueVulkan

// MARK: - Results and versions

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
