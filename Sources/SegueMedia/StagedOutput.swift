// Every file and directory Segue writes is staged: made under a hidden temporary name beside its
// destination, registered with the caller's `Cancellation` (whose `cancel()` removes it), and
// published by `AtomicPublish` (flush, rename) only when complete. A failure, a cancellation or an
// interrupt leaves the destination as it was.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SegueCore

/// An output being made under a temporary name: a file (written through `descriptor`, or by
/// another process such as ffmpeg) or a directory (filled by the caller). `publish()` moves it
/// onto its destination; `discard()`, a failure, or dropping it unpublished removes it.
/// Not thread-safe.
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
    /// - Throws: `.unwritable` when `path` is a directory or the file cannot be created.
    package init(file path: String, suffix: String = "", cancellation: Cancellation? = nil) throws(MediaError) {
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
    /// - Throws: `.unwritable` when the directory cannot be created.
    package init(directory path: String, cancellation: Cancellation? = nil) throws(MediaError) {
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

    /// Closes the temporary file's descriptor, for an output another process writes.
    package func closeDescriptor() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// Flushes the output and renames it onto `path` (a directory replaces the one there whole),
    /// never overlapping the cancellation's `cancel()` (after it: `.cancelled`).
    /// - Throws: `.incompleteOutput` when the flush fails (a full disk), `.unwritable` when the
    ///   rename does; the temporary is then removed and `path` left as it was.
    package func publish() throws(MediaError) {
        precondition(!finished, "a staged output published after publish() or discard()")
        do {
            try cancellation.whileAcceptingWrites(path: path) { () throws -> Void in
                if isDirectory {
                    try AtomicPublish.publishDirectory(temporaryPath, to: path)
                } else {
                    let fd = descriptor
                    descriptor = -1
                    try AtomicPublish.publishFile(temporaryPath, descriptor: fd, to: path)
                }
            }
        } catch let failure as AtomicPublish.Failure {
            discard()
            switch failure.step {
            case .rename:
                throw .unwritable(path: path, reason: [EISDIR, ENOTEMPTY, EEXIST, ENOTDIR].contains(failure.code)
                    ? "a \(isDirectory ? "file" : "directory") is in the way" : FileIO.creationFailure(failure.code, path: path))
            case .create, .write, .sync:
                throw .incompleteOutput(path: path, reason: FileIO.writeFailure(failure.code))
            }
        } catch {
            discard()
            throw (error as? MediaError) ?? .writeFailed(path: path, reason: "\(error)")
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
}
