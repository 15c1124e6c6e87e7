// A child process (ffmpeg, ffprobe) with piped stdin/stdout and a captured stderr.
//
// Deadlock avoidance: stderr is drained on a background thread from the moment the process
// starts, so the child can never block on a full stderr pipe while we block writing its stdin
// or reading its stdout. Only the last `stderrLimit` bytes are kept.
//
// The child is started with `posix_spawn` here rather than Foundation's `Process`, for three
// reasons. Every failure is reported as what it is: a missing executable, too many open files
// (Foundation's `Pipe` then hands out descriptor -1 and the spawn fails with "Bad file
// descriptor"), or no memory for a thread. Nothing else is made per child: `Process` opens a
// socket pair and a run loop (an epoll, an eventfd and a timerfd) on every thread that waits,
// and when descriptors run out the run loop or libdispatch traps instead of failing. And waiting
// is a plain `waitpid`. As with `Process`, the child gets only its stdin, stdout and stderr (every
// other descriptor is closed: ours are close-on-exec, and `closefrom` covers a host's), and runs
// in its own process group, so a terminal's Ctrl-C reaches only Segue (the `Cancellation` a child is
// registered with kills it).

import Foundation

/// A running tool. Not thread-safe except `kill()`, which may be called from anywhere.
final class ToolProcess {
    /// The file the tool works on, for errors.
    let path: String
    /// The child's process id.
    let pid: Int32
    /// The write end of the child's stdin when piped, else -1.
    private var input: Int32
    /// The read end of the child's stdout when piped, else -1.
    private var output: Int32

    private let errors: StderrCollector
    /// Whether the child has been reaped (its pid may then belong to another process).
    private let reaped = Locked(false)
    private var result: (status: Int32, stderr: String)?
    /// The token the child is registered with (killed by its `cancel()`), if any.
    private let cancellation: Cancellation?

    /// Starts `executable` with `arguments`.
    /// - Parameter stderrLines: called on the draining thread with each complete stderr line;
    ///   a line for which it returns true is consumed (not kept for error messages).
    /// - Parameter cancellation: registers the child with it, so its `cancel()` kills the child.
    /// - Throws: `.ffmpegNotFound` when the executable cannot be run; `.systemLimit` when a pipe,
    ///   the process or the draining thread cannot be made (too many open files, no memory);
    ///   `.cancelled` when `cancellation` was cancelled (nothing is started).
    init(executable: String, arguments: [String], pipeInput: Bool, pipeOutput: Bool, path: String,
         stderrLines: (@Sendable (Substring) -> Bool)? = nil, cancellation: Cancellation? = nil) throws(MediaError) {
        var opened: [Int32] = []
        func closeAll() { for fd in opened { _ = close(fd) } }
        func makePipe() throws(MediaError) -> (read: Int32, write: Int32) {
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
        let stdoutPipe = pipeOutput ? try makePipe() : nil
        let stderrPipe = try makePipe()
        // Spawned and registered as one step that never overlaps a cancellation's cleanup.
        guard let spawned = cancellation.launch({
            Self.spawn(executable: executable, arguments: arguments,
                       stdin: stdinPipe?.read, stdout: stdoutPipe?.write, stderr: stderrPipe.write)
        }) else {
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
            errors = try StderrCollector(stderrPipe.read, path: path, lines: stderrLines)
        } catch {
            for fd in [stdinPipe?.write, stdoutPipe?.read, stderrPipe.read].compactMap({ $0 }) { _ = close(fd) }
            FileIO.killGroup(of: pid)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            cancellation?.unregister(process: pid)
            throw error
        }
        self.path = path
        self.pid = pid
        self.cancellation = cancellation
        input = stdinPipe?.write ?? -1
        output = stdoutPipe?.read ?? -1
        if input >= 0 { FileIO.enlargePipeBuffer(input) }
    }

    deinit {
        // Owners wait explicitly; this only stops a child that would otherwise be orphaned.
        if result == nil {
            kill()
            _ = wait()
        }
    }

    /// Writes all of `bytes` to the child's stdin.
    /// - Returns: nil, or the errno that stopped the write (`EPIPE` when the child has exited).
    func write(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard input >= 0 else { return EBADF }
        return FileIO.writeAll(input, bytes)
    }

    /// Reads exactly `count` bytes from the child's stdout into `buffer`.
    /// - Returns: the number of bytes read: `count`, or fewer at end of output.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard output >= 0 else { return 0 }
        return FileIO.readFully(output, buffer)
    }

    /// Closes the child's stdin, so it sees end of input.
    func closeInput() {
        if input >= 0 { _ = close(input) }
        input = -1
    }

    /// Whether the child has exited (without reaping it: `wait()` still collects its status).
    var hasExited: Bool {
        reaped.withLock { reaped in
            if reaped { return true }
            var info = siginfo_t()
            return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
        }
    }

    /// Kills the child at once (nothing once it has been reaped).
    func kill() {
        reaped.withLock { reaped in
            if !reaped { FileIO.killGroup(of: pid) }
        }
    }

