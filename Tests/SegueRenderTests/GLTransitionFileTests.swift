// gl-transitions files (Tests/Fixtures/gl-transitions) rendered as their reference renderers do:
// every parameter type and default syntax reaches the shader, extra textures, the old GL_ES
// header, y-up `uv`, resize modes, `segue check`'s rules, and exact error messages.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// A fixture's path.
func glTransitionFixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gl-transitions/\(name)").path
}

/// An 16×8 image with four solid quadrants: red, green / blue, white (top-left origin).
private func quadrants(width: Int = 16, height: Int = 8) -> Image {
    Image(width: width, height: height) { x, y in
        switch (x < width / 2, y < height / 2) {
        case (true, true): Pixel(255, 0, 0)
        case (false, true): Pixel(0, 255, 0)
        case (true, false): Pixel(0, 0, 255)
        case (false, false): Pixel(255, 255, 255)
        }
    }
}

@Suite("gl-transitions files")
struct GLTransitionFileTests {
    @Test("every parameter type and default syntax reaches the shader, defaults and --param values alike")
    func allTypes() throws {
        let effect = try EffectCatalog.effect(glTransitionFixture("all-types.glsl"))
        func columns(_ params: [(name: String, value: String)]) throws -> [Double] {
            let r = try TransitionRenderer(
                effect: effect, from: Image(width: 1, height: 1, fill: .black),
                to: Image(width: 1, height: 1, fill: .black), width: 64, height: 1,
                parameters: try effect.resolveParameters(params), context: try TestGPU.context(), framesInFlight: 1)
            let image = try r.frame(progress: 0.5, time: 0.5, duration: 1)
            return (0..<61).map { Double(image[$0, 0].r) / 255 * 8 }
        }
        // Declaration order, vectors expanded, matrices column-major.
        let defaults: [Double] =
            [
                2, 3, 1, 0, 1, 0.25, 0.5, 0.75, 1, 1, 1, 1, 4, 4, 1, 2, 3, 0, 1, 2, 3,
                1, 0, 1, 1, 1, 0, 1, 0, 1,
                1, 0, 0, 1,
                1, 2, 3, 4, 5, 6, 7, 0.5, 0.25,
            ]
            + (0..<16).map { $0 % 5 == 0 ? 0.5 : 0 } + [1.5, 1.5]
        #expect(defaults.count == 61)
        let got = try columns([])
        for k in 0..<61 { #expect(abs(got[k] - defaults[k]) <= 8.0 / 255, "quantity \(k): \(got[k]) vs \(defaults[k])") }

        let set = try columns([
            ("f", "0.5"), ("i", "7"), ("b", "false"), ("v3", "1,2,3"), ("iv2", "5"),
            ("bv3", "false,true,false"), ("m2", "1,2,3,4"), ("y", "6"),
        ])
        var expected = defaults
        expected[0] = 0.5; expected[1] = 7; expected[2] = 0
        expected[5...7] = [1, 2, 3]; expected[12...13] = [5, 5]; expected[23...25] = [0, 1, 0]
        expected[30...33] = [1, 2, 3, 4]; expected[60] = 6
        for k in 0..<61 { #expect(abs(set[k] - expected[k]) <= 8.0 / 255, "quantity \(k): \(set[k]) vs \(expected[k])") }
    }

    @Test("an extra sampler2D texture, and a clear error when it is missing")
    func extraTexture() throws {
        let effect = try EffectCatalog.effect(glTransitionFixture("luma-mask.glsl"))
        #expect(effect.parameters.map(\.name) == ["luma", "softness"])
        let from = Image(width: 8, height: 4, fill: .black), to = Image(width: 8, height: 4, fill: .white)
        // Luma: columns 0–3 at 0.2, columns 4–7 at 0.8.
        let luma = Image(width: 8, height: 4) { x, _ in x < 4 ? Pixel(51, 51, 51) : Pixel(204, 204, 204) }
        let r = try TransitionRenderer(
            effect: effect, from: from, to: to, textures: ["luma": luma], context: try TestGPU.context(), framesInFlight: 1)
        let half = try r.frame(progress: 0.5, time: 0.5, duration: 1)
        for x in 0..<8 { #expect(half[x, 1] == (x < 4 ? .white : .black), "column \(x)") }
        #expect(try r.frame(progress: 1, time: 1, duration: 1).pixels == to.pixels)
        #expect(throws: RenderError.missingTexture(name: "luma", effect: "luma-mask")) {
            try TransitionRenderer(effect: effect, from: from, to: to, context: try TestGPU.context())
        }
        #expect(
            RenderError.missingTexture(name: "luma", effect: "luma-mask").description
                == "effect 'luma-mask' needs the texture 'luma', which was not given")
    }

    @Test("the old #ifdef GL_ES header is accepted, and uv is y-up as in the reference renderers")
    func glesHeaderAndOrientation() throws {
        let effect = try EffectCatalog.effect(glTransitionFixture("gles-header.glsl"))
        #expect(effect.author == "Segue tests" && effect.origin == .bottomLeft)
        let from = Image(width: 4, height: 8, fill: .black), to = Image(width: 4, height: 8, fill: .white)
        let r = try TransitionRenderer(effect: effect, from: from, to: to, context: try TestGPU.context(), framesInFlight: 1)
        // At progress 0.5 the part with uv.y < 0.5, the bottom half of the picture, shows `to`.
        let half = try r.frame(progress: 0.5, time: 0.5, duration: 1)
        for y in 0..<8 { #expect(half[1, y] == (y >= 4 ? .white : .black), "row \(y)") }
    }

    @Test("asymmetric inputs land the right way up under cover, contain and stretch", arguments: ResizeMode.allCases)
    func resizeModes(mode: ResizeMode) throws {
        // A y-up file showing `from`: quadrants must keep their places in a 16×16 output.
        let effect = try EffectCatalog.effect(glTransitionFixture("gles-header.glsl"))
        let r = try TransitionRenderer(
            effect: effect, from: quadrants(), to: quadrants(), width: 16, height: 16,
            resize: mode, context: try TestGPU.context(), framesInFlight: 1)
        let image = try r.frame(progress: 0, time: 0, duration: 1)
        let red = Pixel(255, 0, 0), green = Pixel(0, 255, 0), blue = Pixel(0, 0, 255), white = Pixel(255, 255, 255)
        let clear = Pixel(0, 0, 0, 0)
        // Samples away from the quadrant borders (bilinear filtering blends across them).
        let expected: [(Int, Int, Pixel)]
        switch mode {
        case .cover:  // the middle half of the columns, all rows, scaled ×2
            expected = [(2, 2, red), (13, 2, green), (2, 13, blue), (13, 13, white)]
        case .contain:  // the whole image in rows 4–11, transparent bars above and below
            expected = [(2, 1, clear), (2, 5, red), (13, 5, green), (2, 10, blue), (13, 10, white), (13, 14, clear)]
        case .stretch:  // the whole image, rows doubled
            expected = [(1, 2, red), (14, 2, green), (1, 13, blue), (14, 13, white)]
        }
        for (x, y, pixel) in expected { #expect(image[x, y] == pixel, "\(mode) at (\(x), \(y)): \(image[x, y])") }
    }

    @Test("broken files: the exact messages, with the file's own line numbers")
    func brokenFiles() throws {
        let unknown = glTransitionFixture("unknown-type.glsl")
        #expect(
            throws: EffectLookupError.invalidSource(
                ShaderSourceError(
                    file: unknown, line: 4,
                    message:
                        "unknown parameter type 'float3' (supported: float, int, bool, vec2, vec3, vec4, ivec2, ivec3, ivec4, bvec2, bvec3, bvec4, mat2, mat3, mat4, sampler2D)"
                ))
        ) {
            try EffectCatalog.effect(unknown)
        }
        let syntax = glTransitionFixture("syntax-error.glsl")
        let effect = try EffectCatalog.effect(syntax)
        do {
            _ = try TransitionRenderer(effect: effect, from: quadrants(), to: quadrants(), context: try TestGPU.context())
            Issue.record("expected a compile error")
        } catch let error as VulkanError {
            // The missing ';' ends line 6; glslang reports the unexpected token on line 7.
            #expect(
                error.description == """
                    shader '\(syntax)' does not compile:
                    \(syntax):7: error: '' :  syntax error, unexpected RETURN, expecting COMMA or SEMICOLON
                    """)
        }
    }

    @Test("check: the contributors' rules, passing and failing")
    func check() throws {
        for name in ["luma-mask.glsl", "gles-header.glsl"] {
            let c = TransitionCheck(effect: try EffectCatalog.effect(glTransitionFixture(name)), context: try TestGPU.context())
            #expect(c.passed, "\(name): \(c.findings)")
        }
        let sloppy = TransitionCheck(effect: try EffectCatalog.effect(glTransitionFixture("sloppy.glsl")), context: try TestGPU.context())
        #expect(
            sloppy.findings.filter { !$0.passed }.map(\.rule)
                == ["header names the author and the license", "every parameter is used", "progress 0 shows from"])
        #expect(sloppy.findings[1].detail == "unused: unused")
        // start = 0.5: progress 0 is the average of from and to, up to 95/255 away from `from` here.
        #expect(sloppy.findings.first { $0.rule == "progress 0 shows from" }!.detail.hasPrefix("largest difference"))
        let syntax = TransitionCheck(
            effect: try EffectCatalog.effect(glTransitionFixture("syntax-error.glsl")), context: try TestGPU.context())
        #expect(syntax.findings.last!.rule == "compiles" && !syntax.findings.last!.passed)
        #expect(syntax.findings.last!.detail.contains("syntax-error.glsl:7: error"))
    }

    @Test("check reports colour above alpha from a premultiplied source (a gl-transitions file's result is clamped, so it has none)")
    func checkColourAboveAlpha() throws {
        let source = "// Author: A\n// License: MIT\nvec4 transition(vec2 uv) {\n  return vec4(2.0, 2.0, 2.0, 0.5);\n}\n"
        var effect = try TransitionSourceParser.parse(source, name: "bright", source: .file("bright.glsl"))
        let straight = TransitionCheck(effect: effect, context: try TestGPU.context())
        #expect(straight.findings.allSatisfy { !$0.detail.contains("exceeds the alpha") }, "\(straight.findings)")
        effect.alpha = .premultiplied  // stored as returned: (255, 255, 255, 128)
        let premultiplied = TransitionCheck(effect: effect, context: try TestGPU.context())
        let atZero = premultiplied.findings.first { $0.rule == "progress 0 shows from" }
        #expect(
            atZero?.detail
                == "largest difference 255/255 at pixel (0, 0); the colour exceeds the alpha at pixel (0, 0) (the output must be premultiplied: rgb ≤ a)"
        )
        #expect(atZero?.passed == false)
    }
}
