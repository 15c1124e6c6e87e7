// The Metal-subset translator: kind detection, the GLSL it writes (on the user's lines), and the
// line-numbered errors for constructs outside the subset.
import Foundation
import SegueCore
import SegueTestSupport
import Testing

@testable import SegueMetal
@testable import SegueShaders

/// Lines of `text` (1-based subscripts through `line(_:)`).
private func line(_ n: Int, of text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return n - 1 < lines.count ? String(lines[n - 1]) : ""
}

/// The error translating `source` raises, or else the first refused stitchable function's, as
/// text (nil when it translates and every stitchable function can be used).
private func translationError(_ source: String) -> String? {
    do {
        // A function SwiftUI could not call refuses only itself: its error is what asking for it gives.
        return try StitchableTranslator.translate(source, file: "user.metal").refused.first?.error.description
    } catch {
        return error.description
    }
}

private let header = """
    #include <metal_stdlib>
    #include <SwiftUI/SwiftUI_Metal.h>
    using namespace metal;

    """

@Suite("Stitchable translator")
struct StitchableTranslatorTests {
    @Test("the three kinds are recognised from their signatures, with argument types")
    func kinds() throws {
        let module = try StitchableTranslator.translate(
            header + """
                [[ stitchable ]] float2 wave(float2 position, float2 size, half amplitude, float t) { return position; }
                [[stitchable]] half4 tint(float2 position, half4 color, half4 tintColor, float3 weights) { return color; }
                [[ stitchable ]] half4 blur(float2 position, SwiftUI::Layer layer, float4 bounds, float radius) { return layer.sample(position); }
                float helper(float x) { return x; }
                """, file: "k.metal")
        #expect(module.functions.map(\.name) == ["wave", "tint", "blur"])
        #expect(module.functions.map(\.kind) == [.distortion, .color, .layer])
        #expect(module.functions.map(\.line) == [4, 5, 6])
        #expect(module.functions[0].arguments.map(\.type) == [.vec2, .float, .float])
        #expect(module.functions[1].arguments.map(\.type) == [.vec4, .vec3])
        #expect(module.functions[2].arguments.map(\.name) == ["bounds", "radius"])
        #expect(module.functions[2].defaultAutomatic == ["bounds"])
        #expect(module.functions[0].defaultAutomatic == ["size"])
    }

    @Test("`using namespace SwiftUI;` allows plain `Layer`")
    func layerWithoutPrefix() throws {
        let module = try StitchableTranslator.translate(
            "using namespace metal;\nusing namespace SwiftUI;\n"
                + "[[ stitchable ]] half4 f(float2 position, Layer layer, float v) { return layer.sample(position); }", file: "l.metal")
        #expect(module.functions.first?.kind == .layer)
    }

    @Test("types, literals, constants, namespaces and library functions become GLSL, on the same lines")
    func translation() throws {
        let module = try StitchableTranslator.translate(
            header + """
                [[ stitchable ]] half4 f(float2 position, SwiftUI::Layer layer, float amount) {
                    half4 c = layer.sample(position + float2(0.5h, 2.0f));
                    float a = metal::precise::sin(M_PI_F * amount) + fast::rsqrt(4.0) + fmod(position.x, 3.0);
                    half3 g = saturate(c.rgb * 2h) + atan2(1.0, 2.0) + fabs(-1.0);
                    float2x2 m = float2x2(1.0);
                    half sample = select(0.0h, 1.0h, a > 0.5);
                    return half4(g, sample) + c.bgra * 1e-3f;
                }
                """, file: "t.metal")
        let g = module.metal.glsl
        #expect(line(4, of: g) == "vec4 _m_f(vec2 position, int layer, float amount) {")
        #expect(line(5, of: g) == "    vec4 c = _segue_sampleLayer(layer, position + vec2(0.5, 2.0));")
        #expect(line(6, of: g) == "    float a = sin(3.14159265358979323846 * amount) + inversesqrt(4.0) + _msl_fmod(position.x, 3.0);")
        #expect(line(7, of: g) == "    vec3 g = _msl_saturate(c.rgb * 2.0) + atan(1.0, 2.0) + abs(-1.0);")
        #expect(line(8, of: g) == "    mat2 m = mat2(1.0);")
        #expect(line(9, of: g) == "    float _v_sample = mix(0.0, 1.0, a > 0.5);")
        #expect(line(10, of: g) == "    return vec4(g, _v_sample) + c.bgra * 1e-3;")
        #expect(line(1, of: g).isEmpty && line(3, of: g).isEmpty)
    }