    /// Waits for the child to exit (closing its stdin and stdout first).
    /// - Returns: its exit status (or 128 + signal), and the tail of its stderr.
    func wait() -> (status: Int32, stderr: String) {
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
        reaped.withLock { reaped in
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            reaped = true
        }
        let signal = raw & 0x7F
        let status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        let result = (status, errors.tail())
        self.result = result
        return result
    }

    /// Runs a tool to completion, collecting stdout (for `ffprobe`).
    static func run(executable: String, arguments: [String], path: String,
                    cancellation: Cancellation? = nil) throws(MediaError) -> (status: Int32, stdout: [UInt8], stderr: String) {
        let tool = try ToolProcess(executable: executable, arguments: arguments, pipeInput: false, pipeOutput: true, path: path,
                                   cancellation: cancellation)
        var collected = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { tool.read(into: $0) }
            collected += chunk[0..<n]
            if n < chunk.count { break }
        }
        let (status, stderr) = tool.wait()
        return (status, collected, stderr)
    }

    // MARK: - Starting

    /// The error for a child that could not be started because of `code`.
    private static func startFailure(_ code: Int32, executable: String, path: String) -> MediaError {
        if let shortage = FileIO.descriptorShortage(code) { return .systemLimit(path: path, reason: shortage) }
        switch code {
        case ENOENT, EACCES, ENOEXEC, ENOTDIR, ELOOP:
            return .ffmpegNotFound(path: path, searched: "\(executable) could not be started: \(FileIO.message(code))")
        default:
            return .systemLimit(path: path, reason: "could not start \(FileIO.lastComponent(of: executable)) (\(FileIO.message(code))); "
                + "free some memory or raise the process's limits (`ulimit -v`, `ulimit -u`)")
        }
    }

    /// `posix_spawn`s `executable` in a process group of its own, with no signal blocked, with the
    /// given descriptors as its stdin, stdout and stderr (/dev/null for a nil one) and no others.
    private static func spawn(executable: String, arguments: [String], stdin: Int32?, stdout: Int32?, stderr: Int32) -> Result<Int32, FileIO.PipeFailure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        for (fd, target, mode) in [(stdin, STDIN_FILENO, O_RDONLY), (stdout, STDOUT_FILENO, O_WRONLY), (Optional(stderr), STDERR_FILENO, O_WRONLY)] {
            let code = fd.map { posix_spawn_file_actions_adddup2(&actions, $0, target) }
                ?? posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            if code != 0 { return .failure(FileIO.PipeFailure(code: code)) }
        }
        if let closeFrom = closeDescriptorsFrom { _ = closeFrom(&actions, 3) }
        // Its own process group, and no signal blocked (a worker thread that spawns it may block some).
        _ = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        _ = posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t()
        sigemptyset(&none)
        _ = posix_spawnattr_setsigmask(&attributes, &none)
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let code = (argv + [nil]).withUnsafeBufferPointer { arguments in
            posix_spawn(&pid, executable, &actions, &attributes, arguments.baseAddress!, environ)
        }
        return code == 0 ? .success(pid) : .failure(FileIO.PipeFailure(code: code))
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; not in the Swift
    /// module's headers): closes a host's inheritable descriptors in the child.
    private static let closeDescriptorsFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np").map {
            unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }
    }()
}

/// Drains a pipe on a background thread, keeping the last bytes. With a line handler, each
/// complete line is offered to it first and only the lines it does not consume are kept.
final class StderrCollector: Sendable {
    /// How many trailing bytes of stderr are kept.
    static let limit = 16 * 1024

    private let data = Locked([UInt8]())
    private let done = DispatchSemaphore(value: 0)

    /// Starts draining `fd` (which it closes at the end).
    /// - Throws: `.systemLimit` when the draining thread cannot start (`fd` is then left open).
    init(_ fd: Int32, path: String, lines handler: (@Sendable (Substring) -> Bool)? = nil) throws(MediaError) {
        let data = self.data, done = self.done
        try WorkerThread.start(for: path) {
            var chunk = [UInt8](repeating: 0, count: 4096)
            var partial = [UInt8]()
            func keep(_ bytes: ArraySlice<UInt8>) {
                data.withLock { stored in
                    stored += bytes
                    if stored.count > StderrCollector.limit { stored.removeFirst(stored.count - StderrCollector.limit) }
                }
            }
            while true {
                let n = chunk.withUnsafeMutableBytes { FileIO.readSome(fd, $0) }
                guard n > 0 else { break }
                guard let handler else { keep(chunk[0..<n]); continue }
                partial += chunk[0..<n]
                var start = 0
                while let newline = partial[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: partial[start..<newline], as: UTF8.self)
                    if !handler(line[...]) { keep(partial[start...newline]) }
                    start = newline + 1
                }
                partial.removeFirst(start)
            }
            if let handler, !partial.isEmpty {
                let line = String(decoding: partial, as: UTF8.self)
                if !handler(line[...]) { keep(partial[...]) }
            }
            _ = close(fd)
            done.signal()
        }
    }

    /// Waits for end of stream and returns the last `lines` non-empty lines.
    func tail(lines: Int = 12) -> String {
        done.wait()
        done.signal()  // later calls return at once
        let text = data.withLock { String(decoding: $0, as: UTF8.self) }
        let kept = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return kept.suffix(lines).joined(separator: "\n")
    }
}
