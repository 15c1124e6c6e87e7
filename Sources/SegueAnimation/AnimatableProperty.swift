// A property's state: the model value (set now), the committed value (what the presentation
// starts from, updated at the outermost commit), and the ordered animations. The presentation
// value at time t folds the committed animations over the committed value in the order they
// were added; each receives the value so far and returns its replacement (additive ones add).
// An animation that has finished and will be removed on completion no longer contributes, even
// before the next update() physically removes it.
//
// Performance: the per-frame path, update(at:), is pre-specialized with `@specialized` for the
// value types Segue animates (Double, vectors, Transform3D, colours); other types run the
// generic code. Everything it calls is specialized with it: the presentation value, and the
// built-in animations, which an entry holds as concrete types (see AnimationEntry.swift) so
// that no call goes through the protocol. It avoids generic tuples, optionals of generic
// tuples and iterators, whose metadata the unspecialized code would look up at run time. A
// presentation value read after the frame's update comes from the cache.

import SegueMath

/// A named animatable value of an ``AnimationHost``, with a model value (what was set) and a
/// presentation value (what is shown now, with running animations applied).
///
/// Create properties with ``AnimationHost/addProperty(_:initialValue:needsDisplay:defaultAction:)``.
/// The host owns its properties; a property kept after its host is gone holds its model value
/// and animates no more.
public final class AnimatableProperty<Value: Interpolatable> {
    /// The property's key in its host.
    public let key: String
    /// The host that owns the property (nil once the host is gone).
    public private(set) weak var host: AnimationHost?
    /// Whether a change of the presentation value marks the host as needing display
    /// (`needsDisplay(forKey:)`).
    public let needsDisplayOnChange: Bool
    /// The action used when neither the delegate nor the host's actions dictionary has one.
    public let defaultAction: Action?

    /// The model value: the last value set, visible at once.
    public internal(set) var modelValue: Value
    var committedValue: Value
    var entries: [AnimationEntry<Value>] = []
    /// Entries not yet finished or removed.
    private var runningCount = 0
    var isCommitScheduled = false
    var isUpdateScheduled = false
    private var generation = 0
    private var cacheTime = -Double.infinity
    private var cacheGeneration = -1
    private var cachedValue: Value
    private var displayedValue: Value

    init(key: String, host: AnimationHost, initialValue: Value, needsDisplay: Bool, defaultAction: Action?) {
        self.key = key
        self.host = host
        self.needsDisplayOnChange = needsDisplay
        self.defaultAction = defaultAction
        modelValue = initialValue
        committedValue = initialValue
        cachedValue = initialValue
        displayedValue = initialValue
    }

    // MARK: - Values

    /// The model value. Setting it runs the property's action (usually an implicit
    /// animation) in the current transaction; see ``AnimationHost/setValue(_:forKey:)``.
    public var value: Value {
        get { modelValue }
        set {
            if let host {
                host.setValue(newValue, for: self)
            } else {
                modelValue = newValue
                committedValue = newValue
                generation += 1
            }
        }
    }

    /// The presentation value at the clock's current time.
    public var presentationValue: Value {
        host.map { presentationValue(at: $0.context.currentTime) } ?? committedValue
    }

    /// The presentation value at `time`: the committed model value with the committed
    /// animations applied in the order they were added.
    public func presentationValue(at time: Double) -> Value {
        if cacheTime == time && cacheGeneration == generation {
            return cachedValue
        }
        var value = committedValue
        forEachCommittedEntry { entry in
            let localTime = time - entry.timeShift
            if entry.isRemovedOnCompletion && entry.timing.isFinished(atParentTime: localTime) {
                return
            }
            if let animated = entry.value(atParentTime: localTime, current: value) {
                value = animated
            }
        }
        cacheTime = time
        cacheGeneration = generation
        cachedValue = value
        return value
    }

    // MARK: - Animations

