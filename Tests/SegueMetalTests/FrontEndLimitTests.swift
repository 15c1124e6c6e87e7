// Issue 22: files `segue info` took that crashed or exhausted the Metal front end — a long chain of
// operators (stack overflow in the checker), macros that double (gigabytes), thousands of
// functions (memory growing with their square), huge or deeply nested types and large constant
// tables (minutes in the GLSL compiler and the driver). Each is now an error naming the limit and
// the line, and shapes at the limits still translate.
import Foundation
import SegueCore
import SegueTestSupport
import Testing

@testable import SegueMetal
@testable import SegueShaders

/// A file whose colour function assigns `expression` to `x` (on line 4 when `helpers` is empty).
private func assigning(_ expression: String, helpers: String = "") -> String {
    prologue + helpers + "[[ stitchable ]] half4 f(float2 p, half4 c, float t) {\n    float x = " + expression
        + ";\n    return c * half(x);\n}\n"
}

@Suite("Metal front end: expression height")
struct MetalExpressionHeightTests {
    // Issue 22 item 4: an 8 KB body summing 2,000 terms segfaulted every command.
    @Test("a left-associative chain of 2,000 terms is an error on its line, not a stack overflow")
    func longChain() throws {
        let message = try #require(translationError(assigning(Array(repeating: "t", count: 2_000).joined(separator: " + "))))
        #expect(message.hasPrefix("user.metal:4: expressions or blocks nested more than 200 levels deep"), "\(message)")
        #expect(message.contains("split the expression into several statements"), "\(message)")
    }

