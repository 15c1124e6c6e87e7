import SegueCore
import SegueMath
import SegueMedia
import SegueShaders
import SegueVulkan

// Renders frames of a full-screen effect between two images on the GPU.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors of the high-level renderer.
public enum RenderError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// The effect declares a texture that was not given.
    case missingTexture(name: String, effect: String)
    /// A texture was given for a name the effect does not declare.
    case unknownTexture(name: String, effect: String, declared: [String])
    /// A duration, fps, time or progress that is NaN, infinite or out of range.
    case invalidValue(String)
    /// A setting (`frames`, `runs`, `scale`, `fps`) outside what it `allowed` ("from 2 to 1000",
    /// "in (0, 4]"); a command line words it as its flag.
    case outOfRange(setting: String, allowed: String, value: String)
    /// A mesh effect that is not a transition (an image is rendered through it instead).
    case notATransition(effect: String)
    /// A mesh effect given where an effect on one image's pixels was expected.
    case notAnImageEffect(effect: String)

    public var description: String {
        switch self {
        case let .missingTexture(name, effect):
            "effect '\(effect)' needs the texture '\(name)', which was not given"
        case let .unknownTexture(name, effect, declared):
            "effect '\(effect)' has no texture '\(name)'" + (declared.isEmpty ? "" : " (it declares: \(declared.joined(separator: ", ")))")
        case let .invalidValue(what):
            what
        case let .outOfRange(setting, allowed, value):
            "\(setting) must be \(allowed), got \(value)"
        case let .notATransition(effect):
            "'\(effect)' is a mesh effect, not a transition"
        case let .notAnImageEffect(effect):
            "'\(effect)' is a mesh effect, not an effect on an image's pixels"
        }
    }
}

/// Renders one effect between `from` and `to` at one output size.
public final class TransitionRenderer {
    /// The effect being rendered.
    public let effect: Effect
    /// Output width in pixels.
    public let width: Int
    /// Output height in pixels.
    public let height: Int
    /// Pixels per point of the output (the `from` image's scale).
    public let scale: Double
    /// Resolved parameter values.
    public let parameters: [String: ParameterValue]

    /// How frames are drawn: a full-screen shader (whose per-frame uniforms start from `base`,
    /// the fields fixed for the renderer's life), or the mesh pipeline for mesh transitions.
    private enum Backend {
        case fullScreen(FrameRenderer, layout: UniformLayout, base: FrameUniforms, textures: [GPUTexture])
        case mesh(MeshSceneRenderer)
    }

    private let backend: Backend
    /// The device: a failure it notes is named after this renderer's effect.
    private let context: GPUContext

    /// Prepares the GPU side: compiles the effect (or reuses the cached pipeline) and uploads
    /// the textures.
    /// - Parameters:
    ///   - width, height: output size in pixels; nil takes `from`'s size.
    ///   - resize: how inputs of another aspect ratio are fitted.
    ///   - parameters: values for the effect's parameters; nil entries take the defaults.
    ///   - textures: images for the effect's `sampler2D` parameters.
    ///   - readback: false skips copying frames to the host (benchmarks).
    public init(
        effect: Effect, from: Image, to: Image, width: Int? = nil, height: Int? = nil,
        resize: ResizeMode = .cover, parameters: [String: ParameterValue] = [:],
        textures: [String: Image] = [:], context: GPUContext,
        framesInFlight: Int = 3, readback: Bool = true
    ) throws {
        self.effect = effect
        self.context = context
        self.width = width ?? from.width
        self.height = height ?? from.height
        try Image.validateSize(width: self.width, height: self.height)
        try context.checkUsable()
        self.scale = from.scale
        self.parameters = effect.values(overriding: parameters)

        if let builder = effect.meshBuilder, !builder.isTransition { throw RenderError.notATransition(effect: effect.name) }
        try effect.checkTextures(textures.keys)
        if effect.meshBuilder != nil {
            backend = .mesh(
                try MeshSceneRenderer(
                    from: from, to: to, width: self.width, height: self.height,
                    context: context, framesInFlight: framesInFlight, readback: readback))
            return
        }

        let fromFit = resize.textureScale(
            imageWidth: from.width, imageHeight: from.height, outputWidth: self.width, outputHeight: self.height)
        let toFit = resize.textureScale(imageWidth: to.width, imageHeight: to.height, outputWidth: self.width, outputHeight: self.height)
        // As the uniform block holds them (Float): when both are 1 the shader's resize branch is dead.
        let identityFit = [fromFit.x, fromFit.y, toFit.x, toFit.y].allSatisfy { Float($0) == 1 }
        let texelAligned =
            identityFit && [from.width, to.width] == [self.width, self.width] && [from.height, to.height] == [self.height, self.height]
        // Any source that is not built in reaches shaderc bounded (files are checked when parsed;
        // this covers an Effect made in code). Metal-translated sources are bounded by their front end.
        if effect.kind == .fullScreen, effect.source != .builtIn, let glsl = effect.glsl {
            try GLSLSourceLimits.check(glsl, file: effect.source.label)
        }
        let shader = ShaderTemplate.fragmentShader(for: effect, identityFit: identityFit, texelAligned: texelAligned)
        do {
            var gpuTextures = [try GPUTexture(context: context, image: from), try GPUTexture(context: context, image: to)]
            for name in shader.extraTextures {
                guard let image = textures[name] else { throw RenderError.missingTexture(name: name, effect: effect.name) }
                gpuTextures.append(try GPUTexture(context: context, image: image))
            }
            let base = FrameUniforms(
                progress: 0, time: 0, duration: 1, width: self.width, height: self.height, scale: scale,
                fromFit: fromFit, toFit: toFit,
                fromSize: (from.width, from.height), toSize: (to.width, to.height))
            let renderer = try FrameRenderer(
                context: context, fragmentGLSL: shader.glsl, fileName: shader.fileName,
                uniformSize: shader.layout.size, textures: gpuTextures, width: self.width, height: self.height,
                framesInFlight: framesInFlight, readback: readback)
            backend = .fullScreen(renderer, layout: shader.layout, base: base, textures: gpuTextures)
            renderer.work = effect.gpuWork
        } catch let error as VulkanError {
            throw context.naming(error, effect.gpuWork)
        }
    }

