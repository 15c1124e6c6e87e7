import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueVulkan

// Which names the C API accepts for transitions and for effects on one image, and what each
// becomes: the one place `segue_transition_create`, `segue_effect_create` and `segue_info_create`
// look effects up.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            throw CAPIError(
                "'\(name)' is a mesh effect on one image, not a transition: create it with segue_effect_create", code: .unsupported)
        }
        return resolved
    }

    /// The effect `name` on one image: a built-in mesh that is not a transition, or a shader
    /// (a stitchable function, a `.glsl` file, a built-in shader transition).
    /// - Throws: `EffectLookupError`, `StitchableConfigurationError`, `CAPIError` for a mesh transition.
    static func image(_ name: String) throws -> ImageProgram {
        if let mesh = MeshEffects.named(name) {
            guard !mesh.isTransition else {
                throw CAPIError(
                    "'\(name)' is a mesh transition between two images: create it with segue_transition_create", code: .unsupported)
            }
            return .mesh(mesh.effect)
        }
        return .shader(try ImageEffectRequest(effect: name).resolve())
    }
}
