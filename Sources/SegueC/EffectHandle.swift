import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// `segue_effect_*`: an effect on one frame. A shader runs as `segue effect` runs it (both of
// the transition template's textures are the frame; progress = time / duration, clamped to 0…1);
// a built-in mesh as `segue mesh` draws it.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The object behind `segue_effect *`.
final class EffectHandle: NamedEffectHandle {
    static let noun = "effect"
    /// The process that made it.
    let process = getpid()
    /// How the frames are drawn.
    private enum Frames {
        case shader(TransitionFrames)
        case mesh(MeshImageFrames)
    }

    private let frames: Frames
    /// One thread at a time.
    let use = UseLock()
    /// Seconds: a shader's progress is time / duration. Locked apart from `use`, so that
    /// `segue_effect_duration`, which cannot fail as busy, reads it from any thread.
    let duration: Locked<Double>
    /// Whether it is a stitchable fill, which may render without an input.
    let isFill: Bool
    /// Transparent pixels a fill drawn alone is drawn over, kept between frames (used under `use`).
    private var clear: [UInt8] = []
    /// A fill drawn alone for a caller's wider stride: packed here, then copied row by row (kept,
    /// not made per frame).
    private var packedFrame: [UInt8] = []

    /// The effect `name` on `context`.
    init(_ name: String, context: GPUContext) throws {
        switch try EffectLookup.image(name) {
        case let .shader(resolved):
            isFill = resolved.isFill
            frames = .shader(TransitionFrames(resolved, context: context, setter: "segue_effect_set_param"))
            duration = Locked(resolved.effect.defaultDuration)
        case let .mesh(effect):
            frames = .mesh(MeshImageFrames(effect, context: context))
            isFill = false
            duration = Locked(effect.defaultDuration)
        }
    }

    /// Sets a parameter from text.
    func set(_ name: String, to text: String) throws {
        switch frames {
        case let .shader(f): try f.set(name, to: text)
        case let .mesh(f): try f.set(name, to: text)
        }
    }

    /// Renders a fill alone (over transparent pixels) at `time` into `out`. The transparent input
    /// is packed, whatever the caller's stride (a stride of 2⁶² asked for that many bytes of it):
    /// with a wider stride the frame is drawn packed, then each row copied to its place.
    func renderAlone(layout: FrameLayout, time: Double, out: UnsafeMutablePointer<UInt8>) throws {
        let packed = layout.packed
        if clear.count < packed.packedBytes { clear = [UInt8](repeating: 0, count: packed.packedBytes) }
        try clear.withUnsafeBufferPointer { clear in
            guard layout.stride != packed.stride else { return try render(clear.baseAddress!, layout: layout, time: time, out: out) }
            if packedFrame.count < packed.packedBytes { packedFrame = [UInt8](repeating: 0, count: packed.packedBytes) }
            try packedFrame.withUnsafeMutableBufferPointer { frame in
                try render(clear.baseAddress!, layout: packed, time: time, out: frame.baseAddress!)
                for row in 0..<layout.height {
                    (out + row * layout.stride).update(from: frame.baseAddress! + row * packed.rowBytes, count: packed.rowBytes)
                }
            }
        }
    }

    /// Renders `input` at `time` into `out`.
    func render(_ input: UnsafePointer<UInt8>, layout: FrameLayout, time: Double, out: UnsafeMutablePointer<UInt8>) throws {
        switch frames {
        case let .shader(f):
            // As `ImageEffectRenderer.frame(time:duration:)`: the progress follows the time.
            let duration = duration.withLock { $0 }
            f.duration = duration
            try f.render(from: input, to: input, layout: layout, progress: min(time / duration, 1), time: time, out: out)
        case let .mesh(f):
            try f.render(input, layout: layout, out: out)
        }
    }
}

// MARK: - C entry points

/// `segue_effect_create`.
@_cdecl("segue_effect_create")
public func segue_effect_create(
    _ context: OpaquePointer?, _ effect: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> OpaquePointer? {
    EffectHandle.create(context, effect, error)
}

/// `segue_effect_set_param`.
@_cdecl("segue_effect_set_param")
public func segue_effect_set_param(
    _ effect: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    EffectHandle.setParameter(effect, name, value, error)
}

/// `segue_effect_duration`.
@_cdecl("segue_effect_duration")
public func segue_effect_duration(_ effect: OpaquePointer?) -> Double {
    (try? object(effect, "effect", as: EffectHandle.self))?.duration.withLock { $0 } ?? .nan
}

/// `segue_effect_set_duration`.
@_cdecl("segue_effect_set_duration")
public func segue_effect_set_duration(_ effect: OpaquePointer?, _ seconds: Double, _ error: UnsafeMutablePointer<OpaquePointer?>?) -> Int32
{
    catchingErrors(error, failure: -1) {
        let handle = try object(effect, "effect", as: EffectHandle.self)
        try checkDuration(seconds)
        try handle.use.exclusive("effect") { handle.duration.withLock { $0 = seconds } }
        return 0
    }
}

/// `segue_effect_render`.
@_cdecl("segue_effect_render")
public func segue_effect_render(
    _ effect: OpaquePointer?, _ input: UnsafePointer<UInt8>?, _ width: UInt32, _ height: UInt32,
    _ stride: UInt, _ time: Double, _ out: UnsafeMutablePointer<UInt8>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    catchingErrors(error, failure: -1) {
        let handle = try object(effect, "effect", as: EffectHandle.self)
        guard input != nil || handle.isFill else { throw CAPIError("in is NULL (only a fill draws without an input)") }
        guard let out else { throw CAPIError("out is NULL") }
        let layout = try FrameLayout(width: width, height: height, stride: stride)
        try checkProgress(nil, time: time)
        try handle.use.exclusive("effect") {
            guard let input else {
                // A fill drawn alone: over transparent pixels (kept by the handle, not made per frame).
                try handle.renderAlone(layout: layout, time: time, out: out)
                return
            }
            try handle.render(input, layout: layout, time: time, out: out)
        }
        return 0
    }
}

/// `segue_effect_destroy`.
@_cdecl("segue_effect_destroy")
public func segue_effect_destroy(_ effect: OpaquePointer?) {
    releaseHandle(effect, as: EffectHandle.self)
}