    /// Replaces the pixels of `from` and `to` with new ones of the sizes the renderer was created
    /// with (premultiplied RGBA8, rows top to bottom): the next frames of two moving clips. Call
    /// between frames, not during `render`.
    /// - Throws: `VulkanError`.
    public func replaceImages(from: UnsafeRawBufferPointer, to: UnsafeRawBufferPointer) throws {
        do {
            switch backend {
            case let .mesh(renderer): try renderer.replaceImages(from: from, to: to)
            case let .fullScreen(_, _, _, textures): try GPUTexture.replace(Array(textures.prefix(2)), pixels: [from, to])
            }
        } catch let error as VulkanError {
            throw context.naming(error, effect.gpuWork)
        }
    }

    /// Replaces the pixels of `from` and `to` in place: `fill(i, memory)` writes image i's (0
    /// `from`, 1 `to`) premultiplied RGBA8 of the sizes the renderer was created with straight
    /// into the GPU's staging memory (no intermediate copy), then one upload copies both. Call
    /// between frames, not during `render`.
    /// - Throws: `VulkanError`.
    public func replaceImages(fill: (Int, UnsafeMutableRawBufferPointer) -> Void) throws {
        do {
            switch backend {
            case let .mesh(renderer):
                try renderer.replaceImages(fill: fill)
            case let .fullScreen(_, _, _, textures):
                try GPUTexture.replace(Array(textures.prefix(2)), fill: fill)  // after them: the effect's own images
            }
        } catch let error as VulkanError {
            throw context.naming(error, effect.gpuWork)
        }
    }

    /// The parameter values of one frame: the renderer's, with `overrides` (keyframes) on top.
    private func values(with overrides: [String: ParameterValue]) -> [String: ParameterValue] {
        overrides.isEmpty ? parameters : parameters.merging(overrides) { $1 }
    }

    /// The uniform block for one frame of a full-screen effect; `overrides` replace parameter
    /// values for this frame (keyframed parameters).
    /// - Precondition: the effect is not a mesh transition (those have no uniform block).
    public func uniformBytes(
        progress: Double, time: Double, duration: Double,
        overrides: [String: ParameterValue] = [:]
    ) -> [UInt8] {
        guard case let .fullScreen(_, layout, base, _) = backend else {
            preconditionFailure("mesh transitions have no uniform block")
        }
        var uniforms = base
        (uniforms.progress, uniforms.time, uniforms.duration) = (progress, time, duration)
        return layout.pack(uniforms, parameters: values(with: overrides))
    }

    /// The mesh and appearance of a mesh transition at `progress`.
    private func scene(
        _ renderer: MeshSceneRenderer, progress: Double,
        overrides: [String: ParameterValue]
    ) throws -> (mesh: MeshTransform, appearance: MeshAppearance) {
        try effect.meshScene(
            progress: progress, parameters: values(with: overrides),
            width: renderer.layerWidth, height: renderer.layerHeight)
    }