    @Test(
        "chains of members, indices and calls built in loops are bounded too",
        arguments: ["swizzles", "indices", "methods"])
    func postfixChains(kind: String) throws {
        let n = 3_000
        let source =
            switch kind {
            case "swizzles":
                prologue + "[[ stitchable ]] half4 f(float2 p, half4 c) {\n    half4 v = c;\n    return v"
                    + String(repeating: ".xyzw", count: n) + ";\n}\n"
            case "indices":
                prologue + "[[ stitchable ]] half4 f(float2 p, half4 c) {\n    float a[2] = {1, 2};\n    return c * half(a"
                    + String(repeating: "[0]", count: n) + ");\n}\n"
            default:
                prologue + "[[ stitchable ]] half4 f(float2 p, SwiftUI::Layer l) {\n    return l"
                    + String(repeating: ".sample(p)", count: n) + ";\n}\n"
            }
        let message = try #require(translationError(source))
        #expect(
            message.hasPrefix("user.metal:\(kind == "methods" ? 4 : 5): expressions or blocks nested more than 200 levels deep"),
            "\(message)")
    }

    // Found while checking every recursive path: the type parser recursed once per `metal::`.
    @Test("a type qualified with metal:: thousands of times is an error, not a stack overflow")
    func repeatedQualifiers() throws {
        let qualifiers = String(repeating: "metal::", count: 16_000)
        let local = try #require(
            translationError(
                prologue + "[[ stitchable ]] half4 f(float2 p, half4 c) {\n    " + qualifiers + "float x = 1;\n    return c;\n}\n"))
        #expect(local.hasPrefix("user.metal:4: "), "\(local.prefix(200))")
        // As a global's type the qualifiers are skipped (one is Metal's own spelling); the file is
        // then too long.
        let global = try #require(translationError(prologue + "constant " + qualifiers + "float x = 1;\n"))
        #expect(
            global.hasSuffix(
                "tokens after its macros are expanded; keep in it only the functions a transition uses, or shorten them (a macro counts at each use)"
            ), "\(global.prefix(200))")
        #expect(
            translationError(
                prologue
                    + "constant metal::float k = 1;\n[[ stitchable ]] half4 f(float2 p, half4 c) { metal::float2 q = p; return c * half(k + q.x); }\n"
            ) == nil)
    }

    // Every shape at the limit translates (and, run in a debug build, shows the checker's stack use
    // at the deepest nesting accepted fits); one level more is an error.
    @Test(
        "each kind of nesting translates at the limit and fails one level past it",
        arguments: ["chain", "unary", "parentheses", "calls", "helper calls", "conditionals", "mixed"])
    func atTheLimit(kind: String) throws {
        // The statement is 1 level deep; `x = …` puts the expression one level below the declaration.
        func expression(_ n: Int) -> String {
            switch kind {
            case "chain": Array(repeating: "t", count: n + 1).joined(separator: " + ")
            case "unary": String(repeating: "- ", count: n) + "t"
            case "parentheses": String(repeating: "(", count: n) + "t" + String(repeating: ")", count: n)
            case "calls": String(repeating: "max(t, ", count: n) + "t" + String(repeating: ")", count: n)
            case "helper calls": String(repeating: "g(", count: n) + "t" + String(repeating: ")", count: n)
            case "conditionals": String(repeating: "t > 0.5 ? t : ", count: n) + "t"
            default: String(repeating: "mix(t, ", count: n / 2) + "t" + String(repeating: ", 0.5h) * t", count: n / 2)
            }
        }
        let helpers = "float g(float a) { return a * 0.5; }\n"
        // `expression(n)` is n + 1 high (the mixed one about as high); the statement and the
        // parser's own levels take up to 3 more.
        #expect(translationError(assigning(expression(190), helpers: helpers)) == nil)
        let message = try #require(translationError(assigning(expression(202), helpers: helpers)))
        #expect(message.contains("nested more than 200 levels deep"), "\(message.prefix(300))")
    }

    @Test("statements and the expressions in them count together")
    func statementsAndExpressions() throws {
        func source(blocks: Int, terms: Int) -> String {
            prologue + "[[ stitchable ]] half4 f(float2 p, half4 c, float t) {\n    float x = 0;\n" + String(repeating: "{", count: blocks)
                + " x = " + Array(repeating: "t", count: terms).joined(separator: " + ") + ";" + String(repeating: "}", count: blocks)
                + "\n    return c * half(x);\n}\n"
        }
        #expect(translationError(source(blocks: 150, terms: 40)) == nil)
        let message = try #require(translationError(source(blocks: 150, terms: 60)))
        #expect(message.contains("user.metal:5: expressions or blocks nested more than 200 levels deep"), "\(message)")
    }

    @Test("the Metal files of the test fixtures and the built-ins still translate")
    func realShaders() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let dirs = ["SegueRenderTests/Fixtures", "segueTests/Fixtures/gallery"].map { root.appendingPathComponent($0).path }
        var count = 0
        for dir in dirs {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir) where name.hasSuffix(".metal") {
                let path = dir + "/" + name
                let text = try String(contentsOfFile: path, encoding: .utf8)
                if text.contains("[[ stitchable ]]"), !name.contains("broken") {
                    #expect(throws: Never.self, "\(name)") { _ = try StitchableTranslator.translate(text, file: name) }
                    count += 1
                }
            }
        }
        #expect(count >= 5)
        for entry in StitchableBuiltIns.all {
            #expect(throws: Never.self) { _ = try StitchableTranslator.translate(entry.source, file: entry.file) }
        }
    }
}

@Suite("Metal preprocessor: bounded expansion")
struct MetalMacroLimitTests {
    // Issue 22 item 8: 658 bytes reached 1.45 GB in 20 s.
    @Test("thirty #defines each doubling the one before are an error naming the macro and its line, at once")
    func doubling() throws {
        let defines = "#define M0 t\n" + (1...30).map { "#define M\($0) (M\($0 - 1) + M\($0 - 1))\n" }.joined()
        let source = prologue + defines + "[[ stitchable ]] half4 f(float2 p, half4 c, float t) {\n    return c * half(M30);\n}\n"
        let start = Date()
        let message = try #require(translationError(source))
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(
            message == "user.metal:35: macro 'M30' expands to more than \(MetalPreprocessor.maximumExpansion) tokens "
                + "(macros that use another macro several times grow exponentially)")
    }

