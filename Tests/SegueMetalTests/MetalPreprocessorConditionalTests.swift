// The preprocessor's conditionals against the reference, Debian's `cpp` (GCC's, in C++ mode as
// Metal's clang reads .metal files): the same text through both must give the same tokens —
// nested groups, `#elif` chains, `defined` in both spellings, arithmetic and logic with C's
// precedence, function-like macros in `#if`, `#undef`, skipped groups holding directives nobody
// reads, short-circuits around a division by zero. And the errors C reports, with their lines.
import Foundation
import SegueCore
import SegueShaders
import SegueSystem
import SegueTestSupport
import Testing

@testable import SegueMetal

@Suite("Metal preprocessor: conditionals")
struct MetalPreprocessorConditionalTests {
    /// The tokens of `source` after Segue's preprocessor.
    private func segue(_ source: String) throws -> [String] {
        var preprocessor = MetalPreprocessor(file: "t.metal")
        return try preprocessor.run(try MetalLexer.tokenize(source, file: "t.metal")).map(\.text)
    }

    /// The tokens of `source` after `cpp -P -undef -x c++` (no predefined macros: the table's own).
    private func cpp(_ source: String) throws -> [String] {
        let scratch = try TemporaryDirectory("cpp"), input = scratch.file("t.metal")
        try source.write(toFile: input, atomically: true, encoding: .utf8)
        let run = try ProgramRun("/usr/bin/cpp", ["-P", "-undef", "-x", "c++", input])
        #expect(run.status == 0, "cpp failed on:\n\(source)")
        return try MetalLexer.tokenize(run.stdout, file: "cpp").map(\.text)
    }

    static let table: [String] = [
        // Nesting and chains.
        "#define A 1\n#if A\n a1\n #if 0\n no\n #elif A + 1 == 2\n yes\n #else\n no2\n #endif\n#else\n not\n#endif\n",
        "#if 0\nx\n#elif 0\ny\n#elif 2\nz\n#elif 3\nw\n#else\nv\n#endif\n",
        // defined, both spellings, negated; #ifdef / #ifndef; #undef.
        "#define SHOW\n#if defined SHOW && !defined(HIDE)\nshown\n#endif\n#ifdef SHOW\ns\n#endif\n#ifndef SHOW\nns\n#endif\n#undef SHOW\n#ifdef SHOW\nstill\n#else\ngone\n#endif\n",
        // Arithmetic, precedence, unary operators, shifts, ternary, literals, unknown names as 0.
        "#if 1 + 2 * 3 == 7 && (1 << 4) == 0x10 && -3 / 2 == -1 && 7 % 3 == 1 && ~0 == -1\nprec\n#endif\n",
        "#if (2 > 1 ? 10 : 20) == 10 && 010 == 8 && 0x1F == 31 && 5u == 5 && 3L > 2\nlit\n#endif\n#if UNKNOWN_NAME\nno\n#else\nzero\n#endif\n",
        "#if (1 | 2) == 3 && (6 & 3) == 2 && (5 ^ 1) == 4 && 1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 4 == 0 && 1 != 2\nops\n#endif\n",
        // Function-like and object-like macros in #if.
        "#define SQ(x) ((x) * (x))\n#define LEVEL 3\n#if SQ(LEVEL) > 8\nbig\n#endif\n#if SQ(2) == LEVEL\nwrong\n#endif\n",
        // Skipped groups: directives nobody reads, unbalanced nothing.
        "#if 0\n#foo bar\n#include \"missing.h\"\n#error never\n#if 1\ninner\n#endif\n#endif\nafter\n",
        // Short-circuits: an unused operand may divide by zero.
        "#if 1 || 1 / 0\nor\n#endif\n#if 0 && 1 / 0\nno\n#else\nand\n#endif\n#if 1 ? 2 : 1 / 0\nternary\n#endif\n",
        // Character constants and C++14 digit separators.
        "#if '\\xff' < 0 && '\\377' == -1 && '\\x7f' == 127\nsigned\n#endif\n",
        "#if 'a' == 97 && '\\n' == 10 && '\\x41' == 65 && '\\101' == 65 && '\\'' == 39 && '\\\\' == 92 && '0' + 1 == '1'\nchars\n#endif\n",
        "#if 1'000 == 1000 && 0x1'0 == 16 && 0b1'0 == 2\nseparated\n#endif\nx = 1'000'000;\n",
        // true and false are keywords in C++.
        "#if true && !false\ncpp\n#endif\n",
        // Parenthesised #if and macros defined in a group.
        "#if(1)\n#define INSIDE 4\n#endif\n#if INSIDE == 4\ninside\n#endif\n#if 0\n#define OUTSIDE 1\n#endif\n#ifdef OUTSIDE\nout\n#endif\n",
        // Lines joined by a backslash at their end: in a // comment (the next line is comment
        // too), in code, in a name, in a directive, after CR LF; a block comment in a directive
        // spans lines as one space.
        "kept // note \\\ncommented = out;\nafter\n",
        "x = 1 + \\\n 2;\nna\\\nme\n",
        "#define TWO \\\n 2\n#if TWO == 2\ntwo\n#endif\n",
        "a\r\nb \\\r\nc\r\n#if 1\r\nd\r\n#endif\r\n",
        "#define K 1 /* one\ncomment */ + 2\n#if K == 3\nthree\n#endif\nK\n",
    ]

