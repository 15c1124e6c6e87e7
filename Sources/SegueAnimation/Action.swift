import SegueMath

/// What happens when a property of an ``AnimationHost`` is set (CAAction).
///
/// Actions are found by ``AnimationHost/action(forKey:)``: the delegate's answer, then the
/// host's ``AnimationHost/actions`` dictionary, then the default action. The first non-nil
/// answer wins; ``noAction`` (Core Animation's `NSNull`) stops the search with no action.
public struct Action {
    enum Kind {
        case noAction
        case run((ActionInvocation) -> Void)
    }

    let kind: Kind

    /// An action that runs `body` when the property changes (after the model value is set,
    /// before the transaction commits).
    public init(_ body: @escaping (ActionInvocation) -> Void) {
        kind = .run(body)
    }

    private init(kind: Kind) {
        self.kind = kind
    }

    /// The explicit "no action": stops the search, so the change is not animated.
    public static var noAction: Action { Action(kind: .noAction) }

    /// Whether this is ``noAction``.
    public var isNoAction: Bool {
        if case .noAction = kind { return true }
        return false
    }

    /// The implicit animation: a ``BasicAnimation`` from the presentation value before the
    /// change to the new value, added under the property's key, with the transaction's
    /// duration and timing function (``TimingFunction/default`` when it has none).
    public static var implicitAnimation: Action {
        Action { $0.addImplicitAnimation() }
    }

    /// Adds a copy of `animation` under the property's key. A ``BasicAnimation`` or
    /// ``SpringAnimation`` with no from/to/by value animates from the presentation value
    /// before the change to the new value (Core Animation's behaviour for such actions).
    ///
    /// The animation's value type must be the property's.
    public static func animation<Animation: PropertyAnimation>(_ animation: Animation) -> Action {
        Action { $0.addAnimation(animation) }
    }

    /// A ``SpringAnimation`` on `spring` from the presentation value before the change to the
    /// new value, lasting the spring's settling duration.
    public static func spring(_ spring: Spring) -> Action {
        Action { $0.addSpringAnimation(spring) }
    }

    func run(_ invocation: ActionInvocation) {
        if case .run(let body) = kind {
            body(invocation)
        }
    }
}

/// The context an ``Action`` runs in: which property changed, and its values.
public struct ActionInvocation {
    /// The host whose property changed.
    public let host: AnimationHost
    /// The property's key.
    public let key: String
    /// The presentation value just before the change (with running animations applied).
    public let previousValue: any Interpolatable
    /// The new model value.
    public let newValue: any Interpolatable

    /// Adds `animation` to the changed property under `animationKey` (default: the
    /// property's key, replacing any animation there). A basic or spring animation with no
    /// from/to/by value gets ``previousValue`` as its `fromValue`.
    public func addAnimation<Animation: PropertyAnimation>(_ animation: Animation, forKey animationKey: String? = nil) {
        var animation = animation
        if var basic = animation as? BasicAnimation<Animation.Value>, basic.hasNoValues,
            let from = previousValue as? Animation.Value
        {
            basic.fromValue = from
            if let filled = basic as? Animation { animation = filled }
        } else if var spring = animation as? SpringAnimation<Animation.Value>, spring.hasNoValues,
            let from = previousValue as? Animation.Value
        {
            spring.fromValue = from
            if let filled = spring as? Animation { animation = filled }
        }
        host.addAnimation(animation, forKey: animationKey ?? key, toProperty: key)
    }

    /// Adds the implicit animation (see ``Action/implicitAnimation``).
    public func addImplicitAnimation() {
        addImplicit(from: previousValue)
    }

    private func addImplicit<Value: Interpolatable>(from previous: Value) {
        var animation = BasicAnimation<Value>(fromValue: previous)
        animation.timing.timingFunction = host.context.animationTimingFunction ?? .default
        host.addAnimation(animation, forKey: key, toProperty: key)
    }

    /// Adds a spring animation from ``previousValue`` (see ``Action/spring(_:)``).
    public func addSpringAnimation(_ spring: Spring) {
        addSpring(spring, from: previousValue)
    }

    private func addSpring<Value: Interpolatable>(_ spring: Spring, from previous: Value) {
        host.addAnimation(SpringAnimation<Value>(spring: spring, fromValue: previous), forKey: key, toProperty: key)
    }
}
