// Issue 22 through the command line: effect files that crashed `segue` (a chain of 2,000
// operators), made it take gigabytes (doubling macros) or hung it (a named pipe) now end with
// `error: …` naming the file and line, and exit status 1.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue CLI, shader limits")
struct ShaderLimitCLITests {
    static let chain =
        "#include <metal_stdlib>\nusing namespace metal;\n[[ stitchable ]] half4 f(float2 p, half4 c, float t) {\n    float x = "
        + Array(repeating: "t", count: 2_000).joined(separator: " + ") + ";\n    return c * half(x);\n}\n"

    @Test("info and frame report a 2,000-term chain in a .metal file as an error on its line")
    func chain() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let path = dir + "/chain.metal"
        try Self.chain.write(toFile: path, atomically: true, encoding: .utf8)
        try ImageFile.write(Image(width: 4, height: 4, fill: .white), to: dir + "/a.png")
        let expected = "error: \(path):4: expressions or blocks nested more than 200 levels deep"
        let info = try segue(["info", path])
        #expect(info.status == 1)
        #expect(info.stderr.hasPrefix(expected), "\(info.stderr.prefix(300))")
        let frame = try segue([
            "frame", "--from", dir + "/a.png", "--to", dir + "/a.png", "--effect", path, "--progress", "0.5", "-o", dir + "/o.png",
        ])
        #expect(frame.status == 1)
        #expect(frame.stderr.hasPrefix(expected), "\(frame.stderr.prefix(300))")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
    }

    @Test("doubling macros and a long chain in a .glsl file end in an error, at once")
    func glsl() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let macros =
            "#define M0 progress\n" + (1...30).map { "#define M\($0) (M\($0 - 1) + M\($0 - 1))\n" }.joined()
            + "vec4 transition(vec2 uv) {\n    return mix(getFromColor(uv), getToColor(uv), M30);\n}\n"
        try macros.write(toFile: dir + "/macros.glsl", atomically: true, encoding: .utf8)
        let r = try runProduct(segueBinary, ["info", dir + "/macros.glsl"], timeout: 60)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: \(dir)/macros.glsl:33: macro 'M30' expands to more than"), "\(r.stderr.prefix(300))")
        let chain =
            "vec4 transition(vec2 uv) {\n    float x = " + Array(repeating: "progress", count: 15_000).joined(separator: " + ")
            + ";\n    return mix(getFromColor(uv), getToColor(uv), x);\n}\n"
        try chain.write(toFile: dir + "/chain.glsl", atomically: true, encoding: .utf8)
        let c = try runProduct(segueBinary, ["info", dir + "/chain.glsl"], timeout: 60)
        #expect(c.status == 1)
        #expect(c.stderr.hasPrefix("error: \(dir)/chain.glsl:2: an expression nested more than 256 levels deep"), "\(c.stderr.prefix(300))")
    }

    @Test("a named pipe and a directory given as effects say what they are, without waiting")
    func notFiles() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        #expect(mkfifo(dir + "/pipe.glsl", 0o600) == 0)
        let pipe = try runProduct(segueBinary, ["info", dir + "/pipe.glsl"], timeout: 60)
        #expect(pipe.status == 1)
        #expect(
            pipe.stderr
                == "error: cannot read effect file '\(dir)/pipe.glsl': it is a pipe (FIFO), not a regular file; save the effect to a file first\n"
        )
        try FileManager.default.createDirectory(atPath: dir + "/folder.metal", withIntermediateDirectories: true)
        let folder = try runProduct(segueBinary, ["info", dir + "/folder.metal"], timeout: 60)
        #expect(folder.status == 1)
        #expect(folder.stderr == "error: cannot read effect file '\(dir)/folder.metal': it is a directory, not a file\n")
    }

    // The deepest nesting the Metal front end accepts, and names like its own, reach the GLSL
    // compiler and render (glslang recurses once per level of the generated expressions too).
    @Test(
        "shaders at the nesting limit, and with names like the translator's, render",
        arguments: ["chain", "calls", "conditionals", "names"])
    func accepted(kind: String) throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let n = 190
        let expression =
            switch kind {
            case "chain": Array(repeating: "t * 0.001", count: n / 2).joined(separator: " + ")
            case "calls": String(repeating: "max(t, ", count: n) + "t" + String(repeating: ")", count: n)
            case "conditionals": String(repeating: "t > 2.0 ? t : ", count: n) + "t"
            default: "g(_m_g) + _v_input + input"
            }
        let prefixes = kind == "names" ? "float _m_g = 0.25; float _v_input = 0.25; float input = 0.5;\n    " : ""
        let source =
            "#include <metal_stdlib>\nusing namespace metal;\nfloat g(float x) { return x; }\n"
            + "[[ stitchable ]] half4 f(float2 p, half4 c, float t) {\n    \(prefixes)float x = \(expression);\n    return half4(half(x), 0, 0, 1);\n}\n"
        try source.write(toFile: dir + "/limit.metal", atomically: true, encoding: .utf8)
        try ImageFile.write(Image(width: 4, height: 4, fill: .white), to: dir + "/a.png")
        let r = try segue([
            "effect", "--effect", dir + "/limit.metal", "--input", dir + "/a.png", "--arg", "t=1", "--time", "0", "-o", dir + "/o.png",
        ])
        #expect(r.status == 0, "\(r.stderr.prefix(500))")
        let image = try ImageFile.read(path: dir + "/o.png")
        // x is 1 for every kind but "chain" (95 × 0.001 ≈ 0.095 → 24).
        let expected: UInt8 = kind == "chain" ? 24 : 255
        #expect(abs(Int(image[1, 1].r) - Int(expected)) <= 1, "\(image[1, 1])")
    }
}
