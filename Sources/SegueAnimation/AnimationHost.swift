import SegueMath

/// Answers a host's questions about actions and drawing (CALayerDelegate).
public protocol AnimationHostDelegate: AnyObject {
    /// The action for a change of `key`, or `nil` to let the host keep searching
    /// (``Action/noAction`` stops the search). Default: `nil`.
    func action(for host: AnimationHost, forKey key: String) -> Action?

    /// Draws the host's content; called by ``AnimationHost/displayIfNeeded()``. Default: nothing.
    func display(_ host: AnimationHost)
}

extension AnimationHostDelegate {
    /// No opinion: the host keeps searching.
    public func action(for host: AnimationHost, forKey key: String) -> Action? { nil }

    /// Draws nothing.
    public func display(_ host: AnimationHost) {}
}

/// A layer-like object holding named animatable properties, their animations and actions.
///
/// Setting a property updates its model value at once, runs the property's action (found by
/// ``action(forKey:)``) and takes effect on the presentation when the outermost transaction
/// of the ``AnimationContext`` commits. Animations are stored under keys unique within the
/// host (adding under a used key replaces that animation, whatever its property) and are
/// evaluated in the order added. Subclass and override ``defaultAction(forKey:)`` to give
/// properties class-wide defaults, as `CALayer.defaultAction(forKey:)`.
open class AnimationHost {
    /// The context whose clock and transactions this host uses.
    public let context: AnimationContext
    /// Consulted first for actions, and asked to display.
    public weak var delegate: (any AnimationHostDelegate)?
    /// Actions by property key, consulted after the delegate (CALayer.actions).
    public var actions: [String: Action] = [:]
    /// Called after a frame or commit in which presentation values of properties declared
    /// with `needsDisplay: true` changed, with their keys (at most once per update).
    public var needsDisplayHandler: ((AnimationHost, Set<String>) -> Void)?
    /// Whether the host must be redrawn (set when a needs-display property's presentation
    /// value changes, or by ``setNeedsDisplay()``; cleared by ``displayIfNeeded()``).
    public private(set) var needsDisplay = false

    private var properties: [String: any PropertyStorage] = [:]
    private var propertyOrder: [String] = []
    private var animationOwners: [String: String] = [:]
    private var activeProperties: [any PropertyStorage] = []
    private var changedDisplayKeys: Set<String> = []

    /// Creates a host in `context`.
    public init(context: AnimationContext) {
        self.context = context
    }

    // MARK: - Properties

    /// Declares a property.
    ///
    /// - Parameters:
    ///   - key: its name, unique in this host.
    ///   - initialValue: the model and presentation value to start with.
    ///   - needsDisplay: whether presentation changes mark the host as needing display.
    ///   - defaultAction: the action when neither delegate nor ``actions`` has one; pass
    ///     ``Action/implicitAnimation`` to animate changes implicitly.
    /// - Precondition: no property has this key yet.
    @discardableResult
    public func addProperty<Value: Interpolatable>(
        _ key: String, initialValue: Value, needsDisplay: Bool = false, defaultAction: Action? = nil
    ) -> AnimatableProperty<Value> {
        precondition(properties[key] == nil, "AnimationHost already has a property '\(key)'")
        let property = AnimatableProperty(
            key: key, host: self, initialValue: initialValue,
            needsDisplay: needsDisplay, defaultAction: defaultAction)
        properties[key] = property
        propertyOrder.append(key)
        return property
    }

    /// The property under `key` with value type `Value`, or `nil`.
    public func property<Value: Interpolatable>(_ key: String, as type: Value.Type = Value.self) -> AnimatableProperty<Value>? {
        properties[key] as? AnimatableProperty<Value>
    }

    /// The property keys in declaration order.
    public var propertyKeys: [String] { propertyOrder }

    private func typedProperty<Value: Interpolatable>(_ key: String, _ type: Value.Type) -> AnimatableProperty<Value> {
        guard let storage = properties[key] else {
            preconditionFailure("AnimationHost has no property '\(key)'")
        }
        guard let property = storage as? AnimatableProperty<Value> else {
            preconditionFailure("AnimationHost property '\(key)' does not hold values of type \(Value.self)")
        }
        return property
    }

    /// Sets the model value of the property `key` (running its action).
    ///
    /// - Precondition: the property exists and holds `Value`.
    public func setValue<Value: Interpolatable>(_ value: Value, forKey key: String) {
        setValue(value, for: typedProperty(key, Value.self))
    }

    /// The model value of the property `key`.
    public func modelValue<Value: Interpolatable>(forKey key: String, as type: Value.Type = Value.self) -> Value {
        typedProperty(key, type).modelValue
    }

    /// The presentation value of the property `key` at the clock's current time.
    public func presentationValue<Value: Interpolatable>(forKey key: String, as type: Value.Type = Value.self) -> Value {
        typedProperty(key, type).presentationValue
    }

    func setValue<Value: Interpolatable>(_ value: Value, for property: AnimatableProperty<Value>) {
        context.withImplicitTransaction {
            let previous = property.presentationValue
            property.modelValue = value
            context.scheduleCommit(property)
            if !context.disableActions, let action = action(forKey: property.key) {
                action.run(ActionInvocation(host: self, key: property.key, previousValue: previous, newValue: value))
            }
        }
    }

    // MARK: - Actions

