import SegueMath

/// An animation of a value of type `Value`: given the time and the value beneath it, the
/// value it shows.
///
/// `BasicAnimation`, `KeyframeAnimation` and `SpringAnimation` conform. A host evaluates
/// the animations of a property in the order they were added, starting from the model
/// value; each receives the value computed so far as `current` and returns what replaces it
/// (additive animations return `current` plus their own value).
public protocol PropertyAnimation<Value>: Sendable {
    /// The animated value type.
    associatedtype Value: Interpolatable

    /// When and how fast the animation runs.
    var timing: MediaTiming { get set }

    /// Whether a host removes the animation once its active duration has passed (default
    /// true). With `false` and a forwards fill it holds its last value.
    var isRemovedOnCompletion: Bool { get set }

    /// The value the animation shows at `parentTime`, given `current`, the value beneath it
    /// (the model value with earlier animations applied); `nil` when it is not applied then.
    func value(atParentTime parentTime: Double, current: Value) -> Value?
}

// MARK: - Shared value logic

/// Applies `isCumulative` and `isAdditive` to a value computed by an animation.
///
/// Cumulative: iteration `k` adds `k` times the end value of an iteration (the value at
/// progress 1), so each repeat continues where the previous one ended (SMIL's
/// `accumulate="sum"`, which Core Animation's documentation describes). Additive: the
/// result is added to `current`.
@inline(__always)
func composeAnimatedValue<Value: Interpolatable>(
    _ value: Value, end: Value, iteration: Int, isCumulative: Bool, isAdditive: Bool, current: Value
) -> Value {
    var result = value
    if isCumulative && iteration > 0 {
        result = result + end.scaled(by: Double(iteration))
    }
    return isAdditive ? current + result : result
}
