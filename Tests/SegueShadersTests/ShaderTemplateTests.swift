// The fragment-shader template: Segue's own names never collide with a file's, and the alpha
// convention of each kind of effect.
import SegueCore
import Testing

@testable import SegueShaders

@Suite("Shader template")
struct ShaderTemplateTests {
    @Test("global names of a GLSL source: functions, constants, variables, structs, macros — not locals or parameters")
    func globalNames() {
        let names = GLSLScope.globalNames(
            in: """
                #define WIDTH 2.0
                // float commented;
                /* vec2 alsoCommented; */
                const float duration = 2.0, extra = 1.0;
                struct Wave { float time; };
                float scale(float time) { float resolution = time; return resolution; }
                vec4 transition(vec2 uv) { return vec4(scale(uv.x)); }
                """)
        #expect(names == ["WIDTH", "duration", "extra", "Wave", "scale", "transition"])
    }

    @Test("time, duration, resolution and scale are declared for a file only where it does not declare them")
    func aliases() throws {
        let effect = try TransitionSourceParser.parse(
            """
            uniform float time; // = 1
            float scale(float x) { return x; }
            vec4 transition(vec2 uv) { float resolution = 1.0; return vec4(scale(duration) * resolution); }
            """, name: "t", source: .file("t.glsl"))
        let glsl = ShaderTemplate.fragmentShader(for: effect).glsl
        #expect(glsl.contains("\nfloat duration;\nvec2 resolution;\n"))
        #expect(!glsl.contains("\nfloat scale;") && !glsl.contains("\nfloat time;"))
        #expect(glsl.contains("void _segue_setAliases() { duration = _segue_duration; resolution = _segue_resolution; }"))
        #expect(glsl.contains("    float time;\n"))  // the parameter, in the uniform block
        #expect(glsl.contains("vec4 _segue_color = clamp(transition(vec2(_segue_uv.x, 1.0 - _segue_uv.y)), 0.0, 1.0);"))
        #expect(glsl.contains("_segue_outColor = vec4(_segue_color.rgb * _segue_color.a, _segue_color.a);"))
        #expect(effect.alpha == .straight)
    }

    @Test("built-ins and stitchable shaders keep premultiplied colour; stitchable arguments are prefixed uniforms")
    func premultiplied() throws {
        let fade = try #require(EffectCatalog.builtIn(named: "fade"))
        #expect(fade.alpha == .premultiplied)
        #expect(ShaderTemplate.fragmentShader(for: fade).glsl.contains("_segue_outColor = _segue_color;"))
        #expect(ShaderTemplate.fragmentShader(for: fade).glsl.contains("vec4 _segue_color = transition(_segue_uv);"))
        let shift = try #require(EffectCatalog.builtIn(named: "shift"))
        let glsl = ShaderTemplate.fragmentShader(for: shift).glsl
        #expect(shift.alpha == .premultiplied && glsl.contains("_segue_outColor = _segue_color;"))
        #expect(!glsl.contains("\nfloat time;"))
    }
}
