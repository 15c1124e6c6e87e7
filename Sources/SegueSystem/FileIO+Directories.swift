// Directory listings, tree removal, the current directory and the environment with the C
// library alone (what the library modules used FileManager and ProcessInfo for).

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
