// A property's state: the model value (set now), the committed value (what the presentation
// starts from, updated at the outermost commit), and the ordered animations. The presentation
// value at time t folds the committed animations over the committed value in the order they
// were added; each receives the value so far and returns its replacement (additive ones add).
// An animation that has finished and will be removed on completion no longer contributes, even
// before the next update() physically removes it.

import SegueMath

/// A named animatable value of an ``AnimationHost``, with a model value (what was set) and a
/// presentation value (what is shown now, with running animations applied).
///
/// Create properties with ``AnimationHost/addProperty(_:initialValue:needsDisplay:defaultAction:)``.
/// A property lives as long as its host; keep the host alive while using it.
public final class AnimatableProperty<Value: Interpolatable> {
    /// The property's key in its host.
    public let key: String
    /// The host that owns the property.
    public unowned let host: AnimationHost
    /// Whether a change of the presentation value marks the host as needing display
    /// (`needsDisplay(forKey:)`).
    public let needsDisplayOnChange: Bool
    /// The action used when neither the delegate nor the host's actions dictionary has one.
    public let defaultAction: Action?

    /// The model value: the last value set, visible at once.
    public internal(set) var modelValue: Value
    var committedValue: Value
    var entries: [AnimationEntry<Value>] = []
    var isCommitScheduled = false
    private var generation = 0
    private var cache: (time: Double, generation: Int, value: Value)?
    private var displayedValue: Value

    init(key: String, host: AnimationHost, initialValue: Value, needsDisplay: Bool, defaultAction: Action?) {
        self.key = key
        self.host = host
        self.needsDisplayOnChange = needsDisplay
        self.defaultAction = defaultAction
        modelValue = initialValue
        committedValue = initialValue
        displayedValue = initialValue
    }

    // MARK: - Values

    /// The model value. Setting it runs the property's action (usually an implicit
    /// animation) in the current transaction; see ``AnimationHost/setValue(_:forKey:)``.
    public var value: Value {
        get { modelValue }
        set { host.setValue(newValue, for: self) }
    }

    /// The presentation value at the clock's current time.
    public var presentationValue: Value {
        presentationValue(at: host.context.currentTime)
    }

    /// The presentation value at `time`: the committed model value with the committed
    /// animations applied in the order they were added.
    public func presentationValue(at time: Double) -> Value {
        if let cache, cache.time == time, cache.generation == generation {
            return cache.value
        }
        let value = computePresentation(at: time)
        cache = (time, generation, value)
        return value
    }

    private func computePresentation(at time: Double) -> Value {
        var value = committedValue
        for entry in entries where entry.isCommitted {
            if entry.isRemovedOnCompletion && entry.timing.isFinished(atParentTime: time) {
                continue
            }
            if let animated = entry.animation.value(atParentTime: time, current: value) {
                value = animated
            }
        }
        return value
    }

    // MARK: - Animations

    /// Adds an animation to this property; see ``AnimationHost/addAnimation(_:forKey:toProperty:completion:)``.
    public func addAnimation(_ animation: some PropertyAnimation<Value>, forKey animationKey: String?,
                             completion: ((_ finished: Bool) -> Void)? = nil) {
        host.addAnimation(animation, forKey: animationKey, toProperty: key, completion: completion)
    }

    /// The keys of this property's animations, in the order they were added.
    public var animationKeys: [String] {
        entries.compactMap(\.key)
    }

    /// The animation under `animationKey`, with its timing as resolved when it was added.
    public func animation(forKey animationKey: String) -> (any PropertyAnimation<Value>)? {
        entries.first { $0.key == animationKey }?.animation
    }

    /// Whether any animation is attached (running, waiting to begin, or holding its end).
    public var hasAnimations: Bool { !entries.isEmpty }

    func append(_ entry: AnimationEntry<Value>) {
        entries.append(entry)
        generation += 1
        host.context.scheduleCommit(self)
    }