    @Test("each conditional keeps the tokens cpp keeps", arguments: table)
    func matchesCPP(source: String) throws {
        #expect(try segue(source) == cpp(source), "\(source)")
    }

    @Test(
        "the errors C reports, each with its line",
        arguments: [
            ("a\n#error Tiling is not set\n", "t.metal:2: #error: Tiling is not set"),
            ("#if 1\n", "t.metal:1: #if without #endif"),
            ("#ifdef X\n#else\n#else\n#endif\n", "t.metal:3: #else after #else (the #if is on line 1)"),
            ("#endif\n", "t.metal:1: #endif without #if"),
            ("x\n#elif 1\n", "t.metal:2: #elif without #if"),
            ("#if 1 / 0\n#endif\n", "t.metal:1: division by zero in '#if 1 / 0'"),
            ("#if 1 +\n#endif\n", "t.metal:1: an expression that ends too soon in '#if 1 +'"),
            ("#if (1\n#endif\n", "t.metal:1: expected ')' in '#if (1'"),
            ("#if 1.5\n#endif\n", "t.metal:1: '1.5' is not an integer in '#if 1.5'"),
            ("#ifdef\n#endif\n", "t.metal:1: #ifdef takes one macro name, got ''"),
            ("#if defined(\n#endif\n", "t.metal:1: 'defined' needs a macro name in '#if defined('"),
            ("#if 1 2\n#endif\n", "t.metal:1: unexpected '2' in '#if 1 2'"),
            (
                "#if 'ab'\n#endif\n",
                "t.metal:1: 'ab' is not a character constant Segue reads: one character, or one escape of a byte ('\\n', '\\x41', '\\101') in '#if 'ab''"
            ),
            (
                "#if ''\n#endif\n",
                "t.metal:1: '' is not a character constant Segue reads: one character, or one escape of a byte ('\\n', '\\x41', '\\101') in '#if '''"
            ),
            (
                "#if '\\777'\n#endif\n",
                "t.metal:1: '\\777' is not a character constant Segue reads: one character, or one escape of a byte ('\\n', '\\x41', '\\101') in '#if '\\777''"
            ),
            // A long expression is quoted in part.
            (
                "#if 1 +" + String(repeating: " 1", count: 100) + "\n#endif\n",
                "t.metal:1: unexpected '1' in '#if 1 +" + String(repeating: " 1", count: 38) + " … (203 characters)'"
            ),
        ] as [(String, String)])
    func errors(source: String, message: String) {
        do {
            _ = try segue(source)
            Issue.record("no error for \(source)")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test("Metal's predefined macros: __METAL_VERSION__ is 310 (Metal 3.1), __LINE__ its line; # alone is C's null directive")
    func predefined() throws {
        #expect(try segue("#if __METAL_VERSION__ >= 300\nmetal3\n#else\nolder\n#endif\n") == ["metal3"])
        #expect(try segue("#ifdef __METAL_VERSION__\nyes\n#endif\nv = __METAL_VERSION__;\n") == ["yes", "v", "=", "310", ";"])
        #expect(try segue("a\n#\nb = __LINE__;\n#if __LINE__ == 4\nfour\n#endif\n") == ["a", "b", "=", "3", ";", "four"])
        #expect(try segue("#undef __METAL_VERSION__\n#ifndef __METAL_VERSION__\ngone\n#endif\n") == ["gone"])
        // __LINE__ is defined, as in C (defined(__LINE__) was false).
        #expect(
            try segue("#if defined(__LINE__) && defined __METAL_VERSION__\nboth\n#endif\n#ifdef __LINE__\nline\n#endif\n") == [
                "both", "line",
            ])
    }

    @Test("a macro use spanning lines: its arguments' tokens keep their lines, so errors name them")
    func argumentLines() throws {
        var preprocessor = MetalPreprocessor(file: "t.metal")
        let tokens = try preprocessor.run(
            try MetalLexer.tokenize("#define ADD(a, b) ((a) + (b))\ny = ADD(\n  1.0,\n  z\n);\n", file: "t.metal"))
        #expect(
            tokens.map { "\($0.text)@\($0.line)" } == [
                "y@2", "=@2", "(@2", "(@2", "1.0@3", ")@3", "+@3", "(@3", "z@4", ")@4", ")@4", ";@5",
            ])
    }

    @Test("nesting is bounded: conditionals and parentheses past their limits are errors, not a crash")
    func limits() {
        let deep =
            String(repeating: "#if 1\n", count: MetalPreprocessor.maximumConditionalDepth + 1)
            + String(repeating: "#endif\n", count: MetalPreprocessor.maximumConditionalDepth + 1)
        #expect(throws: ShaderSourceError.self) { try segue(deep) }
        let parentheses = "#if " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000) + "\n#endif\n"
        #expect(throws: ShaderSourceError.self) { try segue(parentheses) }
        let unary = "#if " + String(repeating: "-", count: 10_000) + "1\n#endif\n"
        #expect(throws: ShaderSourceError.self) { try segue(unary) }
    }
}