    /// One frame at `progress`, `time` seconds into a transition of `duration` seconds;
    /// `overrides` replace parameter values for this frame.
    /// - Throws: `RenderError.invalidValue` for NaN or infinite inputs; `VulkanError`.
    public func frame(
        progress: Double, time: Double, duration: Double,
        overrides: [String: ParameterValue] = [:]
    ) throws -> Image {
        try draw(
            progress: progress, time: time, duration: duration, overrides: overrides,
            mesh: { renderer, s in try renderer.frame(mesh: s.mesh, appearance: s.appearance) },
            fullScreen: { renderer, uniforms in
                Image(width: width, height: height, scale: scale, premultipliedRGBA: try renderer.renderFrame(uniforms: uniforms))
            })
    }

    /// The frame at `progress`, its premultiplied RGBA8 pixels handed to `consume` (valid only
    /// during the call) instead of copied into a new `Image`: no allocation per frame.
    /// - Throws: what `frame(progress:time:duration:overrides:)` throws, or what `consume` throws.
    public func frame(
        progress: Double, time: Double, duration: Double, overrides: [String: ParameterValue] = [:],
        consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try draw(
            progress: progress, time: time, duration: duration, overrides: overrides,
            mesh: { renderer, s in try renderer.render(count: 1, scene: { _ in s }, consume: { _, pixels in try consume(pixels) }) },
            fullScreen: { renderer, uniforms in
                try renderer.render(count: 1, uniforms: { _ in uniforms }, consume: { _, pixels in try consume(pixels) })
            })
    }

    /// One frame at `progress` rendered on the GPU for a presenter, without readback (create the
    /// renderer with `readback: false` for live views).
    /// - Throws: `RenderError.invalidValue` for NaN or infinite inputs; `VulkanError`.
    public func presentationSource(
        progress: Double, time: Double, duration: Double,
        overrides: [String: ParameterValue] = [:]
    ) throws -> PresentationSource {
        try draw(
            progress: progress, time: time, duration: duration, overrides: overrides,
            mesh: { renderer, s in try renderer.presentationSource(mesh: s.mesh, appearance: s.appearance) },
            fullScreen: { renderer, uniforms in try renderer.renderForPresentation(uniforms: uniforms) })
    }

    /// One frame's inputs checked, then drawn by the backend: `mesh` with the frame's mesh scene,
    /// or `fullScreen` with its uniform block.
    /// - Throws: `RenderError.invalidValue` for NaN or infinite inputs; what the closures throw.
    private func draw<T>(
        progress: Double, time: Double, duration: Double, overrides: [String: ParameterValue],
        mesh: (MeshSceneRenderer, (mesh: MeshTransform, appearance: MeshAppearance)) throws -> T,
        fullScreen: (FrameRenderer, [UInt8]) throws -> T
    ) throws -> T {
        guard progress.isFinite, time.isFinite, duration.isFinite, duration > 0 else {
            throw RenderError.invalidValue(
                "progress, time and duration must be finite (duration positive); got progress \(MessageText.number(progress)), time \(MessageText.number(time)), duration \(MessageText.number(duration))"
            )
        }
        switch backend {
        case let .mesh(renderer):
            return try mesh(renderer, try scene(renderer, progress: progress, overrides: overrides))
        case let .fullScreen(renderer, _, _, _):
            return try fullScreen(
                renderer, uniformBytes(progress: progress, time: time, duration: duration, overrides: overrides))
        }
    }

    /// The frame of `timeline` at `time` seconds: its progress and keyframed parameters there.
    public func frame(of timeline: Timeline, at time: Double) throws -> Image {
        let t = min(max(time, 0), timeline.duration)
        return try frame(
            progress: timeline.progress(at: t), time: t, duration: timeline.duration,
            overrides: timeline.parameters(at: t))
    }

    /// Renders every frame of `timeline`, handing frame i's premultiplied RGBA8 pixels to
    /// `consume` in order (valid only during the call; empty when created without readback).
    public func render(_ timeline: Timeline, consume: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        func progress(ofFrame i: Int) throws -> Double {
            let p = timeline.progress(ofFrame: i)
            guard p.isFinite else { throw RenderError.invalidValue("progress at frame \(i) is \(p)") }
            return p
        }
        switch backend {
        case let .mesh(renderer):
            try renderer.render(
                count: timeline.frameCount,
                scene: { i in
                    try scene(renderer, progress: try progress(ofFrame: i), overrides: timeline.parameters(ofFrame: i))
                }, consume: consume)
        case let .fullScreen(renderer, _, _, _):
            try renderer.render(
                count: timeline.frameCount,
                uniforms: { i in
                    uniformBytes(
                        progress: try progress(ofFrame: i), time: timeline.time(ofFrame: i), duration: timeline.duration,
                        overrides: timeline.parameters(ofFrame: i))
                }, consume: consume)
        }
    }
}

extension Effect {
    /// The effect as a lost device's or a timeout's message names it: its name, or its file.
    var gpuWork: String { "'\(source == .builtIn ? name : source.label)'" }
}
