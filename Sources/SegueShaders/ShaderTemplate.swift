// Wraps an effect's GLSL into a complete Vulkan fragment shader: the uniform block, the
// `from`/`to` samplers with resize fitting, `getFromColor`/`getToColor`, and `main`.
//
// Bindings (descriptor set 0): 0 = uniform block, 1 = from, 2 = to, 3… = the effect's sampler2D
// parameters in declaration order. The user's source follows a `#line 1` directive so compile
// errors carry the user's own line numbers.
//
// Names: everything Segue adds to the shader's scope starts with `_segue_`, except the names the
// effect interface defines (`progress`, `ratio`, `getFromColor`, `getToColor`, `transition`) and,
// for full-screen sources, `time`, `duration`, `resolution` and `scale` — which are declared only
// when the source does not declare the same name at global scope itself (a function, constant or
// variable named `scale` is the file's own, and compiles). A stitchable shader's arguments are
// uniforms named `_segue_arg_NAME`, so no argument name can collide with anything.
//
// Alpha: a `.straight` effect (the gl-transitions format) sees straight colour from
// `getFromColor`/`getToColor` and returns straight colour, premultiplied after its `transition`,
// as the format's WebGL renderers blend; a `.premultiplied` one works on the textures as stored.
// A straight result is clamped to 0…1 per channel before it is premultiplied: GL clamps what a
// shader writes to an 8-bit target, so a file returning alpha 2 or colours above 1 looks as it
// does there (premultiplying first would scale the colour by the unclamped alpha).
import SegueCore

/// A complete, compilable fragment shader for an effect.
public struct FragmentShader: Sendable, Equatable {
    /// GLSL 4.50 source.
    public let glsl: String
    /// Name used in compiler messages (the user's file path or the built-in's name).
    public let fileName: String
    /// The uniform block's layout.
    public let layout: UniformLayout
    /// Names of the extra textures (sampler2D parameters), bound from binding 3 on.
    public let extraTextures: [String]
}

/// Builds shaders from effects.
public enum ShaderTemplate {
    /// Names of the header members of the uniform block that full-screen sources may use.
    static let headerNames = ["time", "duration", "resolution", "scale"]

    /// Built-ins that call `getFromColor`/`getToColor` only with the pixel's own `uv`: with
    /// texel-aligned inputs their shader reads the texel under the pixel (what linear filtering
    /// at its centre returns) instead of filtering. Guarded by IdentityFitShaderTests, which
    /// compares their frames with the general shader's byte for byte.
    static let pixelCentredBuiltIns: Set<String> = ["fade", "wipe", "circle"]

    /// The prefix of the uniforms holding a stitchable shader's arguments.
    static let argumentPrefix = "_segue_arg_"
    /// The prefix of the uniform holding the element count of an array or data argument.
    static let countPrefix = "_segue_argn_"

