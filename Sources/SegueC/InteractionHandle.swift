// `segue_interaction_*`: a percent-driven transition for a host's own gesture (a GTK stack's edge
// swipe), with the rules `segue navigate` follows: the gesture sets the progress; on release the
// velocity of its last 100 ms decides (a flick goes the way it points, otherwise past half way
// finishes) and a critically damped spring runs on from the gesture's speed. The host passes its
// own clock's time to every call; nothing here reads a clock.
import SegueAnimation
import SegueCore

/// The object behind `segue_interaction *`.
final class InteractionHandle {
    /// The clock the completion runs on: the host's times.
    private let clock = ManualClock()
    /// The transition.
    private let transition: InteractiveTransition
    /// The gesture's recent progress samples.
    private var gesture = GestureVelocity()
    /// One thread at a time.
    let use = UseLock()
    /// How a release completes (as `segue navigate`'s edge-drag pop).
    static let completion = CompletionTiming.release

    /// A transition of `duration` seconds paused at progress 0.
    /// - Throws: `AnimationError` for a duration that is not positive and finite.
    init(duration: Double) throws {
        transition = try InteractiveTransition(duration: duration, clock: clock)
    }

    /// Moves the clock to `now` (never back).
    private func advance(to now: Double) {
        if now.isFinite, now > clock.now { clock.now = now }
    }

    /// The gesture sets `progress` at `now`.
    func update(_ progress: Double, now: Double) {
        advance(to: now)
        // An infinity is the end it points to (the velocity would take none of it).
        let progress = progress.isInfinite ? (progress > 0 ? 1 : 0) : progress
        gesture.record(progress, at: clock.now)
        transition.update(progress)
    }

    /// The gesture lets go at `now`; true when it heads for the end.
    func release(now: Double) -> Bool {
        advance(to: now)
        return transition.release(velocity: gesture.velocity, timing: Self.completion) == .end
    }

    /// Runs on to the end (or the start) with `curve` over the remaining share of the duration
    /// (a spring's own time for a spring).
    func complete(finish: Bool, curve: TransitionTiming.Curve, now: Double) {
        advance(to: now)
        let timing: CompletionTiming
        switch curve {
        case let .timingFunction(f): timing = .curve(f)
        case let .spring(s): timing = .spring(s)  // as given: an overdamped spring stays one
        }
        if finish { transition.finish(timing: timing) } else { transition.cancel(timing: timing) }
    }

    /// The progress at `now`.
    func progress(now: Double) -> Double {
        advance(to: now)
        return transition.fractionComplete
    }

    /// -1 while following the gesture or running on; 0 or 1 once it rests at the start or end.
    func result(now: Double) -> Int32 {
        advance(to: now)
        if case let .finished(position) = transition.state { return position == .end ? 1 : 0 }
        return -1
    }
}

// MARK: - C entry points

/// `segue_interaction_create`.
@_cdecl("segue_interaction_create")
public func segue_interaction_create(_ duration: Double, _ error: UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer? {
    catchingErrors(error, failure: nil) {
        try checkDuration(duration)
        return retainedHandle(try InteractionHandle(duration: duration))
    }
}

/// `segue_interaction_update` (a NULL handle is ignored).
@_cdecl("segue_interaction_update")
public func segue_interaction_update(_ interaction: OpaquePointer?, _ progress: Double, _ now: Double) {
    guard let handle = try? object(interaction, "interaction", as: InteractionHandle.self) else { return }
    _ = try? handle.use.exclusive("interaction") { handle.update(progress, now: now) }
}

/// `segue_interaction_release` (-1 for NULL).
@_cdecl("segue_interaction_release")
public func segue_interaction_release(_ interaction: OpaquePointer?, _ now: Double) -> Int32 {
    guard let handle = try? object(interaction, "interaction", as: InteractionHandle.self),
        let heading = try? handle.use.exclusive("interaction", { handle.release(now: now) })
    else { return -1 }
    return heading ? 1 : 0
}

/// `segue_interaction_complete`.
@_cdecl("segue_interaction_complete")
public func segue_interaction_complete(
    _ interaction: OpaquePointer?, _ finish: Int32, _ timing: UnsafePointer<CChar>?, _ now: Double,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    catchingErrors(error, failure: -1) {
        let handle = try object(interaction, "interaction", as: InteractionHandle.self)
        let text = timing.map { String(cString: $0) } ?? ""
        let curve = try TransitionTiming.Curve(parsing: text.isEmpty ? "ease-in-out" : text)
        try handle.use.exclusive("interaction") { handle.complete(finish: finish != 0, curve: curve, now: now) }
        return 0
    }
}

/// `segue_interaction_progress` (NaN for NULL).
@_cdecl("segue_interaction_progress")
public func segue_interaction_progress(_ interaction: OpaquePointer?, _ now: Double) -> Double {
    guard let handle = try? object(interaction, "interaction", as: InteractionHandle.self),
        let progress = try? handle.use.exclusive("interaction", { handle.progress(now: now) })
    else { return .nan }
    return progress
}

/// `segue_interaction_result` (-1 for NULL).
@_cdecl("segue_interaction_result")
public func segue_interaction_result(_ interaction: OpaquePointer?, _ now: Double) -> Int32 {
    guard let handle = try? object(interaction, "interaction", as: InteractionHandle.self),
        let result = try? handle.use.exclusive("interaction", { handle.result(now: now) })
    else { return -1 }
    return result
}

/// `segue_interaction_destroy`.
@_cdecl("segue_interaction_destroy")
public func segue_interaction_destroy(_ interaction: OpaquePointer?) {
    releaseHandle(interaction, as: InteractionHandle.self)
}
