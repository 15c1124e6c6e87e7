// The one reading of a name in shader source (GLSL parameters, the scope scan, `segue check`,
// the Metal lexer, `file.metal:FUNCTION`).
import SegueCore
import Testing

@Suite("Source identifiers")
struct SourceIdentifierTests {
    @Test(
        "ASCII letters, digits and '_', not starting with a digit",
        arguments: [
            ("amount", true), ("_x", true), ("x2", true), ("A_b9", true),
            ("2x", false), ("", false), ("café", false), ("x²", false), ("a-b", false), ("a b", false), ("ｘ", false),
        ])
    func valid(text: String, valid: Bool) {
        #expect(SourceIdentifier.isValid(text) == valid)
    }

    @Test("bytes of a multi-byte character are no part of a name")
    func bytes() {
        #expect(Array("é".utf8).allSatisfy { !SourceIdentifier.isPart(byte: $0) })
        #expect(Array("a_9".utf8).allSatisfy { SourceIdentifier.isPart(byte: $0) })
        #expect(SourceIdentifier.isPart(Character("é")) == false && SourceIdentifier.isPart(Character("_")))
    }
}
