// The temporary outputs Segue is still writing and the child processes (ffmpeg) writing them, so
// that a program can stop all of Segue's work at once and leave nothing behind.
//
// The library installs no signal handler and never exits: a command-line program installs its own
// Ctrl-C handling and calls `cancelAll()` from it (the `segue` executable does, then exits with
// 128 + the signal); a host application that embeds Segue simply never calls it.
//
// `cancelAll()` first waits for the atomic publishes in progress (they hold a shared lock that it
// takes exclusively), so a rename either completes before the cleanup, and the file is the user's,
// or never starts; then it kills the registered children (SIGKILL, waiting until each is gone, so
// none can recreate a file) and removes the registered paths, children before their directories.
// After it, a write throws `MediaError.cancelled` and a late registration is undone at once.
//
// Child processes are started in their own process group, so a terminal's Ctrl-C never reaches
// them directly; the cleanup is what stops them.

import Foundation

/// Temporary files and directories in progress and the child processes writing them, removed
/// and killed by `cancelAll()`. Thread-safe.
public enum TemporaryFiles {
    // MARK: - Registry

    /// Registers a temporary path (file or directory) to remove on `cancelAll()`; after it,
    /// removes the path at once instead (it came too late).
    public static func register(_ path: String) {
        let late = state.withLock { state -> Bool in
            guard !state.cancelled else { return true }
            state.paths.insert(path)
            return false
        }
        if late { remove(path) }
    }

    /// Forgets a temporary path (it was renamed into place or removed).
    public static func unregister(_ path: String) {
        state.withLock { _ = $0.paths.remove(path) }
    }

    /// Registers a child process that writes to a registered path, to kill on `cancelAll()`;
    /// after it, kills the child at once instead: one started between the cleanup's kill and the
    /// program's exit would otherwise outlive it.
    public static func register(process pid: Int32) {
        let late = state.withLock { state -> Bool in
            guard !state.cancelled else { return true }
            state.processes.insert(pid)
            return false
        }
        if late {
            kill(pid, SIGKILL)
            waitUntilGone(pid)
        }
    }

    /// Starts a child process with `spawn` and registers it, as one step that never overlaps
    /// `cancelAll()`: a child spawned while the program exits after a cleanup would outlive it.
    /// - Returns: what `spawn` returned, or nil after `cancelAll()` (nothing is started).
    package static func launch<Failure: Error>(_ spawn: () -> Result<Int32, Failure>) -> Result<Int32, Failure>? {
        writeGate.lockShared()
        defer { writeGate.unlock() }
        guard !isCancelled else { return nil }
        let result = spawn()
        if case let .success(pid) = result { state.withLock { _ = $0.processes.insert(pid) } }
        return result
    }

    /// Forgets a child process (it has exited).
    public static func unregister(process pid: Int32) {
        state.withLock { _ = $0.processes.remove(pid) }
    }

    /// The paths registered now, sorted.
    public static var registeredPaths: [String] {
        state.withLock { $0.paths.sorted() }
    }

    // MARK: - Stopping

    /// Whether `cancelAll()` has been called.
    public static var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Stops all of Segue's work in this process, for a program that is about to exit (a
    /// command-line program's Ctrl-C): waits for the atomic publishes in progress, kills the
    /// registered child processes and removes every registered path. Irreversible: later writes
    /// throw `MediaError.cancelled`. Safe from any thread (not from a signal handler: hand the
    /// signal to a thread, as the `segue` executable does).
    public static func cancelAll() {
        writeGate.lockExclusive()
        let (paths, processes) = state.withLock { state in
            state.cancelled = true
            defer { state.paths = []; state.processes = [] }
            return (state.paths, state.processes)
        }
        writeGate.unlock()
        for pid in processes { kill(pid, SIGKILL) }
        for pid in processes { waitUntilGone(pid) }
        for path in paths.sorted(by: >) { remove(path) }  // children before their directories
    }

    // MARK: - Writes that must not race the cleanup

    /// Runs `body`, a write that creates files (an atomic publish of `path`), so that it never
    /// overlaps `cancelAll()`.
    /// - Throws: `MediaError.cancelled` after `cancelAll()` (the body does not run), else what
    ///   the body throws.
    public static func whileAcceptingWrites<T>(path: String, _ body: () throws -> T) throws -> T {
        writeGate.lockShared()
        defer { writeGate.unlock() }
        guard !isCancelled else { throw MediaError.cancelled(path: path) }
        return try body()
    }

    // MARK: - Internals

    private struct State {
        var paths = Set<String>()
        var processes = Set<Int32>()
        var cancelled = false
    }

    private static let state = Locked(State())
    /// Shared by publishes, exclusive for `cancelAll()`.
    private static let writeGate = ReadWriteLock()

    /// Removes a file or a whole directory, trying again while it is there: the work that owns
    /// it may be removing it at the same time (its own error path), and a recursive removal that
    /// meets a file the other one just removed gives up.
    private static func remove(_ path: String) {
        for _ in 0..<20 {
            try? FileManager.default.removeItem(atPath: path)
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            usleep(1_000)
        }
    }

    /// Waits (at most a second) until a killed child has died, so it can no longer create files.
    private static func waitUntilGone(_ pid: Int32) {
        for _ in 0..<200 {
            if kill(pid, 0) != 0 || isZombie(pid) { return }
            usleep(5_000)
        }
    }

    private static func isZombie(_ pid: Int32) -> Bool {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[close...].dropFirst(2).first == "Z"
        #else
        return false
        #endif
    }
}

/// A pthread read-write lock as a class (its address must not move).
final class ReadWriteLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func lockShared() { pthread_rwlock_rdlock(lock) }
    func lockExclusive() { pthread_rwlock_wrlock(lock) }
    func unlock() { pthread_rwlock_unlock(lock) }
}
