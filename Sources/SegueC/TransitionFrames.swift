// What a C transition or shader effect keeps between calls: the effect, the parameter values a
// caller set, the duration, and one `TransitionRenderer` per frame size (a few sizes kept). Each
// call uploads the caller's frames into the renderer's textures in place and reads the result
// back into the caller's memory; parameters reach the renderer as per-frame overrides, so setting
// one costs nothing on the GPU (only a texture parameter rebuilds the renderers).
import Foundation
import Segue

/// Parameter values of an effect as a C caller sets them: text parsed as on the command line,
/// image paths for `sampler2D` parameters.
struct ParameterState {
    /// The effect whose parameters these are.
    let effect: Effect
    /// Every non-texture parameter's value (defaults until set).
    private(set) var values: [String: ParameterValue]
    /// Images of the texture parameters that were set.
    private(set) var textures: [String: Image] = [:]

    /// The defaults of `effect`, with `values` (already resolved) on top.
    init(effect: Effect, values: [String: ParameterValue] = [:]) {
        self.effect = effect
        var all: [String: ParameterValue] = [:]
        for p in effect.parameters { if let d = p.effectiveDefault { all[p.name] = d } }
        for (k, v) in values { all[k] = v }
        self.values = all
    }

    /// Sets parameter `name` from text; returns true when a texture changed (renderers holding
    /// the old image must be rebuilt).
    /// - Throws: `ParameterError` (unknown name, bad value), `MediaError` (an unreadable image).
    mutating func set(_ name: String, to text: String) throws -> Bool {
        guard let parameter = effect.parameter(named: name) else {
            throw ParameterError.unknown(name: name, effect: effect.name, known: effect.parameters.map(\.name))
        }
        if parameter.type == .sampler2D {
            textures[name] = try ImageFile.read(path: text)
            return true
        }
        if let value = try effect.resolveParameters([(name, text)])[name] { values[name] = value }
        return false
    }

    /// Throws when a texture parameter has no image yet.
    func checkTextures(setter: String) throws {
        for p in effect.parameters where p.type == .sampler2D && textures[p.name] == nil {
            throw CAPIError("effect '\(effect.name)' needs the texture '\(p.name)': set it to an image path with \(setter)")
        }
    }
}

/// Checks a progress and a time from a caller.
/// - Throws: `CAPIError` for NaN, infinities and a negative time.
func checkProgress(_ progress: Double?, time: Double) throws {
    if let progress, !progress.isFinite { throw CAPIError("progress must be a finite number, got \(progress)") }
    guard time.isFinite, time >= 0 else { throw CAPIError("time must be a finite number of seconds ≥ 0, got \(time)") }
}

/// Checks a duration from a caller.
/// - Throws: `CAPIError` unless finite and positive.
func checkDuration(_ seconds: Double) throws {
    guard seconds.isFinite, seconds > 0 else { throw CAPIError("duration must be a finite number of seconds > 0, got \(seconds)") }
}

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
    private var renderers = SizeCache<TransitionRenderer>(capacity: 4)

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
    func render(from: UnsafePointer<UInt8>, to: UnsafePointer<UInt8>, layout: FrameLayout,
                progress: Double, time: Double, out: UnsafeMutablePointer<UInt8>) throws {
        try parameters.checkTextures(setter: setter)
        let renderer: TransitionRenderer
        if let kept = renderers.renderer(width: layout.width, height: layout.height) {
            try kept.replaceImages { i, memory in layout.premultiplied(from: i == 0 ? from : to, into: memory) }
            renderer = kept
        } else {
            renderer = try TransitionRenderer(effect: parameters.effect, from: layout.image(from: from), to: layout.image(from: to),
                                              parameters: parameters.values, textures: parameters.textures,
                                              context: context, framesInFlight: 1)
            renderers.insert(renderer, width: layout.width, height: layout.height)
        }
        try renderer.frame(progress: progress, time: time, duration: duration, overrides: parameters.values) { pixels in
            layout.writeStraight(pixels, to: out)
        }
    }
}

/// Frames of a built-in mesh applied to one image (`curtain`, `bulge`, …) at any size.
final class MeshImageFrames {
    /// The device.
    let context: GPUContext
    /// The mesh's parameter values.
    private(set) var parameters: ParameterState
    private var renderers = SizeCache<MeshSceneRenderer>(capacity: 4)

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
        let renderer: MeshSceneRenderer
        if let kept = renderers.renderer(width: layout.width, height: layout.height) {
            try kept.replaceImages { _, memory in layout.premultiplied(from: input, into: memory) }
            renderer = kept
        } else {
            renderer = try MeshSceneRenderer(from: layout.image(from: input), context: context, framesInFlight: 1)
            renderers.insert(renderer, width: layout.width, height: layout.height)
        }
        let scene = try parameters.effect.meshScene(parameters: parameters.values,
                                                    width: renderer.layerWidth, height: renderer.layerHeight)
        let image = try renderer.frame(mesh: scene.mesh, appearance: scene.appearance)
        image.pixels.withUnsafeBytes { layout.writeStraight($0, to: out) }
    }
}
