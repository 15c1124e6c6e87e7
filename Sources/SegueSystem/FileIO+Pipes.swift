// Descriptor plumbing for pipes and children: reads that retry, close-on-exec pipes above the
// standard descriptors, large pipe buffers, writes that never raise SIGPIPE or SIGXFSZ, and
// killing a child with its process group.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileIO {
    /// Reads up to `buffer.count` bytes once, retrying on `EINTR`.
    /// - Returns: bytes read, 0 at end of file, -1 on error (see `errno`).
    package static func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 || errno != EINTR { return n }
        }
    }

    /// Fills `buffer` from `fd` unless the file ends first.
    /// - Returns: bytes read: `buffer.count`, or fewer at end of file or on an error.
    package static func readFully(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        var total = 0
        while total < buffer.count {
            let n = readSome(fd, UnsafeMutableRawBufferPointer(rebasing: buffer[total...]))
            if n <= 0 { break }
            total += n
        }
        return total
    }

    /// A pipe whose two ends are close-on-exec and above the standard descriptors (so that
    /// handing them to a child as its stdin, stdout or stderr never overwrites one another).
    /// - Returns: (read end, write end), or the errno that stopped it.
    package static func makePipe() -> Result<(read: Int32, write: Int32), PipeFailure> {
        var fds: [Int32] = [-1, -1]
        let made = fds.withUnsafeMutableBufferPointer { buffer in
            if let pipe2 = pipeWithFlags { return pipe2(buffer.baseAddress!, O_CLOEXEC) }
            return pipe(buffer.baseAddress!)
        }
        guard made == 0 else { return .failure(PipeFailure(code: errno)) }
        for i in 0..<2 {
            if fds[i] < 3 {
                let moved = fcntl(fds[i], F_DUPFD_CLOEXEC, 3)
                let code = errno
                close(fds[i])
                fds[i] = moved
                if moved < 0 {
                    if fds[1 - i] >= 0 { close(fds[1 - i]) }
                    return .failure(PipeFailure(code: code))
                }
            } else {
                _ = fcntl(fds[i], F_SETFD, FD_CLOEXEC)
            }
        }
        return .success((fds[0], fds[1]))
    }

    /// A failed `pipe`: its errno.
    package struct PipeFailure: Error {
        /// The errno value.
        package let code: Int32
    }

    /// glibc's `pipe2` (not in the Swift module's headers), which sets close-on-exec atomically.
    private static let pipeWithFlags: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32)? = {
        dlsym(dlopen(nil, RTLD_NOW), "pipe2").map {
            unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
        }
    }()

    /// Kills child `pid` and every process of the group it leads (children are started in their
    /// own group, so this includes what the child started in turn: the real ffmpeg under a
    /// wrapper script, which would otherwise keep the pipes open and live on); `pid` alone when
    /// it leads no group.
    package static func killGroup(of pid: Int32) {
        if kill(-pid, SIGKILL) != 0 { _ = kill(pid, SIGKILL) }
    }

    /// Grows a pipe's kernel buffer to 1 MiB (when `fd` is a pipe; otherwise nothing), so a
    /// frame of several megabytes crosses in a few writes instead of one per 64 KiB.
    package static func enlargePipeBuffer(_ fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO else { return }
        _ = fcntl(fd, 1031 /* F_SETPIPE_SZ */, 1 << 20)
    }

    /// Runs `body`, a write, so that a reader that has gone makes it fail with `EPIPE` instead of
    /// raising SIGPIPE, and a file grown past `ulimit -f` with `EFBIG` instead of raising SIGXFSZ
    /// (either signal would end the process before its temporaries are removed): both are
    /// blocked in the calling thread for the duration, and one that the write raised (it is
    /// directed at the writing thread) is consumed before the thread's mask is restored. The
    /// process's dispositions, which belong to the host program, are never read or changed.
    package static func withoutWriteSignals<T>(_ body: () -> T) -> T {
        // Two signals, spelled out: this runs for every write, so it allocates nothing.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        sigaddset(&blocked, SIGXFSZ)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        var pending = sigset_t()
        sigpending(&pending)
        // A signal already pending (from elsewhere) is left for its owner.
        let pipeWasPending = sigismember(&pending, SIGPIPE) == 1
        let sizeWasPending = sigismember(&pending, SIGXFSZ) == 1
        let result = body()
        sigpending(&pending)
        func consume(_ signal: Int32) {
            var one = sigset_t()
            sigemptyset(&one)
            sigaddset(&one, signal)
            var immediately = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&one, nil, &immediately) < 0 && errno == EINTR {}
        }
        if !pipeWasPending && sigismember(&pending, SIGPIPE) == 1 { consume(SIGPIPE) }
        if !sizeWasPending && sigismember(&pending, SIGXFSZ) == 1 { consume(SIGXFSZ) }
        if sigismember(&previous, SIGPIPE) == 0 || sigismember(&previous, SIGXFSZ) == 0 {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return result
    }
}
