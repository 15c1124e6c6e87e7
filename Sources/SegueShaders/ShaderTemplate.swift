// Wraps an effect's GLSL into a complete Vulkan fragment shader: the uniform block, the
// `from`/`to` samplers with resize fitting, `getFromColor`/`getToColor`, and `main`.
//
// Bindings (descriptor set 0): 0 = uniform block, 1 = from, 2 = to, 3… = the effect's sampler2D
// parameters in declaration order. The user's source follows a `#line 1` directive so compile
// errors carry the user's own line numbers.
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
    /// Names of the header members of the uniform block, renamed with a `_segue_` prefix when
    /// an effect declares a parameter of the same name.
    static let headerNames = ["time", "duration", "resolution", "scale"]

    /// The fragment shader for `effect`.
    public static func fragmentShader(for effect: Effect) -> FragmentShader {
        let layout = UniformLayout(parameters: effect.parameters)
        let declared = Set(effect.parameters.map(\.name))
        func header(_ n: String) -> String { declared.contains(n) ? "_segue_\(n)" : n }
        let extra = effect.parameters.filter { $0.type == .sampler2D }.map(\.name)

        var s = """
        #version 450
        #define texture2D texture
        layout(location = 0) in vec2 vUV;
        layout(location = 0) out vec4 segueOutColor;
        layout(std140, set = 0, binding = 0) uniform SegueUniforms {
            float progress;
            float \(header("time"));
            float \(header("duration"));
            float ratio;
            vec2 \(header("resolution"));
            float \(header("scale"));
            float _segue_pad0;
            vec4 _segue_fromFit;
            vec4 _segue_toFit;

        """
        for m in layout.members { s += "    \(m.type.rawValue) \(m.name);\n" }
        s += "};\n"
        s += "layout(set = 0, binding = 1) uniform sampler2D _segue_from;\n"
        s += "layout(set = 0, binding = 2) uniform sampler2D _segue_to;\n"
        for (i, name) in extra.enumerated() {
            s += "layout(set = 0, binding = \(3 + i)) uniform sampler2D \(name);\n"
        }
        // Effect uv → texture coordinates: flip y for bottom-left sources, then fit.
        let flip = effect.origin == .bottomLeft
        s += """
        // fit.xy: texture-coordinate scale of the resize mode; fit.zw: the texture's size in texels.
        vec4 _segue_sample(sampler2D s, vec4 fit, vec2 uv) {
            vec2 t = vec2(uv.x, \(flip ? "1.0 - uv.y" : "uv.y"));
            if (fit.x != 1.0 || fit.y != 1.0) {
                t = 0.5 + (t - 0.5) * fit.xy;
                if (fit.x > 1.0 || fit.y > 1.0) {
                    if (t.x < 0.0 || t.x > 1.0 || t.y < 0.0 || t.y > 1.0) return vec4(0.0);
                }
            }
            return texture(s, t);
        }

        vec4 getFromColor(vec2 uv) { return _segue_sample(_segue_from, _segue_fromFit, uv); }
        vec4 getToColor(vec2 uv) { return _segue_sample(_segue_to, _segue_toFit, uv); }
        #line 1

        """
        guard let glsl = effect.glsl else { preconditionFailure("'\(effect.name)' is a mesh effect; it has no fragment shader") }
        s += glsl
        // uv from the exact pixel centre (gl_FragCoord is (x + 0.5, y + 0.5), top-left origin),
        // not from interpolating vUV, which can be an ulp off and so move hash-based effects.
        let res = header("resolution")
        s += """

        void main() {
            vec2 uv = gl_FragCoord.xy / \(res);
            segueOutColor = transition(\(flip ? "vec2(uv.x, 1.0 - uv.y)" : "uv"));
        }

        """
        let fileName: String = if case let .file(path) = effect.source { path } else { effect.name + ".glsl" }
        return FragmentShader(glsl: s, fileName: fileName, layout: layout, extraTextures: extra)
    }
}
