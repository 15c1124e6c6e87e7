// The Metal front end's type checker: Metal's implicit conversions written out in the GLSL (on
// the user's lines), default arguments, samples in nested blocks, #define, helper structs and
// arrays, texture arguments — and the exact, line-numbered errors for what stays unsupported or
// does not type-check, all found when the file is translated (at `segue info` time).
import Foundation
import SegueCore
import Testing

@testable import SegueMetal
@testable import SegueShaders

@Suite("Metal type checker")
struct MetalCheckerTests {
    @Test("Metal's implicit conversions become explicit GLSL on the same lines")
    func implicitConversions() throws {
        let module = try StitchableTranslator.translate(
            """
            [[ stitchable ]] half4 f(float2 position, half4 color, float2 size, float t) {
                half4 faded = mix(color, 0.0h, t);
                float d = distance(position / size, 0.5h);
                uint flags = 3;
                if (flags) { d += 1; }
                float3 grey = 1;
                bool on = 2;
                int whole = 2.7;
                bool2 low = position < 0.5;
                half h = d * 2 + t;
                return faded * (on ? 1 : 0) + half4(grey, h) * float(whole) + select(0, 1, low.x);
            }
            """, file: "c.metal")
        let g = module.metal.glsl
        #expect(line(2, of: g) == "    vec4 faded = mix(color, vec4(0.0), vec4(t));")
        #expect(line(3, of: g) == "    float d = distance(position / size, vec2(0.5));")
        #expect(line(4, of: g) == "    uint flags = 3u;")
        #expect(line(5, of: g) == "    if (bool(flags)) { d += 1.0; }")
        #expect(line(6, of: g) == "    vec3 grey = vec3(1.0);")
        #expect(line(7, of: g) == "    bool on = true;")
        #expect(line(8, of: g) == "    int whole = 2;")
        #expect(line(9, of: g) == "    bvec2 low = lessThan(position, vec2(0.5));")
        #expect(line(10, of: g) == "    float h = d * 2.0 + t;")
        #expect(line(11, of: g) == "    return faded * float((on ? 1 : 0)) + vec4(grey, h) * float(whole) + float(mix(0, 1, low.x));")
    }

