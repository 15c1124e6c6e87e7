import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueVulkan

// What a C effect keeps for a built-in mesh on one image (`curtain`, `bulge`, …): its parameter
// values and one `MeshSceneRenderer` per frame size, drawn as `segue mesh` draws it.

/// Frames of a built-in mesh applied to one image (`curtain`, `bulge`, …) at any size.
final class MeshImageFrames {
    /// The device.
    let context: GPUContext
    /// The mesh's parameter values.
    private(set) var parameters: ParameterState
    private var renderers = SizeCache<MeshSceneRenderer>(capacity: SizeCache<MeshSceneRenderer>.sizesKept)

    /// Frames of the mesh effect `effect` on `context`.
    init(_ effect: Effect, context: GPUContext) {
        self.context = context
        parameters = ParameterState(effect: effect)
    }

    /// Sets a parameter from text.
    func set(_ name: String, to text: String) throws {
        _ = try parameters.set(name, to: text)
    }

    /// Renders `input` through the mesh into `out` (both laid out as `layout`).
    /// - Throws: `MeshError` (a parameter the mesh cannot take), `VulkanError`.
    func render(_ input: UnsafePointer<UInt8>, layout: FrameLayout, out: UnsafeMutablePointer<UInt8>) throws {
        let renderer = try renderers.renderer(
            for: layout, refill: { kept in try kept.replaceImages { _, memory in layout.premultiplied(from: input, into: memory) } },
            make: { try MeshSceneRenderer(from: layout.image(from: input), context: context, framesInFlight: 1) })
        let scene = try parameters.effect.meshScene(
            parameters: parameters.values,
            width: renderer.layerWidth, height: renderer.layerHeight)
        let image = try renderer.frame(mesh: scene.mesh, appearance: scene.appearance)
        image.pixels.withUnsafeBytes { layout.writeStraight($0, to: out) }
    }
}
