// GLSL comments read left to right as the compiler reads them: a `/*` inside a `//` comment opens
// nothing, a `//` inside a block comment ends nothing; every byte of a comment becomes a space and
// its newlines stay (so line numbers and byte offsets stay); an unclosed block comment is reported.
import SegueShaders
import Testing

/// `n` spaces.
private func blank(_ n: Int) -> String { String(repeating: " ", count: n) }

@Suite("GLSL comments")
struct GLSLCommentsTests {
    @Test(
        "each comment byte is a space, newlines kept; nesting is read as the compiler reads it",
        arguments: [
            ("a // b /* c\nd */ e", "a " + blank(9) + "\nd */ e", false),
            ("x /* y // z */ w", "x " + blank(12) + " w", false),
            ("/* a\nb */c", blank(4) + "\n" + blank(4) + "c", false),
            ("p /* q\nr", "p " + blank(4) + "\n" + blank(1), true),
            ("float t = 1.0 / 2.0; // half", "float t = 1.0 / 2.0; " + blank(7), false),
            ("no comment", "no comment", false),
            ("é /* ü */ ß", "é " + blank(8) + " ß", false),  // ü is two bytes
            ("/", "/", false),
        ])
    func stripped(source: String, code: String, unclosed: Bool) {
        let result = GLSLComments.stripped(source)
        #expect(result.code == code)
        #expect(result.code.utf8.count == source.utf8.count, "byte offsets stay")
        #expect(result.unclosed == unclosed)
    }
}