    /// The fragment shader for `effect`.
    /// - Parameter identityFit: true when both inputs are sampled unscaled (their fit uniforms are
    ///   (1, 1): the size of the output, or stretched). The shader then leaves out the resize
    ///   branch, which it would skip anyway: the same pixels, for about a quarter less shading on
    ///   lavapipe, whose SIMD code pays for the branch's masks on every pixel (`segue bench --account`).
    /// - Parameter texelAligned: true when, besides `identityFit`, both inputs have exactly the
    ///   output's size, so output pixel (x, y) lies on texel (x, y). The shader then defines
    ///   `_SEGUE_TEXEL_ALIGNED` and `_segue_fromTexel(ivec2)`/`_segue_toTexel(ivec2)` (texels, rows
    ///   top to bottom, as `getFromColor` returns them), which the xfade equivalents read instead
    ///   of filtering at texel centres: the same values without the filtering work.
    public static func fragmentShader(for effect: Effect, identityFit: Bool = false, texelAligned: Bool = false) -> FragmentShader {
        let layout = UniformLayout(parameters: effect.parameters)
        let stitchable = effect.kind == .stitchable
        func uniform(_ name: String) -> String { stitchable ? argumentPrefix + name : name }
        let extra = effect.textureNames
        guard let glsl = effect.glsl else { preconditionFailure("'\(effect.name)' is a mesh effect; it has no fragment shader") }
        let straight = effect.alpha == .straight

        var s = """
            #version 450
            #define texture2D texture
            layout(location = 0) in vec2 _segue_vUV;
            layout(location = 0) out vec4 _segue_outColor;
            layout(std140, set = 0, binding = 0) uniform SegueUniforms {
                float progress;
                float _segue_time;
                float _segue_duration;
                float ratio;
                vec2 _segue_resolution;
                float _segue_scale;
                float _segue_pad0;
                vec4 _segue_fromFit;
                vec4 _segue_toFit;

            """
        for m in layout.members {
            if m.type.isArray {
                // Its element count, then its bytes (see UniformLayout).
                s += "    int \(countPrefix + m.name);\n    uvec4 \(uniform(m.name))[\(UniformLayout.arrayWords)];\n"
            } else {
                s += "    \(m.type.rawValue) \(uniform(m.name));\n"
            }
        }
        s += "};\n"
        s += "layout(set = 0, binding = 1) uniform sampler2D _segue_from;\n"
        s += "layout(set = 0, binding = 2) uniform sampler2D _segue_to;\n"
        for (i, name) in extra.enumerated() {
            s += "layout(set = 0, binding = \(3 + i)) uniform sampler2D \(uniform(name));\n"
        }
        // The header values under their plain names, unless the source takes a name itself.
        var aliases: [String] = []
        if !stitchable {
            let taken = GLSLScope.globalNames(in: glsl).union(effect.parameters.map(\.name))
            aliases = headerNames.filter { !taken.contains($0) }
            for name in aliases { s += "\(name == "resolution" ? "vec2" : "float") \(name);\n" }
        }
        // Effect uv → texture coordinates: flip y for bottom-left sources, then fit.
        let flip = effect.origin == .bottomLeft
        let resize =
            identityFit
            ? ""
            : """
                if (fit.x != 1.0 || fit.y != 1.0) {
                    t = 0.5 + (t - 0.5) * fit.xy;
                    if (fit.x > 1.0 || fit.y > 1.0) {
                        if (t.x < 0.0 || t.x > 1.0 || t.y < 0.0 || t.y > 1.0) return vec4(0.0);
                    }
                }

            """
        s += """
            // fit.xy: texture-coordinate scale of the resize mode; fit.zw: the texture's size in texels.
            vec4 _segue_sample(sampler2D s, vec4 fit, vec2 uv) {
                vec2 t = vec2(uv.x, \(flip ? "1.0 - uv.y" : "uv.y"));
            \(resize)    \(straight ? "vec4 c = texture(s, t);\n        return c.a > 0.0 ? vec4(c.rgb / c.a, c.a) : vec4(0.0);" : "return texture(s, t);")
            }
            """
        let aligned = texelAligned && identityFit
        if aligned {
            s += """

                #define _SEGUE_TEXEL_ALIGNED 1
                vec4 _segue_texel(sampler2D s, ivec2 p) {
                    \(straight ? "vec4 c = texelFetch(s, p, 0);\n        return c.a > 0.0 ? vec4(c.rgb / c.a, c.a) : vec4(0.0);" : "return texelFetch(s, p, 0);")
                }
                vec4 _segue_fromTexel(ivec2 p) { return _segue_texel(_segue_from, p); }
                vec4 _segue_toTexel(ivec2 p) { return _segue_texel(_segue_to, p); }
                """
        }
        if aligned && !flip && effect.source == .builtIn && pixelCentredBuiltIns.contains(effect.name) {
            // Every call passes the pixel's own uv: the texel under the pixel is the answer.
            s += """

                vec4 getFromColor(vec2 uv) { return _segue_fromTexel(ivec2(gl_FragCoord.xy)); }
                vec4 getToColor(vec2 uv) { return _segue_toTexel(ivec2(gl_FragCoord.xy)); }

                """
        } else {
            s += """

                vec4 getFromColor(vec2 uv) { return _segue_sample(_segue_from, _segue_fromFit, uv); }
                vec4 getToColor(vec2 uv) { return _segue_sample(_segue_to, _segue_toFit, uv); }

                """
        }
        s += """
            void _segue_setAliases() {\(aliases.map { " \($0) = _segue_\($0);" }.joined()) }
            #line 1

            """
        s += glsl
        // uv from the exact pixel centre (gl_FragCoord is (x + 0.5, y + 0.5), top-left origin),
        // not from interpolating vUV, which can be an ulp off and so move hash-based effects.
        s += """

            void main() {
                _segue_setAliases();
                vec2 _segue_uv = gl_FragCoord.xy / _segue_resolution;
                vec4 _segue_color = \(straight ? "clamp(" : "")transition(\(flip ? "vec2(_segue_uv.x, 1.0 - _segue_uv.y)" : "_segue_uv"))\(straight ? ", 0.0, 1.0)" : "");
                _segue_outColor = \(straight ? "vec4(_segue_color.rgb * _segue_color.a, _segue_color.a)" : "_segue_color");
            }

            """
        let fileName: String = if case let .file(path) = effect.source { path } else { effect.name + ".glsl" }
        return FragmentShader(glsl: s, fileName: fileName, layout: layout, extraTextures: extra)
    }
}

/// What a GLSL source declares at global scope.
enum GLSLScope {
    /// Names declared outside every function: functions, global variables and constants, struct
    /// types and `#define`d macros (a name after another name — a type — or after a `,` in a
    /// declaration, at brace and parenthesis depth 0). Comments are skipped.
    static func globalNames(in source: String) -> Set<String> {
        var names: Set<String> = []
        let chars = Array(GLSLComments.stripped(source).code.unicodeScalars)
        var i = 0
        var braces = 0, parens = 0
        var previous = ""  // the previous token at depth 0 ("" at a statement start)
        while i < chars.count {
            let c = chars[i]
            if c == "#" {
                var line = ""
                while i < chars.count && chars[i] != "\n" { line.unicodeScalars.append(chars[i]); i += 1 }
                let words = line.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" })
                if words.count >= 2, words[0] == "define" { names.insert(String(words[1])) }
                continue
            }
            if SourceIdentifier.isStart(c) {
                var word = ""
                while i < chars.count && SourceIdentifier.isPart(chars[i]) { word.unicodeScalars.append(chars[i]); i += 1 }
                if braces == 0 && parens == 0 {
                    let afterName =
                        (previous.unicodeScalars.first.map(SourceIdentifier.isStart) ?? false)
                        && !["return", "else", "uniform", "in", "out", "const", "highp", "mediump", "lowp", "precision"].contains(previous)
                        || previous == ","
                    if afterName { names.insert(word) }
                    previous = word
                }
                continue
            }
            switch c {
            case "{": braces += 1
            case "}": braces -= 1; if braces == 0 { previous = "" }
            case "(": parens += 1
            case ")": parens -= 1
            default: break
            }
            if braces == 0 && parens == 0 && !c.properties.isWhitespace && c != ")" {
                previous = c == ";" ? "" : String(Character(c))
            }
            i += 1
        }
        return names
    }
}
