import SegueMath

/// A basic animation whose progress is a ``Spring`` (CASpringAnimation).
///
/// The spring is evaluated at the local time in seconds within the iteration (not stretched
/// to the duration), so the value may overshoot the target. The duration defaults to the
/// spring's ``Spring/settlingDuration``; a shorter duration cuts the motion off. A timing
/// function, if set, warps local time before the spring is evaluated
/// (`t = duration · timingFunction(t / duration)`). From/to/by, additive and cumulative behave
/// as in ``BasicAnimation``: a spring animation is a basic animation paced by a spring.
@dynamicMemberLookup
public struct SpringAnimation<Value: Interpolatable>: PropertyAnimation, SpringDrivenAnimation {
    /// The spring that drives the progress.
    public var spring: Spring
    /// The values, flags and timing, evaluated at the spring's progress instead of the eased
    /// fraction.
    private var basic: BasicAnimation<Value>

    /// The basic animation's values and flags, read and set as the spring animation's own:
    /// `fromValue`, `toValue`, `byValue`, `isAdditive` and `isCumulative` (see ``BasicAnimation``).
    public subscript<Member>(dynamicMember member: WritableKeyPath<BasicAnimation<Value>, Member>) -> Member {
        get { basic[keyPath: member] }
        set { basic[keyPath: member] = newValue }
    }

    /// When and how long the animation runs; `duration` starts as the settling duration.
    public var timing: MediaTiming {
        get { basic.timing }
        set { basic.timing = newValue }
    }
    /// Whether a host removes the animation when its active duration has passed.
    public var isRemovedOnCompletion: Bool {
        get { basic.isRemovedOnCompletion }
        set { basic.isRemovedOnCompletion = newValue }
    }

    /// Creates a spring animation whose duration is the spring's settling duration (unless
    /// `timing.duration` is given; an undamped spring, which never settles, gets 0.25 s).
    public init(
        spring: Spring, fromValue: Value? = nil, toValue: Value? = nil, byValue: Value? = nil,
        timing: MediaTiming = MediaTiming(), isAdditive: Bool = false, isCumulative: Bool = false,
        isRemovedOnCompletion: Bool = true
    ) {
        self.init(
            spring: spring,
            animation: BasicAnimation(
                fromValue: fromValue, toValue: toValue, byValue: byValue, timing: timing, isAdditive: isAdditive,
                isCumulative: isCumulative, isRemovedOnCompletion: isRemovedOnCompletion))
    }

    /// Creates a spring animation with the values, flags and timing of `animation`, paced by
    /// `spring`. A duration of 0 becomes the spring's settling duration, as in
    /// ``init(spring:fromValue:toValue:byValue:timing:isAdditive:isCumulative:isRemovedOnCompletion:)``.
    public init(spring: Spring, animation: BasicAnimation<Value>) {
        self.spring = spring
        basic = animation
        if basic.timing.duration == 0 {
            let settling = spring.settlingDuration
            basic.timing.duration = settling.isFinite && settling > 0 ? settling : MediaTiming.defaultDuration
        }
    }

    /// Whether none of from, to and by is set.
    var hasNoValues: Bool { basic.hasNoValues }

    /// The value at local time `seconds` of iteration `iteration`, given the value beneath.
    public func value(atLocalTime seconds: Double, iteration: Int = 0, current: Value) -> Value {
        basic.value(atProgress: spring.value(at: seconds), iteration: iteration, current: current)
    }

    /// The value at a parent time, or `nil` when the animation is not applied.
    public func value(atParentTime parentTime: Double, current: Value) -> Value? {
        guard let sample = timing.sample(atParentTime: parentTime) else { return nil }
        var seconds = sample.localTime
        if let curve = timing.timingFunction {
            seconds = curve.value(at: sample.fraction) * timing.resolvedDuration
        }
        return value(atLocalTime: seconds, iteration: sample.iteration, current: current)
    }
}

/// Animations whose pacing comes from a spring, so a transaction's timing function is not
/// imposed on them when they are added.
protocol SpringDrivenAnimation {}
