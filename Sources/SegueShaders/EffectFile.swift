// Reads an effect file (`.glsl` or `.metal`) as text through `FileIO.readAll`, saying what is
// wrong when it cannot: missing, a directory, a named pipe or device (refused before a byte is
// read, and opened without blocking, so a FIFO with no writer never hangs the caller),
// unreadable, too large, or not UTF-8 (with the line of the first bad byte). The words are the
// effect files' own (`reason(_:)`, `wording(_:)`), which the CLI's messages show.
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Effect files read from disk.
public enum EffectFile {
    /// The largest effect file read, in bytes (real effects are a few kilobytes).
    public static let maximumSize = 1 << 20

    /// The text of the effect file at `path`.
    /// - Throws: `EffectLookupError.unreadable` with the reason in words.
    public static func read(_ path: String) throws(EffectLookupError) -> String {
        let bytes = try FileIO.readAll(
            path: path, limit: maximumSize, head: { (_) throws(EffectLookupError) in },
            failure: { EffectLookupError.unreadable(path: path, reason: wording($0)) })
        // A byte-order mark opens the text, as editors may write it; glslang would read it as a token.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let text = String(validating: body, as: UTF8.self) else {
            throw .unreadable(path: path, reason: "it is not UTF-8 text (the first invalid byte is on line \(firstInvalidLine(bytes)))")
        }
        return text
    }

    /// Words for what stopped the read of an effect file.
    static func wording(_ failure: FileIO.ReadFailure) -> String {
        switch failure {
        case let .cannotOpen(code), let .cannotRead(code): reason(code)
        case let .notRegular(mode): FileIO.kindProblem(mode, noun: "effect") ?? "it is not a regular file"
        case let .tooLarge(size): "it is \(size) bytes; effect files are limited to \(maximumSize) bytes"
        case .grewPastLimit: "it is more than \(maximumSize) bytes; effect files are limited to \(maximumSize) bytes"
        }
    }

    /// Words for an `open`/`read` error.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a part of the path is not a directory"
        case EISDIR: "it is a directory, not a file"
        case ELOOP: "too many symbolic links"
        default: FileIO.descriptorShortage(code) ?? FileIO.message(code)
        }
    }

    /// The 1-based line of the first byte that does not decode as UTF-8.
    static func firstInvalidLine(_ bytes: [UInt8]) -> Int {
        bytes.prefix(bytes.validUTF8PrefixCount).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }
}
