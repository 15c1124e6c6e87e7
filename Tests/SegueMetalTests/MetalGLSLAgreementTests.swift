// Issue 22 item 15: shaders `segue info` accepted that then failed in the GLSL compiler with
// messages about generated code (found by probing the front end with a few hundred variants and
// compiling what it accepted), and constant folding that trapped on user numbers. Each is now
// caught when the file is translated, with its line, or translated so that GLSL accepts it.
import Foundation
import SegueCore
import SegueShaders
import Testing

@testable import SegueMetal

/// A colour function with `body` on line 4 (after `helpers`, which add lines).
private func colour(_ body: String, helpers: String = "") -> String {
    prologue + helpers + "[[ stitchable ]] half4 f(float2 p, half4 c, float t) {\n    " + body + "\n}\n"
}

@Suite("Metal front end: what GLSL refuses is refused at translation")
struct MetalGLSLAgreementTests {
    @Test(
        "each construct glslang refused is an error naming it and its line",
        arguments: [
            // glslang: "name too long".
            (
                colour("float \(String(repeating: "a", count: 1_100)) = t; return c;"),
                "user.metal:4: a name longer than 1000 characters: 'aaaaaaaaaaaaaaaaaaaaaaaa…'"
            ),
            // glslang: "'case' : duplicated value" (also after wrapping to 32 bits).
            (
                colour("int k = int(t); switch (k) { case 1: break; case 65536 * 65536 + 1: break; } return c;"),
                "user.metal:4: duplicate case value 1 (first on line 4)"
            ),
            (
                colour("int k = int(t); switch (k) { default: break; default: break; } return c;"),
                "user.metal:4: more than one 'default' label in the switch"
            ),
            // glslang, when linking: "Recursion detected".
            (
                colour(
                    "return c * half(g(t));",
                    helpers: "float h(float x);\nfloat g(float x) { return x > 0 ? h(x - 1) : 0; }\nfloat h(float x) { return g(x); }\n"),
                "user.metal:5: unsupported recursion (Metal and GLSL have no recursive calls): 'g' calls 'h', which calls 'g'"
            ),
            // glslang: "break statement only allowed in switch and loops".
            (colour("break; return c;"), "user.metal:4: 'break' outside a loop or switch"),
            (colour("int k = 0; switch (k) { case 0: continue; } return c;"), "user.metal:4: 'continue' outside a loop"),
            // glslang: "syntax error, unexpected RIGHT_BRACE".
            (colour("return c;", helpers: "struct E { };\n"), "user.metal:3: unsupported empty struct (a GLSL struct needs a member): 'E'"),
            // glslang (and C++): "'i' : redefinition".
            (
                colour("float r = 0; for (int i = 0; i < 3; i++) { int i = 2; r += i; } return c * half(r);"),
                "user.metal:4: redefinition of 'i'"
            ),
            // glslang: "'case' : cannot be nested inside control flow".
            (
                colour("int k = int(t); switch (k) { case 0: if (t > 0.5) { case 1: k = 2; } break; } return c;"),
                "user.metal:4: 'case' inside a statement nested in the switch (GLSL allows labels only directly in its braces)"
            ),
            // glslang: "function does not return a value".
            (
                colour("return c * half(g(t));", helpers: "float g(float x) { }\n"),
                "user.metal:3: 'g' must return a float: it has no 'return' statement"
            ),
            (colour("c.r = 1;"), "user.metal:5: 'f' must return a half4: it has no 'return' statement"),
        ])
    func refused(source: String, message: String) {
        #expect(translationError(source) == message)
    }

