// `segue_transition_*`: a transition by name, its parameters and duration, and frames rendered
// from a caller's memory into a caller's memory.
import Foundation
import Segue

/// How a C caller's effect name is looked up: the one place that says which names
/// `segue_transition_create`, `segue_effect_create` and `segue_info_create` accept.
enum EffectLookup {
    /// What `segue_effect_create` renders.
    enum ImageProgram {
        /// A shader on one image (both of its textures the image).
        case shader(ResolvedEffect)
        /// A built-in mesh applied to one image.
        case mesh(Effect)
    }

    /// The effect `name` as a transition (a built-in, an xfade name, a `.glsl` file, or a
    /// stitchable `FILE.metal[:FUNCTION]` as its insertion transition), parameters at defaults.
    /// - Throws: `EffectLookupError`, `StitchableConfigurationError`, `CAPIError` for a mesh on one image.
    static func transition(_ name: String) throws -> ResolvedEffect {
        let resolved = try EffectRequest(effect: name).resolve()
        if let builder = resolved.effect.meshBuilder, !builder.isTransition {
            throw CAPIError("'\(name)' is a mesh effect on one image, not a transition: create it with segue_effect_create")
        }
        return resolved
    }

    /// The effect `name` on one image: a built-in mesh that is not a transition, or a shader
    /// (a stitchable function, a `.glsl` file, a built-in shader transition).
    /// - Throws: `EffectLookupError`, `StitchableConfigurationError`, `CAPIError` for a mesh transition.
    static func image(_ name: String) throws -> ImageProgram {
        if let mesh = MeshEffects.named(name) {
            guard !mesh.isTransition else {
                throw CAPIError("'\(name)' is a mesh transition between two images: create it with segue_transition_create")
            }
            return .mesh(mesh.effect)
        }
        return .shader(try ImageEffectRequest(effect: name).resolve())
    }
}

/// The object behind `segue_transition *`.
final class TransitionHandle {
    /// The frames and settings.
    let frames: TransitionFrames
    /// One thread at a time.
    let use = UseLock()

    /// The transition `name` on `context`.
    init(_ name: String, context: GPUContext) throws {
        frames = TransitionFrames(try EffectLookup.transition(name), context: context, setter: "segue_transition_set_param")
    }
}

// MARK: - C entry points

/// `segue_transition_create`.
@_cdecl("segue_transition_create")
public func segue_transition_create(_ context: OpaquePointer?, _ effect: UnsafePointer<CChar>?,
                                    _ error: UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer? {
    catchingErrors(error, failure: nil) {
        let owner = try object(context, "context", as: ContextHandle.self)
        return retainedHandle(try TransitionHandle(try string(effect, "effect"), context: owner.context))
    }
}

/// `segue_transition_set_param`.
@_cdecl("segue_transition_set_param")
public func segue_transition_set_param(_ transition: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?,
                                       _ error: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    catchingErrors(error, failure: -1) {
        let handle = try object(transition, "transition", as: TransitionHandle.self)
        let (name, value) = (try string(name, "parameter name"), try string(value, "parameter value"))
        try handle.use.exclusive("transition") { try handle.frames.set(name, to: value) }
        return 0
    }
}

/// `segue_transition_duration`.
@_cdecl("segue_transition_duration")
public func segue_transition_duration(_ transition: OpaquePointer?) -> Double {
    (try? object(transition, "transition", as: TransitionHandle.self))?.frames.duration ?? .nan
}

/// `segue_transition_set_duration`.
@_cdecl("segue_transition_set_duration")
public func segue_transition_set_duration(_ transition: OpaquePointer?, _ seconds: Double,
                                          _ error: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    catchingErrors(error, failure: -1) {
        let handle = try object(transition, "transition", as: TransitionHandle.self)
        try checkDuration(seconds)
        try handle.use.exclusive("transition") { handle.frames.duration = seconds }
        return 0
    }
}

/// `segue_transition_render`.
@_cdecl("segue_transition_render")
public func segue_transition_render(_ transition: OpaquePointer?, _ from: UnsafePointer<UInt8>?, _ to: UnsafePointer<UInt8>?,
                                    _ width: UInt32, _ height: UInt32, _ stride: UInt, _ progress: Double, _ time: Double,
                                    _ out: UnsafeMutablePointer<UInt8>?, _ error: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    catchingErrors(error, failure: -1) {
        let handle = try object(transition, "transition", as: TransitionHandle.self)
        guard let from else { throw CAPIError("from is NULL") }
        guard let to else { throw CAPIError("to is NULL") }
        guard let out else { throw CAPIError("out is NULL") }
        let layout = try FrameLayout(width: width, height: height, stride: stride)
        try checkProgress(progress, time: time)
        try handle.use.exclusive("transition") {
            try handle.frames.render(from: from, to: to, layout: layout, progress: progress, time: time, out: out)
        }
        return 0
    }
}

/// `segue_transition_destroy`.
@_cdecl("segue_transition_destroy")
public func segue_transition_destroy(_ transition: OpaquePointer?) {
    releaseHandle(transition, as: TransitionHandle.self)
}
