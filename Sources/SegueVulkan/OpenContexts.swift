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
    /// What a process has open: the contexts, and whether one is on a driver that refuses a
    /// forked child (NVIDIA's: it answered VK_ERROR_INITIALIZATION_FAILED, and once hung for
    /// good, in such a child on the H200).
    struct Count: Equatable {
        /// The process.
        var process: pid_t
        /// Its open contexts.
        var open: Int
        /// Whether one of them is on a driver that refuses a forked child.
        var refusingDriver: Bool
    }

    /// The process in the high 32 bits, the refusing-driver flag in bit 31 and the count below
    /// it: one word, so that two threads opening a process's first contexts at once cannot lose
    /// a count.
    private static let state = Atomic<UInt64>(0)

    private static func pack(_ c: Count) -> UInt64 {
        UInt64(UInt32(bitPattern: c.process)) << 32 | (c.refusingDriver ? 1 << 31 : 0) | UInt64(min(max(c.open, 0), 0x7fff_ffff))
    }

    private static func unpack(_ word: UInt64) -> Count {
        Count(
            process: pid_t(bitPattern: UInt32(truncatingIfNeeded: word >> 32)), open: Int(word & 0x7fff_ffff),
            refusingDriver: word & (1 << 31) != 0)
    }

    /// Changes the word by `change` until no other thread changed it in between.
    private static func update(_ change: (Count) -> Count) {
        var old = state.load(ordering: .relaxed)
        while true {
            let (exchanged, original) = state.compareExchange(expected: old, desired: pack(change(unpack(old))), ordering: .relaxed)
            if exchanged { return }
            old = original
        }
    }

    /// Counts a context opened in `me` (on a driver that refuses a forked child, or not),
    /// starting from 0 again in a process whose count was its parent's.
    static func opened(in me: pid_t, refusingDriver: Bool) {
        update { now in
            now.process == me
                ? Count(process: me, open: now.open + 1, refusingDriver: now.refusingDriver || refusingDriver)
                : Count(process: me, open: 1, refusingDriver: refusingDriver)
        }
    }

    /// Counts a context that `me` opened closed.
    static func closed(in me: pid_t) {
        update { now in
            guard now.process == me else { return now }
            let open = max(now.open - 1, 0)
            return Count(process: me, open: open, refusingDriver: open > 0 && now.refusingDriver)
        }
    }

    /// The process-wide count now.
    static var now: Count { unpack(state.load(ordering: .relaxed)) }

    /// Before `me` calls into a driver at all: `.refusedAfterFork` when `me` is a child forked
    /// while its parent held a context on a driver that refuses such a child (calling it there
    /// fails, or hangs), else nil.
    static func refusal(in me: pid_t, parent count: Count = now) -> VulkanError? {
        guard count.refusingDriver, isParent(count, of: me) else { return nil }
        return .refusedAfterFork(
            ForkRefusal(
                process: me, parent: count.process, open: count.open,
                refusal: "not tried: the parent's driver refuses a device to a forked child, or hangs in it"))
    }

    /// `error`, or `.refusedAfterFork` when it is the refusal a driver gives a child forked
    /// while its parent held contexts (`VK_ERROR_INITIALIZATION_FAILED`) and the count is such
    /// a parent's.
    static func explain(_ error: VulkanError, in me: pid_t, parent count: Count = now) -> VulkanError {
        guard case let .call(_, code) = error, code == VK_ERROR_INITIALIZATION_FAILED.rawValue, isParent(count, of: me) else {
            return error
        }
        return .refusedAfterFork(ForkRefusal(process: me, parent: count.process, open: count.open, refusal: error.description))
    }

    /// Whether `count` is that of another process with contexts open: `me` is its child made by fork().
    private static func isParent(_ count: Count, of me: pid_t) -> Bool {
        count.process != 0 && count.process != me && count.open > 0
    }
}