    /// The action for a change of `key`: the delegate's, else ``actions``[key], else
    /// ``defaultAction(forKey:)``. The first non-nil answer wins; ``Action/noAction`` stops
    /// the search and yields `nil`.
    open func action(forKey key: String) -> Action? {
        if let action = delegate?.action(for: self, forKey: key) {
            return action.isNoAction ? nil : action
        }
        if let action = actions[key] {
            return action.isNoAction ? nil : action
        }
        if let action = defaultAction(forKey: key) {
            return action.isNoAction ? nil : action
        }
        return nil
    }

    /// The class-wide default action for `key`: by default the `defaultAction` the property
    /// was declared with.
    open func defaultAction(forKey key: String) -> Action? {
        properties[key]?.defaultAction
    }

    // MARK: - Animations

    /// Adds `animation` to the property `propertyKey` under `key`, replacing any animation
    /// of this host under the same key.
    ///
    /// The animation takes effect at the outermost commit. A duration of 0 becomes the
    /// transaction's ``Transaction/animationDuration``; no timing function becomes the
    /// transaction's ``Transaction/animationTimingFunction`` (except for spring animations);
    /// a `beginTime` of 0 becomes the commit time. The animation counts toward the
    /// completion of every open transaction.
    ///
    /// - Parameters:
    ///   - completion: called with `true` when the active duration has passed, or `false`
    ///     when the animation is removed or replaced first.
    /// - Precondition: the property exists and holds `Animation.Value`.
    public func addAnimation<Animation: PropertyAnimation>(
        _ animation: Animation, forKey key: String?, toProperty propertyKey: String,
        completion: ((_ finished: Bool) -> Void)? = nil
    ) {
        let property = typedProperty(propertyKey, Animation.Value.self)
        context.withImplicitTransaction {
            if let key, let owner = animationOwners.removeValue(forKey: key) {
                // Replaced: its completion reports false when callbacks next run.
                properties[owner]?.removeAnimation(forKey: key)
            }
            var resolved = animation
            if resolved.timing.duration == 0 {
                resolved.timing.duration = context.animationDuration > 0 ? context.animationDuration : MediaTiming.defaultDuration
            }
            if resolved.timing.timingFunction == nil, !(resolved is any SpringDrivenAnimation) {
                resolved.timing.timingFunction = context.animationTimingFunction
            }
            let groups = context.openGroups()
            for group in groups {
                group.pending += 1
            }
            property.append(AnimationEntry(key: key, animation: resolved, groups: groups, completion: completion))
            if let key {
                animationOwners[key] = propertyKey
            }
        }
    }

    /// Removes the animation under `key` at once (its completion reports `false` if it was
    /// still running); the presentation returns to the model value and other animations.
    public func removeAnimation(forKey key: String) {
        guard let owner = animationOwners.removeValue(forKey: key) else { return }
        properties[owner]?.removeAnimation(forKey: key)
        context.runCallbacks()
    }

    /// Removes every animation of every property.
    public func removeAllAnimations() {
        animationOwners.removeAll()
        for key in propertyOrder {
            properties[key]?.removeAllAnimations()
        }
        context.runCallbacks()
    }

    /// The keys of all keyed animations, property by property in declaration order, each in
    /// the order added.
    public var animationKeys: [String] {
        propertyOrder.flatMap { properties[$0]?.animationKeys ?? [] }
    }

    /// The key of the property the animation under `key` animates, or `nil`.
    public func propertyKey(forAnimationKey key: String) -> String? {
        animationOwners[key]
    }

    func forgetAnimationKey(_ key: String) {
        animationOwners.removeValue(forKey: key)
    }

    // MARK: - Frames

    /// Makes sure `property` is evaluated at the next ``AnimationContext/update()``.
    func scheduleUpdate(_ property: any PropertyStorage) {
        if !property.isUpdateScheduled {
            property.isUpdateScheduled = true
            activeProperties.append(property)
        }
        context.activate(self)
    }

    /// Whether the context lists this host for ``AnimationContext/update()``.
    var isScheduledForUpdate = false

    /// Evaluates the active properties at `time`; returns how many were evaluated and
    /// whether any still needs frames. Properties never schedule updates while being
    /// updated, so the list is compacted in place.
    func update(at time: Double) -> (evaluated: Int, active: Bool) {
        let count = activeProperties.count
        var kept = 0
        for index in 0..<count {
            let property = activeProperties[index]
            if property.update(at: time) {
                if kept != index {
                    activeProperties[kept] = property
                }
                kept += 1
            } else {
                property.isUpdateScheduled = false
            }
        }
        activeProperties.removeLast(count - kept)
        return (count, kept > 0)
    }

    // MARK: - Display

    /// Marks the host as needing display.
    public func setNeedsDisplay() {
        needsDisplay = true
    }

    /// If the host needs display, asks the delegate to display and clears the flag.
    public func displayIfNeeded() {
        guard needsDisplay else { return }
        needsDisplay = false
        delegate?.display(self)
    }

    func markNeedsDisplay(_ key: String) {
        needsDisplay = true
        if changedDisplayKeys.isEmpty {
            context.enqueueCallback { [weak self] in
                guard let self else { return }
                let keys = self.changedDisplayKeys
                self.changedDisplayKeys = []
                self.needsDisplayHandler?(self, keys)
            }
        }
        changedDisplayKeys.insert(key)
    }
}
