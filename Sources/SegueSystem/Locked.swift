// The package's locks: a value behind a mutex, with a condition for waiting until it changes,
// and the plain, read-write and condition locks under it. Modules that pass values between
// threads share them.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a lock, shared by the modules that pass values between threads.
// @unchecked: every access to `value` is under `lock`.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value: Value

    /// A lock around `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value under the lock, then wakes the threads waiting in `wait`.
    package func withLock<T, Failure: Error>(_ body: (inout Value) throws(Failure) -> T) throws(Failure) -> T {
        lock.lock()
        defer {
            lock.wakeAll()
            lock.unlock()
        }
        return try body(&value)
    }

    /// Waits until `ready` holds for the value (checked under the lock after each `withLock`),
    /// or until `seconds` have passed when given.
    /// - Returns: whether `ready` held (false: the time ran out first).
    @discardableResult
    package func wait(seconds: Double? = nil, until ready: (Value) -> Bool) -> Bool {
        let deadline = seconds.map(ConditionLock.deadline(after:))
        lock.lock()
        defer { lock.unlock() }
        while !ready(value) {
            if let deadline {
                guard lock.wait(until: deadline) else { return ready(value) }
            } else {
                lock.wait()
            }
        }
        return true
    }
}

/// A pthread read-write lock as a class (its address must not move).
// @unchecked: the pthread lock is itself thread-safe; the pointer never changes.
package final class ReadWriteLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    /// An unlocked lock.
    package init() {
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Takes the lock shared (several holders at once).
    package func lockShared() { pthread_rwlock_rdlock(lock) }
    /// Takes the lock exclusively.
    package func lockExclusive() { pthread_rwlock_wrlock(lock) }
    /// Releases the lock.
    package func unlock() { pthread_rwlock_unlock(lock) }
}

/// A pthread mutex as a class, for code that locks and unlocks around several statements
/// (Foundation's `NSLock`, without Foundation).
// @unchecked: the pthread mutex is itself thread-safe; the pointer never changes.
package final class PlainLock: @unchecked Sendable {
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Takes the lock if no one holds it; returns whether it did.
    package func `try`() -> Bool { pthread_mutex_trylock(mutex) == 0 }
}

/// A mutex with a condition variable (Foundation's `NSCondition`, without Foundation).
// @unchecked: the pthread objects are themselves thread-safe; the pointers never change.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = PlainLock()
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        condition = .allocate(capacity: 1)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    package func lock() { mutex.lock() }

    package func unlock() { mutex.unlock() }

    /// Waits for a `wakeOne` or `wakeAll`, holding the lock before and after.
    package func wait() { pthread_cond_wait(condition, mutex.mutex) }

    /// Waits as `wait()` does, but no later than `deadline` (from `deadline(after:)`).
    /// - Returns: false when the deadline passed first.
    package func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex.mutex, &deadline) != ETIMEDOUT
    }

    /// The wall-clock time `seconds` from now, as `wait(until:)` takes it (a negative number
    /// counts as 0; more than 10⁹ s, infinity and NaN as 10⁹ s).
    package static func deadline(after seconds: Double) -> timespec {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let wait = timespec(seconds: seconds.isFinite ? seconds : 1e9)
        let nanoseconds = deadline.tv_nsec + wait.tv_nsec
        deadline.tv_sec += wait.tv_sec + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        return deadline
    }

    /// Wakes one waiter.
    package func wakeOne() { pthread_cond_signal(condition) }

    /// Wakes every waiter.
    package func wakeAll() { pthread_cond_broadcast(condition) }
}

extension timespec {
    /// `seconds` as a `timespec`: a negative number or NaN counts as 0, more than 10⁹ s (and
    /// infinity) as 10⁹ s, so converting never traps.
    package init(seconds: Double) {
        let s = seconds.isNaN ? 0 : min(max(seconds, 0), 1e9)
        self.init(tv_sec: Int(s), tv_nsec: Int((s - s.rounded(.down)) * 1e9))
    }
}
