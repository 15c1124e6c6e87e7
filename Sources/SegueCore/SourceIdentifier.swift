// What a name in shader source may be, read one way wherever Segue reads GLSL or Metal: the
// transition parser's parameters, the template's scope scan, `segue check`'s name search, the
// Metal lexer and an effect name's `file.metal:FUNCTION`. glslang takes ASCII names only, so a
// name with another letter would pass one reader and fail in the compiler.

/// The identifiers of GLSL and Metal source: ASCII letters, digits and `_`, not starting with a
/// digit.
package enum SourceIdentifier {
    /// Whether `c` may start an identifier (an ASCII letter or `_`).
    package static func isStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
    }

    /// Whether `c` may continue an identifier (an ASCII letter, digit or `_`).
    package static func isPart(_ c: Unicode.Scalar) -> Bool { isStart(c) || ("0"..."9").contains(c) }

    /// `isPart` for a character (one that is a single scalar).
    package static func isPart(_ c: Character) -> Bool { c.unicodeScalars.count == 1 && isPart(c.unicodeScalars.first!) }

    /// `isPart` for a UTF-8 byte (a byte of a multi-byte character is none).
    package static func isPart(byte b: UInt8) -> Bool { b < 0x80 && isPart(Unicode.Scalar(b)) }

    /// Whether `text` is one identifier.
    package static func isValid(_ text: some StringProtocol) -> Bool {
        guard let first = text.unicodeScalars.first, isStart(first) else { return false }
        return text.unicodeScalars.allSatisfy(isPart)
    }
}
