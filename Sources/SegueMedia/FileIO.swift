// POSIX file helpers: whole-file reads with precise errors, full-write loops, errno wording.
// With `AtomicPublish` (SegueCore), the only place in SegueMedia that calls open/read/write/fstat directly.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SegueCore

/// POSIX wrappers shared by the codecs, `AtomicFile` and the frame writers (and, package-wide,
/// by the modules above that check paths).
package enum FileIO {
    // MARK: - Errors

    /// `strerror` text for an errno value.
    static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The directory part of `path` ("." when it has none).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component of `path`.
    static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The lower-cased extension of `path`'s last component, without the dot ("" when none).
    package static func pathExtension(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    /// Why creating a file at `path` failed, in words that point at the fix.
    static func creationFailure(_ code: Int32, path: String) -> String {
        let dir = directory(of: path)
        switch code {
        case ENOENT: return "the directory \(dir) does not exist"
        case ENOTDIR: return "a component of \(dir) is not a directory"
        case EACCES, EPERM: return "permission denied in \(dir)"
        case EROFS: return "\(dir) is on a read-only file system"
        case EISDIR: return "a directory is in the way"
        case ENOSPC: return "no space left on the device"
        default: return descriptorShortage(code) ?? message(code)
        }
    }

    /// For `EMFILE` and `ENFILE`, what ran out and what to do; nil for other errors.
    static func descriptorShortage(_ code: Int32) -> String? {
        switch code {
        case EMFILE:
            var limit = rlimit()
            let known = getrlimit(resourceLimitOpenFiles, &limit) == 0 && limit.rlim_cur < 1 << 31
            return "too many open files (this process may have \(known ? String(limit.rlim_cur) : "only a few") open; "
                + "raise the limit with `ulimit -n`, e.g. to 1024)"
        case ENFILE:
            return "too many open files in the system; close some programs and try again"
        default:
            return nil
        }
    }

    #if canImport(Glibc)
    private static let resourceLimitOpenFiles = Int32(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceLimitOpenFiles = RLIMIT_NOFILE
    #endif

    /// Whether `path` names an existing directory.
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path` names anything (a file, directory or link).
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Creates `path` and any missing parents (`mkdir -p`).
    /// - Returns: nil on success (or when the directory exists), otherwise the failing errno.
    static func makeDirectories(_ path: String) -> Int32? {
        if isDirectory(path) { return nil }
        if exists(path) { return EEXIST }
        let parent = directory(of: path)
        if parent != path && parent != "." && parent != "/", let code = makeDirectories(parent) { return code }
        if mkdir(path, 0o777) != 0 && errno != EEXIST { return errno }
        return isDirectory(path) ? nil : ENOTDIR
    }

    // MARK: - Reading

    /// Why a file of `mode` cannot be read as an input, nil for a regular file. Anything else (a
    /// FIFO, socket or device) may block or never end; `noun` names what to save to a file.
    static func kindProblem(_ mode: mode_t, noun: String) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "it is a directory, not a file"
        case S_IFIFO: "it is a pipe (FIFO), not a regular file; save the \(noun) to a file first"
        case S_IFCHR, S_IFBLK: "it is a device, not a regular file"
        default: "it is not a regular file"
        }
    }

    /// Checks that `path` is an existing, readable regular file, without opening it (so a FIFO
    /// is refused at once instead of waiting for a writer).
    /// - Throws: `.fileNotFound`, `.unreadable` (the kind of file, permission).
    static func requireRegularFile(_ path: String, noun: String) throws(MediaError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .fileNotFound(path: path) }
            throw .unreadable(path: path, reason: code == EACCES ? "permission denied" : message(code))
        }
        if let problem = kindProblem(info.st_mode, noun: noun) { throw .unreadable(path: path, reason: problem) }
        if access(path, R_OK) != 0 {
            let code = errno
            throw .unreadable(path: path, reason: code == EACCES ? "permission denied" : message(code))
        }
    }

    /// Reads a whole regular file of at most `limit` bytes. Anything else (a FIFO, socket or
    /// device, which may block or never end) is refused before a byte is read, a larger file
    /// from its size, and `head` sees the first bytes (up to 64 KiB) before the rest is read,
    /// so a file of the wrong kind is refused at once however large it is.
    static func readAll(path: String, limit: Int,
                        head: ([UInt8]) throws(MediaError) -> Void = { _ throws(MediaError) in }) throws(MediaError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO without a writer would otherwise wait for one.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .fileNotFound(path: path) }
            if code == EACCES || code == EPERM { throw .unreadable(path: path, reason: "permission denied") }
            throw .unreadable(path: path, reason: descriptorShortage(code) ?? message(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: message(errno)) }
        if let problem = kindProblem(info.st_mode, noun: "image") { throw .unreadable(path: path, reason: problem) }
        let size = Int(info.st_size)
        guard size <= limit else {
            throw .unreadable(path: path, reason: "it is \(size) bytes, more than the \(limit)-byte limit for an input image")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(max(min(size, limit), 0))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var checked = false
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                // A file that grows while it is read is still held to the limit.
                guard bytes.count + n <= limit else {
                    throw .unreadable(path: path, reason: "it is more than the \(limit)-byte limit for an input image")
                }
                bytes.append(contentsOf: chunk[0..<n])
                if !checked { checked = true; try head(bytes) }
            } else if n == 0 {
                if !checked { try head(bytes) }
                return bytes
            } else if errno != EINTR {
                throw .unreadable(path: path, reason: message(errno))
            }
        }
    }

    // MARK: - Writing

    /// Writes all of `bytes` to `fd`, looping over partial writes and `EINTR`.
    /// - Returns: `nil` on success, otherwise the errno of the failed `write` (`EPIPE` when the
    ///   reader has gone: no SIGPIPE is raised, see `withoutSIGPIPE`).
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        withoutSIGPIPE { AtomicPublish.writeAll(fd, bytes) }
    }

    /// Why writing an output file failed, in words a user can act on ("no space left on device").
    static func writeFailure(_ code: Int32) -> String {
        writeFailures.first { $0.code == code }?.reason ?? message(code)
    }

    /// The write errors that stop an output part-way, and how Segue says them (ffmpeg prints
    /// their `strerror` text, which `FFmpegWriteErrors` recognises).
    static let writeFailures: [(code: Int32, reason: String)] = [
        (ENOSPC, "no space left on device"),
        (EDQUOT, "the disk quota is exceeded"),
        (EFBIG, "the file is too large for the file system or the `ulimit -f` limit"),
        (EIO, "an input/output error while writing"),
        (EROFS, "the file system is read-only"),
    ]

    /// Reads up to `buffer.count` bytes once, retrying on `EINTR`.
    /// - Returns: bytes read, 0 at end of file, -1 on error (see `errno`).
    static func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 || errno != EINTR { return n }
        }
    }

    /// Fills `buffer` from `fd` unless the file ends first.
    /// - Returns: bytes read: `buffer.count`, or fewer at end of file or on an error.
    static func readFully(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
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
    static func makePipe() -> Result<(read: Int32, write: Int32), PipeFailure> {
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
    struct PipeFailure: Error { let code: Int32 }

    /// glibc's `pipe2` (not in the Swift module's headers), which sets close-on-exec atomically.
    private static let pipeWithFlags: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32)? = {
        dlsym(dlopen(nil, RTLD_NOW), "pipe2").map { unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self) }
    }()

    /// Kills child `pid` and every process of the group it leads (children are started in their
    /// own group, so this includes what the child started in turn: the real ffmpeg under a
    /// wrapper script, which would otherwise keep the pipes open and live on); `pid` alone when
    /// it leads no group.
    static func killGroup(of pid: Int32) {
        if kill(-pid, SIGKILL) != 0 { _ = kill(pid, SIGKILL) }
    }

    /// Grows a pipe's kernel buffer to 1 MiB (when `fd` is a pipe; otherwise nothing), so a
    /// frame of several megabytes crosses in a few writes instead of one per 64 KiB.
    static func enlargePipeBuffer(_ fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO else { return }
        _ = fcntl(fd, 1031 /* F_SETPIPE_SZ */, 1 << 20)
    }

    /// Runs `body`, a write to a pipe, so that a reader that has gone makes the write fail with
    /// `EPIPE` instead of raising SIGPIPE: the signal is blocked in the calling thread for the
    /// duration, and one that the write raised (it is directed at the writing thread) is consumed
    /// before the thread's mask is restored. The process's disposition of SIGPIPE, which belongs
    /// to the host program, is never read or changed.
    static func withoutSIGPIPE<T>(_ body: () -> T) -> T {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        var pending = sigset_t()
        sigpending(&pending)
        let pendingBefore = sigismember(&pending, SIGPIPE) == 1
        let result = body()
        if !pendingBefore {
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var immediately = timespec(tv_sec: 0, tv_nsec: 0)
                while sigtimedwait(&pipeSignal, nil, &immediately) < 0 && errno == EINTR {}
            }
        }
        if sigismember(&previous, SIGPIPE) == 0 { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return result
    }
}
