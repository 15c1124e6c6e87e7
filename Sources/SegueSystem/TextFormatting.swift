// Text helpers that FoundationEssentials lacks (it brings no ICU): exact and printf-style
// numbers, hexadecimal digits, table cells, literal replacement and trimming. Modules below the CLI use these instead of Foundation's
// `String(format:)`, `replacingOccurrences(of:with:)` and `trimmingCharacters(in:)`, with the
// same output for the formats and texts Segue uses.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// `x` as exact text: a whole number below 10¹⁵ without a fractional part (`2`, `-3`, `0`
    /// for -0.0), anything else as Swift prints a `Double`, the shortest text that reads back as
    /// `x` (`0.25`, `1e+16`, `nan`, `inf`). What C's `strtod` and JSON readers read back exactly.
    package init(exactNumber x: Double) {
        self = x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    /// printf-style formatting by the C library (`%.3f`, `%02x`, `%.3g`…). Swift programs run in
    /// the "C" locale (nothing calls `setlocale`), so the decimal point is always ".", as with
    /// Foundation's `String(format:)` without a locale.
    package init(cFormat format: String, _ arguments: CVarArg...) {
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self = needed < 0 ? "" : String(decoding: buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Every occurrence of `target` replaced by `replacement`, compared byte for byte (UTF-8),
    /// left to right without overlaps (Foundation's literal `replacingOccurrences`).
    package func replacingAll(_ target: String, with replacement: String) -> String {
        let needle = Array(target.utf8)
        guard !needle.isEmpty else { return self }
        let bytes = Array(utf8)
        var result = [UInt8]()
        result.reserveCapacity(bytes.count)
        var i = 0
        var changed = false
        while i < bytes.count {
            if bytes[i] == needle[0], i + needle.count <= bytes.count, bytes[i..<(i + needle.count)].elementsEqual(needle) {
                result.append(contentsOf: replacement.utf8)
                i += needle.count
                changed = true
            } else {
                result.append(bytes[i])
                i += 1
            }
        }
        return changed ? String(decoding: result, as: UTF8.self) : self
    }

    /// Padded with spaces, or cut, to `length` UTF-16 units (Foundation's
    /// `padding(toLength:withPad: " ", startingAt: 0)`): a table's left-aligned cell.
    package func padding(toLength length: Int) -> String {
        let units = utf16.count
        if units == length { return self }
        if units > length { return String(decoding: Array(utf16.prefix(length)), as: UTF16.self) }
        return self + String(repeating: " ", count: length - units)
    }

    /// Spaces before the text up to `length` characters, none when it is longer: a table's
    /// right-aligned cell.
    package func rightAligned(_ length: Int) -> String {
        String(repeating: " ", count: max(0, length - count)) + self
    }

    /// The range of the first occurrence of `target` (Character by Character) at or after `start`.
    package func firstRange(ofLiteral target: String, from start: String.Index? = nil) -> Range<String.Index>? {
        let from = start ?? startIndex
        return self[from...].firstRange(of: target)
    }
}

extension Sequence<UInt8> {
    /// The bytes as lowercase hexadecimal digits, two a byte (`[0x0a, 0xff]` → `0aff`): digests,
    /// cache keys, data values.
    package var hexDigits: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for b in self {
            text.append(digits[Int(b >> 4)])
            text.append(digits[Int(b & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Collection<UInt8> {
    /// How many bytes at the start decode as UTF-8: up to the first byte of the first invalid
    /// sequence (or of one cut short at the end); `count` for valid UTF-8.
    package var validUTF8PrefixCount: Int {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = makeIterator()
        var count = 0
        while case let .valid(scalar) = parser.parseScalar(from: &bytes) { count += scalar.count }
        return count
    }

    /// The bytes as text for a message: UTF-8 decoded, each byte of a sequence that is not
    /// UTF-8 written `\xHH` (`caf\xE9.png` for Latin-1's "café.png"), where a plain decoding
    /// would show U+FFFD and hide what the bytes were.
    package var escapingInvalidUTF8: String {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = makeIterator()
        var text = ""
        var consumed = 0
        let all = Array(self)
        while true {
            switch parser.parseScalar(from: &bytes) {
            case let .valid(scalar):
                text.unicodeScalars.append(Unicode.UTF8.decode(scalar))
                consumed += scalar.count
            case let .error(length):
                for b in all[consumed..<consumed + length] { text += "\\x" + String(cFormat: "%02X", UInt32(b)) }
                consumed += length
            case .emptyInput:
                return text
            }
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's `CharacterSet.whitespaces`:
    /// tab and the space separators).
    package func trimmingWhitespace() -> String { trimming(newlines: false) }

    /// Without leading and trailing white space and line breaks (`.whitespacesAndNewlines`).
    package func trimmingWhitespaceAndNewlines() -> String { trimming(newlines: true) }

    private func trimming(newlines: Bool) -> String {
        func isBlank(_ s: Unicode.Scalar) -> Bool {
            if s == "\t" || s.properties.generalCategory == .spaceSeparator { return true }
            guard newlines else { return false }
            switch s.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
            default: return false
            }
        }
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isBlank($0) })!
        return String(scalars[first...last])
    }
}
