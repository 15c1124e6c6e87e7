// How many GPU contexts are open, and in which process. A child made by fork() inherits its
// parent's count, and some drivers open no device there: NVIDIA's (driver 580, measured on an
// H200) refuses `vkCreateDevice` with VK_ERROR_INITIALIZATION_FAILED in a child forked while its
// parent held a Vulkan instance, however the child goes about it; lavapipe does not. The count
// turns that bare result into an error that says why and what to do instead. Atomics, not a lock:
// a lock that another thread of the parent held at the fork would never be released in the child.
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum OpenContexts {
    private static let process = Atomic<Int32>(0)
    private static let count = Atomic<Int>(0)

    /// Counts a context opened in `me`, starting from 0 again in a process whose count was its
    /// parent's.
    static func opened(in me: pid_t) {
        if process.exchange(me, ordering: .relaxed) != me { count.store(0, ordering: .relaxed) }
        count.add(1, ordering: .relaxed)
    }

    /// Counts a context that `me` opened closed.
    static func closed(in me: pid_t) {
        if process.load(ordering: .relaxed) == me { count.subtract(1, ordering: .relaxed) }
    }

    /// `error`, or `.refusedAfterFork` when it is a failing call in `me` while the count is a
    /// parent's with contexts open.
    static func explain(_ error: VulkanError, in me: pid_t) -> VulkanError {
        explain(error, in: me, parent: process.load(ordering: .relaxed), open: count.load(ordering: .relaxed))
    }

    /// `explain(_:in:)` with the count given.
    static func explain(_ error: VulkanError, in me: pid_t, parent: pid_t, open: Int) -> VulkanError {
        guard case .call = error, parent != 0, parent != me, open > 0 else { return error }
        return .refusedAfterFork(ForkRefusal(process: me, parent: parent, open: open, refusal: error.description))
    }
}