    @Test("helper functions are renamed consistently, so a name like transpose cannot clash with GLSL's")
    func helperRenaming() throws {
        let module = try StitchableTranslator.translate(
            """
            float2 transpose(float2 p) { return p.yx; }
            constant float k = 2.0;
            [[ stitchable ]] float2 f(float2 position, float v) { return transpose(position) * k; }
            """, file: "h.metal")
        #expect(line(1, of: module.metal.glsl) == "vec2 _m_transpose(vec2 p) { return p.yx; }")
        #expect(line(2, of: module.metal.glsl) == "const float k = 2.0;")
        #expect(line(3, of: module.metal.glsl).contains("return _m_transpose(position) * k;"))
    }

    @Test(
        "unsupported constructs are rejected with the construct and its line",
        arguments: [
            (
                "#include <metal_stdlib>\n#include \"mine.h\"\n",
                "user.metal:2: unsupported #include: '\"mine.h\"' (only <metal_stdlib> and <SwiftUI/SwiftUI_Metal.h> are available)"
            ),
            ("#if DEBUG\n", "user.metal:1: #if without #endif"),
            ("#line 7\n", "user.metal:1: unsupported preprocessor directive: '#line 7'"),
            (
                "using namespace metal;\n\nstruct S { float x; float get() { return x; } };\n",
                "user.metal:3: unsupported member function in a struct: 'get'"
            ),
            ("template <typename T> T id(T x) { return x; }\n", "user.metal:1: unsupported template: 'template'"),
            (
                "\n[[ stitchable ]] float2 f(float2 position, device float *values, float v) { return position; }\n",
                "user.metal:2: the array argument 'values' must be followed by its count, as SwiftUI passes it: 'device const float *values, int count'"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    float *p = &v;\n    return position;\n}\n",
                "user.metal:2: unsupported pointer: '*'"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n\n    return position + noise(position);\n}\n",
                "user.metal:3: unsupported function: 'noise'"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    return position * (float)v;\n}\n",
                "user.metal:2: unsupported C-style cast (write float(x)): 'float'"
            ),
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color, texture3d<half> volume, float v) { return color; }\n",
                "user.metal:1: unsupported texture type: 'texture3d'"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    float2 q = position;\n    return q + float2(vec<float, 2>(1));\n}\n",
                "user.metal:3: unsupported template type: 'vec'"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) { return static_cast<float2>(position); }\n",
                "user.metal:1: unsupported cast: 'static_cast'"
            ),
            ("float g = 1.0;\n", "user.metal:1: unsupported global variable: 'g' (declare it 'constant' or move it into the function)"),
            ("\n\n[[ kernel ]] void k() {}\n", "user.metal:3: unsupported attribute: 'kernel'"),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    int n = sizeof(v);\n    return position;\n}\n",
                "user.metal:2: unsupported sizeof (only of a scalar or vector type: sizeof(float2)): 'sizeof'"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n  return position;\n}\nusing namespace std;\n",
                "user.metal:4: unsupported using declaration (only 'using namespace metal;'): 'using'"
            ),
            (
                "[[ stitchable ]] half4 f(float2 position, SwiftUI::Layer layer, float v) {\n  return layer.bounds;\n}\n",
                "user.metal:2: unsupported layer member (only layer.sample(position)): 'bounds'"
            ),
        ])
    func rejected(source: String, message: String) {
        #expect(translationError(source) == message)
    }

    @Test("names that are Metal template types or GLSL words are ordinary variables")
    func ordinaryNames() throws {
        let module = try StitchableTranslator.translate(
            "[[ stitchable ]] float2 f(float2 position, float v) {\n    float2 vec = position; float input = v;\n    return vec * input;\n}",
            file: "n.metal")
        #expect(line(2, of: module.metal.glsl) == "    vec2 vec = position; float _v_input = v;")
        #expect(line(3, of: module.metal.glsl) == "    return vec * _v_input;")
    }

    @Test("signatures that are none of the four kinds are explained")
    func badSignatures() {
        // (`half4 f(float2 position, float amount)` is a fill now: SwiftUI's Shader as a ShapeStyle.)
        let f = translationError("\n[[ stitchable ]] float3 f(float2 position, float amount) { return float3(0); }")
        #expect(f?.hasPrefix("user.metal:2: 'f': a stitchable function must be 'float2 f(float2 position, …)' (distortion)") == true)
        let g = translationError("[[ stitchable ]] float2 g(float2 position,\n  int count) { return position; }")
        #expect(
            g
                == "user.metal:2: unsupported stitchable argument type: 'int' of 'count' (arguments are float, half, float2–4, half2–4 or texture2d<half>)"
        )
        #expect(
            translationError("[[ stitchable ]] float2 f(float2 position, float v) {\n  return position;\n")
                == "user.metal:2: expected '}' before the end of the file")
    }
}

