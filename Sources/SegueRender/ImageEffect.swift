import SegueCore
import SegueMath
import SegueMedia
import SegueMetal
import SegueShaders
import SegueVulkan

// `segue effect`: a shader effect applied to one image, at one time or over time — a SwiftUI
// stitchable function as its `colorEffect`, `distortionEffect` or `layerEffect` modifier draws it
// (the image is the layer, `position` in points), or a single-input GLSL effect in the
// gl-transitions interface (`getFromColor` and `getToColor` both read the image).
//
// Arguments: a stitchable function's `float2 size`, `float4 boundingRect`/`bounds` and
// `float time` are filled automatically (the layer size in points, (0, 0, w, h), seconds); any
// other argument not given takes its default argument from the source, else zero (a colour:
// transparent). A GLSL effect gets `time` in seconds and `progress` = time / duration (clamped to
// 0…1), the duration being the animation's, or the effect's own for a still.

/// An effect on one image as named by a user, with arguments given as text.
public struct ImageEffectRequest: Sendable {
    /// A stitchable `file.metal[:NAME]` (or the built-in `shift`), a `.glsl` file, or a built-in
    /// full-screen effect name.
    public var effect: String
    /// `name=value` arguments (parameters of a GLSL effect); `auto` fills a stitchable `float`
    /// with the time, a `float2` with the layer size, a `float4` with the bounds.
    public var arguments: [(name: String, value: String)]
    /// Images for `texture2d` arguments (`sampler2D` parameters), by name.
    public var textures: [(name: String, path: String)]
    /// Whether the effect is drawn without an image (a fill), which picks among overloads.
    public var drawsAlone = false

    /// A request.
    public init(effect: String, arguments: [(name: String, value: String)] = [], textures: [(name: String, path: String)] = []) {
        self.effect = effect
        self.arguments = arguments
        self.textures = textures
    }

    /// The effect with its resolved argument values and loaded textures.
    /// - Parameter scale: pixels per point given to loaded texture images.
    /// - Throws: `EffectLookupError`, `StitchableConfigurationError` (unknown argument),
    ///   `ParameterError` (a bad value), `RenderError.notAnImageEffect` for a mesh effect,
    ///   `MediaError` (a texture image).
    public func resolve(scale: Double = 1) throws -> ResolvedEffect {
        let resolved: Effect
        var assignments: [(name: String, value: String)] = []
        var isFill = false
        if EffectCatalog.stitchablePath(effect) != nil || EffectCatalog.builtIn(named: effect)?.kind == .stitchable {
            let fn = try EffectCatalog.stitchableFunction(effect, use: drawsAlone ? .alone : .image)
            isFill = fn.kind == .fill
            let automatic: Set<String>
            (automatic, assignments) = try splitAutomatic(arguments, automatic: fn.defaultImageAutomatic) { name in
                guard fn.arguments.contains(where: { $0.name == name }) else { throw fn.unknownArgument(name) }
            }
            let source: EffectSource = EffectCatalog.stitchablePath(effect) == nil ? .builtIn : .file(fn.file)
            resolved = try fn.imageEffect(automatic: automatic, source: source)
        } else {
            let base = try EffectCatalog.effect(effect)
            guard base.kind != .mesh else {
                throw RenderError.notAnImageEffect(effect: effect)
            }
            if let auto = arguments.first(where: { $0.value.lowercased() == "auto" }) {
                throw StitchableConfigurationError(
                    "'auto' (for '\(auto.name)') applies to stitchable shader arguments; '\(effect)' is a GLSL effect whose 'time' and 'progress' are set already"
                )
            }
            resolved = base
            assignments = arguments
        }
        var result = try ResolvedEffect(
            effect: resolved, parameters: try resolved.resolveParameters(assignments), texturePaths: textures, scale: scale)
        result.isFill = isFill
        return result
    }
}

/// Renders an effect on one image.
public final class ImageEffectRenderer {
    /// The effect.
    public let effect: Effect
    private let renderer: TransitionRenderer

    /// Output width in pixels (the input's).
    public var width: Int { renderer.width }
    /// Output height in pixels (the input's).
    public var height: Int { renderer.height }

    /// Compiles the effect (or reuses the cached pipeline) and uploads the image and textures.
    /// - Throws: `RenderError` (a missing or unknown texture), `VulkanError`.
    public init(_ resolved: ResolvedEffect, input: Image, context: GPUContext, framesInFlight: Int = 3) throws {
        effect = resolved.effect
        renderer = try TransitionRenderer(
            effect: resolved.effect, from: input, to: input, parameters: resolved.parameters,
            textures: resolved.textures, context: context, framesInFlight: framesInFlight)
    }

    /// The image at `time` seconds; `duration` (default: the effect's own) sets a GLSL effect's
    /// progress, time / duration clamped to 0…1.
    /// - Throws: `RenderError.invalidValue` for a negative or non-finite time or duration; `VulkanError`.
    public func frame(time: Double, duration: Double? = nil) throws -> Image {
        let d = duration ?? effect.defaultDuration
        guard time.isFinite, time >= 0, d.isFinite, d > 0 else {
            throw RenderError.invalidValue(
                "the time must be a finite number of seconds ≥ 0 and the duration positive, got time \(MessageText.number(time)), duration \(MessageText.number(d))"
            )
        }
        return try renderer.frame(progress: min(time / d, 1), time: time, duration: d)
    }

    /// Every frame of `duration` seconds at `fps` (frame i at i / fps) into `sink`, calling
    /// `progress(framesDone)` after each; on any error the sink is cancelled and the error rethrown.
    /// - Throws: `RenderError.invalidValue` for a bad duration or fps; `VulkanError`; the sink's errors.
    public func render(duration: Double, fps: Double, to sink: FrameSink, progress: (Int) -> Void = { _ in }) throws {
        let timeline: Timeline
        do {
            timeline = try Timeline(duration: duration, fps: fps, curve: { $0 })
        } catch {
            sink.cancel()
            throw error
        }
        try renderer.render(timeline, to: sink, progress: progress)
    }
}
