import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueVulkan

// What a C transition or shader effect keeps between calls: the effect, the parameter values a
// caller set, the duration, and one `TransitionRenderer` per frame size (a few sizes kept). Each
// call uploads the caller's frames into the renderer's textures in place and reads the result
// back into the caller's memory; parameters reach the renderer as per-frame overrides, so setting
// one costs nothing on the GPU (only a texture parameter rebuilds the renderers).

/// Frames of a shader or mesh transition, or of a shader effect on one image (both textures the
/// same image), at any size.
final class TransitionFrames {
    /// The device.
    let context: GPUContext
    /// The effect's parameter values.
    private(set) var parameters: ParameterState
    /// Seconds: the shader's `duration` uniform.
    var duration: Double
    /// The name of the C function that sets parameters, for messages.
    private let setter: String
    private var renderers = SizeCache<TransitionRenderer>(capacity: SizeCache<TransitionRenderer>.sizesKept)

    /// Frames of `resolved` on `context`.
    init(_ resolved: ResolvedEffect, context: GPUContext, setter: String) {
        self.context = context
        parameters = ParameterState(effect: resolved.effect, values: resolved.parameters)
        duration = resolved.effect.defaultDuration
        self.setter = setter
    }

    /// Sets a parameter from text (see `ParameterState.set`).
    func set(_ name: String, to text: String) throws {
        if try parameters.set(name, to: text) { renderers.removeAll() }
    }

    /// Renders the frame at `progress` and `time` of `from` → `to` into `out`, all laid out as
    /// `layout` (straight alpha). `out` may alias an input: both are read before it is written.
    /// - Throws: `CAPIError` (a missing texture), `RenderError`, `VulkanError`, `MeshError`.
    func render(
        from: UnsafePointer<UInt8>, to: UnsafePointer<UInt8>, layout: FrameLayout,
        progress: Double, time: Double, out: UnsafeMutablePointer<UInt8>
    ) throws {
        try parameters.checkTextures(setter: setter)
        let renderer = try renderers.renderer(
            for: layout,
            refill: { kept in try kept.replaceImages { i, memory in layout.premultiplied(from: i == 0 ? from : to, into: memory) } },
            make: {
                try TransitionRenderer(
                    effect: parameters.effect, from: layout.image(from: from), to: layout.image(from: to),
                    parameters: parameters.values, textures: parameters.textures,
                    context: context, framesInFlight: 1)
            })
        try renderer.frame(progress: progress, time: time, duration: duration, overrides: parameters.values) { pixels in
            layout.writeStraight(pixels, to: out)
        }
    }
}