    @Test("default arguments: of a stitchable argument (its parameter default) and of a helper (filled in at the call)")
    func defaultArguments() throws {
        let module = try StitchableTranslator.translate(
            """
            #define WIDTH 0.2
            float wave(float x, float frequency = 2 * M_PI_F, float2 offset = float2(1, WIDTH)) { return sin(x * frequency) + offset.y; }
            [[ stitchable ]] float2 f(float2 position, float amount, float windSize = WIDTH, float4 tint = float4(1, 0.5, 0, 1)) {
                return position + wave(position.x) * windSize;
            }
            """, file: "d.metal")
        let f = try #require(module.functions.first)
        #expect(f.arguments.map(\.defaultValue) == [nil, .float(0.2), ParameterValue(.vec4, [1, 0.5, 0, 1])])
        #expect(f.arguments.map(\.effectiveDefault) == [.float(0), .float(0.2), ParameterValue(.vec4, [1, 0.5, 0, 1])])
        #expect(
            line(4, of: module.metal.glsl)
                == "    return position + _m_wave(position.x, 2.0 * 3.14159265358979323846, vec2(1, 0.2)) * windSize;")
        let effect = try f.effect(source: .file("d.metal"))
        #expect(effect.parameters.map(\.name) == ["windSize", "tint"])
        #expect(effect.parameters.map(\.effectiveDefault) == [.float(0.2), ParameterValue(.vec4, [1, 0.5, 0, 1])])
    }

    @Test("layer.sample inside nested braced blocks keeps the rest of the function")
    func nestedSamples() throws {
        let module = try StitchableTranslator.translate(
            """
            [[ stitchable ]] half4 f(float2 position, SwiftUI::Layer layer, float amount) {
                half4 x = half4(0);
                if (amount > 0.5) { x = layer.sample(position); } else { for (int i = 0; i < 2; i++) { x += layer.sample(position + float2(i, 0)) * 0.5h; } }
                return x;
            }
            float after(float v) { return v; }
            """, file: "n.metal")
        #expect(
            line(3, of: module.metal.glsl)
                == "    if (amount > 0.5) { x = _segue_sampleLayer(layer, position); } else { for (int i = 0; i < 2; i++) { x += _segue_sampleLayer(layer, position + vec2(i, 0)) * 0.5; } }"
        )
        #expect(line(4, of: module.metal.glsl) == "    return x;")
        #expect(line(6, of: module.metal.glsl) == "float _m_after(float v) { return v; }")
    }

    @Test("#define constants and function-like macros expand on the line of their use")
    func defines() throws {
        let module = try StitchableTranslator.translate(
            """
            #define STRENGTH 0.25
            #define SQ(x) ((x) * (x))
            [[ stitchable ]] half4 f(float2 position, half4 color, float amount) {
                return color * SQ(amount + STRENGTH);
            }
            """, file: "m.metal")
        #expect(line(4, of: module.metal.glsl) == "    return color * ((amount + 0.25) * (amount + 0.25));")
    }

    @Test("helper structs, aggregate and brace initialisers, constant arrays, samplers and texture arguments")
    func structsArraysTextures() throws {
        let module = try StitchableTranslator.translate(
            """
            struct Ring { float radius; half4 tint; };
            constant float weights[] = {0.5, 0.3, 0.2};
            constexpr sampler s(filter::linear, address::mirrored_repeat, border_color::opaque_white);
            [[ stitchable ]] half4 f(float2 position, half4 color, texture2d<half> noise, float amount) {
                Ring a = {amount};
                Ring b = Ring{1, half4(1)};
                return noise.sample(s, position) * weights[2] + a.tint + b.tint + noise.sample(sampler(coord::pixel), position);
            }
            """, file: "s.metal")
        let g = module.metal.glsl
        #expect(line(1, of: g) == "struct Ring { float radius; vec4 tint; };")
        #expect(line(2, of: g) == "const float weights[3] = float[3](0.5, 0.3, 0.2);")
        #expect(line(3, of: g) == "const ivec4 s = ivec4(0, 2, 2, 5);")
        #expect(line(4, of: g) == "vec4 _m_f(vec2 position, vec4 color, sampler2D noise, float amount) {")
        #expect(line(5, of: g) == "    Ring a = Ring(amount, vec4(0.0));")
        #expect(line(6, of: g) == "    Ring b = Ring(1.0, vec4(1));")
        #expect(
            line(7, of: g)
                == "    return _segue_texSample(noise, s, position) * weights[2] + a.tint + b.tint + _segue_texSample(noise, ivec4(1, 0, 0, 0), position);"
        )
        #expect(module.metal.prelude.contains("vec4 _segue_texSample(sampler2D t, ivec4 s, vec2 coord)"))
        let f = try #require(module.functions.first)
        #expect(f.arguments.map(\.type) == [.sampler2D, .float])
        #expect(f.arguments.first?.metalType == "texture2d<half>")
    }

    @Test("names GLSL reserves or uses for library functions are renamed; min/max variables still call min/max")
    func shadowedNames() throws {
        let module = try StitchableTranslator.translate(
            """
            [[ stitchable ]] half4 f(float2 position, half4 color, float amount) {
                half min = min3(color.r, color.g, color.b), max = max3(color.r, color.g, color.b);
                float distance = metal::distance(position, float2(0));
                return half4(max - min) * distance;
            }
            """, file: "r.metal")
        #expect(
            line(2, of: module.metal.glsl)
                == "    float _v_min = min(min(color.r, color.g), color.b), _v_max = max(max(color.r, color.g), color.b);")
        #expect(line(3, of: module.metal.glsl) == "    float _v_distance = distance(position, vec2(0));")
    }

    @Test(
        "type errors and what stays unsupported: one line naming the construct, at the user's line",
        arguments: [
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    float2 q = int2(1, 2);\n    return q;\n}",
                "user.metal:2: cannot convert 'int2' to 'float2' to initialise 'q'"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    return position * (v % 2.0);\n}",
                "user.metal:2: '%' needs integer operands; use fmod() for floating-point numbers"
            ),
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color, float v) {\n\n    return half4(mix(float3(1), float2(1), 0.5), 1);\n}",
                "user.metal:3: no matching function for call to 'mix' with (float3, float2, float)"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    int2 i = int2(1) * 0.5;\n    return position;\n}",
                "user.metal:2: invalid operands to binary expression ('int2' * 'float')"
            ),
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color, float v) {\n    return float3(1);\n}",
                "user.metal:2: cannot convert 'float3' to 'half4' to return from 'f'"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    if (position) { v = 1; }\n    return position;\n}",
                "user.metal:2: an 'if' condition must be a scalar, got 'float2' (use all() or any())"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    return position + undefinedName;\n}",
                "user.metal:2: use of undeclared identifier 'undefinedName'"
            ),
            (
                "float g(float x) {\n    return x < 1 ? x : g(x - 1);\n}",
                "user.metal:2: unsupported recursion (Metal and GLSL have no recursive calls): 'g'"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    for (int i = 0, j = 0; i < 2; i++, j++) {}\n    return position;\n}",
                "user.metal:2: unsupported comma operator: ','"
            ),
            ("#define CAT(a, b) a ## b\n", "user.metal:1: unsupported macro operator '##' in 'CAT'"),
            ("#define F(x, y, x) x\n", "user.metal:1: duplicate parameter 'x' in macro 'F'"),
            (
                "[[ stitchable ]] half4 g(float2 position, half4 color, half amount = 70000) {\n    return color * amount;\n}",
                "user.metal:1: the default of 'amount' (70000) is beyond a half's ±65504, which a device would make an infinity"
            ),
            // A default given on the prototype is reported on the prototype's line.
            (
                "[[ stitchable ]] half4 g(float2 position, half4 color, half amount = 70000);\n\n[[ stitchable ]] half4 g(float2 position, half4 color, half amount) {\n    return color * amount;\n}",
                "user.metal:1: the default of 'amount' (70000) is beyond a half's ±65504, which a device would make an infinity"
            ),
            // The host passes a default: one the checker cannot work out was drawn as 0, and
            // 1.0 / 0.0 stopped the program (a ParameterValue must be finite).
            (
                "[[ stitchable ]] half4 g(float2 position, half4 color,\n  float amount = 1.0 / 0.0) {\n    return color * amount;\n}",
                "user.metal:2: the default of 'amount' (infinity) is not a finite 32-bit float (±3.4e+38)"
            ),
            (
                "[[ stitchable ]] half4 g(float2 position, half4 color, float2 shift = float2(1, -1e39)) {\n    return color;\n}",
                "user.metal:1: the default of 'shift' (-1e+39) is not a finite 32-bit float (±3.4e+38)"
            ),
            (
                "[[ stitchable ]] half4 g(float2 position, half4 color, float amount = INFINITY) {\n    return color * amount;\n}",
                "user.metal:1: the default of 'amount' is not a value Segue can work out before rendering: write a finite number"
            ),
            (
                "[[ stitchable ]] half4 g(float2 position, float amount,\n  SwiftUI::Layer layer) {\n    return layer.sample(position);\n}",
                "user.metal:2: the layer 'layer' must come right after position: half4 g(float2 position, SwiftUI::Layer layer, …)"
            ),
            (
                "[[ stitchable ]] half4 g(float2 position, half4 color, int n);\n[[ stitchable ]] half4 h(float2 position, half4 color) { return color; }",
                "user.metal:1: stitchable function 'g' is declared but never defined"
            ),
            (
                "float g(float x);\nhalf g(float x) { return x; }\n",
                "user.metal:2: 'g' is declared again with another return type (half; line 1 says float)"
            ),
            // A local variable hides the function of its name, as in C++; a parameter too.
            (
                "float g(float x) { return x; }\n[[ stitchable ]] float2 f(float2 position, float v) {\n    float g = v;\n    return position * g(v);\n}",
                "user.metal:4: called object type 'float' is not a function"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float mix) {\n    return position * mix(0.0, 1.0, 0.5);\n}",
                "user.metal:2: called object type 'float' is not a function"
            ),
            (
                "#define SQ(x) ((x) * (x))\n[[ stitchable ]] float2 f(float2 position, float v) {\n    return position * SQ(v, v);\n}",
                "user.metal:3: macro 'SQ' takes 1 argument, got 2"
            ),
            ("\nconstexpr sampler s(compare_func::less);\n", "user.metal:2: unsupported sampler compare function: 'less'"),
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color, texture2d<half> t, float v) {\n    return t.gather(sampler(), position);\n}",
                "user.metal:2: unsupported texture member (sample, read, get_width, get_height): 'gather'"
            ),
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color, texture2d<half> t, float v) {\n    texture2d<half> u = t;\n    return color;\n}",
                "user.metal:2: unsupported local texture variable (pass the texture argument itself): 'texture2d'"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    int i = addsat(1, 2);\n    return position;\n}",
                "user.metal:2: unsupported integer saturating arithmetic: 'addsat'"
            ),
            (
                "float k() { return 1; }\nfloat g(float a = k()) { return a; }\n",
                "user.metal:2: unsupported default argument of 'a': it must be a constant"
            ),
            ("struct S {\n    float x = 1;\n};\n", "user.metal:2: unsupported default member initializer: 'x'"),
            (
                "[[ stitchable ]] half4 f(float2 position, SwiftUI::Layer layer, float v) {\n    return layer.sample(position, 1);\n}",
                "user.metal:2: layer.sample takes one position (float2), got 2 arguments"
            ),
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color, float v) {\n    return color;\n}\n[[ stitchable ]] half4 f(float2 position, half4 color, float v) {\n    return color;\n}",
                "user.metal:4: redefinition of 'f'"
            ),
            (
                "float h(float x);\n[[ stitchable ]] float2 f(float2 position, float v) {\n    return position * h(v);\n}",
                "user.metal:3: function 'h' is declared but never defined"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    float i = 1;\n    i += float2(1);\n    return position;\n}",
                "user.metal:3: cannot convert 'float2' to 'float' in '+='"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    float a[2] = {1, 2, 3};\n    return position;\n}",
                "user.metal:2: too many initialisers for 'float[2]' (3 for 2)"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    return position.xz;\n}",
                "user.metal:2: swizzle '.xz' is out of range for a float2"
            ),
            (
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    if constexpr (true) {}\n    return position;\n}",
                "user.metal:2: unsupported if constexpr: 'constexpr'"
            ),
            // Lines and names as clang gives them: the attribute not supported, a missing ';' at
            // the end of its line, a macro argument on the line it is written on.
            (
                "[[ stitchable, visible ]] half4 f(float2 position, half4 color) { return color; }",
                "user.metal:1: unsupported attribute: 'visible'"
            ),
            (
                "half4 g(half4 c) { return c; }\n[[ stitchable",
                "user.metal:2: expected ']]' after '[[ stitchable', found the end of the file"
            ),
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color) {\n    float y = 2;\n    return color * y\n}",
                "user.metal:3: expected ';' after the returned value, found '}'"
            ),
            (
                "#define ADD(a, b) ((a) + (b))\n[[ stitchable ]] half4 f(float2 position, half4 color) {\n    float y = ADD(\n        1.0,\n"
                    + "        undefinedZ\n    );\n    return color * y;\n}",
                "user.metal:5: use of undeclared identifier 'undefinedZ'"
            ),
            // What glslang refused in the generated code before the checker did, and names that
            // Metal keeps for itself.
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color);",
                "user.metal:1: stitchable function 'f' is declared but never defined"
            ),
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color) {\n    float true = 1;\n    return color;\n}",
                "user.metal:2: 'true' is a keyword or type of Metal and cannot name a variable or function"
            ),
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color) {\n    float half = 1;\n    return color;\n}",
                "user.metal:2: 'half' is a keyword or type of Metal and cannot name a variable or function"
            ),
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color, texture2d<half> t, texture2d<half> u) {\n    t = u;\n    return color;\n}",
                "user.metal:2: cannot assign to a 'texture2d<half>': it is a handle, not a value; use the argument itself"
            ),
            (
                "[[ stitchable ]] half4 f(float2 position, half4 color, texture2d<half> t, texture2d<half> u) {\n    constexpr sampler s;\n"
                    + "    return (position.x > 1 ? t : u).sample(s, position);\n}",
                "user.metal:3: a '?:' cannot choose a 'texture2d<half>' (a handle, not a value); sample each and choose the colour"
            ),
        ] as [(String, String)])
    func errors(source: String, message: String) {
        #expect(translationError(source) == message)
    }

    @Test("a texture passed to a helper by reference is the same handle, as by value; a prototype before the definition is one function")
    func textureReferenceAndPrototype() {
        let reference = """
            half4 g(thread texture2d<half> &t, float2 p) {
                constexpr sampler s(filter::linear);
                return t.sample(s, p);
            }
            [[ stitchable ]] half4 f(float2 position, half4 color, texture2d<half> t) {
                return g(t, position);
            }
            """
        #expect(translationError(reference) == nil)
        let prototype =
            "[[ stitchable ]] half4 f(float2 position, half4 color);\n[[ stitchable ]] half4 f(float2 position, half4 color) {\n    return color.bgra;\n}"
        #expect(translationError(prototype) == nil)
        #expect((try? MetalTranslator.translate(prototype, file: "user.metal"))?.functions.count == 1)
        // A default written on the definition only is the function's.
        let defaults =
            "[[ stitchable ]] half4 f(float2 position, half4 color, float amount);\n"
            + "[[ stitchable ]] half4 f(float2 position, half4 color, float amount = 0.25) {\n    return color * amount;\n}"
        #expect(
            (try? MetalTranslator.translate(defaults, file: "user.metal"))?.functions.first?.arguments.first?.defaultValue == .float(0.25))
    }

    @Test(
        "every name of the math, common, geometric and relational function lists resolves",
        arguments: [
            "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atan2", "atan2pi", "atanh", "atanpi", "ceil", "copysign",
            "cos", "cosh", "cospi", "divide", "exp", "exp10", "exp2", "fabs", "abs", "fdim", "floor", "fma", "fmax", "fmax3", "fmedian3",
            "fmin", "fmin3", "fmod", "fract", "frexp", "ilogb", "ldexp", "log", "log10", "log2", "max", "max3", "median3", "min", "min3",
            "modf", "nextafter", "pow", "powr", "rint", "round", "rsqrt", "sin", "sincos", "sinh", "sinpi", "sqrt", "tan", "tanh",
            "tanpi", "trunc", "clamp", "mix", "saturate", "sign", "smoothstep", "step", "cross", "distance", "distance_squared", "dot",
            "faceforward", "length", "length_squared", "normalize", "reflect", "refract", "all", "any", "isfinite", "isinf", "isnan",
            "isnormal", "isordered", "isunordered", "not", "select", "signbit", "determinant", "transpose",
        ])
    func libraryNames(name: String) {
        #expect(MetalBuiltins.names.contains(name))
    }

    @Test("the prelude defines each helper once per type, vectors calling the scalar version where needed")
    func prelude() {
        var p = GLSLPrelude()
        p.require("nextafter", .vector(.float, 3))
        p.require("nextafter", .float)
        p.require("fmod", .vector(.half, 2))
        #expect(p.text.components(separatedBy: "float _msl_nextafter(float x, float y)").count == 2)
        #expect(
            p.text.contains(
                "vec3 _msl_nextafter(vec3 x, vec3 y) { return vec3(_msl_nextafter(x.x, y.x), _msl_nextafter(x.y, y.y), _msl_nextafter(x.z, y.z)); }"
            ))
        #expect(p.text.contains("vec2 _msl_fmod(vec2 x, vec2 y) { return x - y * trunc(x / y); }"))
        #expect(p.text.range(of: "float _msl_nextafter")!.lowerBound < p.text.range(of: "vec3 _msl_nextafter")!.lowerBound)
    }
}

