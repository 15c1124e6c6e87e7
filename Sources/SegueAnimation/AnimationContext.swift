// The animation context owns what Core Animation keeps in global/thread-local state: the clock,
// the transaction stack, the changes waiting for the outermost commit, the hosts with running
// animations, and the callbacks to run once the engine's own bookkeeping is done. Keeping that
// state in an object (instead of globals) is what lets the engine pass Swift 6's concurrency
// checking: a context and its hosts are not Sendable and belong to one thread or actor.
//
// Commit: setting a property or adding an animation takes effect on the model at once, and on
// the presentation at the outermost commit, when `flush` copies model values into the
// committed state, gives animations with beginTime 0 the commit time, seals the committed
// transactions' completion groups and fires those with nothing pending. Work done outside any
// transaction runs in an implicit transaction committed before the call returns (Core
// Animation commits its implicit transaction at the end of the run-loop turn; there is no run
// loop here).
//
// User callbacks (completion handlers, display notifications) are queued and run after the
// engine's state is consistent, so they may freely set properties or add animations.

/// The clock, transaction stack and frame update of a family of ``AnimationHost``s.
///
/// Not thread-safe: use a context and its hosts from one thread or actor.
public final class AnimationContext {
    /// The clock all hosts of this context read.
    public let clock: any AnimationClock

    private var stack: [Transaction] = []
    private var committedGroups: [CompletionGroup] = []
    private var pendingCommits: [any PropertyStorage] = []
    private var activeHosts: [AnimationHost] = []
    private var callbacks: [() -> Void] = []
    private var isRunningCallbacks = false

    /// Creates a context reading time from `clock`.
    public init(clock: any AnimationClock) {
        self.clock = clock
    }

    /// The clock's current time.
    public var currentTime: Double { clock.now }

    // MARK: - Transactions

    /// The innermost open transaction, or `nil` outside any.
    public var currentTransaction: Transaction? { stack.last }

    /// How deeply transactions are nested now (0 outside any).
    public var transactionDepth: Int { stack.count }

    /// Opens a (possibly nested) transaction and returns it for configuration.
    @discardableResult
    public func begin() -> Transaction {
        let transaction = Transaction(parent: stack.last)
        stack.append(transaction)
        return transaction
    }

    /// Closes the innermost transaction; closing the outermost one commits every change made
    /// since it began.
    ///
    /// - Precondition: a transaction is open.
    public func commit() {
        precondition(!stack.isEmpty, "AnimationContext.commit() without a matching begin()")
        let transaction = stack.removeLast()
        committedGroups.append(transaction.group)
        if stack.isEmpty {
            flush()
        }
    }

    /// Runs `body` inside a transaction (begin, body, commit) and returns its result.
    @discardableResult
    public func perform<Result>(_ body: (Transaction) throws -> Result) rethrows -> Result {
        let transaction = begin()
        defer { commit() }
        return try body(transaction)
    }

    /// The effective animation duration for changes made now (0.25 s outside transactions).
    public var animationDuration: Double {
        currentTransaction?.animationDuration ?? MediaTiming.defaultDuration
    }

    /// The effective timing function for animations added now (`nil` outside transactions).
    public var animationTimingFunction: TimingFunction? {
        currentTransaction?.animationTimingFunction
    }

    /// Whether actions are disabled for changes made now.
    public var disableActions: Bool {
        currentTransaction?.disableActions ?? false
    }

    /// Runs `body` in the current transaction, or in an implicit one committed right after.
    func withImplicitTransaction(_ body: () -> Void) {
        if stack.isEmpty {
            begin()
            body()
            commit()
        } else {
            body()
        }
    }

    /// The completion groups a newly added animation belongs to: every open transaction's,
    /// innermost first (so nested completions run before enclosing ones).
    func openGroups() -> [CompletionGroup] {
        stack.reversed().map(\.group)
    }

    /// Schedules `property` to have its changes applied at the outermost commit.
    func scheduleCommit(_ property: any PropertyStorage) {
        guard !property.isCommitScheduled else { return }
        property.isCommitScheduled = true
        pendingCommits.append(property)
    }

    private func flush() {
        let now = clock.now
        while !pendingCommits.isEmpty {
            let properties = pendingCommits
            pendingCommits = []
            for property in properties {
                property.isCommitScheduled = false
                property.commitChanges(at: now)
            }
        }
        let groups = committedGroups
        committedGroups = []
        for group in groups {
            group.isSealed = true
            completeIfDone(group)
        }
        runCallbacks()
    }

    // MARK: - Completion bookkeeping

    /// Records that an animation in `groups` has finished or been removed.
    func animationEnded(groups: [CompletionGroup], completion: ((Bool) -> Void)?, finished: Bool) {
        if let completion {
            callbacks.append { completion(finished) }
        }
        for group in groups {
            group.pending -= 1
            completeIfDone(group)
        }
    }

    private func completeIfDone(_ group: CompletionGroup) {
        guard group.isSealed, group.pending == 0, !group.hasFired else { return }
        group.hasFired = true
        if let handler = group.handler {
            callbacks.append(handler)
        }
    }

    /// Queues a user callback to run once the engine is consistent.
    func enqueueCallback(_ callback: @escaping () -> Void) {
        callbacks.append(callback)
    }

    /// Runs queued callbacks (those they queue too), unless already doing so further up.
    func runCallbacks() {
        guard !isRunningCallbacks else { return }
        isRunningCallbacks = true
        defer { isRunningCallbacks = false }
        while !callbacks.isEmpty {
            let batch = callbacks
            callbacks = []
            for callback in batch {
                callback()
            }
        }
    }

    // MARK: - Frames

    /// Registers a host with running animations for ``update()``.
    func activate(_ host: AnimationHost) {
        if !host.isScheduledForUpdate {
            host.isScheduledForUpdate = true
            activeHosts.append(host)
        }
    }

    /// The number of hosts with running animations.
    public var activeHostCount: Int { activeHosts.count }

    /// Advances every animated property to the clock's current time: evaluates its
    /// presentation value, detects finished animations (removing them unless they opt out,
    /// and completing their transactions), and marks hosts needing display. Then runs the
    /// callbacks that became due. Call it once per frame.
    ///
    /// - Returns: the number of animated properties evaluated.
    @discardableResult
    public func update() -> Int {
        let now = clock.now
        // Hosts only join the list from commits and removals, never during this loop, so
        // the list is compacted in place.
        let count = activeHosts.count
        var kept = 0
        var evaluated = 0
        for index in 0..<count {
            let host = activeHosts[index]
            let (properties, stillActive) = host.update(at: now)
            evaluated += properties
            if stillActive {
                if kept != index {
                    activeHosts[kept] = host
                }
                kept += 1
            } else {
                host.isScheduledForUpdate = false
            }
        }
        activeHosts.removeSubrange(kept..<count)
        runCallbacks()
        return evaluated
    }
}
