// Threads that report a start the system refuses, and the lock with its condition that the
// threads of Segue hand values over with.
import SegueSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Worker threads and locks")
struct WorkerThreadTests {
    @Test("a thread that starts runs its work; one that cannot start reports why")
    func workerThreads() throws {
        let done = Locked(false)
        try WorkerThread.start(for: "x") { done.withLock { $0 = true } }
        #expect(done.wait(seconds: 10) { $0 })
        done.withLock { $0 = false }
        let error = systemError { () throws(SystemError) in
            // 1 PiB: more than a process's address space (47 bits), even where memory is overcommitted
            // without limit (a 64 TiB stack starts on the H200 machine).
            try WorkerThread.start(for: "x", stackSize: 1 << 50) { done.withLock { $0 = true } }
        }
        guard case let .systemLimit("x", reason)? = error else {
            Issue.record("expected .systemLimit, got \(String(describing: error))"); return
        }
        #expect(
            reason.hasPrefix("could not start a thread (Resource temporarily unavailable)")
                || reason.hasPrefix("could not start a thread (Cannot allocate memory)"), "\(reason)")
        #expect(!done.wait(seconds: 0.2) { $0 }, "the body never runs")
    }

    @Test("a lock's wait ends when a value it waits for is set on another thread, or when its time runs out")
    func lockedWait() throws {
        let value = Locked(0)
        try WorkerThread.start(for: "x") { for _ in 0..<1000 { value.withLock { $0 += 1 } } }
        #expect(value.wait(seconds: 10) { $0 == 1000 })
        #expect(!value.wait(seconds: 0.05) { $0 == 1001 })
        #expect(value.withLock { $0 } == 1000)
    }

    @Test("seconds become a timespec without trapping: whole and nanoseconds; below 0 and NaN as 0, past 10⁹ s as 10⁹ s")
    func timespecs() {
        for (seconds, whole, nanoseconds) in [
            (1.5, 1, 500_000_000), (0.25, 0, 250_000_000), (-3, 0, 0), (.nan, 0, 0), (1e300, 1_000_000_000, 0),
            (.infinity, 1_000_000_000, 0), (-.infinity, 0, 0),
        ] {
            let t = timespec(seconds: seconds)
            #expect(t.tv_sec == whole && t.tv_nsec == nanoseconds, "\(seconds)")
        }
    }
}
