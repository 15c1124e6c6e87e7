// An animation attached to a property, with the bookkeeping of its run.
//
// The built-in animations (basic, spring, keyframes) are held as their concrete types, so the
// per-frame path, specialized with the property for the value types Segue animates (see
// AnimatableProperty.swift), calls them directly and specialized too; only other conformances
// of PropertyAnimation are called through the protocol.

import SegueMath

/// One animation attached to a property.
final class AnimationEntry<Value: Interpolatable> {
    /// An animation, with the built-in kinds held concretely.
    indirect enum Kind {
        case basic(BasicAnimation<Value>)
        case spring(SpringAnimation<Value>)
        case keyframes(KeyframeAnimation<Value>)
        case other(any PropertyAnimation<Value>)

        init(_ animation: any PropertyAnimation<Value>) {
            if let basic = animation as? BasicAnimation<Value> {
                self = .basic(basic)
            } else if let spring = animation as? SpringAnimation<Value> {
                self = .spring(spring)
            } else if let keyframes = animation as? KeyframeAnimation<Value> {
                self = .keyframes(keyframes)
            } else {
                self = .other(animation)
            }
        }

        /// The animation.
        var animation: any PropertyAnimation<Value> {
            switch self {
            case .basic(let animation): animation
            case .spring(let animation): animation
            case .keyframes(let animation): animation
            case .other(let animation): animation
            }
        }
    }

    let key: String?
    /// The animation as added (durations resolved; a begin time of 0 is kept and expressed
    /// through ``timeShift``, so the hot path reads only immutable storage).
    let kind: Kind
    /// A copy of the animation's timing, read without dynamic dispatch.
    let timing: MediaTiming
    let isRemovedOnCompletion: Bool
    let groups: [CompletionGroup]
    let completion: ((Bool) -> Void)?
    /// The commit time for animations added with `beginTime == 0`, else 0: the animation is
    /// evaluated at `parentTime − timeShift`.
    var timeShift = 0.0
    /// Whether the outermost transaction has committed it (only then is it evaluated).
    var isCommitted = false
    /// Whether it has finished or been removed (its completion has been reported).
    var hasEnded = false

    init(
        key: String?, animation: any PropertyAnimation<Value>, groups: [CompletionGroup],
        completion: ((Bool) -> Void)?
    ) {
        self.key = key
        kind = Kind(animation)
        timing = animation.timing
        isRemovedOnCompletion = animation.isRemovedOnCompletion
        self.groups = groups
        self.completion = completion
    }

    /// The animation's value at `parentTime` (already shifted by ``timeShift``), given the
    /// value beneath; `nil` when it is not applied.
    func value(atParentTime parentTime: Double, current: Value) -> Value? {
        switch kind {
        case .basic(let animation): animation.value(atParentTime: parentTime, current: current)
        case .spring(let animation): animation.value(atParentTime: parentTime, current: current)
        case .keyframes(let animation): animation.value(atParentTime: parentTime, current: current)
        case .other(let animation): animation.value(atParentTime: parentTime, current: current)
        }
    }

    /// The animation with its begin time as resolved at the commit.
    var resolvedAnimation: any PropertyAnimation<Value> {
        var resolved = kind.animation
        resolved.timing.beginTime += timeShift
        return resolved
    }
}