@Suite("Stitchable configuration and loading")
struct StitchableConfigurationTests {
    static let module = try! StitchableTranslator.translate(
        """
        [[ stitchable ]] float2 wave(float2 position, float2 size, float amplitude, float phase) { return position; }
        [[ stitchable ]] half4 grey(float2 position, half4 color) { return color; }
        [[ stitchable ]] half4 tint(float2 position, half4 color, float progress, float3 sample) { return color; }
        [[ stitchable ]] half4 fade(float2 position, half4 color, float amount) { return color * amount; }
        """, file: "c.metal")

    @Test("the last float is animated; size is automatic; the rest are parameters defaulting to zero")
    func defaults() throws {
        let wave = Self.module.functions[0]
        let effect = try wave.effect(source: .file("c.metal"))
        #expect(effect.kind == .stitchable)
        #expect(effect.parameters.map(\.name) == ["amplitude"])
        #expect(effect.parameters.first?.effectiveDefault == .float(0))
        #expect(effect.glsl!.contains("_m_wave(_segue_destination, _segue_layerSize, _segue_arg_amplitude, _segue_value)"))
        #expect(effect.glsl!.contains("mix(1.0, 0.0, progress)") && effect.glsl!.contains("mix(0.0, -1.0, progress)"))
        let other = try wave.effect(
            StitchableConfiguration(animated: "amplitude", insertion: (2, 0.5), automatic: []), source: .file("c.metal"))
        #expect(other.parameters.map(\.name) == ["size", "phase"])
        #expect(other.glsl!.contains("_m_wave(_segue_destination, _segue_arg_size, _segue_value, _segue_arg_phase)"))
        #expect(other.glsl!.contains("mix(2.0, 0.5, progress)"))
    }