    /// Adds an animation to this property; see ``AnimationHost/addAnimation(_:forKey:toProperty:completion:)``.
    /// Without a host (it is gone) nothing animates and `completion` is called with false.
    public func addAnimation(
        _ animation: some PropertyAnimation<Value>, forKey animationKey: String?,
        completion: ((_ finished: Bool) -> Void)? = nil
    ) {
        guard let host else { completion?(false); return }
        host.addAnimation(animation, forKey: animationKey, toProperty: key, completion: completion)
    }

    /// The keys of this property's animations, in the order they were added.
    public var animationKeys: [String] {
        entries.compactMap(\.key)
    }

    /// The animation under `animationKey`, with its timing as resolved when it was added
    /// (and its begin time as resolved at the commit).
    public func animation(forKey animationKey: String) -> (any PropertyAnimation<Value>)? {
        entries.first { $0.key == animationKey }?.resolvedAnimation
    }

    /// Whether any animation is attached (running, waiting to begin, or holding its end).
    public var hasAnimations: Bool { !entries.isEmpty }

    func append(_ entry: AnimationEntry<Value>) {
        entries.append(entry)
        runningCount += 1
        generation += 1
        host?.context.scheduleCommit(self)
    }

    /// Calls `body` with each entry the outermost transaction has committed, in the order they
    /// were added. An index loop: no iterator, whose metadata the unspecialized code would look
    /// up at run time.
    @inline(__always)
    private func forEachCommittedEntry(_ body: (AnimationEntry<Value>) -> Void) {
        var index = 0
        let count = entries.count
        while index < count {
            let entry = entries[index]
            index += 1
            if entry.isCommitted {
                body(entry)
            }
        }
    }

    /// Removes the entry at `index`, ending it as not finished if it was still running.
    private func removeEntry(at index: Int) {
        let entry = entries.remove(at: index)
        generation += 1
        end(entry, finished: false)
        host?.scheduleUpdate(self)  // one more frame to notice the presentation change
    }

    private func end(_ entry: AnimationEntry<Value>, finished: Bool) {
        guard !entry.hasEnded else { return }
        entry.hasEnded = true
        runningCount -= 1
        host?.context.animationEnded(groups: entry.groups, completion: entry.completion, finished: finished)
    }
}

// MARK: - Type-erased storage

/// The host's view of a property of any value type.
protocol PropertyStorage: AnyObject {
    var key: String { get }
    var defaultAction: Action? { get }
    var isCommitScheduled: Bool { get set }
    var isUpdateScheduled: Bool { get set }
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
                entry.timeShift = time
            }
        }
        generation += 1
        if runningCount > 0 {
            host?.scheduleUpdate(self)
        }
        if needsDisplayOnChange {
            let now = presentationValue(at: time)
            if now != displayedValue {
                displayedValue = now
                host?.markNeedsDisplay(key)
            }
        }
    }

    @specialized(where Value == Double)
    @specialized(where Value == Vector2)
    @specialized(where Value == Vector3)
    @specialized(where Value == Vector4)
    @specialized(where Value == Transform3D)
    @specialized(where Value == AnimatableColor)
    func update(at time: Double) -> Bool {
        var removed = false
        forEachCommittedEntry { entry in
            if !entry.hasEnded && entry.timing.isFinished(atParentTime: time - entry.timeShift) {
                end(entry, finished: true)
                removed = removed || entry.isRemovedOnCompletion
            }
        }
        if removed {
            removeFinishedEntries()
        }
        let value = presentationValue(at: time)
        if needsDisplayOnChange && value != displayedValue {
            displayedValue = value
            host?.markNeedsDisplay(key)
        }
        return runningCount > 0
    }

    private func removeFinishedEntries() {
        let keys = entries.compactMap { $0.hasEnded && $0.isRemovedOnCompletion ? $0.key : nil }
        entries.removeAll { $0.hasEnded && $0.isRemovedOnCompletion }
        generation += 1
        for key in keys {
            host?.forgetAnimationKey(key)
        }
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
