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

    @Test("trimming: spaces and tabs, or those and line breaks")
    func trimming() {
        #expect(" \t a b \u{00A0}\t".trimmingWhitespace() == "a b")
        #expect("\n a \n".trimmingWhitespace() == "\n a \n")
        #expect("\r\n\t a b \u{2028}\n".trimmingWhitespaceAndNewlines() == "a b")
        #expect(" \n\t ".trimmingWhitespaceAndNewlines() == "")
        #expect("x"[...].trimmingWhitespaceAndNewlines() == "x")
    }
}