    @Test("configuration errors name the argument and the alternatives")
    func errors() {
        let wave = Self.module.functions[0], grey = Self.module.functions[1], tint = Self.module.functions[2]
        func message(_ f: StitchableFunction, _ c: StitchableConfiguration) -> String? {
            do { _ = try f.effect(c, source: .builtIn); return nil } catch { return error.message }
        }
        #expect(
            message(wave, StitchableConfiguration(animated: "size"))
                == "'size' is a float2; the animated argument must be a float (float arguments: amplitude, phase)")
        #expect(
            message(wave, StitchableConfiguration(animated: "speed"))
                == "'wave' has no argument 'speed' to animate; its float arguments are: amplitude, phase")
        // An unknown argument: one wording for every reader (--arg, auto, an image effect), with
        // the types, "none" for a function without any, and a removal function's too.
        #expect(grey.unknownArgument("x").message == "'grey' has no argument 'x'; its arguments are: none")
        #expect(
            wave.unknownArgument("x", others: [tint]).message
                == "'wave' has no argument 'x'; its arguments are: size (float2), amplitude (float), phase (float), progress (float), sample (float3)"
        )
        #expect(
            message(wave, StitchableConfiguration(automatic: ["speed"]))
                == "'wave' has no argument 'speed'; its arguments are: size (float2), amplitude (float), phase (float)")
        #expect(
            message(grey, StitchableConfiguration())
                == "'grey' has no float argument for a transition to animate; add one (e.g. 'float amount')")
        #expect(
            message(wave, StitchableConfiguration(automatic: ["phase"])) == "'phase' is the animated argument; it cannot also be 'auto'")
        #expect(
            message(tint, StitchableConfiguration(animated: "progress", automatic: ["sample"]))?.hasPrefix(
                "'sample' is a float3; only float") == true)
        let timed = try? wave.effect(StitchableConfiguration(automatic: ["amplitude"]), source: .builtIn)
        #expect(timed?.glsl?.contains("_m_wave(_segue_destination, _segue_arg_size, _segue_time, _segue_value)") == true)
        #expect(message(wave, StitchableConfiguration(insertion: (.nan, 0)))?.contains("finite") == true)
        // Arguments are uniforms with a `_segue_arg_` prefix, so GLSL words such as `sample` can be parameters.
        let tinted = try? tint.effect(StitchableConfiguration(animated: "progress"), source: .builtIn)
        #expect(tinted?.parameters.map(\.name) == ["sample"])
        #expect(
            tinted?.glsl?.contains(
                "_m_tint(_segue_destination, _segue_sampleLayer(1, _segue_destination), _segue_value, _segue_arg_sample)") == true)
        #expect(
            message(Self.module.functions[3], StitchableConfiguration(maxSampleOffset: .init(1, 1)))?
                .hasPrefix("'fade' is a colour effect, which samples only its own pixel") == true)
    }

    @Test("file.metal:name is a stitchable path; loading picks, lists or rejects functions")
    func loading() throws {
        #expect(EffectCatalog.stitchablePath("a/b.metal:wave")! == ("a/b.metal", "wave"))
        #expect(EffectCatalog.stitchablePath("b.metal")! == ("b.metal", nil))
        #expect(EffectCatalog.stitchablePath("wipe") == nil)
        // A function's name is an ASCII identifier, as the Metal lexer reads it.
        #expect(EffectCatalog.stitchablePath("b.metal:wavé") == nil)
        #expect(EffectCatalog.stitchablePath("b.metal:2wave") == nil)
        let scratch = try TemporaryDirectory("metal"), dir = URL(fileURLWithPath: scratch.path)
        let path = dir.appendingPathComponent("two.metal").path
        try """
        [[ stitchable ]] float2 a(float2 position, float v) { return position; }
        [[ stitchable ]] float2 b(float2 position, float v) { return position; }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try EffectCatalog.effect(path + ":b").name == "b")
        #expect(try EffectCatalog.load(path: path, function: "a").source == .file(path))
        #expect(throws: EffectLookupError.stitchable(path: path, message: "several stitchable functions (a, b); name one as \(path):NAME"))
        {
            try EffectCatalog.effect(path)
        }
        #expect(throws: EffectLookupError.stitchable(path: path, message: "no [[ stitchable ]] function 'c' (it has: a, b)")) {
            try EffectCatalog.effect(path + ":c")
        }
        #expect(throws: EffectLookupError.unreadable(path: "/nonexistent.metal", reason: "no such file")) {
            try EffectCatalog.effect("/nonexistent.metal:a")
        }
        #expect(EffectCatalog.builtIn(named: "shift")?.kind == .stitchable)
        #expect(try EffectCatalog.stitchableFunction("shift").arguments.map(\.name) == ["size", "effectValue"])
    }

    @Test("a stitchable function SwiftUI could not call refuses only itself, when it is asked for; the file's others work")
    func refusedAlone() throws {
        let scratch = try TemporaryDirectory("metal"), dir = URL(fileURLWithPath: scratch.path)
        let path = dir.appendingPathComponent("lib.metal").path
        try """
        [[ stitchable ]] half4 tint(float2 position, half4 color, int steps);
        [[ stitchable ]] float2 wave(float2 position, float amount) { return position + amount; }
        [[ stitchable ]] half4 tint(float2 position, half4 color,
                                    int steps) { return color * half(steps); }
        [[ stitchable ]] half4 glow(float2 position, half4 color, float strength) { return color * half(strength); }
        [[ stitchable ]] half4 glow(float2 position, half4 color, uint n) { return color * half(n); }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let tintError = ShaderSourceError(
            file: path, line: 4,
            message:
                "unsupported stitchable argument type: 'int' of 'steps' (arguments are float, half, float2–4, half2–4 or texture2d<half>)")
        let glowError = ShaderSourceError(
            file: path, line: 6,
            message: "unsupported stitchable argument type: 'uint' of 'n' (arguments are float, half, float2–4, half2–4 or texture2d<half>)"
        )

        let module = try StitchableTranslator.translate(try String(contentsOfFile: path, encoding: .utf8), file: path)
        #expect(module.functions.map(\.name) == ["wave", "glow"])
        // The prototype and its definition are one function, refused once, at the definition.
        #expect(module.refused.map(\.name) == ["tint", "glow"])
        #expect(module.refused.map(\.line) == [3, 6])
        #expect(module.refused.map(\.error) == [tintError, glowError])
        #expect(module.refused.map(\.parameterTypes) == [["half4", "int"], ["half4", "uint"]])
        #expect(module.names == ["wave", "tint", "glow", "glow"])
        // The refused functions are still GLSL the others could call.
        #expect(module.metal.glsl.contains("vec4 _m_tint(vec2 position, vec4 color, int steps)"))

        #expect(try EffectCatalog.effect(path + ":wave").name == "wave")
        // 'glow' has an overload that cannot be used: it is named by its types, never passed over.
        #expect(throws: EffectLookupError.self) { try EffectCatalog.stitchableFunction(path, function: "glow") }
        #expect(try EffectCatalog.stitchableFunction(path + ":glow(half4, float)").arguments.map(\.name) == ["strength"])
        #expect(throws: EffectLookupError.invalidSource(tintError)) { try EffectCatalog.effect(path + ":tint") }
        #expect(throws: EffectLookupError.invalidSource(glowError)) { try EffectCatalog.stitchableFunction(path + ":glow(half4,uint)") }
        #expect(throws: EffectLookupError.invalidSource(glowError)) {
            try EffectCatalog.stitchableFunction(path + ":glow(float2,half4,uint)")
        }
        #expect(
            throws: EffectLookupError.stitchable(
                path: path, message: "several stitchable functions (wave, tint, glow, glow); name one as \(path):NAME")
        ) { try EffectCatalog.effect(path) }
        // A check covers every function: the first that cannot be used is its error.
        #expect(throws: EffectLookupError.invalidSource(tintError)) { try EffectCatalog.stitchableFunctions(path) }
        #expect(try EffectCatalog.stitchableFunctions(path + ":wave").map(\.name) == ["wave"])

        // A name whose overloads cannot all be used: never passed over for another without a
        // word (the use might have picked the refused one); named by types, the usable one works.
        let over = dir.appendingPathComponent("over.metal").path
        try """
        [[ stitchable ]] half4 fx(float2 position, float4 bounds, float time) { return half4(0, 1, 0, 1); }
        [[ stitchable ]] half4 fx(float2 position, half4 color, bool invert) { return color; }
        [[ stitchable ]] half4 fy(float2 position, half4 color, thread float &r) { return color; }
        [[ stitchable ]] half4 fy(float2 position, half4 color, uint n) { return color; }
        """.write(toFile: over, atomically: true, encoding: .utf8)
        let fxListing = "half4 fx(float2 position, float4 bounds, float time); fx(half4, bool) at line 2, which cannot be used"
        #expect(
            throws: EffectLookupError.stitchable(
                path: over,
                message:
                    "'fx' has an overload that cannot be used (fx(half4, bool) at line 2), which the name alone might mean: "
                    + "name the one to use by the types after position, as \(over):fx(float4,float)"
            )
        ) { try EffectCatalog.stitchableFunction(over + ":fx", use: .image) }
        #expect(try EffectCatalog.stitchableFunction(over + ":fx(float4,float)").kind == .fill)
        #expect(
            throws: EffectLookupError.stitchable(path: over, message: "no overload of 'fx' takes (half4, float); it has: \(fxListing)")
        ) { try EffectCatalog.stitchableFunction(over + ":fx(half4, float)") }
        #expect(try EffectCatalog.refusedOverloads(over + ":fx").map(\.line) == [2])
        #expect(try EffectCatalog.refusedOverloads(over + ":fx(float4,float)").isEmpty)
        // Every overload of 'fy' is refused: any request for it gives the first one's reason; a
        // reference is named with or without `thread`.
        let fyError = try #require(
            try StitchableTranslator.translate(String(contentsOfFile: over, encoding: .utf8), file: over).refused.first { $0.name == "fy" }?
                .error)
        #expect(fyError.line == 3)
        for spec in ["fy", "fy(half4,float)", "fy(half4, thread float &)"] {
            #expect(throws: EffectLookupError.invalidSource(fyError), "\(spec)") { try EffectCatalog.stitchableFunction(over + ":" + spec) }
        }
        #expect(throws: EffectLookupError.self) { try EffectCatalog.stitchableFunction(over + ":fy(half4,uint)") }

        // A file whose one function is refused: asking for the file gives its error.
        let single = dir.appendingPathComponent("single.metal").path
        try "[[ stitchable ]] float2 f(float2 position,\n  bool on) { return position; }\n".write(
            toFile: single, atomically: true, encoding: .utf8)
        let boolError = ShaderSourceError(
            file: single, line: 2,
            message:
                "unsupported stitchable argument type: 'bool' of 'on' (arguments are float, half, float2–4, half2–4 or texture2d<half>)")
        #expect(throws: EffectLookupError.invalidSource(boolError)) { try EffectCatalog.effect(single) }
        #expect(throws: EffectLookupError.invalidSource(boolError)) { try EffectCatalog.stitchableOverloads(single + ":f") }
    }
}

