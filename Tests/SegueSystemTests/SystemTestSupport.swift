// What the system layer's tests share beyond SegueTestSupport's scratch directories and fixture
// files: catching a SystemError, and asking whether a process still runs.
import FoundationEssentials
import SegueSystem

#if canImport(Glibc)
import Glibc
#endif

/// Catches a `SystemError` from `body`, or nil when it did not throw.
func systemError<T>(_ body: () throws(SystemError) -> T) -> SystemError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Whether process `pid` runs (a zombie does not count).
func isRunning(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    let stat =
        (try? FileIO.readAll(path: "/proc/\(pid)/stat", limit: 1 << 16, noun: "status")).map { String(decoding: $0, as: UTF8.self) } ?? ""
    return !stat.contains(") Z")
}

/// Waits (at most `seconds`) until `condition` holds.
func eventually(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    for _ in 0..<Int(seconds * 100) {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
