import SegueSystem

// The compiled plugin template (plugins/frei0r/segue_frei0r.c built into a shared object) and its
// reserved configuration block: a 32-byte BEGIN marker, 32768 bytes of configuration text
// (NUL-terminated), a 32-byte END marker, laid out back to back in the file's read-only data.
// A plugin is the template with that text written in place: same size, nothing else moves.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The plugin template's bytes and the place of its configuration block.
public struct Frei0rTemplate: Sendable {
    /// The marker before the block (NUL-padded to `markerBytes`).
    static let beginMarker = "SEGUE-FREI0R-CONFIG-BEGIN-V1"
    /// The marker after the block.
    static let endMarker = "SEGUE-FREI0R-CONFIG-END-V1"
    /// Bytes of each marker field.
    static let markerBytes = 32
    /// Bytes of configuration text, its NUL included.
    public static let capacity = 32768
    /// The most frei0r parameters and effect parameters (targets) a plugin holds: the template's
    /// tables (`plugins/frei0r/segue_frei0r.c`: `MAX_PARAMS`, `MAX_TARGETS`).
    public static let maximumParameters = 256
    public static let maximumTargets = 128
    /// The largest template or plugin file read, in bytes (the compiled template is tens of
    /// kilobytes; the limit keeps a wrong file from being read whole into memory).
    public static let maximumFileSize = 16 << 20

    /// The template file.
    public let path: String
    private let bytes: [UInt8]
    /// Where the configuration text starts in `bytes`.
    private let bodyOffset: Int

    /// Reads the template at `path` and finds its block.
    /// - Throws: `Frei0rError.template` when it cannot be read (missing, not a regular file,
    ///   larger than `maximumFileSize`, unreadable) or has no single well-formed block.
    public init(path: String) throws(Frei0rError) {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readAll(path: path, limit: Self.maximumFileSize, noun: "plugin template")
        } catch {
            if case .fileNotFound = error { throw .template(path: path, reason: "there is no such file") }
            throw .template(path: path, reason: error.reason)
        }
        guard let offset = Self.bodyOffset(in: bytes) else {
            throw .template(path: path, reason: "it is not Segue's frei0r plugin template (no configuration block)")
        }
        self.path = path
        self.bytes = bytes
        bodyOffset = offset
    }

    /// The template with `configuration` written into its block.
    /// - Throws: `Frei0rError.configurationTooLarge` when the text does not fit.
    public func plugin(configuration: String) throws(Frei0rError) -> [UInt8] {
        let text = Array(configuration.utf8)
        guard text.count < Self.capacity, !text.contains(0) else {
            throw .configurationTooLarge(bytes: text.count, capacity: Self.capacity - 1)
        }
        var out = bytes
        out.replaceSubrange(bodyOffset..<bodyOffset + Self.capacity, with: text + [UInt8](repeating: 0, count: Self.capacity - text.count))
        return out
    }

    /// The configuration text of a plugin file (nil when it is not a Segue plugin, or not a
    /// regular file of at most `maximumFileSize` bytes that can be read).
    public static func configuration(ofPlugin path: String) -> String? {
        guard let bytes = try? FileIO.readAll(path: path, limit: maximumFileSize, noun: "plugin") else { return nil }
        guard let offset = bodyOffset(in: bytes) else { return nil }
        let body = bytes[offset..<offset + capacity]
        return String(decoding: body.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The configuration field `key` of a plugin's text (`effect`, `name`, …).
    static func field(_ key: String, in configuration: String) -> String? {
        for line in configuration.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == key { return String(parts[1]) }
        }
        return nil
    }

    /// The offset of the block's text: after the only BEGIN marker that the END marker follows
    /// at the right distance.
    private static func bodyOffset(in bytes: [UInt8]) -> Int? {
        let begin = padded(beginMarker), end = padded(endMarker)
        var found: Int?
        var i = 0
        let last = bytes.count - (2 * markerBytes + capacity)
        while i <= last {
            if bytes[i] == begin[0], bytes[i..<i + markerBytes].elementsEqual(begin) {
                let e = i + markerBytes + capacity
                if bytes[e..<e + markerBytes].elementsEqual(end) {
                    guard found == nil else { return nil }
                    found = i + markerBytes
                }
            }
            i += 1
        }
        return found
    }

    private static func padded(_ marker: String) -> [UInt8] {
        Array(marker.utf8) + [UInt8](repeating: 0, count: markerBytes - marker.utf8.count)
    }
}