@Suite("Metal front end: nesting limit")
struct MetalNestingTests {
    private func body(_ expression: String) -> String {
        header + "[[ stitchable ]] half4 f(float2 p, half4 c) {\n    return c * half(\(expression));\n}\n"
    }

    @Test("deep but reasonable nesting translates")
    func reasonable() {
        let depth = 150
        #expect(translationError(body(String(repeating: "(", count: depth) + "1.0" + String(repeating: ")", count: depth))) == nil)
        #expect(translationError(body(String(repeating: "- ", count: depth) + "1.0")) == nil)
    }

    // Found by FuzzMetal: thousands of nested parentheses overflowed the stack of the recursive parser.
    @Test(
        "nesting past the limit is an error on its line, not a stack overflow",
        arguments: ["parentheses", "unary minus", "calls", "conditionals", "assignments"])
    func tooDeep(kind: String) throws {
        let n = 5_000
        let expression =
            switch kind {
            case "parentheses": String(repeating: "(", count: n) + "1.0" + String(repeating: ")", count: n)
            case "unary minus": String(repeating: "- ", count: n) + "1.0"
            case "calls": String(repeating: "max(1.0, ", count: n) + "1.0" + String(repeating: ")", count: n)
            case "conditionals": String(repeating: "true ? 1.0 : ", count: n) + "1.0"
            default: "(p.x" + String(repeating: " = p.x", count: n) + ")"
            }
        let message = try #require(translationError(body(expression)))
        #expect(message.contains("user.metal:5:"), "\(message.prefix(200))")
        #expect(message.contains("nested more than \(MetalParser.maximumNesting) levels deep"), "\(message.prefix(200))")
    }

