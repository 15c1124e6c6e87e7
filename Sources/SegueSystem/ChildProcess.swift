// A child process with piped stdin/stdout and a captured stderr: the one way Segue starts a
// program (ffmpeg and ffprobe in the library; hosts, peers and benchmarks in the tools; the
// programs the tests drive). `ProgramRun` runs one to its end on top of it.
//
// Deadlock avoidance: stderr (and stdout when collected) is drained on a background thread from
// the moment the process starts, so the child can never block on a full pipe while we block
// writing its stdin or reading its stdout. Only the last `errorLimit` bytes of stderr are kept.
//
// The child is started with `posix_spawn` rather than Foundation's `Process`, for three reasons.
// Every failure is reported as what it is: a missing executable, too many open files, or no
// memory for a thread. Nothing else is made per child (`Process` opens a socket pair and a run
// loop on every thread that waits, and when descriptors run out the run loop or libdispatch traps
// instead of failing). And waiting is a plain `waitpid`. The child gets only its stdin, stdout and
// stderr (every other descriptor is closed: ours are close-on-exec, and `closefrom` covers a
// host's), and runs in its own process group, so a terminal's Ctrl-C reaches only Segue and
// `kill()` (or the `Cancellation` the child is registered with) stops the whole group: what the
// child started in turn too (the real program under a wrapper script).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running child process. One thread at a time, except `control` (kill, signal, whether it
/// has exited) and the collected output, which may be used from anywhere.
package final class ChildProcess {
    /// Stopping the child, from any thread: the part of a `ChildProcess` that is shared.
    package final class Control: Sendable {
        /// The child's process id.
        package let pid: Int32
        /// Whether the child has been reaped (its pid may then belong to another process).
        fileprivate let reaped = Locked(false)

        fileprivate init(pid: Int32) { self.pid = pid }

        /// Whether the child has exited (without reaping it: `wait()` still collects its status).
        package var hasExited: Bool {
            reaped.withLock { reaped in
                if reaped { return true }
                var info = siginfo_t()
                return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
            }
        }

        /// Kills the child and its process group at once (nothing once it has been reaped).
        package func kill() {
            reaped.withLock { reaped in
                if !reaped { FileIO.killGroup(of: pid) }
            }
        }

        /// Sends `signal` to the child alone (nothing once it has been reaped).
        package func send(_ signal: Int32) {
            reaped.withLock { reaped in
                if !reaped { _ = deliver(signal, to: pid) }
            }
        }
    }

    /// Where the child's standard output goes.
    package enum Output: Sendable {
        /// `/dev/null`.
        case discard
        /// A pipe the caller reads with `read(into:)`.
        case pipe
        /// A pipe drained on a background thread, kept whole (see `collectedOutput`).
        case collect
    }

    /// The file the child works on (or its program), for errors.
    package let path: String
    /// Kills or signals the child from any thread.
    package let control: Control
    /// The child's process id.
    package var pid: Int32 { control.pid }
    /// The signal that ended the child, once `wait()` has returned (nil for an exit).
    package private(set) var terminatingSignal: Int32?
    /// Whether a signal ended the child after its cancellation was cancelled (which kills its
    /// group), once `wait()` has returned: its failure is then the cancellation, not what it
    /// printed. A child that exited with a status of its own was not cancelled.
    package private(set) var wasCancelled = false
    /// The write end of the child's stdin when piped, else -1.
    private var input: Int32
    /// The read end of the child's stdout when piped, else -1.
    private var output: Int32

    private let errors: OutputCollector
    private let collected: OutputCollector?
    private var result: (status: Int32, stderr: String)?
    /// The token the child is registered with (killed by its `cancel()`), if any.
    private let cancellation: Cancellation?

    /// Starts `executable` (a path) with `arguments`.
    /// - Parameters:
    ///   - environment: the child's whole environment; nil for this process's.
    ///   - directory: the child's working directory; nil for this process's.
    ///   - pipeInput: whether the caller writes the child's stdin (else it reads `/dev/null`).
    ///   - output: where its stdout goes.
    ///   - path: the file the work is about, named in errors.
    ///   - errorLimit: how many trailing bytes of stderr are kept.
    ///   - stderrLines: called on the draining thread with each complete stderr line; a line for
    ///     which it returns true is consumed (not kept for error messages).
    ///   - cancellation: registers the child with it, so its `cancel()` kills the child's group.
    /// - Throws: `.cannotStart` when the executable cannot be run; `.systemLimit` when a pipe,
    ///   the process or a draining thread cannot be made (too many open files, no memory);
    ///   `.cancelled` when `cancellation` was cancelled (nothing is started).
    package init(
        executable: String, arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        pipeInput: Bool, output: Output, path: String, errorLimit: Int = OutputCollector.tailLimit,
        stderrLines: (@Sendable (Substring) -> Bool)? = nil, cancellation: Cancellation? = nil
    ) throws(SystemError) {
        var opened: [Int32] = []
        func closeAll() { for fd in opened { _ = close(fd) } }
        func makePipe() throws(SystemError) -> (read: Int32, write: Int32) {
            switch FileIO.makePipe() {
            case let .success(pipe):
                opened += [pipe.read, pipe.write]
                return pipe
            case let .failure(failure):
                closeAll()
                throw Self.startFailure(failure.code, executable: executable, path: path)
            }
        }
        let stdinPipe = pipeInput ? try makePipe() : nil
        let stdoutPipe = output == .discard ? nil : try makePipe()
        let stderrPipe = try makePipe()
        // Spawned and registered as one step that never overlaps a cancellation's cleanup.
        guard
            let spawned = cancellation.launch({
                Self.spawn(
                    executable: executable, arguments: arguments, environment: environment, directory: directory,
                    stdin: stdinPipe?.read, stdout: stdoutPipe?.write, stderr: stderrPipe.write)
            })
        else {
            closeAll()
            throw .cancelled(path: path)
        }
        let pid: Int32
        switch spawned {
        case let .success(child):
            pid = child
        case let .failure(failure):
            closeAll()
            throw Self.startFailure(failure.code, executable: executable, path: path)
        }
        // The child's ends belong to the child now.
        for fd in [stdinPipe?.read, stdoutPipe?.write, stderrPipe.write].compactMap({ $0 }) { _ = close(fd) }
        do {
            errors = try OutputCollector(stderrPipe.read, path: path, limit: errorLimit, lines: stderrLines)
            collected = output == .collect ? try OutputCollector(stdoutPipe!.read, path: path, limit: .max) : nil
        } catch {
            for fd in [stdinPipe?.write, stdoutPipe?.read, stderrPipe.read].compactMap({ $0 }) { _ = close(fd) }
            FileIO.killGroup(of: pid)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            cancellation?.unregister(process: pid)
            throw error
        }
        self.path = path
        control = Control(pid: pid)
        self.cancellation = cancellation
        input = stdinPipe?.write ?? -1
        self.output = output == .pipe ? stdoutPipe!.read : -1
        if input >= 0 { FileIO.enlargePipeBuffer(input) }
    }

    deinit {
        // Owners wait explicitly; this only stops a child that would otherwise be orphaned.
        if result == nil {
            kill()
            wait()
        }
    }

    // MARK: - Talking to it

    /// Writes all of `bytes` to the child's stdin.
    /// - Returns: nil, or the errno that stopped the write (`EPIPE` when the child has exited).
    package func write(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard input >= 0 else { return EBADF }
        return FileIO.writeAll(input, bytes)
    }

    /// Hands the write end of the child's stdin to the caller (who writes it from any thread and
    /// closes it); -1 when it is not piped or was taken or closed.
    package func takeInput() -> Int32 {
        defer { input = -1 }
        return input
    }

    /// Closes the child's stdin, so it sees end of input.
    package func closeInput() {
        if input >= 0 { _ = close(input) }
        input = -1
    }

    /// Reads exactly `count` bytes from the child's stdout into `buffer`.
    /// - Returns: the number of bytes read: `count`, or fewer at end of output.
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard output >= 0 else { return 0 }
        return FileIO.readFully(output, buffer)
    }

    /// Reads the child's stdout to its end (`keeping` false: discards it, a host writing frames).
    package func readToEnd(keeping: Bool = true) -> [UInt8] {
        var collected = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(into: $0) }
            if keeping { collected += chunk[0..<n] }
            if n < chunk.count { return collected }
        }
    }

    /// What the child wrote to stdout so far, with `output: .collect` (empty otherwise).
    package var collectedOutput: [UInt8] { collected?.bytes ?? [] }

    /// What the child wrote to stderr so far (its last `errorLimit` bytes).
    package var collectedErrors: String { String(decoding: errors.bytes, as: UTF8.self) }

    // MARK: - Ending

    /// Whether the child has exited (without reaping it: `wait()` still collects its status).
    package var hasExited: Bool { control.hasExited }

    /// Kills the child and its process group at once (nothing once it has been reaped).
    package func kill() { control.kill() }

    /// Sends `signal` to the child alone (nothing once it has been reaped).
    package func send(_ signal: Int32) { control.send(signal) }

    /// Waits for the child to exit (closing its stdin and stdout first).
    /// - Returns: its exit status (or 128 + signal), and the tail of its stderr (its last 12
    ///   non-empty lines).
    @discardableResult
    package func wait() -> (status: Int32, stderr: String) {
        if let result { return result }
        closeInput()
        if output >= 0 { _ = close(output) }
        output = -1
        // Wait for the exit without reaping, so that `kill()` from another thread can never hit
        // a process that took over the pid; then reap under the lock.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        cancellation?.unregister(process: pid)  // a cancellation must not kill it once reaped
        var raw: Int32 = 0
        control.reaped.withLock { reaped in
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            reaped = true
        }
        let signal = raw & 0x7F
        terminatingSignal = signal == 0 ? nil : signal
        let status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        wasCancelled = signal != 0 && cancellation?.isCancelled == true
        collected?.waitForEnd()
        let result = (status, errors.tail())
        self.result = result
        return result
    }

    // MARK: - Starting

    /// The error for a child that could not be started because of `code`.
    private static func startFailure(_ code: Int32, executable: String, path: String) -> SystemError {
        if let shortage = FileIO.descriptorShortage(code) { return .systemLimit(path: path, reason: shortage) }
        switch code {
        case ENOENT, EACCES, ENOEXEC, ENOTDIR, ELOOP:
            return .cannotStart(path: path, program: executable, reason: FileIO.message(code))
        default:
            return .systemLimit(
                path: path,
                reason: "could not start \(FileIO.lastComponent(of: executable)) (\(FileIO.message(code))); "
                    + "free some memory or raise the process's limits (`ulimit -v`, `ulimit -u`)")
        }
    }

    /// `posix_spawn`s `executable` in a process group of its own, with no signal blocked, with the
    /// given descriptors as its stdin, stdout and stderr (/dev/null for a nil one) and no others.
    private static func spawn(
        executable: String, arguments: [String], environment: [String: String]?, directory: String?,
        stdin: Int32?, stdout: Int32?, stderr: Int32
    ) -> Result<Int32, FileIO.PipeFailure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        for (fd, target, mode) in [
            (stdin, STDIN_FILENO, O_RDONLY), (stdout, STDOUT_FILENO, O_WRONLY), (Optional(stderr), STDERR_FILENO, O_WRONLY),
        ] {
            let code =
                fd.map { posix_spawn_file_actions_adddup2(&actions, $0, target) }
                ?? posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            if code != 0 { return .failure(FileIO.PipeFailure(code: code)) }
        }
        if let closeFrom = closeDescriptorsFrom { _ = closeFrom(&actions, 3) }
        if let directory {
            guard let changeDirectory = changeDirectory else { return .failure(FileIO.PipeFailure(code: ENOSYS)) }
            let code = changeDirectory(&actions, directory)
            if code != 0 { return .failure(FileIO.PipeFailure(code: code)) }
        }
        // Its own process group, and no signal blocked (a worker thread that spawns it may block some).
        _ = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        _ = posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t()
        sigemptyset(&none)
        _ = posix_spawnattr_setsigmask(&attributes, &none)
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { $0.sorted { $0.key < $1.key }.map { strdup($0.key + "=" + $0.value) } }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var pid: pid_t = 0
        let code = (argv + [nil]).withUnsafeBufferPointer { arguments in
            guard let envp else { return posix_spawn(&pid, executable, &actions, &attributes, arguments.baseAddress!, environ) }
            return (envp + [nil]).withUnsafeBufferPointer {
                posix_spawn(&pid, executable, &actions, &attributes, arguments.baseAddress!, $0.baseAddress!)
            }
        }
        return code == 0 ? .success(pid) : .failure(FileIO.PipeFailure(code: code))
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; not in the Swift
    /// module's headers): closes a host's inheritable descriptors in the child.
    private static let closeDescriptorsFrom: CloseFrom? = glibcFunction("posix_spawn_file_actions_addclosefrom_np")

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later): the child's directory.
    private static let changeDirectory: ChangeDirectory? = glibcFunction("posix_spawn_file_actions_addchdir_np")

    private static func glibcFunction<F>(_ name: String) -> F? {
        dlsym(dlopen(nil, RTLD_NOW), name).map { unsafeBitCast($0, to: F.self) }
    }
}

/// `kill(2)`, named apart from `ChildProcess.kill()`.
private func deliver(_ signal: Int32, to pid: Int32) -> Int32 { kill(pid, signal) }
