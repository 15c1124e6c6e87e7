// Atomic publishing of a file or a directory: the one place where Segue's outputs go from a
// temporary name to their destination.
//
//   1. The output is made under a hidden temporary name beside the destination
//      (`DIR/.NAME.segue-tmp-<pid>-<random>`), on the same file system, so a rename can move it.
//   2. It is flushed: `fsync` of the file (or of the directory, whose entries are files that their
//      own writers published the same way).
//   3. It is renamed onto the destination. A file replaces a file in one step. A directory
//      replaces an existing directory whole by exchanging the two in one step (`renameat2` with
//      `RENAME_EXCHANGE`), then the old one, now under the temporary name, is removed. Where the
//      file system cannot exchange, two renames (the old one aside under the temporary name with
//      `-old`, the new one in; if the second fails the old one goes back).
//   4. The destination's directory is flushed, so the rename itself survives a crash (failures
//      ignored: some file systems refuse `fsync` on a directory).
//
// Readers see the old output or the whole new one, never part of one, and a crash between any
// two steps leaves the old output or the new one at the destination (the tests stop after each
// of the `FileStep`s and `DirectoryStep`s, which are what the publish runs). Registering
// temporaries for removal on a cancellation is `StagedOutput`'s business; this layer holds no
// state.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary names, creation, flushing and renaming for outputs published atomically (the
/// steps under `StagedOutput`).
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
        let path = destination(of: path)
        let name = FileIO.lastComponent(of: path)
        let directory = path.dropLast(name.count)
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return "\(directory).\(name).segue-tmp-\(getpid())-\(String(repeating: "0", count: 16 - random.count))\(random)\(suffix)"
    }

    /// Where publishing to `path` puts the output: `path`, or for a symbolic link what it names
    /// (resolved as the kernel does), so `-o link.png` replaces the file the link points to and
    /// the link stays. A dangling link is replaced itself.
    package static func destination(of path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return path }
        return FileIO.resolvedPath(path)
    }

    /// The process that made `entry`, a directory entry named as `temporaryPath(for: NAME)` names
    /// temporaries of one of `names`; nil for any other entry.
    package static func owner(ofTemporary entry: String, among names: Set<String>) -> pid_t? {
        guard entry.hasPrefix("."), let marker = entry.firstRange(of: ".segue-tmp-") else { return nil }
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
        guard !wanted.isEmpty, let entries = FileIO.directoryEntries(directory) else { return }
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
    package static func remove(_ temporary: String) { FileIO.removeTree(temporary) }

    // MARK: - Publishing

    /// The steps of publishing a file, in order.
    package enum FileStep: CaseIterable, Sendable {
        /// Flush and close the temporary file.
        case flush
        /// Rename it onto the destination (the one step that changes what readers see).
        case rename
        /// Flush the destination's directory, so the rename survives a crash.
        case syncDirectory
    }

    /// Flushes the file `temporary` and renames it onto `path`, replacing any file there.
    /// - Parameter descriptor: the temporary's descriptor when it is open (it is flushed and
    ///   closed here), or -1 to open it for the flush (a file another process wrote).
    /// - Throws: the failed step; `path` is then as it was and `temporary` is left for the caller
    ///   to remove (its descriptor closed).
    package static func publishFile(_ temporary: String, descriptor: Int32 = -1, to path: String) throws(Failure) {
        for step in FileStep.allCases { try perform(step, temporary, descriptor: descriptor, to: path) }
    }

    /// Performs one step of `publishFile`.
    package static func perform(_ step: FileStep, _ temporary: String, descriptor: Int32 = -1, to path: String) throws(Failure) {
        switch step {
        case .flush: try flushFile(temporary, descriptor: descriptor)
        case .rename: try move(temporary, onto: path)
        case .syncDirectory: syncDirectory(of: path)
        }
    }

    /// Flushes and closes the file `temporary` (opened for the flush when `descriptor` is -1).
    private static func flushFile(_ temporary: String, descriptor: Int32) throws(Failure) {
        let fd = descriptor >= 0 ? descriptor : open(temporary, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(step: .sync, code: errno) }
        let synced = fsync(fd) == 0 || errno == EINVAL  // EINVAL: a file that cannot be flushed (a FIFO)
        let syncCode = errno
        let closed = close(fd) == 0 || errno == EINTR
        let closeCode = errno
        guard synced else { throw Failure(step: .sync, code: syncCode) }
        guard closed else { throw Failure(step: .sync, code: closeCode) }
    }

    /// Renames `temporary` onto `path`.
    private static func move(_ temporary: String, onto path: String) throws(Failure) {
        guard rename(temporary, destination(of: path)) == 0 else { throw Failure(step: .rename, code: errno) }
    }

    /// The steps of publishing a directory, in order.
    package enum DirectoryStep: CaseIterable, Sendable {
        /// Flush the temporary directory.
        case flush
        /// Move it in: a rename, or an exchange with the directory there (one step either way).
        case moveIn
        /// Flush the destination's directory.
        case syncDirectory
        /// Remove the old directory, left under the temporary name by an exchange.
        case removeOld
    }

    /// Flushes the directory `temporary` and renames it onto `path`; an existing directory at
    /// `path` is replaced whole (exchanged with the new one, then removed), anything else there
    /// is refused (`ENOTDIR`). The files in `temporary` must have been flushed by their writers.
    /// - Throws: the failed step; `path` is then as it was and `temporary` is left for the caller.
    package static func publishDirectory(_ temporary: String, to path: String) throws(Failure) {
        for step in DirectoryStep.allCases { try perform(step, temporary, to: path) }
    }

    /// Performs one step of `publishDirectory`.
    package static func perform(_ step: DirectoryStep, _ temporary: String, to path: String) throws(Failure) {
        switch step {
        case .flush: try flushDirectory(temporary)
        case .moveIn: try moveDirectory(temporary, onto: path)
        case .syncDirectory: syncDirectory(of: path)
        case .removeOld: remove(temporary)
        }
    }

    /// Flushes the directory `temporary` (some file systems refuse: ignored).
    private static func flushDirectory(_ temporary: String) throws(Failure) {
        let fd = open(temporary, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(step: .sync, code: errno) }
        _ = fsync(fd)
        close(fd)
    }

    /// Moves the directory `temporary` onto `path`: a rename when nothing is there; an exchange
    /// (one step) with a directory there, which is left under the name `temporary`; two renames
    /// where the file system cannot exchange.
    private static func moveDirectory(_ temporary: String, onto path: String) throws(Failure) {
        let path = destination(of: path)
        var status = stat()
        guard lstat(path, &status) == 0 else { return try move(temporary, onto: path) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw Failure(step: .rename, code: ENOTDIR) }  // only a directory is replaced
        if let exchange = renameExchange {
            if exchange(AT_FDCWD, temporary, AT_FDCWD, path, 2 /* RENAME_EXCHANGE */) == 0 { return }
            guard [EINVAL, ENOSYS, EOPNOTSUPP].contains(errno) else { throw Failure(step: .rename, code: errno) }
        }
        let aside = temporary + "-old"
        guard rename(path, aside) == 0 else { throw Failure(step: .rename, code: errno) }
        guard rename(temporary, path) == 0 else {
            let code = errno
            _ = rename(aside, path)
            throw Failure(step: .rename, code: code)
        }
        _ = rename(aside, temporary)  // removed as the old directory by the last step
    }

    /// glibc's `renameat2` (2.28 and later; not in the Swift module's headers).
    private static let renameExchange: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
        dlsym(dlopen(nil, RTLD_NOW), "renameat2").map {
            unsafeBitCast($0, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
        }
    }()

    /// Flushes the directory holding `path`, so that a rename into it is durable; failures are
    /// ignored (some file systems refuse).
    private static func syncDirectory(of path: String) {
        let fd = open(FileIO.directory(of: destination(of: path)), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
