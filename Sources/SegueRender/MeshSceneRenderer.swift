import SegueCore
import SegueMath
import SegueMedia
import SegueShaders
import SegueVulkan

// Renders meshes (MeshTransform + MeshAppearance) over one or two images with the Vulkan mesh
// pipeline: subdivision and geometry on the CPU, projection, depth and lighting on the GPU.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders mesh scenes of a layer the size of its `from` image.
public final class MeshSceneRenderer {
    /// Output width in pixels.
    public let width: Int
    /// Output height in pixels.
    public let height: Int
    /// Pixels per point (the `from` image's scale).
    public let scale: Double
    /// The layer's size in points (`width / scale` × `height / scale`): the space meshes live in.
    public var layerWidth: Double { Double(width) / scale }
    /// The layer's height in points.
    public var layerHeight: Double { Double(height) / scale }

    private let renderer: MeshRenderer
    private let textures: [GPUTexture]

    /// Uploads the textures: `from`, and `to` for meshes with faces of both textures (`from`
    /// serves both when `to` is nil).
    /// - Parameters:
    ///   - width, height: output size in pixels; nil takes `from`'s size.
    ///   - antialiasing: 4× multisampling of the mesh edges (Core Animation's
    ///     `allowsEdgeAntialiasing`; off by default as there).
    public init(
        from: Image, to: Image? = nil, width: Int? = nil, height: Int? = nil, context: GPUContext,
        framesInFlight: Int = 3, antialiasing: Bool = false, readback: Bool = true
    ) throws {
        self.width = width ?? from.width
        self.height = height ?? from.height
        try Image.validateSize(width: self.width, height: self.height)
        scale = from.scale
        var textures = [try GPUTexture(context: context, image: from)]
        if let to { textures.append(try GPUTexture(context: context, image: to)) }
        self.textures = textures
        renderer = try MeshRenderer(
            context: context, width: self.width, height: self.height, textures: textures,
            options: MeshRenderer.Options(
                framesInFlight: framesInFlight, antialiasing: antialiasing,
                readback: readback))
    }

    /// Replaces the pixels of `from` and `to` (each `width × height × 4` premultiplied RGBA8
    /// bytes, the sizes the renderer was created with), e.g. the next frames of two videos.
    /// Call between frames, not during `render`.
    public func replaceImages(from: UnsafeRawBufferPointer, to: UnsafeRawBufferPointer?) throws {
        if let to, textures.count > 1 {
            try GPUTexture.replace(textures, pixels: [from, to])
        } else {
            try textures[0].replace(pixels: from)
        }
    }

    /// Replaces the images' pixels in place: `fill(i, memory)` writes image i's (0 `from`, 1
    /// `to`) premultiplied RGBA8 straight into the GPU's staging memory; one upload for both.
    public func replaceImages(fill: (Int, UnsafeMutableRawBufferPointer) -> Void) throws {
        try GPUTexture.replace(textures, fill: fill)
    }

    /// The draw for a mesh: validated appearance, subdivided mesh, geometry in points.
    /// - Throws: `MeshError` for an invalid appearance, or a layer of no finite size in points (an
    ///   absurd scale).
    public func draw(mesh: MeshTransform, appearance: MeshAppearance) throws -> MeshDraw {
        try MeshGeometry.checkLayerSize(width: layerWidth, height: layerHeight)
        try appearance.validate()
        let resolved = appearance.subdivisionSteps > 0 ? try mesh.subdivided(steps: appearance.subdivisionSteps) : mesh
        return MeshDraw(
            layerWidth: layerWidth, layerHeight: layerHeight, transform: appearance.supplementaryTransform,
            lightDirection: appearance.lightDirection, diffuseLightFactor: appearance.diffuseLightFactor,
            geometry: MeshGeometry(mesh: resolved, width: layerWidth, height: layerHeight))
    }

    /// One image of `mesh`.
    public func frame(mesh: MeshTransform, appearance: MeshAppearance = .default) throws -> Image {
        let pixels = try renderer.renderFrame(draw(mesh: mesh, appearance: appearance))
        return Image(width: width, height: height, scale: scale, premultipliedRGBA: pixels)
    }

    /// Renders one image of `mesh` for a presenter (create the renderer with `readback: false`).
    public func presentationSource(mesh: MeshTransform, appearance: MeshAppearance = .default) throws -> PresentationSource {
        try renderer.renderForPresentation(draw(mesh: mesh, appearance: appearance))
    }

    /// Renders `count` frames, frame i showing `scene(i)`; meshes are uploaded into each frame's
    /// own buffers, so they may change every frame without stalling the frames in flight.
    public func render(
        count: Int, scene: (Int) throws -> (mesh: MeshTransform, appearance: MeshAppearance),
        consume: (Int, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try renderer.render(
            count: count,
            draw: { i in
                let s = try scene(i)
                return try draw(mesh: s.mesh, appearance: s.appearance)
            }, consume: consume)
    }

    /// Renders `count` frames into `sink` (cancelled on error), calling `progress` after each.
    public func render(
        count: Int, scene: (Int) throws -> (mesh: MeshTransform, appearance: MeshAppearance),
        to sink: FrameSink, progress: (Int) -> Void = { _ in }
    ) throws {
        try writeFrames(into: sink, progress: progress) { consume in try render(count: count, scene: scene, consume: consume) }
    }
}
