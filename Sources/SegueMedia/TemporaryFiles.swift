// A process-wide registry of temporary outputs still being written, and an interrupt handler
// that removes them when the user presses Ctrl-C or the process is asked to terminate.
//
// Signal safety: the handler does not run inside a POSIX signal handler. `installInterruptHandler`
// sets SIGINT and SIGTERM to SIG_IGN and lets Dispatch deliver them through signal sources
// (kqueue/signalfd underneath) on an ordinary queue, where taking a lock, calling `kill`,
// removing files and calling `exit` are all allowed. The cost is that a process that has
// installed the handler no longer dies by those signals directly; it exits with 128 + signal
// (130 for SIGINT, 143 for SIGTERM), as shells report a process killed by them.
//
// Child processes (ffmpeg) are started by Foundation in their own process group, so a terminal's
// Ctrl-C never reaches them; the handler kills the registered ones before removing files, so none
// can recreate an output after its removal.

import Dispatch
import Foundation

/// Temporary files and directories in progress, removed on SIGINT/SIGTERM once
/// `installInterruptHandler()` has been called. Thread-safe.
public enum TemporaryFiles {
    // MARK: - Registry

    /// Registers a temporary path (file or directory) to remove if the process is interrupted.
    public static func register(_ path: String) {
        state.withLock { _ = $0.paths.insert(path) }
    }

    /// Forgets a temporary path (it was renamed into place or removed).
    public static func unregister(_ path: String) {
        state.withLock { _ = $0.paths.remove(path) }
    }

    /// Registers a child process that writes to a registered path, to kill before cleaning up.
    public static func register(process pid: Int32) {
        state.withLock { _ = $0.processes.insert(pid) }
    }

    /// Forgets a child process (it has exited).
    public static func unregister(process pid: Int32) {
        state.withLock { _ = $0.processes.remove(pid) }
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
            defer { state = State() }
            return (state.paths, state.processes)
        }
        for pid in processes { kill(pid, SIGKILL) }
        for pid in processes { waitUntilGone(pid) }
        for path in paths.sorted(by: >) {  // children before their directories
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    // MARK: - Interrupts

    /// Installs (once) handlers for SIGINT and SIGTERM that call `removeAll()` and exit the
    /// process with status 130 or 143. Safe to call more than once.
    ///
    /// The signals are set to `SIG_IGN` and delivered through Dispatch signal sources on a
    /// private queue, so the cleanup runs as ordinary code, not in signal-handler context.
    public static func installInterruptHandler() {
        state.withLock { state in
            guard state.sources.isEmpty else { return }
            for (signalNumber, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler {
                    removeAll()
                    exit(status)
                }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    // MARK: - Internals

    private struct State {
        var paths = Set<String>()
        var processes = Set<Int32>()
        var sources: [any DispatchSourceSignal] = []
    }

    private static let state = Locked(State())
    private static let queue = DispatchQueue(label: "segue.temporary-files.interrupt")

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
