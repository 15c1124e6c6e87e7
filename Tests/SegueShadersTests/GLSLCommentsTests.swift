// GLSL comments read left to right as the compiler reads them: a `/*` inside a `//` comment opens
// nothing, a `//` inside a block comment ends nothing; each comment becomes one space and the
// newlines inside block comments stay; an unclosed block comment is reported.
import SegueShaders
import Testing

@Suite("GLSL comments")
struct GLSLCommentsTests {
    @Test(
        "each comment is one space, newlines kept; nesting is read as the compiler reads it",
        arguments: [
            ("a // b /* c\nd */ e", "a  \nd */ e", false),
            ("x /* y // z */ w", "x   w", false),
            ("/* a\nb */c", " \nc", false),
            ("p /* q\nr", "p  \n", true),
            ("float t = 1.0 / 2.0; // half", "float t = 1.0 / 2.0;  ", false),
            ("no comment", "no comment", false),
            ("é /* ü */ ß", "é   ß", false),
            ("/", "/", false),
        ])
    func stripped(source: String, code: String, unclosed: Bool) {
        let result = GLSLComments.stripped(source)
        #expect(result.code == code)
        #expect(result.unclosed == unclosed)
    }
}