    @Test("names with the translator's prefixes are renamed so they meet neither renamed names nor functions")
    func prefixes() throws {
        let module = try StitchableTranslator.translate(
            colour(
                "float _m_g = 1; float _v_input = 2; float input = 3; return c * half(g(_m_g) + _v_input + input);",
                helpers: "float g(float x) { return x; }\n"), file: "p.metal")
        let line = module.metal.glsl.split(separator: "\n", omittingEmptySubsequences: false)[4]
        #expect(
            line
                == "    float _v__m_g = 1.0; float _v__v_input = 2.0; float _v_input = 3.0; return c * float(_m_g(_v__m_g) + _v__v_input + _v_input);"
        )
    }

    @Test("calling another overload of the same name is not recursion")
    func overloads() {
        #expect(
            translationError(
                colour(
                    "return c * half(g(p));", helpers: "float g(float x) { return x * 2; }\nfloat g(float2 v) { return g(v.x) + g(v.y); }\n"
                )) == nil)
    }

    // Found while probing: Double → Int conversions of folded constants trapped (the process died).
    @Test(
        "folded integers wrap at 32 bits and never trap",
        arguments: [
            "int a = 1e30; return c * half(a);",
            "float k[2] = {1, 2}; return c * half(k[int(1e30)]);",
            "float k[2] = {1, 2}; return c * half(k[int(0.0 / 0.0)]);",
            "int k = int(t); switch (k) { case 65536 * 65536 * 65536 * 65536 * 65536: break; } return c;",
            "uint a = -1e30; return c * half(a);",
            "int a = (-2147483647 - 1) / -1; return c * half(a);",
        ])
    func foldingNeverTraps(body: String) {
        #expect(translationError(colour(body)) == nil)
    }

    @Test("folding follows the GPU's 32-bit arithmetic")
    func wrapping() throws {
        #expect(MetalChecker.foldInteger(2_147_483_647, 1, "+", .int) == -2_147_483_648)
        #expect(MetalChecker.foldInteger(0, 1, "-", .uint) == 4_294_967_295)
        #expect(MetalChecker.foldInteger(65_536, 65_536, "*", .uint) == 0)
        #expect(MetalChecker.foldInteger(-7, 2, "/", .int) == -3)
        #expect(MetalChecker.foldInteger(-7, 2, "%", .int) == -1)
        #expect(MetalChecker.foldInteger(1, 0, "/", .int) == nil)
        #expect(MetalChecker.foldInteger(-2_147_483_648, -1, "/", .int) == nil)
        #expect(MetalChecker.wrapInteger(.nan, .int) == 0 && MetalChecker.wrapInteger(-.infinity, .uint) == 0)
        #expect(MetalChecker.wrapInteger(-1, .uint) == 4_294_967_295 && MetalChecker.wrapInteger(3e9, .int) == 3e9 - 4_294_967_296)
        // An array sized by a product that wraps to 0 is an error, not a trap.
        #expect(
            translationError(colour("float k[65536 * 65536 * 65536 * 65536 * 65536]; return c;"))
                == "user.metal:4: the size of array 'k' must be a positive integer constant")
        let module = try StitchableTranslator.translate(
            colour("int k = int(t); switch (k) { case 65536 * 65536 + 2: break; } return c;"), file: "w.metal")
        #expect(module.metal.glsl.contains("case 2:"), "\(module.metal.glsl)")
    }
}

@Suite("Metal front end: message lengths")
struct MetalMessageLengthTests {
    @Test("a call with a thousand arguments names the first types and counts the rest")
    func longArgumentLists() throws {
        let args = Array(repeating: "1", count: 1_000).joined(separator: ", ")
        let message = try #require(translationError(colour("float2 v = float2(\(args)); return c;")))
        #expect(
            message
                == "user.metal:4: cannot construct a float2 from (int, int, int, int, int, int, int, int, int, int, int, int, … (988 more))"
        )
    }
}

@Suite("Metal front end: constructs refused with their line (issue 28 item 4)")
struct MetalConstructRefusalTests {
    @Test(
        "each is an error naming the construct and its line",
        arguments: [
            (colour("short2 s = short2(1, 2); return c;"), "user.metal:4: unsupported short vector type: 'short2'"),
            (colour("uchar4 s = uchar4(1); return c;"), "user.metal:4: unsupported char vector type: 'uchar4'"),
            (
                colour("float3 v = float3(1); v.xx = float2(1); return c;"),
                "user.metal:4: cannot assign to the swizzle '.xx': it repeats a component"
            ),
            (
                colour("float k[3] = {1, 2, 3}; float s = 0; for (float v : k) s += v; return c;"),
                "user.metal:4: unsupported range-based for loop (write for (int i = 0; i < n; i++)): ':'"
            ),
            (
                colour("return c;", helpers: "struct S { float a; float get() const { return a; } };\n"),
                "user.metal:3: unsupported member function in a struct: 'get'"
            ),
            (colour("float2 f = as_type<float2>(c); return c;"), "user.metal:4: unsupported cast: 'as_type'"),
            (colour("uint k = mulhi(1u, 2u); return c;"), "user.metal:4: unsupported integer high-half multiplication: 'mulhi'"),
            (colour("float4 v = float4(float3(1)); return c;"), "user.metal:4: cannot construct a float4 from (float3)"),
            (
                colour("float2 v = float2(1); float3 w = (v > 0.5) ? float3(v, 1) : float3(0); return c;"),
                "user.metal:4: a '?:' with a bool2 condition needs values of 2 components, got 'float3'"
            ),
        ])
    func refused(source: String, message: String) {
        #expect(translationError(source) == message)
    }

    @Test("a bool-vector condition selects component by component")
    func vectorTernary() throws {
        let module = try MetalTranslator.translate(
            colour("float2 v = float2(p); float2 w = v < 0.5 ? v : 1; return c * half(w.x);"), file: "t.metal")
        #expect(
            line(4, of: module.glsl) == "    vec2 v = vec2(p); vec2 w = mix(vec2(1.0), v, lessThan(v, vec2(0.5))); return c * float(w.x);")
    }
}
