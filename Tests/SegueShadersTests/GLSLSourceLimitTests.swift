// Issue 22: gl-transitions files that crash glslang (a chain of 15,000 terms) or keep it and the
// driver busy for minutes (doubling macros, nested `?:` and `else if`, thousands of functions,
// huge constant tables and structs) are refused when the file is read, naming the limit and the
// line, while real transitions (every built-in, a large hand-written one) pass.
import Foundation
import SegueCore
import Testing

@testable import SegueMetal
@testable import SegueShaders

/// The error `TransitionSourceParser` raises for a file with `source`, as text (nil when it parses).
private func parseError(_ source: String) -> String? {
    do {
        _ = try TransitionSourceParser.parse(source, name: "user", source: .file("user.glsl"))
        return nil
    } catch {
        return error.description
    }
}

/// A transition whose line 4 is `body`, after `globals` (which add to the line numbers).
private func transition(_ body: String, globals: String = "") -> String {
    globals + "vec4 transition(vec2 uv) {\n    float t = progress;\n    float x = 0.0;\n" + body
        + "\n    return mix(getFromColor(uv), getToColor(uv), clamp(x, 0.0, 1.0));\n}\n"
}

/// A large transition in the gl-transitions style written for this test: macros, a struct, a
/// constant table, helper functions, loops and branches.
private let largeTransition = """
    // Name: test-large
    // Author: Segue tests
    #define OCTAVES 5
    #define SQ(x) ((x) * (x))
    #define ROT(a) mat2(cos(a), -sin(a), sin(a), cos(a))
    uniform float strength; // = 0.6
    uniform vec2 centre; // = vec2(0.5, 0.5)
    struct Ripple { vec2 origin; float radius; float phase; };
    const float weights[16] = float[](0.05, 0.07, 0.09, 0.11, 0.12, 0.12, 0.11, 0.09, 0.07, 0.05, 0.04, 0.03, 0.02, 0.015, 0.01, 0.005);
    float hash(vec2 p) { p = fract(p * vec2(123.34, 456.21)); p += dot(p, p + 45.32); return fract(p.x * p.y); }
    float noise(vec2 p) {
        vec2 i = floor(p), f = fract(p);
        vec2 u = f * f * (3.0 - 2.0 * f);
        return mix(mix(hash(i), hash(i + vec2(1.0, 0.0)), u.x), mix(hash(i + vec2(0.0, 1.0)), hash(i + vec2(1.0, 1.0)), u.x), u.y);
    }
    float fbm(vec2 p) {
        float v = 0.0, a = 0.5;
        for (int k = 0; k < OCTAVES; k++) { v += a * noise(p); p = ROT(0.5) * p * 2.0; a *= 0.5; }
        return v;
    }
    float ripples(vec2 uv, float t) {
        Ripple r[3];
        r[0] = Ripple(centre, 0.3, 0.0); r[1] = Ripple(vec2(0.2, 0.8), 0.2, 1.0); r[2] = Ripple(vec2(0.8, 0.3), 0.25, 2.0);
        float s = 0.0;
        for (int k = 0; k < 3; k++) {
            float d = distance(uv, r[k].origin);
            if (d < r[k].radius * t) { s += sin(d * 40.0 - t * 10.0 + r[k].phase) * weights[k * 5]; }
            else if (d < r[k].radius * t * 1.5) { s += 0.5 * weights[k]; }
            else { s -= 0.1 * weights[15 - k]; }
        }
        return s;
    }
    vec4 transition(vec2 uv) {
        float t = progress;
        float n = fbm(uv * 4.0 + t) * strength;
        vec2 offset = vec2(ripples(uv, t), ripples(uv.yx, t)) * (1.0 - t) * t;
        float edge = smoothstep(t - 0.1, t + 0.1, SQ(n) + uv.x * 0.5 + uv.y * 0.5);
        vec4 a = getFromColor(clamp(uv + offset, 0.0, 1.0)), b = getToColor(clamp(uv - offset, 0.0, 1.0));
        return t <= 0.0 ? a : t >= 1.0 ? b : mix(b, a, edge);
    }
    """

