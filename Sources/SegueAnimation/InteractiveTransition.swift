// A percent-driven transition with UIKit's semantics (UIPercentDrivenInteractiveTransition driven
// by a gesture, completed as UIViewPropertyAnimator.continueAnimation does).
//
// While interactive, the fraction is whatever the gesture sets (clamped to [0, 1]). On release
// the transition completes from the current fraction f0 toward a target T (1 = end, 0 = start):
//   curve c:  p(t) = f0 + (T − f0)·c(t / D'),  D' = D·|T − f0|  (the remaining share of the
//             transition's duration D, as UIKit's durationFactor 0 means);
//   spring:   p(t) = f0 + (T − f0)·s(t), s the normalised motion from 0 to 1 of the spring given
//             (its mass, stiffness and damping; `.release` is ζ = 1, ω0 = 2π/0.3 s) with initial
//             velocity v/(T − f0): the gesture's velocity v (fractions per second) relative to
//             the remaining distance, the meaning of UISpringTimingParameters(dampingRatio:
//             initialVelocity:). It lasts the spring's settling time (|1 − s| < 0.001 from then
//             on; the transition's duration for a spring that never settles), then shows T exactly.
// The platform's rule of thumb decides between finishing and cancelling: a flick (|v| at least
// `flickVelocity`) goes the way it points; otherwise the transition finishes past half way.
//
// Time comes from an injected clock; nothing here reads the wall clock.
import SegueMath

/// Where a transition ended, or is heading.
public enum TransitionPosition: Sendable, Equatable {
    /// Progress 0: the transition was cancelled.
    case start
    /// Progress 1: the transition finished.
    case end
}

/// How an interactive transition runs to its end after the gesture lets go.
public enum CompletionTiming: Sendable, Equatable {
    /// A timing curve over the remaining share of the transition's duration.
    case curve(TimingFunction)
    /// A spring as given (its mass, stiffness, damping and whether it may be overdamped), starting
    /// with the gesture's velocity instead of its own: `.spring(try Spring(response: 0.3,
    /// dampingFraction: 1))`, or the spring a transition's timing names.
    case spring(Spring)

    /// A released finger's: critically damped, 0.3 s (UIKit's navigation pop, and the C API's
    /// and the GTK stack's interactive transitions).
    public static let release = CompletionTiming.spring(.critical(response: 0.3))
}

/// A transition whose progress a gesture drives, then finishes or cancels with a curve or a
/// spring from where the gesture left it. Use it from one thread.
public final class InteractiveTransition {
    /// What the transition is doing.
    public enum State: Sendable, Equatable {
        /// Following the gesture (or paused): the fraction only changes through `update(_:)`.
        case interactive
        /// Animating toward a position.
        case running(toward: TransitionPosition)
        /// Done, resting at a position.
        case finished(TransitionPosition)
    }

    /// The duration of the whole transition from 0 to 1, in seconds.
    public let duration: Double
    /// The clock the running animation reads.
    public let clock: AnimationClock
    /// The |velocity| (fractions per second) from which a release counts as a flick.
    public let flickVelocity: Double
    /// Whether `play`/`continue` head for the start instead of the end (UIKit's `isReversed`).
    /// Changing it while running turns the animation around from where it is.
    public var isReversed = false {
        didSet {
            guard oldValue != isReversed, case .running = state, let run else { return }
            continueAnimation(timing: run.timing, velocity: 0)
        }
    }

    /// One run toward a target, started at clock time `start` from fraction `from`.
    private struct Run {
        var start: Double
        var from: Double
        var target: TransitionPosition
        /// The curve, or the spring started with the gesture's velocity.
        var timing: CompletionTiming
        var length: Double
    }

    private var storedState: State = .interactive
    private var pausedFraction: Double
    private var run: Run?
    private var reported = false

    /// A transition paused at `fraction`, ready for a gesture.
    /// - Throws: `AnimationError` when `duration` is not positive and finite, or
    ///   `flickVelocity` is negative or not finite.
    public init(duration: Double, fraction: Double = 0, flickVelocity: Double = 1, clock: AnimationClock) throws {
        guard duration.isFinite, duration > 0 else {
            throw AnimationError(
                .invalidParameter,
                "an interactive transition's duration must be a positive number of seconds, got \(MessageText.number(duration))")
        }
        guard flickVelocity.isFinite, flickVelocity >= 0 else {
            throw AnimationError(
                .invalidParameter, "flick velocity must be a non-negative number, got \(MessageText.number(flickVelocity))")
        }
        self.duration = duration
        self.flickVelocity = flickVelocity
        self.clock = clock
        pausedFraction = fraction.isFinite ? min(max(fraction, 0), 1) : 0
    }

    // MARK: - Reading

