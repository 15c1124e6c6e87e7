// Atomic file output: bytes go to a temporary file in the destination's directory (same file
// system, so `rename` is atomic), are flushed with `fsync`, and the temporary is renamed over
// the destination. Readers see either the old file or the complete new one, never a partial one.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written atomically: created as `.NAME.segue-tmp-<pid>-<random>` next to `path`,
/// renamed onto `path` by `commit()`. Any failure, `discard()`, or dropping the object before
/// `commit()` removes the temporary and leaves the destination untouched. While open, the
/// temporary is registered with `TemporaryFiles`, so an interrupt removes it too.
///
/// Not thread-safe: use one `AtomicFile` from one thread at a time.
public final class AtomicFile {
    /// The destination path.
    public let path: String
    /// The temporary file being written, in the destination's directory.
    public let temporaryPath: String

    private var fd: Int32
    private var finished = false

    /// Creates the temporary file for `path`.
    /// - Throws: `.unwritable` when the directory is missing, not writable, or `path` is a directory.
    public init(path: String) throws(MediaError) {
        if FileIO.isDirectory(path) {
            throw .unwritable(path: path, reason: "it is a directory; give a file name")
        }
        let temporary = AtomicFile.temporaryPath(for: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .unwritable(path: path, reason: FileIO.creationFailure(errno, path: path)) }
        self.path = path
        self.temporaryPath = temporary
        self.fd = fd
        TemporaryFiles.register(temporary)
    }

    deinit {
        if !finished { discard() }
    }

    /// A fresh temporary name next to `path`: `DIR/.NAME.segue-tmp-<pid>-<random>`.
    static func temporaryPath(for path: String, suffix: String = "") -> String {
        let dir = FileIO.directory(of: path)
        let name = FileIO.lastComponent(of: path)
        let prefix = path.contains("/") ? (dir == "/" ? "/" : dir + "/") : ""
        return "\(prefix).\(name).segue-tmp-\(getpid())-\(FileIO.randomToken())\(suffix)"
    }

    /// Creates an empty temporary file next to `path` for another writer (an ffmpeg process) to
    /// fill, and registers it for removal on an interrupt. Creating it first proves the directory
    /// is writable before anything starts.
    /// - Throws: `.unwritable` when `path` is a directory or the file cannot be created.
    static func reserveTemporary(for path: String, suffix: String) throws(MediaError) -> String {
        if FileIO.isDirectory(path) { throw .unwritable(path: path, reason: "it is a directory; give a file name") }
        let temporary = temporaryPath(for: path, suffix: suffix)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .unwritable(path: path, reason: FileIO.creationFailure(errno, path: path)) }
        close(fd)
        TemporaryFiles.register(temporary)
        return temporary
    }

    // MARK: - Writing

    /// Appends bytes to the temporary file.
    /// - Throws: `.writeFailed` (disk full, I/O error); the temporary is then already removed.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(MediaError) {
        precondition(!finished, "AtomicFile used after commit() or discard()")
        if let code = FileIO.writeAll(fd, bytes) {
            discard()
            throw .writeFailed(path: path, reason: FileIO.message(code))
        }
    }

    /// Appends bytes to the temporary file.
    public func write(_ bytes: [UInt8]) throws(MediaError) {
        try bytes.withBytes { (raw) throws(MediaError) in try write(raw) }
    }

    /// Flushes the temporary to disk and renames it onto `path`, replacing any file there.
    /// - Throws: `.writeFailed` or `.unwritable`; the temporary is then removed and `path` untouched.
    public func commit() throws(MediaError) {
        precondition(!finished, "AtomicFile used after commit() or discard()")
        if fsync(fd) != 0 && errno != EINVAL {
            let code = errno
            discard()
            throw .writeFailed(path: path, reason: FileIO.message(code))
        }
        let closed = close(fd)
        fd = -1
        if closed != 0 && errno != EINTR {
            let code = errno
            discard()
            throw .writeFailed(path: path, reason: FileIO.message(code))
        }
        if rename(temporaryPath, path) != 0 {
            let code = errno
            discard()
            throw .unwritable(path: path, reason: code == EISDIR || code == ENOTEMPTY || code == EEXIST
                ? "a directory is in the way" : FileIO.creationFailure(code, path: path))
        }
        finished = true
        TemporaryFiles.unregister(temporaryPath)
        AtomicFile.syncDirectory(of: path)
    }

    /// Abandons the output: closes and removes the temporary. `path` is left as it was.
    public func discard() {
        guard !finished else { return }
        finished = true
        if fd >= 0 { close(fd); fd = -1 }
        unlink(temporaryPath)
        TemporaryFiles.unregister(temporaryPath)
    }

    // MARK: - One call

    /// Writes `bytes` to `path` atomically.
    /// - Throws: `.unwritable` or `.writeFailed`; on failure `path` is untouched and no temporary remains.
    public static func write(_ bytes: [UInt8], to path: String) throws(MediaError) {
        try write(to: path) { (file) throws(MediaError) in try file.write(bytes) }
    }

    /// Opens `path` atomically, lets `body` write to it, and commits when `body` returns.
    /// If `body` throws, the temporary is removed, `path` is untouched and the error is rethrown.
    /// The write never overlaps an interrupt's cleanup (see `TemporaryFiles.whileAcceptingWrites`).
    public static func write(to path: String, _ body: (AtomicFile) throws(MediaError) -> Void) throws(MediaError) {
        do {
            try TemporaryFiles.whileAcceptingWrites(path: path) { () throws -> Void in
                try writeAndCommit(path, body)
            }
        } catch let error as MediaError {
            throw error
        } catch {
            throw .writeFailed(path: path, reason: "\(error)")  // not reached: the body throws MediaError
        }
    }

    /// Opens `path` atomically, runs `body` and commits (or discards on a throw).
    private static func writeAndCommit(_ path: String, _ body: (AtomicFile) throws(MediaError) -> Void) throws(MediaError) {
        let file = try AtomicFile(path: path)
        do throws(MediaError) {
            try body(file)
        } catch {
            file.discard()
            throw error
        }
        try file.commit()
    }

    /// Makes a completed rename durable; failures are ignored (some file systems refuse).
    private static func syncDirectory(of path: String) {
        let dfd = open(FileIO.directory(of: path), O_RDONLY | O_CLOEXEC)
        guard dfd >= 0 else { return }
        _ = fsync(dfd)
        close(dfd)
    }
}