@Suite("Stitchable transition suggestions")
struct StitchableSuggestionTests {
    static let module = try! StitchableTranslator.translate(
        """
        [[ stitchable ]] half4 warpLTR(float2 position, SwiftUI::Layer layer, float2 size, float amount) { return layer.sample(position); }
        [[ stitchable ]] half4 warpRTL(float2 position, SwiftUI::Layer layer, float2 size, float amount) { return layer.sample(position); }
        [[ stitchable ]] half4 streaks(float2 position, SwiftUI::Layer layer, float2 size, float amount, float windSize = 0.2) { return layer.sample(position); }
        [[ stitchable ]] float2 slide(float2 position, float2 size, float effectValue) { return position; }
        [[ stitchable ]] half4 glow(float2 position, half4 color, float2 size, float time) { return color; }
        [[ stitchable ]] half4 grey(float2 position, half4 color) { return color; }
        """, file: "s.metal")

    @Test("the animated argument, the ranges, and the mirrored function for LTR/RTL pairs")
    func suggestions() {
        let f = Self.module.functions
        #expect(f[0].suggestion == StitchableSuggestion(animated: "amount", insertion: "1:0", removal: "0:1", removalFunction: "warpRTL"))
        #expect(f[1].suggestion.removalFunction == "warpLTR")
        // A float with a default value is a setting, not the progress.
        #expect(f[2].suggestion == StitchableSuggestion(animated: "amount", insertion: "1:0", removal: "0:1", removalFunction: nil))
        // An effectValue runs from 1 through 0 to -1.
        #expect(f[3].suggestion == StitchableSuggestion(animated: "effectValue", insertion: "1:0", removal: "0:-1", removalFunction: nil))
        #expect(f[4].suggestion.animated == "time")
        #expect(f[5].suggestion.animated == nil)
        #expect(f[4].defaultImageAutomatic == ["size", "time"])
    }

