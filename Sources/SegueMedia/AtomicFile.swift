// Atomic file output: bytes go to a staged temporary file beside the destination, which
// `AtomicPublish` flushes and renames over the destination. Readers see either the old file or
// the complete new one, never a partial one.

/// A file written atomically: created as `.NAME.segue-tmp-<pid>-<random>` next to `path`,
/// renamed onto `path` by `commit()`. Any failure, `discard()`, or dropping the object before
/// `commit()` removes the temporary and leaves the destination untouched. While open, the
/// temporary is registered with the `Cancellation` given, so cancelling removes it too.
///
/// Not thread-safe: use one `AtomicFile` from one thread at a time.
public final class AtomicFile {
    /// The destination path.
    public var path: String { staged.path }
    /// The temporary file being written, in the destination's directory.
    public var temporaryPath: String { staged.temporaryPath }

    private let staged: StagedOutput
    private var finished = false

    /// Creates the temporary file for `path`, registered with `cancellation`.
    /// - Throws: `.unwritable` when the directory is missing, not writable, or `path` is a directory.
    public init(path: String, cancellation: Cancellation? = nil) throws(MediaError) {
        staged = try StagedOutput(file: path, cancellation: cancellation)
    }

    // MARK: - Writing

    /// Appends bytes to the temporary file.
    /// - Throws: `.incompleteOutput` (disk full, I/O error); the temporary is then already removed.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(MediaError) {
        precondition(!finished, "AtomicFile used after commit() or discard()")
        if let code = FileIO.writeAll(staged.descriptor, bytes) {
            discard()
            throw .incompleteOutput(path: path, reason: FileIO.writeFailure(code))
        }
    }

    /// Appends bytes to the temporary file.
    public func write(_ bytes: [UInt8]) throws(MediaError) {
        try bytes.withBytes { (raw) throws(MediaError) in try write(raw) }
    }

    /// Flushes the temporary to disk and renames it onto `path`, replacing any file there.
    /// - Throws: `.incompleteOutput` or `.unwritable`; the temporary is then removed and `path` untouched.
    public func commit() throws(MediaError) {
        precondition(!finished, "AtomicFile used after commit() or discard()")
        finished = true
        try staged.publish()
    }

    /// Abandons the output: closes and removes the temporary. `path` is left as it was.
    public func discard() {
        finished = true
        staged.discard()
    }

    // MARK: - One call

    /// Writes `bytes` to `path` atomically.
    /// - Throws: `.unwritable` or `.incompleteOutput`; on failure `path` is untouched and no temporary remains.
    public static func write(_ bytes: [UInt8], to path: String, cancellation: Cancellation? = nil) throws(MediaError) {
        try write(to: path, cancellation: cancellation) { (file) throws(MediaError) in try file.write(bytes) }
    }

    /// Opens `path` atomically, lets `body` write to it, and commits when `body` returns.
    /// If `body` throws, the temporary is removed, `path` is untouched and the error is rethrown.
    /// The write never overlaps `cancellation`'s cleanup (after it: `.cancelled`).
    public static func write(to path: String, cancellation: Cancellation? = nil,
                             _ body: (AtomicFile) throws(MediaError) -> Void) throws(MediaError) {
        do {
            try cancellation.whileAcceptingWrites(path: path) { () throws -> Void in
                try writeAndCommit(path, cancellation, body)
            }
        } catch let error as MediaError {
            throw error
        } catch {
            throw .writeFailed(path: path, reason: "\(error)")  // not reached: the body throws MediaError
        }
    }

    /// Opens `path` atomically, runs `body` and commits (or discards on a throw).
    private static func writeAndCommit(_ path: String, _ cancellation: Cancellation?,
                                       _ body: (AtomicFile) throws(MediaError) -> Void) throws(MediaError) {
        let file = try AtomicFile(path: path, cancellation: cancellation)
        do throws(MediaError) {
            try body(file)
        } catch {
            file.discard()
            throw error
        }
        try file.commit()
    }

}
