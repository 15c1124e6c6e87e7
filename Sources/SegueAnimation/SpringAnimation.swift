import SegueMath

/// A basic animation whose progress is a ``Spring`` (CASpringAnimation).
///
/// The spring is evaluated at the local time in seconds within the iteration (not stretched
/// to the duration), so the value may overshoot the target. The duration defaults to the
/// spring's ``Spring/settlingDuration``; a shorter duration cuts the motion off. A timing
/// function, if set, warps local time before the spring is evaluated
/// (`t = duration · timingFunction(t / duration)`). From/to/by, additive and cumulative behave
/// as in ``BasicAnimation``.
public struct SpringAnimation<Value: Interpolatable>: PropertyAnimation, SpringDrivenAnimation {
    /// The spring that drives the progress.
    public var spring: Spring
    /// The value at the start, if given.
    public var fromValue: Value? {
        get { values.fromValue }
        set { values.fromValue = newValue }
    }
    /// The value at rest, if given.
    public var toValue: Value? {
        get { values.toValue }
        set { values.toValue = newValue }
    }
    /// The change over the animation, if given.
    public var byValue: Value? {
        get { values.byValue }
        set { values.byValue = newValue }
    }
    /// Whether the animated value is added to the value beneath it.
    public var isAdditive: Bool
    /// Whether each repeat adds the end value of an iteration.
    public var isCumulative: Bool
    /// When and how long the animation runs; `duration` starts as the settling duration.
    public var timing: MediaTiming
    /// Whether a host removes the animation when its active duration has passed.
    public var isRemovedOnCompletion: Bool

    private var values: BasicValues<Value>

    /// Creates a spring animation whose duration is the spring's settling duration (unless
    /// `timing.duration` is given; an undamped spring, which never settles, gets 0.25 s).
    public init(
        spring: Spring, fromValue: Value? = nil, toValue: Value? = nil, byValue: Value? = nil,
        timing: MediaTiming = MediaTiming(), isAdditive: Bool = false, isCumulative: Bool = false,
        isRemovedOnCompletion: Bool = true
    ) {
        self.spring = spring
        values = BasicValues(fromValue: fromValue, toValue: toValue, byValue: byValue)
        var timing = timing
        if timing.duration == 0 {
            let settling = spring.settlingDuration
            timing.duration = settling.isFinite && settling > 0 ? settling : MediaTiming.defaultDuration
        }
        self.timing = timing
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        self.isRemovedOnCompletion = isRemovedOnCompletion
    }

    /// Whether none of from, to and by is set.
    var hasNoValues: Bool { values.isEmpty }

    /// The value at local time `seconds` of iteration `iteration`, given the value beneath.
    public func value(atLocalTime seconds: Double, iteration: Int = 0, current: Value) -> Value {
        values.value(
            atProgress: spring.value(at: seconds), iteration: iteration, isAdditive: isAdditive,
            isCumulative: isCumulative, current: current)
    }

    /// The value at a parent time, or `nil` when the animation is not applied.
    @specialized(where Value == Double)
    @specialized(where Value == Vector2)
    @specialized(where Value == Vector3)
    @specialized(where Value == Vector4)
    @specialized(where Value == Transform3D)
    @specialized(where Value == AnimatableColor)
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
