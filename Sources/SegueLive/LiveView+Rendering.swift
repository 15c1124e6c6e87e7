import SegueCore
import SegueRender
import SegueShaders

// What the live windows render their transitions with.

extension LiveView {
    /// A renderer of `effect` from `from` to `to` at the window's size in pixels, presenting into
    /// the window (one frame in flight, no readback).
    /// - Throws: `VulkanError`, `RenderError`.
    func transitionRenderer(_ effect: ResolvedEffect, from: Image, to: Image) throws -> TransitionRenderer {
        let size = pixelSize
        return try TransitionRenderer(
            effect: effect.effect, from: from, to: to, width: size.width, height: size.height,
            parameters: effect.parameters, textures: effect.textures, context: context,
            framesInFlight: 1, readback: false)
    }
}