    @Test("a function-like macro doubling its argument, nested, is bounded the same way")
    func doublingArguments() throws {
        let source =
            prologue + "#define D(x) (x + x)\n[[ stitchable ]] half4 f(float2 p, half4 c, float t) {\n    return c * half("
            + String(repeating: "D(", count: 40) + "t" + String(repeating: ")", count: 40) + ");\n}\n"
        let message = try #require(translationError(source))
        #expect(message.hasPrefix("user.metal:5: macro 'D' expands to more than"), "\(message)")
    }

    @Test("macro uses nested past the depth limit are an error, not a stack overflow")
    func deepNesting() throws {
        let chain = "#define A0 t\n" + (1...100).map { "#define A\($0) A\($0 - 1)\n" }.joined()
        let message = try #require(
            translationError(prologue + chain + "[[ stitchable ]] half4 f(float2 p, half4 c, float t) {\n    return c * half(A100);\n}\n"))
        #expect(
            message.hasPrefix(
                "user.metal:105: macro 'A100' nests macro uses more than \(MetalPreprocessor.maximumExpansionDepth) levels deep"),
            "\(message)")
        let arguments =
            prologue + "#define I(x) x\n[[ stitchable ]] half4 f(float2 p, half4 c, float t) {\n    return c * half("
            + String(repeating: "I(", count: 5_000) + "t" + String(repeating: ")", count: 5_000) + ");\n}\n"
        let nested = try #require(translationError(arguments))
        #expect(nested.contains("nests macro uses more than"), "\(nested.prefix(200))")
    }

    @Test("macros within the limits expand as before")
    func ordinary() throws {
        let chain = "#define A0 t\n" + (1...40).map { "#define A\($0) A\($0 - 1)\n" }.joined() + "#define D(x) ((x) + (x))\n"
        let module = try StitchableTranslator.translate(
            prologue + chain
                + "[[ stitchable ]] half4 f(float2 p, half4 c, float t) {\n    return c * half(D(D(A40)));\n}\n", file: "m.metal")
        #expect(module.metal.glsl.contains("((((t) + (t))) + (((t) + (t))))"), "\(module.metal.glsl)")
    }
}

@Suite("Metal front end: sizes of files and types")
struct MetalShapeLimitTests {
    @Test("every function shares one array of sibling names (memory linear in the number of functions)")
    func sharedSiblings() throws {
        let source = prologue + (0..<400).map { "[[ stitchable ]] half4 f\($0)(float2 p, half4 c) { return c; }\n" }.joined()
        let module = try StitchableTranslator.translate(source, file: "many.metal")
        #expect(module.functions.count == 400)
        let first = module.functions[0].siblings.withUnsafeBufferPointer { $0.baseAddress }
        #expect(module.functions.allSatisfy { f in f.siblings.withUnsafeBufferPointer { $0.baseAddress } == first })
    }

