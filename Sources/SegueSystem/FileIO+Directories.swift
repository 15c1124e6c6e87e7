// Directory listings, folders a run makes and takes away again, tree removal, the current
// directory and the environment with the C library alone (what the library modules used
// FileManager and ProcessInfo for).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileIO {
    /// The names in the directory at `path` (without "." and ".."), or nil when it cannot be read.
    package static func directoryEntries(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates `path` and any missing parents, as `directoryCreationProblem` does, for a run that
    /// takes away what it made when it fails (see `withDirectories`).
    /// - Parameter cancellation: the outermost folder made is registered with it, so that its
    ///   `cancel()` (Ctrl-C) removes it; unregister it when the run has succeeded.
    /// - Returns: the outermost folder it made (nil when `path` was there): everything in it is
    ///   the run's own, so `removeTree` on it undoes the run.
    /// - Throws: `.unwritable` with `directoryCreationProblem`'s words; the folders made before
    ///   the failure are removed again.
    package static func createDirectories(_ path: String, cancellation: Cancellation? = nil) throws(SystemError) -> String? {
        var outermost: String?
        var folder = standardizedAbsolute(path)
        while folder != "/", !exists(folder) {
            outermost = folder
            folder = directory(of: folder)
        }
        if let problem = directoryCreationProblem(path) {
            if let outermost { removeTree(outermost) }
            throw .unwritable(path: path, reason: problem)
        }
        if let outermost { cancellation?.register(outermost) }
        return outermost
    }

    /// Runs `body` with the folder `path` made (and its missing parents). The folders this made
    /// hold only what `body` writes: when `body` throws, or `cancellation` is cancelled while it
    /// runs, they are removed with everything in them. A folder that was there keeps its files.
    /// - Throws: `SystemError.unwritable` when `path` cannot be made, or what `body` throws.
    package static func withDirectories<T>(_ path: String, cancellation: Cancellation?, _ body: () throws -> T) throws -> T {
        guard let made = try createDirectories(path, cancellation: cancellation) else { return try body() }
        defer { cancellation?.unregister(made) }
        do {
            return try body()
        } catch {
            removeTree(made)
            throw error
        }
    }

    /// Removes `path` and, for a directory, everything in it (symbolic links themselves, never
    /// what they point to); failures are ignored.
    package static func removeTreeContents(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in directoryEntries(path) ?? [] { removeTreeContents(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// `path` checked as a directory that publishing replaces whole (a frame directory, a
    /// site), without its trailing slashes. Refused: an empty path; one that ends in `.` or `..`
    /// or is `/` (the directory must be named: `missing/..` would otherwise be read as the
    /// current directory by its text while the kernel finds no such path); a parent that is not
    /// a directory; and the current directory or one that holds it, which the replacement would
    /// pull away from under the shell.
    /// - Throws: `.unwritable` saying which.
    package static func replaceableDirectory(_ path: String) throws(SystemError) -> String {
        if let problem = directoryNameProblem(path) { throw problem }
        let (trimmed, name) = trimmedDirectory(path)
        let parent = directory(of: trimmed)
        guard isDirectory(parent), let real = realpath(parent, nil) else {
            throw .unwritable(path: path, reason: "the directory \(parent) does not exist")
        }
        let parentPath = String(cString: real)
        free(real)
        let target = (parentPath == "/" ? "" : parentPath) + "/" + name
        let here = currentDirectory
        if here == target || here.hasPrefix(target + "/") {
            throw .unwritable(
                path: path,
                reason: "it \(here == target ? "is" : "holds") the current directory, which replacing the directory whole would pull away: "
                    + "give another directory")
        }
        return trimmed
    }

    /// `path` without trailing slashes (`/` stays), and its last component.
    private static func trimmedDirectory(_ path: String) -> (path: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return (String(trimmed), lastComponent(of: String(trimmed)))
    }

    /// Why `path` cannot name a directory that publishing replaces whole: it is empty, or it
    /// ends in `.` or `..` or is `/` (the directory must be named); nil when it names one.
    package static func directoryNameProblem(_ path: String) -> SystemError? {
        let (trimmed, name) = trimmedDirectory(path)
        if trimmed.isEmpty { return .emptyPath }
        guard name.isEmpty || name == "." || name == ".." else { return nil }
        return .unwritable(
            path: path,
            reason: "a directory output replaces the directory whole, so it must be named, not given as '\(trimmed == "/" ? "/" : name)'")
    }

    /// The current directory ("/" when it cannot be found).
    package static var currentDirectory: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `path` made absolute (against the current directory), with the symbolic links of its
    /// existing part followed and `.`, `..` and repeated slashes removed; the part that does not
    /// exist yet is normalised by its text.
    package static func resolvedPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        var existing = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        var base = "/"
        while true {
            if let real = realpath("/" + existing.joined(separator: "/"), nil) {
                base = String(cString: real)
                free(real)
                break
            }
            guard let last = existing.popLast() else { break }
            rest.insert(last, at: 0)
        }
        return standardizedAbsolute(([base] + rest).joined(separator: "/"))
    }

    /// `path` made absolute against the current directory, with `.`, `..` and repeated slashes
    /// removed by its text (symbolic links are not followed), as `URL.standardizedFileURL.path`.
    package static func standardizedAbsolute(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The process's environment, read from `environ` (the one reader of it). Of two entries with
    /// one name the first counts, as it does for `getenv`.
    package static var processEnvironment: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                let key = String(text[..<equals])
                if result[key] == nil { result[key] = String(text[text.index(after: equals)...]) }
            }
            pointer += 1
        }
        return result
    }
}