    @Test("a removal function must be in the same file; arguments of the pair become one parameter list")
    func removalFunction() throws {
        let f = Self.module.functions
        let pair = try f[0].effect(
            StitchableConfiguration(insertion: (1, 0), removal: (0, 1), removalFunction: f[1]), source: .file("s.metal"))
        #expect(pair.glsl!.contains("return clamp(_m_warpRTL(_segue_destination, 0, _segue_layerSize, _segue_value), 0.0, 1.0);"))
        #expect(pair.glsl!.contains("return clamp(_m_warpLTR(_segue_destination, 1, _segue_layerSize, _segue_value), 0.0, 1.0);"))
        #expect(pair.summary.contains("(removal: 'warpRTL')"))
        let withSettings = try f[0].effect(StitchableConfiguration(removalFunction: f[2]), source: .file("s.metal"))
        #expect(withSettings.parameters.map(\.name) == ["windSize"])
        let other = try StitchableTranslator.translate(
            "[[ stitchable ]] half4 warpRTL(float2 position, SwiftUI::Layer layer, float2 size, float amount) { return layer.sample(position); }",
            file: "other.metal"
        ).functions[0]
        #expect(throws: StitchableConfigurationError("the removal function 'warpRTL' must be in the same file as 'warpLTR' (s.metal)")) {
            try f[0].effect(StitchableConfiguration(removalFunction: other), source: .file("s.metal"))
        }
    }
}

