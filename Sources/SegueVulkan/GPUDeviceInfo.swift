// A description of one Vulkan device, for listings and selection.

/// What kind of device a GPU is.
public enum GPUDeviceType: String, Sendable, Codable {
    case discrete = "discrete GPU", integrated = "integrated GPU", virtual = "virtual GPU", cpu = "CPU", other

    /// Selection preference: lower is preferred.
    var rank: Int {
        switch self {
        case .discrete: 0
        case .integrated: 1
        case .virtual: 2
        case .cpu: 3
        case .other: 4
        }
    }
}

/// One Vulkan device as `segue devices` lists it.
public struct GPUDeviceInfo: Sendable, Equatable, Codable {
    /// Position in the driver's enumeration (what `SEGUE_DEVICE=<index>` selects).
    public let index: Int
    /// The device name (`llvmpipe (LLVM 15.0.6, 256 bits)`, `NVIDIA H100 80GB HBM3`).
    public let name: String
    /// Discrete, integrated, CPU, …
    public let type: GPUDeviceType
    /// Driver name and version (`llvmpipe Mesa 22.3.6`).
    public let driver: String
    /// Vulkan version the device supports (`1.3.230`).
    public let apiVersion: String
    /// Whether Segue can use it (Vulkan 1.3 with a graphics queue).
    public let usable: Bool
}
