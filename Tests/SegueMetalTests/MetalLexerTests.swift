// The lexer's first translation phases against hand-counted positions: line ends of every kind,
// backslash-joined lines, a byte-order mark, and characters a message must name by code point.
import SegueCore
import Testing

@testable import SegueMetal

@Suite("Metal lexer")
struct MetalLexerTests {
    /// Each token's text, line and column.
    private func tokens(_ source: String) throws -> [String] {
        try MetalLexer.tokenize(source, file: "t.metal").map { "\($0.text)@\($0.line):\($0.column)" }
    }

    @Test("a token keeps the line and column it was written at, across joined lines and every line end")
    func positions() throws {
        #expect(try tokens("a \\\n  b\nc") == ["a@1:1", "b@2:3", "c@3:1"])
        // A name joined across a line: where it starts.
        #expect(try tokens("na\\\nme x") == ["name@1:1", "x@2:4"])
        #expect(try tokens("a\r\nb\rc\n\rd") == ["a@1:1", "b@2:1", "c@3:1", "d@5:1"])
        #expect(try tokens("a \\\r\nb") == ["a@1:1", "b@2:1"])
        // A byte-order mark opens a file without counting as a column.
        #expect(try tokens("\u{FEFF}float x;") == ["float@1:1", "x@1:7", ";@1:8"])
    }

    @Test("C++14 digit separators between digits are dropped from a number; a quote elsewhere opens a character constant")
    func digitSeparators() throws {
        #expect(
            try tokens("x = 1'000'000 + 0x1'F + 1.5'0e1'0f;") == [
                "x@1:1", "=@1:3", "1000000@1:5", "+@1:15", "0x1F@1:17", "+@1:23", "1.50e10f@1:25", ";@1:35",
            ])
        // Not between two digits: a number, then a character constant.
        #expect(try tokens("1 'a'") == ["1@1:1", "'a'@1:3"])
        #expect(try tokens("1'") == ["1@1:1", "'@1:2"])
        // Only between two digits of the literal's base: not before an exponent or suffix, nor
        // right after 0x.
        #expect(try tokens("1'e5") == ["1@1:1", "'e5@1:2"])
        #expect(try tokens("0x'1") == ["0x@1:1", "'1@1:3"])
        #expect(try tokens("0b1'0 + 07'7") == ["0b10@1:1", "+@1:7", "077@1:9"])
    }

    @Test("a // comment ending in a backslash comments out the next line too, as in C")
    func commentContinuation() throws {
        #expect(try tokens("a // note \\\nb = 1;\nc") == ["a@1:1", "c@3:1"])
        // A directive's block comment is one space, even across lines.
        let directive = try MetalLexer.tokenize("#define K 1 /* a\nb */ + 2\nK", file: "t.metal")
        #expect(directive.map(\.text) == ["#define K 1   + 2", "K"] && directive.map(\.line) == [1, 3])
    }

    @Test("characters that would not show are named by code point; a block comment never closed names its line")
    func messages() {
        func message(_ source: String) -> String? {
            do { _ = try MetalLexer.tokenize(source, file: "t.metal"); return nil } catch { return error.description }
        }
        #expect(message("float a;\nfloat\u{0}b;") == "t.metal:2: unexpected character U+0000")
        #expect(message("a \u{FEFF}b") == "t.metal:1: unexpected character U+FEFF")
        #expect(message("a `b") == "t.metal:1: unexpected character '`'")
        #expect(message("a\n#define K 1 /* open\nb") == "t.metal:2: unterminated block comment")
    }
}
