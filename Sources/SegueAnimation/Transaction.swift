/// One level of an ``AnimationContext``'s transaction stack (CATransaction).
///
/// Settings made on a transaction apply to changes made while it is the innermost open one;
/// a setting not made on it is inherited from the enclosing transaction, then from the
/// defaults (0.25 s, no timing function, actions enabled). Changes become visible (model
/// values reach the presentation, animations start) when the OUTERMOST transaction commits.
public final class Transaction {
    /// The enclosing transaction, if this one is nested.
    public let parent: Transaction?

    private var ownDuration: Double?
    private var ownTimingFunction: TimingFunction?
    private var ownDisableActions: Bool?
    let group = CompletionGroup()

    init(parent: Transaction?) {
        self.parent = parent
    }

    /// The duration given to animations added in this transaction whose duration is 0
    /// (default 0.25 s).
    ///
    /// - Precondition: set only to a non-negative value.
    public var animationDuration: Double {
        get { ownDuration ?? parent?.animationDuration ?? MediaTiming.defaultDuration }
        set {
            precondition(newValue >= 0, "animationDuration must not be negative")
            ownDuration = newValue
        }
    }

    /// The timing function given to animations added in this transaction that have none;
    /// implicit animations use ``TimingFunction/default`` when this is `nil`.
    public var animationTimingFunction: TimingFunction? {
        get { ownTimingFunction ?? parent?.animationTimingFunction }
        set { ownTimingFunction = newValue }
    }

    /// Whether setting a property skips the action search (no implicit animation).
    public var disableActions: Bool {
        get { ownDisableActions ?? parent?.disableActions ?? false }
        set { ownDisableActions = newValue }
    }

    /// Runs once every animation added in this transaction (including nested ones) has
    /// finished or been removed; at the outermost commit if none was added. It runs from
    /// ``AnimationContext/update()`` or from the call that removed the last animation.
    public var completion: (() -> Void)? {
        get { group.handler }
        set { group.handler = newValue }
    }
}

/// Tracks the animations of one transaction for its completion handler.
final class CompletionGroup {
    /// Animations added and not yet finished or removed.
    var pending = 0
    /// Whether the transaction has been committed and flushed.
    var isSealed = false
    /// Whether the handler has been scheduled.
    var hasFired = false
    var handler: (() -> Void)?
}
