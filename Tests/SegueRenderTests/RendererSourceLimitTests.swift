// Issue 22 item 4: GLSL reaches shaderc bounded however the effect was made. Files are checked when
// they are read; an `Effect` made in code is checked by the renderer before compiling (glslang
// overflows its stack on a chain of about 15,000 terms).
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("Renderer: GLSL source limits")
struct RendererSourceLimitTests {
    @Test("an effect made in code with a 15,000-term chain is refused before compiling; a small one renders")
    func madeInCode() throws {
        let black = Image(width: 4, height: 4, fill: .black), white = Image(width: 4, height: 4, fill: .white)
        let chain =
            "vec4 transition(vec2 uv) {\n    float x = " + Array(repeating: "progress", count: 15_000).joined(separator: " + ")
            + ";\n    return mix(getFromColor(uv), getToColor(uv), x);\n}\n"
        let effect = Effect(name: "chain", summary: "", source: .file("code.glsl"), glsl: chain, origin: .bottomLeft, parameters: [])
        do {
            _ = try TransitionRenderer(effect: effect, from: black, to: white, context: try TestGPU.context())
            Issue.record("a 15,000-term chain reached the compiler")
        } catch let error as ShaderSourceError {
            #expect(error.description.hasPrefix("code.glsl:2: an expression nested more than 256 levels deep"), "\(error)")
        }
        let small = Effect(
            name: "half", summary: "", source: .file("code.glsl"),
            glsl: "vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }\n",
            origin: .bottomLeft, parameters: [])
        let frame = try TransitionRenderer(effect: small, from: black, to: white, context: try TestGPU.context()).frame(
            progress: 0.5, time: 0.5, duration: 1)
        #expect(abs(Int(frame[1, 1].r) - 128) <= 1)
    }
}
