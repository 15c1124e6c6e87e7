// The one atomic publish of Segue's outputs, files and directories: made under a temporary name
// beside the destination (`AtomicPublish`), registered with the caller's `Cancellation` (whose
// `cancel()` removes it), and moved onto the destination (flush, rename) only when complete. A
// failure, a cancellation, an interrupt or a crash at any step leaves the destination as it was.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output being made under a temporary name: a file (written through `write`, or by another
/// process such as ffmpeg) or a directory (filled by the caller). `publish()` moves it onto its
/// destination; `discard()`, a failure, or dropping it unpublished removes it.
///
/// ```swift
/// try StagedOutput.write(bytes, to: "out.png", cancellation: token)   // one call
/// ```
///
/// Not thread-safe: one thread at a time.
package final class StagedOutput {
    /// The destination.
    package let path: String
    /// The temporary file or directory, beside `path`.
    package let temporaryPath: String
    /// The temporary file's open descriptor; -1 for a directory or once closed.
    package private(set) var descriptor: Int32
    private let isDirectory: Bool
    private var finished = false
    private let cancellation: Cancellation?

    /// Creates an empty temporary file for `path`, open for writing.
    /// - Parameters:
    ///   - suffix: added to the temporary name (`.mp4`, so ffmpeg can tell the format).
    ///   - cancellation: registers the temporary with it (its `cancel()` removes it).
    /// - Throws: `.unwritable` when `path` is empty or a directory, or the file cannot be created.
    package init(file path: String, suffix: String = "", cancellation: Cancellation? = nil) throws(SystemError) {
        if path.isEmpty { throw .emptyPath }
        if FileIO.isDirectory(path) { throw .unwritable(path: path, reason: "it is a directory; give a file name") }
        let temporary = AtomicPublish.temporaryPath(for: path, suffix: suffix)
        do {
            descriptor = try AtomicPublish.createFile(temporary)
        } catch {
            throw .unwritable(path: path, reason: FileIO.creationFailure(error.code, path: path))
        }
        self.path = path
        temporaryPath = temporary
        isDirectory = false
        self.cancellation = cancellation
        cancellation?.register(temporary)
    }

    /// Creates an empty temporary directory for `path`, which replaces whatever directory is
    /// at `path` when published; registered with `cancellation` (its `cancel()` removes it).
    /// - Throws: `.unwritable` for a path `FileIO.replaceableDirectory` refuses, or when the
    ///   directory cannot be created.
    package init(directory path: String, cancellation: Cancellation? = nil) throws(SystemError) {
        let path = try FileIO.replaceableDirectory(path)
        let temporary = AtomicPublish.temporaryPath(for: path)
        do {
            try AtomicPublish.createDirectory(temporary)
        } catch {
            throw .unwritable(path: path, reason: FileIO.creationFailure(error.code, path: path))
        }
        self.path = path
        temporaryPath = temporary
        descriptor = -1
        isDirectory = true
        self.cancellation = cancellation
        cancellation?.register(temporary)
    }

    deinit { discard() }

    // MARK: - Writing a file

    /// Appends bytes to the temporary file.
    /// - Throws: `.incompleteOutput` (disk full, I/O error); the temporary is then already removed.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        precondition(!finished && !isDirectory, "a staged file written after publish() or discard(), or a directory written")
        if let code = FileIO.writeAll(descriptor, bytes) {
            discard()
            throw .incompleteOutput(path: path, reason: FileIO.writeFailure(code))
        }
    }

    /// Appends bytes to the temporary file.
    package func write(_ bytes: [UInt8]) throws(SystemError) {
        let failure: SystemError? = bytes.withUnsafeBytes { raw in
            do throws(SystemError) { try write(raw); return nil } catch { return error }
        }
        if let failure { throw failure }
    }

    /// Closes the temporary file's descriptor, for an output another process writes.
    package func closeDescriptor() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    // MARK: - Publishing

    /// Flushes the output and renames it onto `path` (a directory replaces the one there whole),
    /// never overlapping the cancellation's `cancel()` (after it: `.cancelled`).
    /// - Throws: `.incompleteOutput` when the flush fails (a full disk), `.unwritable` when the
    ///   rename does; the temporary is then removed and `path` left as it was.
    package func publish() throws(SystemError) {
        precondition(!finished, "a staged output published after publish() or discard()")
        do throws(SystemError) {
            try cancellation.whileAcceptingWrites(path: path) { () throws(SystemError) -> Void in
                do throws(AtomicPublish.Failure) {
                    if isDirectory {
                        try AtomicPublish.publishDirectory(temporaryPath, to: path)
                    } else {
                        let fd = descriptor
                        descriptor = -1
                        try AtomicPublish.publishFile(temporaryPath, descriptor: fd, to: path)
                    }
                } catch {
                    throw failure(error)
                }
            }
        } catch {
            discard()
            throw error
        }
        finished = true
        cancellation?.unregister(temporaryPath)
    }

    /// Removes the temporary; `path` is left as it was. Does nothing after `publish()`.
    package func discard() {
        guard !finished else { return }
        finished = true
        closeDescriptor()
        AtomicPublish.remove(temporaryPath)
        cancellation?.unregister(temporaryPath)
    }

    /// What a failed publishing step means for the user.
    private func failure(_ failure: AtomicPublish.Failure) -> SystemError {
        switch failure.step {
        case .rename:
            .unwritable(
                path: path,
                reason: [EISDIR, ENOTEMPTY, EEXIST, ENOTDIR].contains(failure.code)
                    ? "a \(isDirectory ? "file" : "directory") is in the way" : FileIO.creationFailure(failure.code, path: path))
        case .create, .write, .sync:
            .incompleteOutput(path: path, reason: FileIO.writeFailure(failure.code))
        }
    }

    // MARK: - One call

    /// Writes `bytes` to `path` atomically.
    /// - Throws: `.unwritable`, `.incompleteOutput` or `.cancelled`; on failure `path` is
    ///   untouched and no temporary remains.
    package static func write(_ bytes: [UInt8], to path: String, cancellation: Cancellation? = nil) throws(SystemError) {
        try write(to: path, cancellation: cancellation) { (file) throws(SystemError) in try file.write(bytes) }
    }

    /// Opens `path` atomically, lets `body` write to it, and publishes it when `body` returns.
    /// If `body` throws, the temporary is removed, `path` is untouched and the error is rethrown.
    /// The write never overlaps `cancellation`'s cleanup (after it: `.cancelled`).
    package static func write<Failure: SystemErrorConvertible>(
        to path: String, cancellation: Cancellation? = nil, _ body: (StagedOutput) throws(Failure) -> Void
    ) throws(Failure) {
        try cancellation.whileAcceptingWrites(path: path) { () throws(Failure) -> Void in
            let file = try Failure.converting { () throws(SystemError) in try StagedOutput(file: path, cancellation: cancellation) }
            do throws(Failure) {
                try body(file)
            } catch {
                file.discard()
                throw error
            }
            try Failure.converting { () throws(SystemError) in try file.publish() }
        }
    }
}
