import SegueMath

/// An animation between two values (CABasicAnimation).
///
/// The interpolated range follows Core Animation's combinations, where "current" is the
/// value beneath the animation when it is evaluated (the model value with earlier
/// animations applied):
///
/// | set            | from            | to               |
/// |----------------|-----------------|------------------|
/// | from, to       | fromValue       | toValue          |
/// | from, by       | fromValue       | fromValue + by   |
/// | to, by         | toValue − by    | toValue          |
/// | from           | fromValue       | current          |
/// | to             | current         | toValue          |
/// | by             | current         | current + by     |
/// | nothing        | current         | current          |
///
/// For additive animations "current" in that table is zero: the animated value is an offset
/// added to the current value. An action that adds an animation with nothing set fills in
/// `fromValue` with the presentation value before the change, as Core Animation does.
public struct BasicAnimation<Value: Interpolatable>: PropertyAnimation {
    /// The value at the start, if given.
    public var fromValue: Value? {
        get { values.fromValue }
        set { values.fromValue = newValue }
    }
    /// The value at the end, if given.
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
    /// Whether iteration `k` adds `k` times the end value (the value at progress 1), so each
    /// repeat continues where the previous one ended (SMIL's `accumulate="sum"`).
    public var isCumulative: Bool
    /// When and how fast the animation runs.
    public var timing: MediaTiming
    /// Whether a host removes the animation when its active duration has passed.
    public var isRemovedOnCompletion: Bool

    private var values: BasicValues<Value>

    /// Creates a basic animation. Leave `timing.duration` at 0 to take the transaction's
    /// duration when added to a host.
    public init(
        fromValue: Value? = nil, toValue: Value? = nil, byValue: Value? = nil,
        timing: MediaTiming = MediaTiming(), isAdditive: Bool = false, isCumulative: Bool = false,
        isRemovedOnCompletion: Bool = true
    ) {
        values = BasicValues(fromValue: fromValue, toValue: toValue, byValue: byValue)
        self.timing = timing
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        self.isRemovedOnCompletion = isRemovedOnCompletion
    }

    /// Whether none of from, to and by is set.
    var hasNoValues: Bool { values.isEmpty }

    /// The value at eased progress `progress` of iteration `iteration`, given the value beneath.
    public func value(atProgress progress: Double, iteration: Int = 0, current: Value) -> Value {
        values.value(atProgress: progress, iteration: iteration, isAdditive: isAdditive, isCumulative: isCumulative, current: current)
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
        return value(atProgress: sample.progress, iteration: sample.iteration, current: current)
    }
}
