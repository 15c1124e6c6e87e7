// A process-wide registry of temporary outputs still being written, and an interrupt handler
// that removes them when the user presses Ctrl-C or the process is asked to terminate.
//
// Signal safety (the self-pipe pattern): the POSIX handler installed for SIGINT and SIGTERM only
// writes the signal number to a non-blocking pipe, which is async-signal-safe. A dedicated
// thread blocks reading that pipe and does the real work as ordinary code: take the registry
// lock, kill registered children, remove files, `exit(128 + signal)` (130 for SIGINT, 143 for
// SIGTERM, as shells report a process killed by them).
//
// Why not `signal(SIGINT, SIG_IGN)` plus a Dispatch signal source: on Linux, libdispatch reads
// signals through signalfd, which only sees a signal if every thread blocks it; a signal handed
// to an already-running thread that does not is discarded by SIG_IGN, so the cleanup sometimes
// never runs (we saw exactly that under Swift Testing's thread pool).
//
// Child processes (ffmpeg) are started by Foundation in their own process group, so a terminal's
// Ctrl-C never reaches them; the cleanup kills the registered ones before removing files, so none
// can recreate an output after its removal.

import Foundation

/// Temporary files and directories in progress, removed on SIGINT/SIGTERM once
/// `installInterruptHandler()` has been called. Thread-safe.
public enum TemporaryFiles {
    // MARK: - Registry

    /// Registers a temporary path (file or directory) to remove if the process is interrupted;
    /// once an interrupt's cleanup has begun, removes it at once instead (it came too late).
    public static func register(_ path: String) {
        let late = state.withLock { state -> Bool in
            guard !state.interrupted else { return true }
            state.paths.insert(path)
            return false
        }
        if late { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Forgets a temporary path (it was renamed into place or removed).
    public static func unregister(_ path: String) {
        state.withLock { _ = $0.paths.remove(path) }
    }

    /// Registers a child process that writes to a registered path, to kill before cleaning up;
    /// once an interrupt's cleanup has begun, kills it at once instead: a child started between
    /// the cleanup's kill and the process's exit would otherwise outlive it.
    public static func register(process pid: Int32) {
        let late = state.withLock { state -> Bool in
            guard !state.interrupted else { return true }
            state.processes.insert(pid)
            return false
        }
        if late { kill(pid, SIGKILL) }
    }

    /// Forgets a child process (it has exited).
    public static func unregister(process pid: Int32) {
        state.withLock { _ = $0.processes.remove(pid) }
    }

    /// Parks the calling thread for good when an interrupt is being handled: killing the children
    /// makes the work fail, and the thread reporting that failure must not exit with its own status
    /// before the interrupt handler exits with 130 or 143. Returns at once otherwise.
    public static func yieldToInterrupt() {
        guard state.withLock({ $0.interrupted }) else { return }
        while true { sleep(60) }
    }

    /// The paths registered now, sorted.
    public static var registeredPaths: [String] {
        state.withLock { $0.paths.sorted() }
    }

    /// Kills the registered child processes, then removes every registered path (files and
    /// whole directories) and empties the registry. Called by the interrupt handler; callable
    /// directly, e.g. from a CLI's own shutdown path.
    public static func removeAll() {
        let (paths, processes) = state.withLock { state in
            defer { state.paths = []; state.processes = [] }
            return (state.paths, state.processes)
        }
        for pid in processes { kill(pid, SIGKILL) }
        for pid in processes { waitUntilGone(pid) }
        for path in paths.sorted(by: >) {  // children before their directories
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    // MARK: - Writes that must not race the cleanup

    /// Runs `body`, a write that creates files (an atomic file write), so that it never overlaps
    /// the interrupt cleanup: writes share a read lock that the cleanup takes exclusively before
    /// removing anything, and a write that would start after the cleanup began waits for the
    /// process to exit instead (it could only recreate a file in a directory being removed).
    public static func whileAcceptingWrites<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_rdlock(writeGate)
        if writesClosed {
            pthread_rwlock_unlock(writeGate)
            while true { pause() }
        }
        defer { pthread_rwlock_unlock(writeGate) }
        return try body()
    }

    /// Waits for the writes in progress, then refuses new ones for the rest of the process.
    private static func closeWrites() {
        pthread_rwlock_wrlock(writeGate)
        writesClosed = true
        pthread_rwlock_unlock(writeGate)
    }

    nonisolated(unsafe) private static var writesClosed = false
    nonisolated(unsafe) private static let writeGate: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
        return lock
    }()

    // MARK: - Interrupts

    /// Installs (once) handlers for SIGINT and SIGTERM that call `removeAll()` and exit the
    /// process with status 130 or 143. Safe to call more than once.
    ///
    /// The signal handler itself only writes to a pipe; a dedicated thread does the cleanup, so
    /// nothing that is unsafe in signal context runs in it.
    public static func installInterruptHandler() {
        state.withLock { state in
            guard !state.handlerInstalled else { return }
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { return }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
            interruptPipeWriteEnd = fds[1]
            let readEnd = fds[0]
            Thread.detachNewThread {
                var byte: UInt8 = 0
                while true {
                    let n = read(readEnd, &byte, 1)
                    if n == 1 { break }
                    if n < 0 && errno == EINTR { continue }
                    return
                }
                // Stop the writers first (the render threads may still be producing frames),
                // then remove what they wrote.
                TemporaryFiles.state.withLock { $0.interrupted = true }
                closeWrites()
                removeAll()
                exit(128 + Int32(byte))
            }
            _ = signal(SIGINT, interruptSignalHandler)
            _ = signal(SIGTERM, interruptSignalHandler)
            _ = signal(SIGHUP, interruptSignalHandler)  // a closed terminal or ssh session
            // A process inherits its parent's signal mask across exec; a parent that blocks
            // SIGINT (some test runners and supervisors do) would make Ctrl-C a no-op here.
            var unblock = sigset_t()
            sigemptyset(&unblock)
            sigaddset(&unblock, SIGINT)
            sigaddset(&unblock, SIGTERM)
            sigaddset(&unblock, SIGHUP)
            pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
            state.handlerInstalled = true
        }
    }

    // MARK: - Internals

    private struct State {
        var paths = Set<String>()
        var processes = Set<Int32>()
        var handlerInstalled = false
        var interrupted = false
    }

    private static let state = Locked(State())

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

// MARK: - Signal handler

/// The write end of the interrupt pipe; a constant-initialised global, so reading it in the
/// signal handler involves no lazy initialisation.
nonisolated(unsafe) private var interruptPipeWriteEnd: Int32 = -1

/// The SIGINT/SIGTERM handler: async-signal-safe, it only writes the signal number to the pipe.
private func interruptSignalHandler(_ signalNumber: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(interruptPipeWriteEnd, &byte, 1)
    errno = saved
}
