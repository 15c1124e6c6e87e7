// The one exact number text, hexadecimal encoder and trimming every module uses.
import SegueSystem
import Testing

@Suite("Text formatting")
struct TextFormattingTests {
    @Test("exact numbers: whole ones below 10¹⁵ without a fraction, others in Swift's shortest round-trip form")
    func exactNumbers() {
        let expected: [(Double, String)] = [
            (2, "2"), (-3, "-3"), (-0.0, "0"), (0.25, "0.25"), (1e15 - 1, "999999999999999"), (1e15, "1000000000000000.0"), (1e16, "1e+16"),
            (-1e300, "-1e+300"), (0.1, "0.1"), (.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"),
        ]
        for (x, text) in expected { #expect(String(exactNumber: x) == text, "\(x)") }
    }

    @Test("hex digits: two lowercase digits a byte")
    func hex() {
        #expect([UInt8]().hexDigits == "")
        #expect([0x00, 0x0a, 0x7f, 0xff].hexDigits == "000a7fff")
        #expect([UInt8](0...255).hexDigits.count == 512)
        #expect(Array("ab".utf8)[...].hexDigits == "6162")
    }

    @Test("UTF-8: the valid prefix and the escaped bytes of text that is not UTF-8, exactly")
    func invalidUTF8() {
        let cases: [(bytes: [UInt8], prefix: Int, escaped: String)] = [
            (Array("café.png".utf8), 9, "café.png"),
            ([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x70], 3, "caf\\xE9.p"),  // Latin-1 é
            ([0x61, 0xE2, 0x82], 1, "a\\xE2\\x82"),  // cut short at the end
            ([0xE2, 0x82, 0x61], 0, "\\xE2\\x82a"),  // cut short before another character
            ([0xC0, 0x80], 0, "\\xC0\\x80"),  // an overlong NUL
            ([0xED, 0xA0, 0x80, 0x41], 0, "\\xED\\xA0\\x80A"),  // a UTF-16 surrogate
            ([0xF4, 0x90, 0x80, 0x80], 0, "\\xF4\\x90\\x80\\x80"),  // past U+10FFFF
            ([0xFF], 0, "\\xFF"), ([], 0, ""),
        ]
        for (bytes, prefix, escaped) in cases {
            #expect(bytes.validUTF8PrefixCount == prefix, "\(bytes)")
            #expect(bytes.escapingInvalidUTF8 == escaped, "\(bytes)")
        }
        // Against the standard library's validation: every sequence of one and two bytes, and
        // every one of three and four from bytes at the edges of UTF-8's ranges.
        let edges: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ]
        var sequences = (0...255).map { [UInt8($0)] } + (0..<65536).map { [UInt8($0 >> 8), UInt8($0 & 255)] }
        for a in edges {
            for b in edges { for c in edges { sequences.append([a, b, c]); for d in edges { sequences.append([a, b, c, d]) } } }
        }
        var mismatches: [[UInt8]] = []
        for bytes in sequences {
            let valid = String(validating: bytes, as: UTF8.self)
            let prefix = bytes.validUTF8PrefixCount
            if (prefix == bytes.count) != (valid != nil) || String(validating: bytes.prefix(prefix), as: UTF8.self) == nil
                || valid.map({ bytes.escapingInvalidUTF8 != $0 }) ?? false
            {
                mismatches.append(bytes)
            }
        }
        #expect(sequences.count == 256 + 65536 + 6859 + 130_321)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("trimming: spaces and tabs, or those and line breaks")
    func trimming() {
        #expect(" \t a b \u{00A0}\t".trimmingWhitespace() == "a b")
        #expect("\n a \n".trimmingWhitespace() == "\n a \n")
        #expect("\r\n\t a b \u{2028}\n".trimmingWhitespaceAndNewlines() == "a b")
        #expect(" \n\t ".trimmingWhitespaceAndNewlines() == "")
        #expect("x"[...].trimmingWhitespaceAndNewlines() == "x")
    }
}
