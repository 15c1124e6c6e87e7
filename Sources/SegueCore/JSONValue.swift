// JSON for the library: a tree (`JSONValue`), the one reader of JSON text into it (`JSONSyntax`,
// which says the line and column of a syntax error), and the wording every reader's messages
// share (what was found, a key no part of a file reads).

import SegueMath
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON value, read from text by `JSONSyntax` (or decoded by JSONDecoder): exact numbers,
/// booleans kept apart from numbers.
package enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Most likely first: every failed attempt costs an error (JSONDecoder refuses to
        // read `true` as a number and numbers as booleans, so the order is safe).
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .bool(try container.decode(Bool.self))
        }
    }

    /// A value from a Foundation object tree, or `nil` for a type JSON does not have.
    package init?(any value: Any) {
        switch value {
        case let b as Bool where type(of: value) == Bool.self || Self.foundationName(of: value) == "__NSCFBoolean": self = .bool(b)
        case let d as Double: self = .number(d)
        case let i as Int: self = .number(Double(i))
        case let u as UInt64: self = .number(Double(u))  // JSONSerialization's integers above Int64.max
        case let s as String: self = .string(s)
        case let a as [Any]:
            var items: [JSONValue] = []
            for item in a {
                guard let converted = JSONValue(any: item) else { return nil }
                items.append(converted)
            }
            self = .array(items)
        case let o as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, item) in o {
                guard let converted = JSONValue(any: item) else { return nil }
                members[key] = converted
            }
            self = .object(members)
        default:
            guard Self.foundationName(of: value) == "NSNull" else { return nil }
            self = .null
        }
    }

    /// The class name of a Foundation value, which the library (linking no Foundation) cannot
    /// cast to: `NSNull`, JSONSerialization's null, and `__NSCFBoolean`, its `true` and `false`.
    /// A cast alone cannot tell those booleans apart: any Foundation number 0 or 1 casts to
    /// `Bool`, so JSON's `1` would read as `true`.
    private static func foundationName(of value: Any) -> String {
        String(describing: type(of: value))
    }
}

// MARK: - Reading a tree

