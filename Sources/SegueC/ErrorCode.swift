// `segue_code`: what kind of failure an error is, for hosts that act on it (retry with a new
// context, tell the user the effect name is wrong, …). Every Swift error the C API can see maps
// onto one code here; the message is unchanged.
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueMetal
import SegueRender
import SegueShaders
import SegueVulkan

/// The values of `segue_code` in segue.h.
enum ErrorCode: Int32, CaseIterable {
    case ok = 0
    case invalidArgument = 1
    case unknownEffect = 2
    case badEffectFile = 3
    case compile = 4
    case unsupported = 5
    case outOfMemory = 6
    case deviceLost = 7
    case noDevice = 8
    case io = 9
    case busy = 10
    case forked = 11
    case `internal` = 12

    /// The code of any error the C API catches.
    init(of error: Error) {
        switch error {
        case let e as CAPIError: self = e.code
        case let e as EffectLookupError:
            if case .unknown = e { self = .unknownEffect } else { self = .badEffectFile }
        case is ShaderSourceError: self = .badEffectFile
        case let e as VulkanError: self = Self(e)
        case let e as MediaError: self = Self(e)
        case let e as RenderError:
            switch e {
            case .notATransition, .notAnImageEffect: self = .unsupported
            default: self = .invalidArgument
            }
        case is ParameterError, is StitchableConfigurationError, is ImageSizeError, is ImageScaleError, is MeshError, is AnimationError:
            self = .invalidArgument
        default: self = .internal
        }
    }

    private init(_ error: VulkanError) {
        switch error {
        case .noDriver, .deviceNotFound: self = .noDevice
        case .unsupportedDevice, .uniformBlockTooLarge: self = .unsupported
        case .shaderCompilation, .shaderTooLarge: self = .compile
        case .outOfMemory: self = .outOfMemory
        case .deviceLost, .gpuTimeout: self = .deviceLost
        case .call: self = .internal
        case .refusedAfterFork: self = .forked
        }
    }

    private init(_ error: MediaError) {
        switch error {
        case .imageTooLarge, .invalidScale: self = .invalidArgument
        default: self = .io
        }
    }
}

// MARK: - C entry point

/// `segue_error_code`: the error's code, `SEGUE_OK` for NULL.
@_cdecl("segue_error_code")
public func segue_error_code(_ error: OpaquePointer?) -> Int32 {
    guard let error else { return ErrorCode.ok.rawValue }
    return Unmanaged<ErrorBox>.fromOpaque(UnsafeRawPointer(error)).takeUnretainedValue().code.rawValue
}