    /// The state at the clock's current time.
    public var state: State {
        // A nanosecond of slack absorbs the rounding of clock readings such as 10.6 − 10.
        if case .running = storedState, let run, clock.now - run.start >= run.length - 1e-9 { return .finished(run.target) }
        return storedState
    }

    /// The progress at the clock's current time (a spring may overshoot [0, 1] while running).
    public var fractionComplete: Double {
        switch state {
        case .interactive: return pausedFraction
        case let .finished(position): return position == .end ? 1 : 0
        case .running:
            guard let run else { return pausedFraction }
            return run.from + (value(run.target) - run.from) * normalized(run, at: clock.now - run.start)
        }
    }

    /// Where the transition ended, once: the first call after it finishes returns the position,
    /// every other call nil (for a host loop that acts on completion).
    public func takeCompletion() -> TransitionPosition? {
        guard !reported, case let .finished(position) = state else { return nil }
        reported = true
        return position
    }

    // MARK: - Driving

    /// Sets the fraction (clamped to [0, 1], infinities too; NaN is ignored) and makes the
    /// transition interactive, pausing a running animation. Ignored once finished.
    public func update(_ fraction: Double) {
        guard !fraction.isNaN else { return }
        if case .finished = state { return }
        pausedFraction = min(max(fraction, 0), 1)
        storedState = .interactive
        run = nil
    }

    /// Stops a running animation where it is (clamped to [0, 1]) and makes it interactive.
    public func pause() {
        guard case .running = state else { return }
        update(fractionComplete)
    }

    /// Runs from the current fraction toward the end (the start when reversed).
    /// - Parameters:
    ///   - timing: the curve or spring; nil keeps the last run's, else a linear curve.
    ///   - velocity: the gesture's velocity in fractions per second (positive toward the end).
    public func continueAnimation(timing: CompletionTiming? = nil, velocity: Double = 0) {
        if case .finished = state { return }
        let from = fractionComplete
        let target: TransitionPosition = isReversed ? .start : .end
        let timing = timing ?? run?.timing ?? .curve(.linear)
        let distance = value(target) - from
        var next = Run(start: clock.now, from: from, target: target, timing: timing, length: 0)
        switch timing {
        case .curve:
            next.length = duration * abs(distance)
        case let .spring(s):
            // The gesture's velocity in fractions of the distance a second (none past a double's range).
            let spring = s.starting(at: distance == 0 ? 0 : velocity / distance)
            next.timing = .spring(spring)
            let settle = spring.settlingDuration
            next.length = distance == 0 ? 0 : (settle.isFinite ? settle : duration)
        }
        run = next
        storedState = .running(toward: target)
        reported = false
    }

    /// Runs to the end (`isReversed` becomes false).
    public func finish(timing: CompletionTiming? = nil, velocity: Double = 0) {
        setDirection(reversed: false)
        continueAnimation(timing: timing, velocity: velocity)
    }

    /// Runs back to the start (`isReversed` becomes true).
    public func cancel(timing: CompletionTiming? = nil, velocity: Double = 0) {
        setDirection(reversed: true)
        continueAnimation(timing: timing, velocity: velocity)
    }

    /// The gesture let go with `velocity` (fractions per second, positive toward the end):
    /// finishes or cancels by ``shouldFinish(fraction:velocity:flickVelocity:)`` and returns
    /// where it is heading.
    @discardableResult
    public func release(velocity: Double, timing: CompletionTiming) -> TransitionPosition {
        let v = velocity.isFinite ? velocity : 0
        if InteractiveTransition.shouldFinish(fraction: fractionComplete, velocity: v, flickVelocity: flickVelocity) {
            finish(timing: timing, velocity: v)
            return .end
        }
        cancel(timing: timing, velocity: v)
        return .start
    }

    /// The platform's rule of thumb: a flick (|velocity| ≥ `flickVelocity`) goes the way it
    /// points; a slower release finishes when past half way.
    public static func shouldFinish(fraction: Double, velocity: Double, flickVelocity: Double = 1) -> Bool {
        if velocity >= flickVelocity { return true }
        if velocity <= -flickVelocity { return false }
        return fraction > 0.5
    }

    // MARK: - Evaluation

    private func setDirection(reversed: Bool) {
        // Set the stored flag without the didSet's restart: the caller continues right after.
        let running = run
        run = nil
        isReversed = reversed
        run = running
    }

    private func value(_ position: TransitionPosition) -> Double { position == .end ? 1 : 0 }

    /// The share of the way from `run.from` to the target covered `t` seconds into the run.
    private func normalized(_ run: Run, at t: Double) -> Double {
        guard run.length > 0 else { return 1 }
        if t >= run.length - 1e-9 { return 1 }
        switch run.timing {
        case let .curve(curve): return curve.value(at: max(t, 0) / run.length)
        case let .spring(spring): return spring.value(at: t)
        }
    }
}
