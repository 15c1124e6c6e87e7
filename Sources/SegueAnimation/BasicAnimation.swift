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
    public var fromValue: Value?
    /// The value at the end, if given.
    public var toValue: Value?
    /// The change over the animation, if given.
    public var byValue: Value?
    /// Whether the animated value is added to the value beneath it.
    public var isAdditive: Bool
    /// Whether iteration `k` adds `k` times the end value (the value at progress 1), so each
    /// repeat continues where the previous one ended (SMIL's `accumulate="sum"`).
    public var isCumulative: Bool
    /// When and how fast the animation runs.
    public var timing: MediaTiming
    /// Whether a host removes the animation when its active duration has passed.
    public var isRemovedOnCompletion: Bool

    /// Creates a basic animation. Leave `timing.duration` at 0 to take the transaction's
    /// duration when added to a host.
    public init(
        fromValue: Value? = nil, toValue: Value? = nil, byValue: Value? = nil,
        timing: MediaTiming = MediaTiming(), isAdditive: Bool = false, isCumulative: Bool = false,
        isRemovedOnCompletion: Bool = true
    ) {
        self.fromValue = fromValue
        self.toValue = toValue
        self.byValue = byValue
        self.timing = timing
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        self.isRemovedOnCompletion = isRemovedOnCompletion
    }

    /// Whether none of from, to and by is set.
    var hasNoValues: Bool { fromValue == nil && toValue == nil && byValue == nil }

    /// The value at eased progress `progress` of iteration `iteration`, given the value beneath:
    /// from and to resolved against the value beneath (zero when additive), interpolated, then
    /// composed for cumulative and additive use.
    public func value(atProgress progress: Double, iteration: Int = 0, current: Value) -> Value {
        let base = isAdditive ? Value.zero : current
        let start = from(base: base)
        let end = to(base: base, from: start)
        return composeAnimatedValue(
            start.interpolated(to: end, fraction: progress), end: end, iteration: iteration,
            isCumulative: isCumulative, isAdditive: isAdditive, current: current)
    }

    /// The value at a parent time, or `nil` when the animation is not applied.
    public func value(atParentTime parentTime: Double, current: Value) -> Value? {
        guard let sample = timing.sample(atParentTime: parentTime) else { return nil }
        return value(atProgress: sample.progress, iteration: sample.iteration, current: current)
    }

    // MARK: - From, to and by

    /// The start of the interpolation. `base` stands for "the current presentation value" of
    /// the table above (for additive animations it is zero).
    private func from(base: Value) -> Value {
        if let fromValue { return fromValue }
        if let toValue, let byValue { return toValue - byValue }
        return base  // to alone, by alone, nothing
    }

    /// The end of the interpolation, given its start `from`.
    private func to(base: Value, from: Value) -> Value {
        if let toValue { return toValue }
        if let byValue { return from + byValue }  // from + by, or base + by
        return base  // from alone, nothing
    }
}