    @Test("deeply nested blocks are an error too")
    func blocks() throws {
        let source =
            header + "[[ stitchable ]] half4 f(float2 p, half4 c) {\n" + String(repeating: "{", count: 5_000)
            + String(repeating: "}", count: 5_000) + "\n    return c;\n}\n"
        let message = try #require(translationError(source))
        #expect(message.contains("nested more than"), "\(message.prefix(200))")
    }

    @Test("an effect's parameters keep their Metal type names for messages: a half4 is 'half4', not GLSL's 'vec4'")
    func metalTypeNames() throws {
        let module = try StitchableTranslator.translate(
            header + """
                [[ stitchable ]] half4 tintIn(float2 position, half4 color, half4 tint, float2 offset, float amount) { return color; }
                [[ stitchable ]] half4 tintOut(float2 position, half4 color, float2 tint, float amount) { return color; }
                """, file: "user.metal")
        let effect = try module.functions[0].effect(source: .file("user.metal"))
        #expect(effect.parameters.map(\.typeName) == ["half4", "float2"])
        #expect(effect.parameters.map(\.type) == [.vec4, .vec2])
        #expect(throws: ParameterError.wrongComponentCount(name: "tint", type: "half4", expected: 4, got: 2)) {
            _ = try effect.resolveParameters([("tint", "1,2")])
        }
        #expect(throws: ParameterError.wrongType(name: "offset", type: "float2", text: "x")) {
            _ = try effect.resolveParameters([("offset", "x")])
        }
        // tint is a half4 in one and a float2 in the other, named as written.
        #expect {
            _ = try module.functions[0].effect(StitchableConfiguration(removalFunction: module.functions[1]), source: .file("user.metal"))
        } throws: { error in
            "\(error)" == "argument 'tint' is a half4 in 'tintIn' but a float2 in 'tintOut'; rename one"
        }
    }
}