    /// Removes the entry at `index`, ending it as not finished if it was still running.
    private func removeEntry(at index: Int) {
        let entry = entries.remove(at: index)
        generation += 1
        end(entry, finished: false)
        host.scheduleUpdate(self)  // one more frame to notice the presentation change
    }

    private func end(_ entry: AnimationEntry<Value>, finished: Bool) {
        guard !entry.hasEnded else { return }
        entry.hasEnded = true
        host.context.animationEnded(groups: entry.groups, completion: entry.completion, finished: finished)
    }

    var hasRunningAnimations: Bool {
        entries.contains { !$0.hasEnded }
    }
}

// MARK: - Type-erased storage

/// The host's view of a property of any value type.
protocol PropertyStorage: AnyObject {
    var key: String { get }
    var defaultAction: Action? { get }
    var isCommitScheduled: Bool { get set }
    var animationKeys: [String] { get }
    /// Applies the model value and pending animations at the outermost commit.
    func commitChanges(at time: Double)
    /// Evaluates the property for a frame; returns whether it still needs frames.
    func update(at time: Double) -> Bool
    /// Removes the animation under `key`; returns whether there was one.
    @discardableResult func removeAnimation(forKey key: String) -> Bool
    func removeAllAnimations()
}

extension AnimatableProperty: PropertyStorage {
    func commitChanges(at time: Double) {
        committedValue = modelValue
        for entry in entries where !entry.isCommitted {
            entry.isCommitted = true
            if entry.timing.beginTime == 0 {
                entry.timing.beginTime = time
                entry.animation.timing.beginTime = time
            }
        }
        generation += 1
        if hasRunningAnimations {
            host.scheduleUpdate(self)
        }
        if needsDisplayOnChange {
            let now = presentationValue(at: time)
            if now != displayedValue {
                displayedValue = now
                host.markNeedsDisplay(key)
            }
        }
    }

    func update(at time: Double) -> Bool {
        var removed = false
        for entry in entries where entry.isCommitted && !entry.hasEnded && entry.timing.isFinished(atParentTime: time) {
            end(entry, finished: true)
            if entry.isRemovedOnCompletion {
                removed = true
            }
        }
        if removed {
            let keys = entries.compactMap { $0.hasEnded && $0.isRemovedOnCompletion ? $0.key : nil }
            entries.removeAll { $0.hasEnded && $0.isRemovedOnCompletion }
            generation += 1
            for key in keys {
                host.forgetAnimationKey(key)
            }
        }
        let value = presentationValue(at: time)
        if needsDisplayOnChange && value != displayedValue {
            displayedValue = value
            host.markNeedsDisplay(key)
        }
        return hasRunningAnimations
    }

    @discardableResult
    func removeAnimation(forKey animationKey: String) -> Bool {
        guard let index = entries.firstIndex(where: { $0.key == animationKey }) else { return false }
        removeEntry(at: index)
        return true
    }

    func removeAllAnimations() {
        while !entries.isEmpty {
            removeEntry(at: entries.count - 1)
        }
    }
}

/// One animation attached to a property.
final class AnimationEntry<Value: Interpolatable> {
    let key: String?
    var animation: any PropertyAnimation<Value>
    /// A copy of the animation's resolved timing, read without dynamic dispatch.
    var timing: MediaTiming
    let isRemovedOnCompletion: Bool
    let groups: [CompletionGroup]
    let completion: ((Bool) -> Void)?
    /// Whether the outermost transaction has committed it (only then is it evaluated).
    var isCommitted = false
    /// Whether it has finished or been removed (its completion has been reported).
    var hasEnded = false

    init(key: String?, animation: any PropertyAnimation<Value>, groups: [CompletionGroup],
         completion: ((Bool) -> Void)?) {
        self.key = key
        self.animation = animation
        timing = animation.timing
        isRemovedOnCompletion = animation.isRemovedOnCompletion
        self.groups = groups
        self.completion = completion
    }
}