@Suite("GLSL source limits")
struct GLSLSourceLimitTests {
    @Test("every built-in, the gallery fixture and a large transition pass")
    func realSources() throws {
        for effect in EffectCatalog.builtIns where effect.kind == .fullScreen {
            #expect(throws: Never.self, "\(effect.name)") { try GLSLSourceLimits.check(effect.glsl ?? "", file: effect.name) }
        }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("segueTests/Fixtures/gallery/tint.glsl").path
        _ = try TransitionSourceParser.parse(try String(contentsOfFile: fixture, encoding: .utf8), name: "tint", source: .file(fixture))
        let effect = try TransitionSourceParser.parse(largeTransition, name: "large", source: .file("large.glsl"))
        #expect(effect.parameters.map(\.name) == ["strength", "centre"])
    }

    // Issue 22 item 4: glslang segfaults at about 15,000 terms in a chain (8 MiB stack).
    @Test("a chain of 15,000 terms and 2,000 nested calls are refused on their line; 250 terms pass")
    func expressionHeight() throws {
        let chain = try #require(parseError(transition("    x = " + Array(repeating: "t", count: 15_000).joined(separator: " + ") + ";")))
        #expect(
            chain == "user.glsl:4: an expression nested more than 256 levels deep (each operator of a chain such as 'a + b + c' "
                + "and each call adds a level); split it into several statements")
        let calls = try #require(
            parseError(
                transition(
                    "    x = " + String(repeating: "f(", count: 2_000) + "t" + String(repeating: ")", count: 2_000) + ";",
                    globals: "float f(float a) { return a * 0.5; }\n")))
        #expect(calls.hasPrefix("user.glsl:5: an expression nested more than 256 levels deep"), "\(calls)")
        #expect(parseError(transition("    x = " + Array(repeating: "t", count: 250).joined(separator: " + ") + ";")) == nil)
        // Parentheses alone add nothing: glslang makes no node for them.
        #expect(
            parseError(transition("    x = " + String(repeating: "(", count: 1_000) + "t" + String(repeating: ")", count: 1_000) + ";"))
                == nil)
    }

    // Issue 22 item 8, in GLSL: glslang's preprocessor expands macros without a bound.
    @Test("doubling macros are refused naming the macro and the line of its use")
    func macros() throws {
        let defines = "#define M0 progress\n" + (1...30).map { "#define M\($0) (M\($0 - 1) + M\($0 - 1))\n" }.joined()
        #expect(
            parseError(transition("    x = M30;", globals: defines))
                == "user.glsl:35: macro 'M30' expands to more than \(MetalPreprocessor.maximumExpansion) tokens (macros that use another macro several times grow exponentially)"
        )
        // Conditionals are not evaluated; every branch counts, and ordinary macros pass.
        #expect(
            parseError(
                transition(
                    "    x = SCALE * t;",
                    globals: "#ifdef GL_ES\nprecision mediump float;\n#define SCALE 0.5\n#else\n#define SCALE 1.0\n#endif\n")) == nil)
    }

    @Test("a #if, #elif or #line is measured too: doubling macros in it, and more than 1,024 tokens (glslang's stack)")
    func directiveExpressions() throws {
        let defines = "#define M0 1\n" + (1...30).map { "#define M\($0) (M\($0 - 1) + M\($0 - 1))\n" }.joined()
        for (directive, line) in [("#if M30\n#endif\n", 32), ("#if 0\n#elif M30\n#endif\n", 33), ("#line M30\n", 32)] {
            #expect(
                parseError(transition("", globals: defines + directive))?.hasPrefix("user.glsl:\(line): macro 'M30' expands to more than")
                    == true,
                "\(directive)")
        }
        #expect(
            parseError(transition("", globals: "#if " + String(repeating: "!", count: 40_000) + "1\n#endif\n"))
                == "user.glsl:1: a #if of more than \(MetalPreprocessor.maximumDirectiveTokens) tokens once its macros are expanded")
        #expect(parseError(transition("", globals: "#if " + String(repeating: "!", count: 1_000) + "1\n#endif\n")) == nil)
        // Counted once its macros are expanded: 1,000 uses of a macro of 40 '!'.
        let bangs = "#define N " + String(repeating: "!", count: 40) + "\n#if " + String(repeating: "N ", count: 1_000) + "1\n#endif\n"
        #expect(
            parseError(transition("", globals: bangs))
                == "user.glsl:2: a #if of more than \(MetalPreprocessor.maximumDirectiveTokens) tokens once its macros are expanded")
    }

    @Test(
        "helpers are weighed once inlined: a doubling call tree or texture reads past 256 are refused on the function; a loop of reads passes"
    )
    func inlinedCost() throws {
        // f_k calls f_(k-1) twice: f12 is 2^12 copies of f0 (spirv-opt ran for minutes on 13).
        func doubling(_ levels: Int, leaf: String) -> String {
            "vec4 f0(vec2 u) { return \(leaf); }\n"
                + (1...levels).map { "vec4 f\($0)(vec2 u) { return f\($0 - 1)(u) + f\($0 - 1)(u * 1.01); }\n" }.joined()
        }
        let arithmetic = doubling(13, leaf: "vec4(sin(u.x))")
        #expect(parseError(transition("    x = f13(uv).x;", globals: arithmetic))?.hasPrefix("user.glsl:13: 'f12' grows to ") == true)
        #expect(parseError(transition("    x = f11(uv).x;", globals: doubling(11, leaf: "vec4(sin(u.x))"))) == nil)
        let reads = doubling(9, leaf: "getFromColor(u)")
        #expect(
            parseError(transition("    x = f9(uv).x;", globals: reads))
                == "user.glsl:10: 'f9' reads textures 512 times (getFromColor, getToColor, texture…; a helper's reads count at each call); "
                + "the limit is 256: read in a loop (it counts once), or the driver may compile for minutes")
        // The transition's own two reads count with its helpers'.
        #expect(parseError(transition("    x = f7(uv).x;", globals: doubling(7, leaf: "getFromColor(u)"))) == nil)
        let straight = String(repeating: "    x += getToColor(uv + vec2(x)).r;\n", count: 255)
        #expect(parseError(transition(straight))?.hasPrefix("user.glsl:1: 'transition' reads textures 257 times") == true)
        #expect(parseError(transition(String(repeating: "    x += getToColor(uv + vec2(x)).r;\n", count: 254))) == nil)
        #expect(parseError(transition("    for (int i = 0; i < 1000; i++) { x += getFromColor(uv * float(i)).r; }")) == nil)
    }

    @Test("specialization constants are refused: the driver folds them itself (INT_MIN / -1 raised SIGFPE there)")
    func specializationConstants() throws {
        #expect(
            parseError(transition("", globals: "layout(constant_id = 0) const int b = -1;\n"))
                == "user.glsl:1: unsupported specialization constant (layout(constant_id = …)): Segue sets none; write a const")
    }

    // Issue 22 item 10: compile time cubic in nested control flow (500 levels: 50 s).
    @Test("nested ?:, else-if chains and unbraced loops are bounded; moderate ones pass")
    func controlFlow() throws {
        let conditionals = try #require(parseError(transition("    x = " + (0..<65).map { "t < \($0).0 ? \($0).0 : " }.joined() + "0.0;")))
        #expect(conditionals == "user.glsl:4: more than 64 '?:' in one statement; use if statements or split it")
        #expect(parseError(transition("    x = " + (0..<64).map { "t < \($0).0 ? \($0).0 : " }.joined() + "0.0;")) == nil)
        let chain = "    if (t < 0.0) { x = 1.0; }" + (0..<200).map { " else if (t < \($0).0) { x = \($0).0; }" }.joined()
        let message = try #require(parseError(transition(chain)))
        #expect(
            message
                == "user.glsl:4: blocks and control statements nested more than 128 levels deep (an 'else if' chain nests one level per 'else if')"
        )
        #expect(
            parseError(transition("    if (t < 0.0) x = 1.0;" + (0..<100).map { " else if (t < \($0).0) x = \($0).0;" }.joined())) == nil)
        let loops = try #require(
            parseError(transition("    " + String(repeating: "for (int i = 0; i < 2; i++) ", count: 200) + "x += 0.001;")))
        #expect(loops.hasPrefix("user.glsl:4: blocks and control statements nested more than 128 levels deep"), "\(loops)")
        // Sequential statements do not nest.
        #expect(parseError(transition((0..<300).map { "    if (t < \($0).0) x += 0.001;\n" }.joined())) == nil)
    }

    @Test("sizes: tokens, functions, arrays, structs and constant tables")
    func sizes() throws {
        let functions = (0...500).map { "float f\($0)(float a) { return a; }\n" }.joined()
        #expect(
            parseError(transition("", globals: functions)) == "user.glsl:501: more than 500 functions; split the effect or make it smaller")
        let long = try #require(parseError(transition(String(repeating: "    x += sin(t * 2.0) * 0.5;\n", count: 3_500))))
        #expect(
            long.hasSuffix("the source has more than 32768 tokens after its macros are expanded; split the effect or make it smaller"),
            "\(long)")
        // Array variables are left to the check of the compiled shader's private memory.
        #expect(parseError(transition("    x = k[0];", globals: "float k[100000];\n")) == nil)
        #expect(
            parseError(transition("", globals: "struct Big { float k[100000]; };\n"))
                == "user.glsl:1: struct 'Big' holds more than 65536 values")
        let doubling = "struct S0 { float a; float b; };\n" + (1...20).map { "struct S\($0) { S\($0 - 1) a; S\($0 - 1) b; };\n" }.joined()
        #expect(parseError(transition("", globals: doubling)) == "user.glsl:17: struct 'S16' nests structs 17 levels deep; the limit is 16")
        let wide = "struct S0 { float a[16]; };\n" + (1...8).map { "struct S\($0) { S\($0 - 1) a, b, c, d; };\n" }.joined()
        #expect(parseError(transition("", globals: wide)) == "user.glsl:8: struct 'S7' holds more than 65536 values")
        func table(_ n: Int, _ name: String = "k") -> String {
            "const float \(name)[\(n)] = float[](" + (0..<n).map { "\(Double($0 % 7) / 7)" }.joined(separator: ", ") + ");\n"
        }
        #expect(parseError(transition("    x = k[int(uv.x * 255.0)];", globals: table(256))) == nil)
        let big = try #require(parseError(transition("    x = k[int(uv.x * 4095.0)];", globals: table(4096))))
        #expect(big.hasPrefix("user.glsl:1: an array constructor or initialiser list with 4096 elements; the limit is 256"), "\(big)")
        let nested = try #require(
            parseError(
                transition(
                    "",
                    globals: "const float k[2][200] = float[2][200](float[200]("
                        + Array(repeating: "0.0", count: 200).joined(separator: ",")
                        + "), float[200](" + Array(repeating: "0.0", count: 200).joined(separator: ",") + "));\n")))
        #expect(nested.hasPrefix("user.glsl:1: an array constructor or initialiser list with 400 elements"), "\(nested)")
        let list = try #require(
            parseError(
                transition("", globals: "const float k[300] = {" + Array(repeating: "1.0", count: 300).joined(separator: ", ") + "};\n")))
        #expect(list.hasPrefix("user.glsl:1: an array constructor or initialiser list with 300 elements"), "\(list)")
        let many = (0..<5).map { table(256, "k\($0)") }.joined()
        let total = try #require(parseError(transition("", globals: many)))
        #expect(
            total.hasPrefix("user.glsl:5: the array constructors and initialiser lists of this file have more than 1024 elements in all"),
            "\(total)")
    }

    @Test("only files are checked: a built-in's source is trusted")
    func builtInsUnchecked() throws {
        let chain = transition("    x = " + Array(repeating: "t", count: 300).joined(separator: " + ") + ";")
        #expect(throws: Never.self) { _ = try TransitionSourceParser.parse(chain, name: "b", source: .builtIn) }
        #expect(parseError(chain) != nil)
    }
}
