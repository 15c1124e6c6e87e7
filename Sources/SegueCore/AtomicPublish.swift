// Atomic publishing of a file or a directory: the one place where Segue's outputs go from a
// temporary name to their destination.
//
//   1. The output is made under a hidden temporary name beside the destination
//      (`DIR/.NAME.segue-tmp-<pid>-<random>`), on the same file system, so a rename can move it.
//   2. It is flushed: `fsync` of the file (or of the directory, whose entries are files that their
//      own writers published the same way).
//   3. It is renamed onto the destination. A file replaces a file in one step. A directory
//      replaces an existing directory whole in two renames (the old one aside under the
//      temporary name with `-old`, the new one in), then the old one is removed; if the second
//      rename fails the old one goes back.
//   4. The destination's directory is flushed, so the rename itself survives a crash (failures
//      ignored: some file systems refuse `fsync` on a directory).
//
// Readers see the old output or the whole new one, never part of one. Registering temporaries
// for removal on Ctrl-C is the caller's business (SegueMedia's `StagedOutput` does it); this
// layer holds no state.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary names, creation, flushing and renaming for outputs published atomically.
package enum AtomicPublish {
    /// Why publishing failed: the step and its `errno`.
    package struct Failure: Error, Equatable {
        /// The step that failed.
        package enum Step: Sendable { case create, write, sync, rename }
        /// The step that failed.
        package let step: Step
        /// The `errno` value.
        package let code: Int32

        /// A failure of `step` with `code`.
        package init(step: Step, code: Int32) {
            self.step = step
            self.code = code
        }
    }

    // MARK: - Temporaries

    /// A fresh hidden name beside `path`: `DIR/.NAME.segue-tmp-<pid>-<random><suffix>`.
    package static func temporaryPath(for path: String, suffix: String = "") -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return "\(directory).\(name).segue-tmp-\(getpid())-\(String(repeating: "0", count: 16 - random.count))\(random)\(suffix)"
    }

    /// The process that made `entry`, a directory entry named as `temporaryPath(for: NAME)` names
    /// temporaries of one of `names`; nil for any other entry.
    package static func owner(ofTemporary entry: String, among names: Set<String>) -> pid_t? {
        guard entry.hasPrefix("."), let marker = entry.range(of: ".segue-tmp-") else { return nil }
        let name = String(entry[entry.index(after: entry.startIndex)..<marker.lowerBound])
        guard names.contains(name) else { return nil }
        let digits = entry[marker.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard let pid = pid_t(digits), pid > 0, entry[marker.upperBound...].dropFirst(digits.count).first == "-" else { return nil }
        return pid
    }

    /// Whether process `pid` is alive on this machine (a zombie or another user's counts as alive).
    package static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Removes the temporaries of the files `names` in `directory` (what a process killed while
    /// writing them left behind). `onlyOrphans`: only those whose process is gone, and never this
    /// process's own. Failures are ignored.
    package static func removeTemporaries(of names: [String], in directory: String, onlyOrphans: Bool) {
        let wanted = Set(names)
        guard !wanted.isEmpty, let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let me = getpid()
        for entry in entries {
            guard let pid = owner(ofTemporary: entry, among: wanted) else { continue }
            if onlyOrphans, pid == me || isAlive(pid) { continue }
            remove(directory + "/" + entry)
        }
    }

    /// Creates the file `temporary` (which must not exist) for writing.
    /// - Returns: its open descriptor (close-on-exec).
    package static func createFile(_ temporary: String) throws(Failure) -> Int32 {
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw Failure(step: .create, code: errno) }
        return fd
    }

    /// Creates the directory `temporary` (which must not exist).
    package static func createDirectory(_ temporary: String) throws(Failure) {
        guard mkdir(temporary, 0o777) == 0 else { throw Failure(step: .create, code: errno) }
    }

    /// Removes a temporary file or directory (with everything in it); failures are ignored.
    package static func remove(_ temporary: String) {
        if unlink(temporary) != 0 { try? FileManager.default.removeItem(atPath: temporary) }
    }

    /// Writes all of `bytes` to `fd`, looping over partial writes and `EINTR`.
    /// - Returns: nil, or the `errno` of the failed `write` (`EIO` for a write of nothing).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard var base = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            let n = writeDescriptor(fd, base, remaining)
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

    // MARK: - Publishing

    /// Flushes the file `temporary` and renames it onto `path`, replacing any file there.
    /// - Parameter descriptor: the temporary's descriptor when it is open (it is flushed and
    ///   closed here), or -1 to open it for the flush (a file another process wrote).
    /// - Throws: the failed step; `path` is then as it was and `temporary` is left for the caller
    ///   to remove (its descriptor closed).
    package static func publishFile(_ temporary: String, descriptor: Int32 = -1, to path: String) throws(Failure) {
        let fd = descriptor >= 0 ? descriptor : open(temporary, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(step: .sync, code: errno) }
        let synced = fsync(fd) == 0 || errno == EINVAL  // EINVAL: a file that cannot be flushed (a FIFO)
        let syncCode = errno
        let closed = close(fd) == 0 || errno == EINTR
        let closeCode = errno
        guard synced else { throw Failure(step: .sync, code: syncCode) }
        guard closed else { throw Failure(step: .sync, code: closeCode) }
        guard rename(temporary, path) == 0 else { throw Failure(step: .rename, code: errno) }
        syncDirectory(of: path)
    }

    /// Flushes the directory `temporary` and renames it onto `path`; an existing directory at
    /// `path` is replaced whole (moved aside, the new one moved in, the old one removed), anything
    /// else there is refused (`ENOTDIR`).
    /// The files in `temporary` must have been flushed by their writers.
    /// - Throws: the failed step; `path` is then as it was and `temporary` is left for the caller.
    package static func publishDirectory(_ temporary: String, to path: String) throws(Failure) {
        let fd = open(temporary, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(step: .sync, code: errno) }
        _ = fsync(fd)  // some file systems refuse to flush a directory
        close(fd)
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard rename(temporary, path) == 0 else { throw Failure(step: .rename, code: errno) }
            syncDirectory(of: path)
            return
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw Failure(step: .rename, code: ENOTDIR) }  // only a directory is replaced
        let aside = temporary + "-old"
        guard rename(path, aside) == 0 else { throw Failure(step: .rename, code: errno) }
        guard rename(temporary, path) == 0 else {
            let code = errno
            _ = rename(aside, path)
            throw Failure(step: .rename, code: code)
        }
        syncDirectory(of: path)
        remove(aside)
    }

    /// Writes `bytes` to `path` atomically: a temporary file beside it, written, flushed and
    /// renamed. On failure no temporary remains and `path` is as it was.
    package static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let temporary = temporaryPath(for: path)
        let fd = try createFile(temporary)
        if let code = bytes.withUnsafeBytes({ writeAll(fd, $0) }) {
            close(fd)
            remove(temporary)
            throw Failure(step: .write, code: code)
        }
        do {
            try publishFile(temporary, descriptor: fd, to: path)
        } catch {
            remove(temporary)
            throw error
        }
    }

    /// Flushes the directory holding `path`, so that a rename into it is durable; failures are
    /// ignored (some file systems refuse).
    private static func syncDirectory(of path: String) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}

/// `write(2)`, named apart from `AtomicPublish.write`.
private func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