extension JSONValue {
    /// The member `key` of an object; nil for a missing member or another kind of value.
    package subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    /// The text of a string; nil for another kind of value.
    package var string: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// A finite number, or a string holding one (ffprobe writes durations as strings); nil otherwise.
    package var number: Double? {
        switch self {
        case let .number(value): value.isFinite ? value : nil
        case let .string(text): Double(text).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// A whole number (or a string holding one); nil otherwise.
    package var integer: Int? {
        if case let .string(text) = self { return Int(text) }
        return number.flatMap { Int(exactly: $0) }
    }

    /// The items of an array; empty for another kind of value.
    package var items: [JSONValue] {
        if case let .array(items) = self { return items }
        return []
    }
}

// MARK: - Messages

extension JSONValue {
    /// The value in words, for "expected …, found …": `null`, `true`, `the number 3`,
    /// `the string "up"` (long text cut short), `a list of 2 items`, `an object`.
    package var described: String {
        switch self {
        case .null: "null"
        case let .bool(value): value ? "true" : "false"
        case let .number(value): "the number \(MessageText.number(value))"
        case let .string(text): "the string \"\(MessageText.excerpt(text))\""
        case let .array(items): "a list of \(items.count) item\(items.count == 1 ? "" : "s")"
        case .object: "an object"
        }
    }

    /// "unknown key 'transtion' in the spec; did you mean 'transition'?" (or "…; the keys are
    /// a, b, c" when none is close) for the first key of `members`, in sorted order, that is
    /// not in `known`; nil when every key is known. A misspelt key is never silently ignored.
    /// - Parameter place: where the object is, in words or as a JSON path (`clips[0]`).
    package static func unknownKey(in members: [String: JSONValue], place: String, known: [String]) -> String? {
        guard let key = members.keys.sorted().first(where: { !known.contains($0) }) else { return nil }
        let unknown = "unknown key '\(MessageText.excerpt(key))' in \(place)"
        if let hint = MessageText.didYouMean(key, among: known, limit: 1) {
            return "\(unknown); \(hint)"
        }
        return "\(unknown); the keys are \(known.joined(separator: ", "))"
    }
}

// MARK: - Reading JSON text

/// JSON text (RFC 8259, any value at the top) read into a ``JSONValue``, with the place of the
/// first error: the library reads mesh files and ffprobe's answers without Foundation.
package enum JSONSyntax {
    /// A syntax error: the 0-based byte offset where it is, and what is wrong there.
    package struct Problem: Error, Equatable {
        package let offset: Int
        package let reason: String

        /// "at line L, column C: reason", the place counted in `bytes` (the text that was read;
        /// columns count characters, not UTF-8 bytes).
        package func located(in bytes: some Collection<UInt8>) -> String {
            var line = 1
            var column = 1
            let start = bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
            for byte in bytes.prefix(offset).dropFirst(start) {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte
                    column += 1
                }
            }
            return "at line \(line), column \(column): \(reason)"
        }
    }

    /// The value of `bytes`.
    /// - Throws: the first problem (numbers out of `Double`'s range included).
    package static func parse(_ bytes: some Collection<UInt8>) throws(Problem) -> JSONValue {
        var scanner = Scanner(bytes: Array(bytes))
        if scanner.bytes.starts(with: byteOrderMark) { scanner.index = byteOrderMark.count }
        scanner.skipSpace()
        let value = try scanner.value(depth: 0)
        scanner.skipSpace()
        if scanner.index < scanner.bytes.count { throw scanner.unexpected() }
        return value
    }

    /// UTF-8's byte order mark, which some editors write first: skipped, as RFC 8259 allows
    /// (and Foundation does), and not counted as a column.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Why a whole document (a spec, a plan, a mesh file) was refused.
    package struct DocumentProblem: Error {
        /// The sentence, beginning with the document's noun.
        package let message: String
        /// Whether the text was not valid JSON (false: it was too large).
        package let isSyntax: Bool
    }

    /// The value of a whole document of at most `limit` bytes, its problems worded with `noun`:
    /// "the spec is 5000000 bytes; the limit is 4194304", "the spec is not valid JSON at line 2,
    /// column 5: unexpected character ']'".
    package static func document(_ bytes: some Collection<UInt8>, _ noun: String, limit: Int) throws(DocumentProblem) -> JSONValue {
        guard bytes.count <= limit else {
            throw DocumentProblem(message: "\(noun) is \(bytes.count) bytes; the limit is \(limit)", isSyntax: false)
        }
        do throws(Problem) { return try parse(bytes) } catch {
            throw DocumentProblem(message: "\(noun) is not valid JSON \(error.located(in: bytes))", isSyntax: true)
        }
    }

    /// The first problem of `bytes`, or nil when they are one valid JSON value.
    package static func firstProblem(in bytes: [UInt8]) -> Problem? {
        do throws(Problem) {
            _ = try parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { index += 1 }
        }

        func unexpected() -> Problem {
            guard let c = current else { return Problem(offset: index, reason: "unexpected end of the text") }
            let text = c >= 0x20 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte \(c)"
            return Problem(offset: index, reason: "unexpected character \(text)")
        }

        mutating func expect(_ c: UInt8) throws(Problem) {
            guard current == c else { throw unexpected() }
            index += 1
        }

        mutating func value(depth: Int) throws(Problem) -> JSONValue {
            guard depth < 512 else { throw Problem(offset: index, reason: "too many nested arrays and objects (at most 512)") }
            switch current ?? 0 {
            case UInt8(ascii: "{"):
                index += 1
                skipSpace()
                var members: [String: JSONValue] = [:]
                if current == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard current == UInt8(ascii: "\"") else { throw unexpected() }
                    let key = try string()
                    skipSpace()
                    try expect(UInt8(ascii: ":"))
                    skipSpace()
                    members[key] = try value(depth: depth + 1)
                    skipSpace()
                    if current == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "}"))
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                skipSpace()
                var items: [JSONValue] = []
                if current == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    if current == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "]"))
                    return .array(items)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw unexpected()
            }
        }

        mutating func literal(_ word: String) throws(Problem) {
            for c in word.utf8 { try expect(c) }
        }

        mutating func hexQuad() throws(Problem) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let h = current else { throw unexpected() }
                let digit: UInt8
                switch h {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = h - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = h - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = h - UInt8(ascii: "A") + 10
                default: throw unexpected()
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        mutating func string() throws(Problem) -> String {
            index += 1  // the opening quote
            let start = index
            var text: [UInt8] = []
            while let c = current {
                switch c {
                case UInt8(ascii: "\""):
                    index += 1
                    if let string = String(validating: text, as: UTF8.self) { return string }
                    // Escapes are ASCII and decode to valid UTF-8: the bad bytes are in the text itself.
                    throw Problem(offset: start + bytes[start..<index - 1].validUTF8PrefixCount, reason: "text that is not UTF-8")
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let e = current else { throw unexpected() }
                    switch e {
                    case UInt8(ascii: "u"):
                        let escape = index - 1
                        index += 1
                        var scalar = try hexQuad()
                        if (0xD800..<0xDC00).contains(scalar), current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                            bytes[index + 1] == UInt8(ascii: "u")
                        {
                            let save = index
                            index += 2
                            let low = try hexQuad()
                            if (0xDC00..<0xE000).contains(low) {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                index = save
                            }
                        }
                        guard let decoded = Unicode.Scalar(scalar) else {
                            let half = String(decoding: bytes[escape..<escape + 6], as: UTF8.self)
                            throw Problem(offset: escape, reason: "\(half) is half of a UTF-16 surrogate pair, without the other half")
                        }
                        text.append(contentsOf: Array(String(decoded).utf8))
                        continue
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(e)
                    case UInt8(ascii: "b"): text.append(0x08)
                    case UInt8(ascii: "f"): text.append(0x0C)
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "r"): text.append(0x0D)
                    case UInt8(ascii: "t"): text.append(0x09)
                    default: throw unexpected()
                    }
                    index += 1
                case 0..<0x20: throw unexpected()
                default:
                    text.append(c)
                    index += 1
                }
            }
            throw unexpected()
        }

        mutating func number() throws(Problem) -> Double {
            let start = index
            func isDigit(_ c: UInt8?) -> Bool { c.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false }
            if current == UInt8(ascii: "-") { index += 1 }
            guard isDigit(current) else { throw unexpected() }
            if current == UInt8(ascii: "0") { index += 1 } else { while isDigit(current) { index += 1 } }
            if current == UInt8(ascii: ".") {
                index += 1
                guard isDigit(current) else { throw unexpected() }
                while isDigit(current) { index += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard isDigit(current) else { throw unexpected() }
                while isDigit(current) { index += 1 }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let number = Double(text), number.isFinite else {
                throw Problem(offset: start, reason: "the number \(text) is out of range (at most about 1.8e308)")
            }
            return number
        }
    }
}
