import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// `segue_transition_*`: a transition by name, its parameters, duration and timing, and frames
// rendered from a caller's memory into a caller's memory.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The object behind `segue_transition *`.
final class TransitionHandle: NamedEffectHandle {
    static let noun = "transition"
    /// The process that made it.
    let process = getpid()
    /// The frames and settings.
    let frames: TransitionFrames
    /// One thread at a time.
    let use = UseLock()

    /// How progress follows time, and the caller's choices it was made of.
    private struct Settings {
        /// The caller's curve or spring (else the effect's) over the caller's duration (else the
        /// effect's, or a caller's spring's settling time).
        var timing: TransitionTiming
        /// The caller's curve (nil: the effect's own) and duration (nil: the default).
        var curve: TransitionTiming.Curve?
        var passDuration: Double?
    }

    /// Locked apart from `use`: `segue_transition_duration` and `_progress_at`, which cannot
    /// fail as busy, read them from any thread without racing a setter or waiting for a frame.
    private let settings: Locked<Settings>

    /// The transition's timing now.
    var timing: TransitionTiming { settings.withLock { $0.timing } }

    /// The transition `name` on `context`.
    init(_ name: String, context: GPUContext) throws {
        let resolved = try EffectLookup.transition(name)
        frames = TransitionFrames(resolved, context: context, setter: "segue_transition_set_param")
        settings = Locked(Settings(timing: try Self.timing(resolved.effect, curve: nil, duration: nil)))
    }

    /// Sets a parameter from text.
    func set(_ name: String, to text: String) throws {
        try frames.set(name, to: text)
    }

    /// Sets the caller's curve (nil: the effect's own), keeping the pass duration; the shader's
    /// `duration` follows the pass. Call holding `use`.
    /// - Throws: `AnimationError` when they make no timing (nothing changes then).
    func setCurve(_ curve: TransitionTiming.Curve?) throws {
        try update { $0.curve = curve }
    }

    /// Sets the caller's pass duration, keeping the curve. Call holding `use`.
    /// - Throws: `AnimationError` when they make no timing (nothing changes then).
    func setDuration(_ seconds: Double) throws {
        try update { $0.passDuration = seconds }
    }

    /// Applies `change` to the caller's choices and makes their timing, all or nothing.
    private func update(_ change: (inout Settings) -> Void) throws {
        let effect = frames.parameters.effect
        let duration = try settings.withLock { (s: inout Settings) throws -> Double in
            var next = s
            change(&next)
            next.timing = try Self.timing(effect, curve: next.curve, duration: next.passDuration)
            s = next
            return next.timing.duration
        }
        frames.duration = duration
    }

    /// The timing of `effect` with a caller's curve and duration.
    private static func timing(_ effect: Effect, curve: TransitionTiming.Curve?, duration: Double?) throws -> TransitionTiming {
        try TransitionTiming(curve: curve, duration: duration, defaultCurve: effect.defaultTiming, defaultDuration: effect.defaultDuration)
    }
}

// MARK: - C entry points

/// `segue_transition_create`.
@_cdecl("segue_transition_create")
public func segue_transition_create(
    _ context: OpaquePointer?, _ effect: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> OpaquePointer? {
    TransitionHandle.create(context, effect, error)
}

/// `segue_transition_set_param`.
@_cdecl("segue_transition_set_param")
public func segue_transition_set_param(
    _ transition: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    TransitionHandle.setParameter(transition, name, value, error)
}

/// `segue_transition_duration`.
@_cdecl("segue_transition_duration")
public func segue_transition_duration(_ transition: OpaquePointer?) -> Double {
    (try? object(transition, "transition", as: TransitionHandle.self))?.timing.duration ?? .nan
}

/// `segue_transition_set_duration`.
@_cdecl("segue_transition_set_duration")
public func segue_transition_set_duration(
    _ transition: OpaquePointer?, _ seconds: Double,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    catchingErrors(error, failure: -1) {
        let handle = try object(transition, "transition", as: TransitionHandle.self)
        try checkDuration(seconds)
        try handle.use.exclusive("transition") { try handle.setDuration(seconds) }
        return 0
    }
}

/// `segue_transition_set_timing`.
@_cdecl("segue_transition_set_timing")
public func segue_transition_set_timing(
    _ transition: OpaquePointer?, _ timing: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    catchingErrors(error, failure: -1) {
        let handle = try object(transition, "transition", as: TransitionHandle.self)
        let text = timing.map { String(cString: $0) } ?? ""
        let curve = text.isEmpty ? nil : try TransitionTiming.Curve(parsing: text)
        try handle.use.exclusive("transition") { try handle.setCurve(curve) }
        return 0
    }
}

/// `segue_transition_progress_at`.
@_cdecl("segue_transition_progress_at")
public func segue_transition_progress_at(_ transition: OpaquePointer?, _ seconds: Double) -> Double {
    guard let handle = try? object(transition, "transition", as: TransitionHandle.self), !seconds.isNaN else { return .nan }
    return handle.timing.progress(at: seconds)
}

/// `segue_transition_render`.
@_cdecl("segue_transition_render")
public func segue_transition_render(
    _ transition: OpaquePointer?, _ from: UnsafePointer<UInt8>?, _ to: UnsafePointer<UInt8>?,
    _ width: UInt32, _ height: UInt32, _ stride: UInt, _ progress: Double, _ time: Double,
    _ out: UnsafeMutablePointer<UInt8>?, _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    catchingErrors(error, failure: -1) {
        let handle = try object(transition, "transition", as: TransitionHandle.self)
        guard let from else { throw CAPIError("from is NULL") }
        guard let to else { throw CAPIError("to is NULL") }
        guard let out else { throw CAPIError("out is NULL") }
        let layout = try FrameLayout(width: width, height: height, stride: stride)
        try checkProgress(progress, time: time)
        try handle.use.exclusive("transition") {
            try handle.frames.render(from: from, to: to, layout: layout, progress: progress, time: time, out: out)
        }
        return 0
    }
}

/// `segue_transition_destroy`.
@_cdecl("segue_transition_destroy")
public func segue_transition_destroy(_ transition: OpaquePointer?) {
    releaseHandle(transition, as: TransitionHandle.self)
}