    @Test("more than the limit of functions, parameters or tokens is an error on the line past it")
    func counts() throws {
        let functions = prologue + (0...MetalParser.maximumFunctions).map { "float f\($0)() { return 0; }\n" }.joined()
        #expect(
            translationError(functions)
                == "user.metal:\(MetalParser.maximumFunctions + 3): more than \(MetalParser.maximumFunctions) functions in one file; split it into several files"
        )
        let parameters =
            prologue + "float f(" + (0...MetalParser.maximumParameters).map { "float a\($0)" }.joined(separator: ", ") + ") { return 0; }\n"
        #expect(translationError(parameters) == "user.metal:3: 'f' has more than \(MetalParser.maximumParameters) parameters")
        let long =
            prologue + "[[ stitchable ]] half4 f(float2 p, half4 c) {\n" + String(repeating: "    c = c * 0.5h + 0.25h;\n", count: 4_500)
            + "    return c;\n}\n"
        let message = try #require(translationError(long))
        #expect(
            message.hasSuffix(
                "the file has more than \(StitchableTranslator.maximumTokens) tokens after its macros are expanded; keep in it only the functions a transition uses, or shorten them (a macro counts at each use)"
            ), "\(message)")
    }

    // Issue 22 item 9: 9 GB and 37 s.
    @Test("a constant of 4096×4096 values is refused before any of it is built")
    func hugeConstant() throws {
        let start = Date()
        let message = translationError(
            prologue
                + "constant float k[4096][4096] = {};\n[[ stitchable ]] half4 f(float2 p, half4 c) { return c * half(k[int(p.x)][0]); }\n")
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(
            message == "user.metal:3: 'k' is too large: its type 'float[4096][4096]' holds 16777216 values, more than the limit of 65536")
        let dims = try #require(translationError(prologue + "constant float k" + String(repeating: "[1]", count: 9) + " = {};\n"))
        #expect(dims == "user.metal:3: array 'k' has 9 dimensions; the limit is 8")
    }

    // Issue 22 item 10: glslang's work on such a struct grows exponentially.
    @Test("structs doubling at each level are refused by nesting and by size")
    func nestedStructs() throws {
        let doubling = "struct S0 { float a; float b; };\n" + (1...20).map { "struct S\($0) { S\($0 - 1) a; S\($0 - 1) b; };\n" }.joined()
        #expect(translationError(prologue + doubling) == "user.metal:19: struct 'S16' nests structs 17 levels deep; the limit is 16")
        let wide = "struct S0 { float a[16]; };\n" + (1...8).map { "struct S\($0) { S\($0 - 1) a, b, c, d; };\n" }.joined()
        #expect(translationError(prologue + wide) == "user.metal:10: struct 'S7' is too large: it holds more than 65536 values")
        let chain = "struct S0 { float a; };\n" + (1...20).map { "struct S\($0) { S\($0 - 1) a; };\n" }.joined()
        let deep = try #require(translationError(prologue + chain))
        #expect(deep == "user.metal:19: struct 'S16' nests structs 17 levels deep; the limit is 16", "\(deep)")
        let fine =
            prologue + "struct A { float x[4]; };\nstruct B { A a[3]; float2 p; };\n"
            + "[[ stitchable ]] half4 f(float2 p, half4 c) { B b = B{}; b.a[1].x[2] = p.x; return c * half(b.a[1].x[2]); }\n"
        #expect(translationError(fine) == nil)
    }

    // Issue 22 item 10: a filled `constant float k[4096]` read with a run-time index took over 100 s
    // to render on a 32×32 image (lavapipe's compile time).
    @Test("initialised arrays are limited in elements, each and in all")
    func constantTables() throws {
        func table(_ name: String, _ n: Int) -> String {
            "constant float \(name)[\(n)] = {" + (0..<n).map { "\(Double($0 % 7) / 7)" }.joined(separator: ", ") + "};\n"
        }
        let use = "[[ stitchable ]] half4 f(float2 p, half4 c) { return c * half(k[int(p.x) % 256]); }\n"
        #expect(translationError(prologue + table("k", 256) + use) == nil)
        let big = try #require(translationError(prologue + table("k", 4096) + use))
        #expect(big.hasPrefix("user.metal:3: an initialiser of 'float[4096]' gives 4096 array elements values; the limit is 256"), "\(big)")
        let zeros = try #require(translationError(prologue + "constant float k[4096] = {};\n" + use))
        #expect(zeros.hasPrefix("user.metal:3: an initialiser of 'float[4096]' gives 4096"), "\(zeros)")
        let many = prologue + (0..<5).map { table("k\($0)", 256) }.joined() + "constant float k[1] = {0};\n" + use
        let total = try #require(translationError(many))
        #expect(total.hasPrefix("user.metal:7: the arrays initialised in this file have more than 1024 elements in all"), "\(total)")
        let member =
            prologue + "struct T { float v[300]; };\n[[ stitchable ]] half4 f(float2 p, half4 c) { T t = T{}; return c * half(t.v[1]); }\n"
        #expect(translationError(member)?.contains("an initialiser of 'T' gives 300 array elements values") == true)
    }

    @Test("texture and layer reads: 128 translate; 129, or a helper's reads at each of its calls, are an error on the function's line")
    func textureReads() throws {
        func layer(_ n: Int) -> String {
            prologue + "[[ stitchable ]] half4 f(float2 p, SwiftUI::Layer layer) {\n    half4 s = 0;\n"
                + String(repeating: "    s += layer.sample(p + float2(s.xy));\n", count: n) + "    return s;\n}\n"
        }
        #expect(translationError(layer(128)) == nil)
        #expect(
            translationError(layer(129))
                == "user.metal:3: 'f' reads textures and layers 129 times (a helper's reads count at each call); the limit is 128: "
                + "read in a loop (it counts once), or the driver may compile for minutes")
        // A helper of 30 reads called 9 times is 270, through a second helper too; one loop is one read.
        let helper =
            prologue + "half4 g(texture2d<half> t, float2 p) {\n    constexpr sampler s;\n    half4 c = 0;\n"
            + String(repeating: "    c += t.sample(s, p);\n", count: 30) + "    return c;\n}\n"
            + "half4 h(texture2d<half> t, float2 p) { return g(t, p) + g(t, p) + g(t, p); }\n"
            + "[[ stitchable ]] half4 f(float2 p, half4 c, texture2d<half> t) {\n    return h(t, p) + h(t, p) + h(t, p);\n}\n"
        #expect(
            translationError(helper)?.hasPrefix("user.metal:39: 'f' reads textures and layers 270 times") == true,
            "\(translationError(helper) ?? "")")
        // Helpers that each call the one before twice: f0 copied 2^12 times is refused on the first too large.
        let doubling =
            prologue + "float f0(float u) { return sin(u); }\n"
            + (1...13).map { "float f\($0)(float u) { return f\($0 - 1)(u) + f\($0 - 1)(u * 1.01); }\n" }.joined()
            + "[[ stitchable ]] half4 f(float2 p, half4 c) {\n    return c * half(f13(p.x));\n}\n"
        #expect(translationError(doubling)?.hasPrefix("user.metal:15: 'f12' grows to ") == true, "\(translationError(doubling) ?? "")")
        let loop =
            prologue + "[[ stitchable ]] half4 f(float2 p, SwiftUI::Layer layer) {\n    half4 s = 0;\n"
            + "    for (int i = 0; i < 1000; i++) { s += layer.sample(p + float(i)); }\n    return s;\n}\n"
        #expect(translationError(loop) == nil)
    }

    @Test("a message listing a file's functions stays short however many it has")
    func boundedLists() throws {
        let scratch = try TemporaryDirectory("lists"), dir = URL(fileURLWithPath: scratch.path)
        let path = dir.appendingPathComponent("many.metal").path
        try (prologue + (0..<300).map { "[[ stitchable ]] half4 f\($0)(float2 p, half4 c) { return c; }\n" }.joined())
            .write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try EffectCatalog.effect(path)
            Issue.record("a file of 300 functions loaded without a function name")
        } catch {
            let message = error.description
            #expect(
                message == "\(path): several stitchable functions (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, … (288 more)); "
                    + "name one as \(path):NAME")
        }
        do {
            _ = try EffectCatalog.effect(path + ":g")
        } catch {
            #expect(
                error.description.hasSuffix(
                    "no [[ stitchable ]] function 'g' (it has: f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, … (288 more))"))
        }
    }
}
