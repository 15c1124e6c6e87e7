// Running a program to its end on `ChildProcess`: for the library's ffprobe queries, the tools'
// benchmarks that time hosts (melt, gst-launch) and the tests that drive programs (a C host, the
// installed segue). Standard output kept or drained on the calling thread and standard error
// drained on another, so neither pipe can fill up and block the child; the exit status or the
// signal; the wall time; a limit on that time after which the child's whole process group is
// killed; and the caller's `Cancellation`, whose `cancel()` kills the group too.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run to its end: what it left.
///
/// ```swift
/// let run = try ProgramRun("melt", ["project.mlt", "-consumer", "null"], timeout: 60)
/// print(run.status, run.seconds, run.stderr)
/// ```
public struct ProgramRun: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    public let status: Int32
    /// The signal that ended it, if one did (a crash: SIGSEGV, SIGABRT, …; SIGKILL when timed out).
    public let signal: Int32?
    /// Its standard output (empty when drained).
    public let output: [UInt8]
    /// Its standard error (the last `errorLimit` bytes).
    public let stderr: String
    /// Wall-clock seconds from its start to its end.
    public let seconds: Double
    /// Whether it was killed for outliving its time.
    public let timedOut: Bool

    /// Its standard output as text.
    public var stdout: String { String(decoding: output, as: UTF8.self) }

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments` and waits for it.
    /// - Parameters:
    ///   - environment: entries added to this process's environment for the child only, or its
    ///     whole environment when `inheriting` is false (a name is then looked up on its PATH).
    ///   - directory: its working directory (default: this process's).
    ///   - input: bytes for its standard input (default: `/dev/null`).
    ///   - timeout: seconds after which it and its process group are killed (SIGKILL); nil: no limit.
    ///   - keepingOutput: false to read and discard its standard output (a host writing frames).
    ///   - errorLimit: how many trailing bytes of its standard error are kept.
    ///   - path: the file the run is about, named in errors (default: `executable`).
    ///   - cancellation: its `cancel()` kills the program and its group.
    /// - Throws: `.cannotStart` for a missing executable, `.systemLimit` when a pipe, the process
    ///   or a thread cannot be made, `.cancelled` when `cancellation` was cancelled before or
    ///   during the run.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], inheriting: Bool = true,
        directory: String? = nil, input: [UInt8]? = nil, timeout: Double? = 300, keepingOutput: Bool = true,
        errorLimit: Int = .max, path: String? = nil, cancellation: Cancellation? = nil
    ) throws(SystemError) {
        let path = path ?? executable
        let childEnvironment =
            inheriting ? (environment.isEmpty ? nil : FileIO.processEnvironment.merging(environment) { $1 }) : environment
        let searchPath = FileIO.searchPath(in: inheriting ? nil : environment)
        guard let program = executable.contains("/") ? executable : FileIO.findExecutable(executable, searchPath: searchPath) else {
            throw .cannotStart(path: path, program: executable, reason: "no `\(executable)` on PATH=\(searchPath)")
        }
        let watch = Stopwatch()
        let child = try ChildProcess(
            executable: program, arguments: arguments, environment: childEnvironment, directory: directory,
            pipeInput: input != nil, output: .pipe, path: path, errorLimit: errorLimit, cancellation: cancellation)
        // The watchdog and the stdin writer: threads of their own, ended before this returns.
        let control = child.control
        let finished = Locked(false), expired = Locked(false), written = Locked(input == nil)
        do throws(SystemError) {
            if let timeout {
                try WorkerThread.start(for: path) {
                    if !finished.wait(seconds: timeout, until: { $0 }) {
                        expired.withLock { $0 = true }
                        control.kill()
                    }
                }
            }
            if let input {
                let fd = child.takeInput()
                try WorkerThread.start(for: path) {
                    _ = input.withUnsafeBytes { FileIO.writeAll(fd, $0) }
                    _ = close(fd)
                    written.withLock { $0 = true }
                }
            }
        } catch {
            finished.withLock { $0 = true }
            child.kill()
            child.wait()
            throw error
        }
        let bytes = child.readToEnd(keeping: keepingOutput)
        written.wait { $0 }
        let (status, _) = child.wait()
        finished.withLock { $0 = true }
        seconds = watch.elapsed
        self.status = status
        signal = child.terminatingSignal
        output = bytes
        stderr = child.collectedErrors
        timedOut = expired.withLock { $0 }
        if child.wasCancelled { throw .cancelled(path: path) }
    }
}
