// A stop that the caller triggers, and the undo list of the work it stops.
//
// Work that writes files registers with the `Cancellation` it was given: its temporary outputs
// (files and whole directories) and the child processes writing them (ffmpeg). `cancel()` refuses
// new publishes and launches, waits for the publishes in progress (they hold a shared lock that it
// takes exclusively, so a rename either completes before the cleanup, and the file is the
// caller's, or never starts), kills the registered children with their process groups (SIGKILL,
// waiting until each is gone, so none can recreate a file) and removes the registered paths,
// children before their directories. The work then fails with `.cancelled` at its next write or
// launch (`SystemError.cancelled`, which the media layer reports as `MediaError.cancelled`).
//
// Nothing here is process-wide: each token has its own registry, there is no signal handler and
// no exit. A host application cancels one render from its own cancel button and keeps using
// Segue; a command-line program installs its own Ctrl-C handling and calls `cancel()` on the token
// of its command (the `segue` executable does, then exits with 128 + the signal). Work given no
// token cannot be cancelled from outside; its own failures still leave nothing behind.
//
// Child processes are started in their own process group, so a terminal's Ctrl-C never reaches
// them directly; the cleanup is what stops them.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cancellation token for work that writes files (renders, concatenations, galleries) and the
/// temporary files and child processes to clean up when it is triggered. Thread-safe; one token
/// may be shared by several operations, which all stop together.
///
/// ```swift
/// let cancellation = Cancellation()
/// let renderer = try ConcatRenderer(concatenation, output: "out.mp4", cancellation: cancellation)
/// // on another thread, when the user presses Cancel:
/// cancellation.cancel()   // render() then throws .cancelled; out.mp4 is not created
/// ```
// @unchecked: its state is behind `state`'s lock and `gate`; `Weak` holds a reference only.
public final class Cancellation: @unchecked Sendable {
    private struct State {
        var paths = Set<String>()
        var processes = Set<Int32>()
        var cancelled = false
        var children: [Weak] = []
    }

    private struct Weak {
        weak var token: Cancellation?
    }

    private let state = Locked(State())
    /// Shared by publishes and launches, exclusive for `cancel()`.
    private let gate = ReadWriteLock()

    /// A token that nothing has cancelled yet.
    public init() {}

    // MARK: - Cancelling

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Stops the work: waits for the publishes in progress, kills the registered child processes
    /// and removes the registered temporary files and directories. Irreversible for this token:
    /// later publishes and launches under it throw `.cancelled` (other tokens are not
    /// affected). Idempotent; callable from any thread (not from a signal handler: hand the signal
    /// to a thread, as the `segue` executable does).
    public func cancel() {
        gate.lockExclusive()
        let (paths, processes, children) = state.withLock { state in
            state.cancelled = true
            defer { state.paths = []; state.processes = []; state.children = [] }
            return (state.paths, state.processes, state.children.compactMap(\.token))
        }
        gate.unlock()
        for child in children { child.cancel() }
        for pid in processes { FileIO.killGroup(of: pid) }
        for pid in processes { Self.waitUntilGone(pid) }
        for path in paths.sorted(by: >) { Self.remove(path) }  // children before their directories
    }

    /// A token for part of this token's work that can be stopped alone: `cancel()` on this token
    /// cancels it too (at once if this one is cancelled already), and cancelling it leaves this
    /// one as it is.
    package func child() -> Cancellation {
        let child = Cancellation()
        let late = state.withLock { state -> Bool in
            guard !state.cancelled else { return true }
            state.children.removeAll { $0.token == nil }
            state.children.append(Weak(token: child))
            return false
        }
        if late { child.cancel() }
        return child
    }

    // MARK: - What the work registers

    /// Registers a temporary path (file or directory) to remove on `cancel()`; after it, removes
    /// the path at once instead (it came too late).
    package func register(_ path: String) {
        let late = state.withLock { state -> Bool in
            guard !state.cancelled else { return true }
            state.paths.insert(path)
            return false
        }
        if late { Self.remove(path) }
    }

    /// Forgets a temporary path (it was renamed into place or removed).
    package func unregister(_ path: String) {
        state.withLock { _ = $0.paths.remove(path) }
    }

    /// Starts a child process with `spawn` and registers it, as one step that never overlaps
    /// `cancel()`: a child spawned during the cleanup would outlive it.
    /// - Returns: what `spawn` returned, or nil after `cancel()` (nothing is started).
    package func launch<Failure: Error>(_ spawn: () -> Result<Int32, Failure>) -> Result<Int32, Failure>? {
        gate.lockShared()
        defer { gate.unlock() }
        guard !isCancelled else { return nil }
        let result = spawn()
        if case let .success(pid) = result { state.withLock { _ = $0.processes.insert(pid) } }
        return result
    }

    /// Forgets a child process (it has exited).
    package func unregister(process pid: Int32) {
        state.withLock { _ = $0.processes.remove(pid) }
    }

    /// Runs `body`, a write that creates files (an atomic publish of `path`), so that it never
    /// overlaps `cancel()`.
    /// - Throws: `.cancelled` after `cancel()` (the body does not run), else what the body throws.
    package func whileAcceptingWrites<T, Failure: SystemErrorConvertible>(path: String, _ body: () throws(Failure) -> T) throws(Failure)
        -> T
    {
        gate.lockShared()
        defer { gate.unlock() }
        guard !isCancelled else { throw Failure(.cancelled(path: path)) }
        return try body()
    }

    /// The paths registered now, sorted (for tests and diagnostics).
    package var registeredPaths: [String] { state.withLock { $0.paths.sorted() } }

    // MARK: - Internals

    /// Removes a file or a whole directory, trying again while it is there: the work that owns
    /// it may be removing it at the same time (its own error path), and a recursive removal that
    /// meets a file the other one just removed gives up.
    private static func remove(_ path: String) {
        for _ in 0..<20 {
            FileIO.removeTree(path)
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
        guard let bytes = try? FileIO.readAll(path: "/proc/\(pid)/stat", limit: 1 << 16, noun: "status"),
            case let stat = String(decoding: bytes, as: UTF8.self), let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[close...].dropFirst(2).first == "Z"
        #else
        return false
        #endif
    }
}

extension Optional where Wrapped == Cancellation {
    /// `whileAcceptingWrites` of the token, or `body` as it is without one.
    package func whileAcceptingWrites<T, Failure: SystemErrorConvertible>(path: String, _ body: () throws(Failure) -> T) throws(Failure)
        -> T
    {
        guard let token = self else { return try body() }
        return try token.whileAcceptingWrites(path: path, body)
    }

    /// `launch` of the token, or `spawn` as it is without one.
    package func launch<Failure: Error>(_ spawn: () -> Result<Int32, Failure>) -> Result<Int32, Failure>? {
        guard let token = self else { return spawn() }
        return token.launch(spawn)
    }
}
