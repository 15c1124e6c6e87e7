// Small inputs and one-call renders that the render, concat and live tests share.
import Segue

/// A deterministic patterned image: distinct, non-symmetric colours per pixel.
public func pattern(_ w: Int, _ h: Int, seed: Int, scale: Double = 1) -> Image {
    Image(width: w, height: h, scale: scale) { x, y in
        let v = (x * 73 + y * 151 + seed * 97) % 256
        return Pixel(UInt8(v), UInt8((v * 7 + seed) % 256), UInt8(255 - v))
    }
}

/// Renders the effect `name` between `from` and `to` at one progress, on a fresh renderer.
public func render(
    _ name: String, from: Image, to: Image, progress: Double, time: Double? = nil, duration: Double = 1,
    parameters: [(name: String, value: String)] = []
) throws -> Image {
    let effect = try EffectCatalog.effect(name)
    let values = try effect.resolveParameters(parameters)
    let r = try TransitionRenderer(effect: effect, from: from, to: to, parameters: values, context: try TestGPU.context())
    return try r.frame(progress: progress, time: time ?? progress * duration, duration: duration)
}

/// One GPU context for the tests (the library keeps none of its own): created on first use with
/// the default configuration (preferred device, no disk cache), never changed.
public enum TestGPU {
    private static let made = Result { () throws(VulkanError) in try GPUContext() }

    /// The tests' context, or the error its creation threw.
    public static func context() throws -> GPUContext { try made.get() }
}
