// POSIX file helpers: paths, whole-file reads with precise errors, full-write loops, errno
// wording, scratch directories and the search of PATH. With `AtomicPublish`, the only place in
// Segue that calls open/read/write/fstat directly.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX wrappers shared by every module: the codecs, staged outputs, frame writers, child
/// processes, and the modules above that check paths.
package enum FileIO {
    // MARK: - Errors

    /// `strerror` text for an errno value.
    package static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The folder `path` is in: "." for a bare name, "/" for a name in the root; trailing
    /// slashes are not a component ("a/b/" is in "a").
    package static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        var parent = trimmed[..<slash]
        while parent.hasSuffix("/") { parent = parent.dropLast() }
        return parent.isEmpty ? "/" : String(parent)
    }

    /// The last component of `path`.
    package static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The lower-cased extension of `path`'s last component, without the dot ("" when none).
    package static func pathExtension(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    /// `name` without its extension (the last dot and what follows; a leading dot is no
    /// extension's), as `NSString.deletingPathExtension` gives it for a file name.
    package static func removingExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, !name[..<dot].hasSuffix("/") else { return name }
        return String(name[..<dot])
    }

    /// Why creating a file at `path` failed, in words that point at the fix.
    package static func creationFailure(_ code: Int32, path: String) -> String {
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
    package static func descriptorShortage(_ code: Int32) -> String? {
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

    /// The size in bytes and the modification time (seconds since 1970) of what `path` names,
    /// symbolic links followed; nil when there is nothing.
    package static func sizeAndModificationTime(_ path: String) -> (size: Int64, modified: Double)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return (Int64(info.st_size), Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }

    /// Whether `path` names anything (a file, directory or link).
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Creates `path` and any missing parents (`mkdir -p`).
    /// - Returns: nil on success (or when the directory exists), otherwise the failing errno and
    ///   the folder it failed to make (`path` or one of its parents).
    package static func makeDirectories(_ path: String) -> (code: Int32, path: String)? {
        if isDirectory(path) { return nil }
        if exists(path) { return (EEXIST, path) }
        let parent = directory(of: path)
        if parent != path && parent != "." && parent != "/", let failure = makeDirectories(parent) { return failure }
        if mkdir(path, 0o777) != 0 && errno != EEXIST { return (errno, path) }
        return isDirectory(path) ? nil : (ENOTDIR, path)
    }

    /// Creates `path` and any missing parents, as `makeDirectories`, and says why it could not
    /// in the words every command uses: a file in the way, or the system's reason.
    /// - Returns: nil on success (or when the directory exists), otherwise the reason.
    package static func directoryCreationProblem(_ path: String) -> String? {
        guard let (code, failed) = makeDirectories(path) else { return nil }
        if code == EEXIST || code == ENOTDIR {
            return failed == path ? "a file is in the way of the directory" : "a file is in the way of the directory \(failed)"
        }
        return creationFailure(code, path: failed)
    }

    // MARK: - Reading

    /// Why a file of `mode` cannot be read as an input, nil for a regular file. Anything else (a
    /// FIFO, socket or device) may block or never end; `noun` names what to save to a file.
    package static func kindProblem(_ mode: mode_t, noun: String) -> String? {
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
    package static func requireRegularFile(_ path: String, noun: String) throws(SystemError) {
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

    /// What stopped a whole-file read (`readAll(path:limit:head:failure:)`), for its caller to
    /// word.
    package enum ReadFailure: Sendable, Equatable {
        /// `open` failed with this errno.
        case cannotOpen(Int32)
        /// `fstat` or `read` failed with this errno.
        case cannotRead(Int32)
        /// The file is not a regular file: its `st_mode`.
        case notRegular(mode_t)
        /// The file is `size` bytes, more than the limit.
        case tooLarge(size: Int)
        /// The file grew past the limit while it was read.
        case grewPastLimit
    }

    /// Reads a whole regular file of at most `limit` bytes. Anything else (a FIFO, socket or
    /// device, which may block or never end) is refused before a byte is read, a larger file
    /// from its size, and `head` sees the first bytes (up to 64 KiB) before the rest is read,
    /// so a file of the wrong kind is refused at once however large it is.
    /// - Parameter noun: what the file is, in messages ("image": "the limit for an input image").
    package static func readAll<Failure: SystemErrorConvertible>(
        path: String, limit: Int, noun: String, head: ([UInt8]) throws(Failure) -> Void
    ) throws(Failure) -> [UInt8] {
        try readAll(path: path, limit: limit, head: head) { failure in
            Failure(systemError(failure, path: path, limit: limit, noun: noun))
        }
    }

    /// The whole-file read under `readAll(path:limit:noun:head:)`, its failures worded by the
    /// caller's `failure` (effect files keep their own words).
    package static func readAll<Failure: Error>(
        path: String, limit: Int, head: ([UInt8]) throws(Failure) -> Void, failure: (ReadFailure) -> Failure
    ) throws(Failure) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO without a writer would otherwise wait for one.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw failure(.cannotOpen(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(.cannotRead(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw failure(.notRegular(info.st_mode)) }
        let size = Int(info.st_size)
        guard size <= limit else { throw failure(.tooLarge(size: size)) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(max(min(size, limit), 0))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var checked = false
        while true {
            let n = chunk.withUnsafeMutableBytes { readSome(fd, $0) }
            if n > 0 {
                // A file that grows while it is read is still held to the limit.
                guard bytes.count + n <= limit else { throw failure(.grewPastLimit) }
                bytes.append(contentsOf: chunk[0..<n])
                if !checked { checked = true; try head(bytes) }
            } else if n == 0 {
                if !checked { try head(bytes) }
                return bytes
            } else {
                throw failure(.cannotRead(errno))
            }
        }
    }

    /// `failure` of a read of `path` in the words of `readAll(path:limit:noun:head:)`.
    package static func systemError(_ failure: ReadFailure, path: String, limit: Int, noun: String) -> SystemError {
        switch failure {
        case .cannotOpen(ENOENT): .fileNotFound(path: path)
        case .cannotOpen(EACCES), .cannotOpen(EPERM): .unreadable(path: path, reason: "permission denied")
        case let .cannotOpen(code): .unreadable(path: path, reason: descriptorShortage(code) ?? message(code))
        case let .cannotRead(code): .unreadable(path: path, reason: message(code))
        case let .notRegular(mode): .unreadable(path: path, reason: kindProblem(mode, noun: noun) ?? "it is not a regular file")
        case let .tooLarge(size):
            .unreadable(path: path, reason: "it is \(size) bytes, more than the \(limit)-byte limit for an input \(noun)")
        case .grewPastLimit: .unreadable(path: path, reason: "it is more than the \(limit)-byte limit for an input \(noun)")
        }
    }

    /// `readAll` with no look at the first bytes.
    package static func readAll(path: String, limit: Int, noun: String) throws(SystemError) -> [UInt8] {
        try readAll(path: path, limit: limit, noun: noun) { (_) throws(SystemError) in }
    }

    /// The first `count` bytes of the file at `path` (all of it when shorter), whatever kind of
    /// file it is. A pipe (a FIFO, `<(command)`'s `/dev/fd/N`) is read as its writer writes, for
    /// at most `timeout` seconds: a FIFO no one writes to is an error, not a wait for ever.
    /// - Throws: `.fileNotFound`, `.unreadable` with the reason.
    package static func readPrefix(path: String, count: Int, timeout: Double = 10) throws(SystemError) -> [UInt8] {
        // Non-blocking, so that opening a FIFO does not wait for a writer; the reads below poll.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .fileNotFound(path: path) }
            throw .unreadable(
                path: path, reason: code == EACCES || code == EPERM ? "permission denied" : descriptorShortage(code) ?? message(code))
        }
        defer { close(fd) }
        var info = stat()
        let isRegular = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        let clock = Stopwatch()
        var bytes = [UInt8](repeating: 0, count: max(count, 0))
        var total = 0
        while total < bytes.count {
            // Anything but a regular file (a pipe, a FIFO, a terminal) is waited on for data or
            // its writer's end, up to the deadline: opened without blocking, a FIFO that has no
            // writer yet reads as ended, while poll waits for one to come and write.
            if !isRegular {
                let left = timeout - clock.elapsed
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = left > 0 ? poll(&entry, 1, Int32(min(left, 3600) * 1000) + 1) : 0
                if ready < 0 && errno == EINTR { continue }
                guard ready != 0 else {
                    throw .unreadable(
                        path: path,
                        reason: "no data came through the pipe in \(String(cFormat: "%g", timeout)) s (a FIFO that nothing writes to?)")
                }
                guard ready > 0 else { throw .unreadable(path: path, reason: message(errno)) }
            }
            let n = bytes.withUnsafeMutableBytes { readSome(fd, UnsafeMutableRawBufferPointer(rebasing: $0[total...])) }
            if n == 0 { break }
            if n > 0 {
                total += n
            } else if errno != EAGAIN && errno != EWOULDBLOCK {
                throw .unreadable(path: path, reason: message(errno))
            }
        }
        bytes.removeSubrange(total...)
        return bytes
    }

    // MARK: - Writing

    /// Writes all of `bytes` to `fd` (a file or a pipe), looping over partial writes and `EINTR`.
    /// - Returns: `nil` on success, otherwise the errno of the failed `write`: `EPIPE` when the
    ///   reader has gone, `EFBIG` past `ulimit -f` (no signal is raised, see `withoutWriteSignals`),
    ///   `EIO` for a write of nothing.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        withoutWriteSignals {
            guard var base = bytes.baseAddress else { return nil }
            var remaining = bytes.count
            while remaining > 0 {
                let n = write(fd, base, remaining)
                if n > 0 {
                    base += n
                    remaining -= n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return n < 0 ? errno : EIO
                }
            }
            return nil
        }
    }

    /// Why writing an output file failed, in words a user can act on ("no space left on device").
    package static func writeFailure(_ code: Int32) -> String {
        writeFailures.first { $0.code == code }?.reason ?? message(code)
    }

    /// The write errors that stop an output part-way, and how Segue says them (ffmpeg prints
    /// their `strerror` text, which `FFmpegWriteErrors` recognises).
    package static let writeFailures: [(code: Int32, reason: String)] = [
        (ENOSPC, "no space left on device"),
        (EDQUOT, "the disk quota is exceeded"),
        (EFBIG, "the file is too large for the file system or the `ulimit -f` limit"),
        (EIO, "an input/output error while writing"),
        (EROFS, "the file system is read-only"),
    ]

    // MARK: - Removing, scratch directories

    /// Removes a file, or a directory with everything in it; failures are ignored.
    package static func removeTree(_ path: String) {
        if unlink(path) != 0 { removeTreeContents(path) }
    }

    /// The directory for temporary files: `TMPDIR` when set, else `/tmp`.
    package static var temporaryDirectory: String {
        guard let value = getenv("TMPDIR").map({ String(cString: $0) }), !value.isEmpty else { return "/tmp" }
        return value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value
    }

    /// Creates a fresh, private scratch directory `TMP/<prefix>-XXXXXX`, registered with
    /// `cancellation` (its `cancel()` removes it); `removeScratchDirectory` removes it.
    /// - Throws: `.unwritable` when it cannot be made, `.cancelled` after `cancel()`.
    package static func makeScratchDirectory(prefix: String, cancellation: Cancellation? = nil) throws(SystemError) -> String {
        var template = Array((temporaryDirectory + "/" + prefix + "-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }  // the name mkdtemp chose
        guard made else { throw .unwritable(path: path, reason: creationFailure(errno, path: path)) }
        cancellation?.register(path)  // after `cancel()`: removed at once
        if cancellation?.isCancelled == true {
            removeScratchDirectory(path, cancellation: cancellation)
            throw .cancelled(path: path)
        }
        return path
    }

    /// Removes a scratch directory made by `makeScratchDirectory` and forgets it in `cancellation`.
    package static func removeScratchDirectory(_ path: String, cancellation: Cancellation? = nil) {
        removeTree(path)
        cancellation?.unregister(path)
    }

    /// Runs `body` with a fresh scratch directory (see `makeScratchDirectory`), removed afterwards.
    package static func withScratchDirectory<T>(
        prefix: String, cancellation: Cancellation? = nil,
        _ body: (String) throws -> T
    ) throws -> T {
        let path = try makeScratchDirectory(prefix: prefix, cancellation: cancellation)
        defer { removeScratchDirectory(path, cancellation: cancellation) }
        return try body(path)
    }

    // MARK: - PATH

    /// Whether `path` is a file this process may execute (not a directory).
    package static func isExecutableFile(_ path: String) -> Bool {
        !isDirectory(path) && access(path, X_OK) == 0
    }

    /// The search path of `environment` (this process's when nil), `/usr/bin:/bin` without one.
    package static func searchPath(in environment: [String: String]? = nil) -> String {
        if let environment { return environment["PATH"] ?? "/usr/bin:/bin" }
        return getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    }

    /// The first executable file called `name` in the directories of `searchPath`; `name` itself
    /// when it holds a slash (and is executable). The one search of PATH in Segue.
    package static func findExecutable(_ name: String, searchPath: String = FileIO.searchPath()) -> String? {
        if name.contains("/") { return isExecutableFile(name) ? name : nil }
        for directory in searchPath.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = directory + "/" + name
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }
}
