// How many GPU contexts are open, and in which process. A child made by fork() inherits its
// parent's count, and some drivers open no device there: NVIDIA's (driver 580, measured on an
// H200) refuses `vkCreateDevice` with VK_ERROR_INITIALIZATION_FAILED in a child forked while its
// parent held a Vulkan instance, however the child goes about it; lavapipe does not. The count
// turns that bare result into an error that says why and what to do instead. Atomics, not a lock:
// a lock that another thread of the parent held at the fork would never be released in the child.
import CSegueVulkan
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum OpenContexts {
    /// The process in the high 32 bits, its open contexts in the low 32: one word, so that two
    /// threads opening a process's first contexts at once cannot lose a count.
    private static let state = Atomic<UInt64>(0)

    private static func pack(_ process: pid_t, _ count: Int) -> UInt64 {
        UInt64(UInt32(bitPattern: process)) << 32 | UInt64(UInt32(clamping: max(count, 0)))
    }

    private static func unpack(_ word: UInt64) -> (process: pid_t, count: Int) {
        (pid_t(bitPattern: UInt32(truncatingIfNeeded: word >> 32)), Int(UInt32(truncatingIfNeeded: word)))
    }

    /// Changes the word by `change` (old process and count in, new ones out) until no other
    /// thread changed it in between.
    private static func update(_ change: ((process: pid_t, count: Int)) -> (process: pid_t, count: Int)) {
        var old = state.load(ordering: .relaxed)
        while true {
            let next = change(unpack(old))
            let (exchanged, original) = state.compareExchange(expected: old, desired: pack(next.process, next.count), ordering: .relaxed)
            if exchanged { return }
            old = original
        }
    }

    /// Counts a context opened in `me`, starting from 0 again in a process whose count was its
    /// parent's.
    static func opened(in me: pid_t) {
        update { now in (me, now.process == me ? now.count + 1 : 1) }
    }

    /// Counts a context that `me` opened closed.
    static func closed(in me: pid_t) {
        update { now in now.process == me ? (me, max(now.count - 1, 0)) : now }
    }

    /// `error`, or `.refusedAfterFork` when it is the refusal a driver gives a child forked
    /// while its parent held contexts (`VK_ERROR_INITIALIZATION_FAILED`) and the count is such
    /// a parent's.
    static func explain(_ error: VulkanError, in me: pid_t) -> VulkanError {
        let now = unpack(state.load(ordering: .relaxed))
        return explain(error, in: me, parent: now.process, open: now.count)
    }

    /// `explain(_:in:)` with the count given.
    static func explain(_ error: VulkanError, in me: pid_t, parent: pid_t, open: Int) -> VulkanError {
        guard case let .call(_, code) = error, code == VK_ERROR_INITIALIZATION_FAILED.rawValue, parent != 0, parent != me, open > 0
        else { return error }
        return .refusedAfterFork(ForkRefusal(process: me, parent: parent, open: open, refusal: error.description))
    }
}
