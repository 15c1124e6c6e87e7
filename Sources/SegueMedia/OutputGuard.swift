// The check every command that writes a file makes before any work starts: the output must not be
// one of the files the command reads. Publishing is atomic (a rename over the destination), so an
// output that is an input — the same path, a hard link to it, or a symbolic link to it — would
// replace that input with the result; a directory output is replaced whole, so one that holds an
// input would delete it. A pipe, device or socket is never an output: publishing would put a file
// in its place. Files are compared by identity (device and inode, following symbolic
// links), not by spelling, so `./a.mp4`, `dir/../a.mp4` and a link to `a.mp4` are all `a.mp4`.

import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Refuses outputs that would destroy what a command reads.
public enum OutputGuard {
    /// A file a command reads, and what it is to the user.
    public struct Input: Sendable, Hashable {
        /// What the file is to the command, for messages: "the from image", "clip 2", "the plan".
        public var role: String
        /// The path as given.
        public var path: String

        /// An input with a role.
        public init(_ role: String, _ path: String) {
            self.role = role
            self.path = path
        }
    }

    /// Checks that writing `output` destroys none of `inputs`.
    /// - Parameters:
    ///   - output: the file (or, with `replacesDirectory`, the directory) to be written; `-`
    ///     (standard output) and paths that do not exist yet pass.
    ///   - inputs: the files the command reads; ones that do not exist are ignored (they are
    ///     reported when read).
    ///   - replacesDirectory: the output is a directory that publishing replaces whole: one that
    ///     holds an input is refused as well.
    /// - Throws: `MediaError.unwritable` naming the output and the input (its role and path).
    public static func check(output: String, inputs: [Input], replacesDirectory: Bool = false) throws(MediaError) {
        try check(outputs: [output], inputs: inputs, replacesDirectory: replacesDirectory)
    }

    /// Checks that writing any of `outputs` destroys none of `inputs`, as `check(output:inputs:)`
    /// does for each, reading each input's identity once: a plan's thousands of pieces are checked
    /// against its thousands of clips in time proportional to their sum, not their product.
    /// - Throws: `MediaError.unwritable` for the first output that is one of `inputs` (naming the
    ///   first such input in their order).
    public static func check(outputs: [String], inputs: [Input], replacesDirectory: Bool = false) throws(MediaError) {
        let outputs = outputs.filter { $0 != "-" && !$0.isEmpty }
        guard !outputs.isEmpty else { return }
        let inputs = inputs.filter { !$0.path.isEmpty }
        // The first input that is each existing file, and the first at each path not made yet (a
        // plan's piece before its job is compared by its path).
        var byFile: [FileIdentity: Int] = [:], byPath: [String: Int] = [:]
        for (index, input) in inputs.enumerated() {
            if let file = identity(input.path) {
                if byFile[file] == nil { byFile[file] = index }
            } else {
                let path = FileIO.resolvedPath(input.path)
                if byPath[path] == nil { byPath[path] = index }
            }
        }
        for output in outputs {
            if let kind = special(output) {
                throw .unwritable(
                    path: output, reason: "it is \(kind), which writing the output would replace with a file: give a file's path")
            }
            let sameFile = identity(output).flatMap { byFile[$0] }
            let samePath = byPath[FileIO.resolvedPath(output)]
            let holding =
                replacesDirectory
                ? resolved(output).flatMap { directory in
                    inputs.firstIndex { resolved($0.path)?.hasPrefix(directory == "/" ? "/" : directory + "/") ?? false }
                } : nil
            guard let index = [sameFile, samePath, holding].compactMap({ $0 }).min() else { continue }
            let input = inputs[index]
            if index == sameFile {
                throw .unwritable(
                    path: output,
                    reason: "it is \(input.role) (\(input.path))\(link(output, to: input.path)); "
                        + "writing it would destroy that input: choose another output")
            }
            if index == samePath {
                throw .unwritable(path: output, reason: "it is \(input.role) (\(input.path)): choose another output")
            }
            throw .unwritable(
                path: output,
                reason: "the directory holds \(input.role) (\(input.path)), and writing the "
                    + "output replaces the whole directory: choose another output directory")
        }
    }

    /// The files `paths` as inputs of one role ("clip 1", "clip 2", … when `numbered`).
    public static func inputs(_ role: String, _ paths: [String], numbered: Bool = false) -> [Input] {
        paths.enumerated().map { Input(numbered ? "\(role) \($0.offset + 1)" : role, $0.element) }
    }

    /// What `path` is when it is neither a file nor a directory (symbolic links followed): a
    /// pipe, a device or a socket, which an output is never published over (a reader waiting on
    /// the pipe would wait for ever; as root, a device node would be gone).
    static func special(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFIFO: return "a pipe (FIFO)"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return nil
        }
    }

    /// Device and inode of the file at `path` (symbolic links followed), nil when there is none.
    static func identity(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The canonical absolute path of an existing file or directory, nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// How `output` comes to be `input`: through a symbolic link or a hard link ("" for the same
    /// path spelled alike or otherwise).
    private static func link(_ output: String, to input: String) -> String {
        var info = stat()
        if lstat(output, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK { return ", through a symbolic link" }
        if lstat(input, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK { return "" }
        if let a = resolved(output), let b = resolved(input), a != b { return ", as a hard link" }
        return ""
    }
}

/// A file's identity on this machine.
struct FileIdentity: Hashable {
    /// The device the file is on.
    var device: UInt64
    /// Its inode there.
    var inode: UInt64
}