@Suite("Metal integer literals")
struct MetalIntegerLiteralTests {
    @Test("octal, binary and hex integers are read as #if and Metal read them, and written in decimal")
    func radixes() throws {
        let module = try StitchableTranslator.translate(
            """
            [[ stitchable ]] float2 f(float2 position, float v) {
                float a[010];
                int b = 0b101;
                uint c = 017u;
                int d = 0x1F;
                a[7] = float(b + d) + float(c);
                return position + a[7];
            }
            """, file: "r.metal")
        let g = module.metal.glsl
        #expect(line(2, of: g) == "    float a[8];")
        #expect(line(3, of: g) == "    int b = 5;")
        #expect(line(4, of: g) == "    uint c = 15u;")
        #expect(line(5, of: g) == "    int d = 31;")
    }

    @Test("integers past 32 bits and long literals are refused on their line, saying why and what to write")
    func wide() {
        let why = "Segue translates Metal to GLSL, which has no 64-bit integers"
        let cases = [
            "2147483648": "'2147483648' does not fit in an int: \(why); write 2147483648u for a uint, or INT_MIN for -2147483648",
            "3000000000": "'3000000000' does not fit in an int: \(why); write 3000000000u for a uint",
            "4294967296u": "'4294967296u' does not fit in 32 bits: \(why)",
            "0x100000000": "'0x100000000' does not fit in 32 bits: \(why)",
            "99999999999999999999": "'99999999999999999999' does not fit in 32 bits: \(why)",
            "7l": "'7l': long literals are not supported: \(why)", "1UL": "'1UL': long literals are not supported: \(why)",
        ]
        for (literal, message) in cases {
            #expect(throws: ShaderSourceError(file: "w.metal", line: 2, message: message), "\(literal)") {
                try StitchableTranslator.translate(
                    "[[ stitchable ]] float2 f(float2 position, float v) {\n    uint n = \(literal);\n    return position + float(n & 1u);\n}",
                    file: "w.metal")
            }
        }
        // The largest of each type pass: INT_MAX as an int, UINT_MAX as a uint, hex past INT_MAX as a uint.
        for literal in ["2147483647", "4294967295u", "0xFFFFFFFF", "0x80000000"] {
            #expect(throws: Never.self, "\(literal)") {
                try StitchableTranslator.translate(
                    "[[ stitchable ]] float2 f(float2 position, float v) {\n    uint n = uint(\(literal));\n    return position + float(n & 1u);\n}",
                    file: "w.metal")
            }
        }
    }

    @Test("an index past an octal-sized array is refused at its line, as for a decimal size")
    func octalBounds() {
        #expect(throws: ShaderSourceError(file: "r.metal", line: 3, message: "index 9 is out of range (0…7)")) {
            try StitchableTranslator.translate(
                "[[ stitchable ]] float2 f(float2 position, float v) {\n    float a[010];\n    a[9] = v;\n    return position;\n}",
                file: "r.metal")
        }
    }
}
