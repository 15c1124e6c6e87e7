// `segue check`, `segue info FILE` and `--texture` with gl-transitions files.
import Foundation
import Segue
import SegueTestSupport
import Testing

private func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gl-transitions/\(name)").path
}

@Suite("segue check and gl-transitions files", .serialized)
struct CheckCLITests {
    @Test("check passes a good file (exit 0) and lists the failures of a sloppy one (exit 1)")
    func check() throws {
        let good = try segue(["check", fixture("luma-mask.glsl")])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.text.components(separatedBy: "\n").filter { $0.hasPrefix("  ok") }.count == 5)
        let bad = try segue(["check", fixture("sloppy.glsl")])
        #expect(bad.status == 1)
        #expect(bad.text.contains("FAIL every parameter is used: unused: unused"))
        #expect(bad.text.contains("FAIL header names the author and the license: missing // Author: and // License:"))
        #expect(bad.stderr.hasPrefix("error: ") && bad.stderr.contains("fails 3 of 5 checks"))
        let json = try segue(["check", fixture("sloppy.glsl"), "--json"])
        let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        #expect(object?["passed"] as? Bool == false)
        #expect((object?["findings"] as? [[String: Any]])?.count == 5)
        #expect((object?["findings"] as? [[String: Any]])?.allSatisfy { $0["function"] == nil } == true)
    }

    @Test("check takes a .metal file: each stitchable function as a transition, a fill or on one image; FILE.metal:NAME one")
    func checkStitchable() throws {
        let file = repositoryRoot + "/Tests/Fixtures/stitchable/Check.metal"
        let all = try segue(["check", file])
        #expect(all.status == 1)
        #expect(all.stderr == "error: \(file) fails 1 of 10 checks\n")
        let hint =
            "; as a transition by default, the removed screen runs at effect value 0 → -1 and the inserted one at 1 → 0, so the function must leave a screen unchanged at 0 and hide it at 1 and -1; give --insertion and --removal ranges that fit it ('segue info' suggests some)"
        #expect(
            all.text == """
                \(file): float2 slide(float2 position, float2 size, float amount), as a transition
                  ok   compiles: Metal → GLSL 450 → SPIR-V
                  ok   progress 0 shows from: identical
                  ok   progress 1 shows to: identical
                \(file): half4 tint(float2 position, half4 color, float amount), as a transition
                  ok   compiles: Metal → GLSL 450 → SPIR-V
                  FAIL progress 0 shows from: largest difference 255/255 at pixel (0, 0)\(hint)
                  ok   progress 1 shows to: identical
                \(file): half4 gradient(float2 position, float4 bounds), as a fill
                  ok   compiles: Metal → GLSL 450 → SPIR-V
                  ok   draws: one frame, drawn alone
                \(file): half4 invert(float2 position, half4 color), on one image
                  ok   compiles: Metal → GLSL 450 → SPIR-V
                  ok   draws: one frame, applied to an image

                """)
        let one = try segue(["check", file + ":slide"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.text.components(separatedBy: "\n").filter { $0.hasPrefix("  ok   ") }.count == 3)
        let json = try segue(["check", file, "--json"])
        let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        let findings = object?["findings"] as? [[String: Any]] ?? []
        #expect(object?["passed"] as? Bool == false && findings.count == 10)
        #expect(
            findings.filter { $0["passed"] as? Bool == false }.map { $0["function"] as? String } == [
                "half4 tint(float2 position, half4 color, float amount), as a transition"
            ])

        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try
            "#include <metal_stdlib>\nusing namespace metal;\n[[ stitchable ]] half4 f(float2 position, half4 color) {\n    return color * q;\n}\n"
            .write(toFile: dir + "/broken.metal", atomically: true, encoding: .utf8)
        // The file is read before a GPU is looked for: on a machine without a Vulkan driver, its
        // error, not the driver's.
        let broken = try segue(
            ["check", dir + "/broken.metal"],
            environment: ["VK_DRIVER_FILES": "/nonexistent/icd.json", "VK_ICD_FILENAMES": "/nonexistent/icd.json"])
        #expect(broken.status == 1 && broken.text.isEmpty)
        #expect(broken.stderr.hasPrefix("error: \(dir)/broken.metal:4: "), "\(broken.stderr)")
        try "// just a comment\n".write(toFile: dir + "/empty.metal", atomically: true, encoding: .utf8)
        let empty = try segue(["check", dir + "/empty.metal"])
        #expect(empty.stderr == "error: \(dir)/empty.metal: no [[ stitchable ]] function found\n")
    }

    @Test(
        "a transition returning colour above 1 is clamped as GL clamps it, checked, not trapped: the differences and the pixel are reported"
    )
    func colourAboveAlpha() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let file = dir + "/bright.glsl"
        try "// Author: A\n// License: MIT\nvec4 transition(vec2 uv) {\n  return vec4(2.0, 2.0, 2.0, 0.5);\n}\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let r = try segue(["check", file])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr == "error: \(file) fails 2 of 5 checks\n")
        // from's pixel (0, 0) is (0, 0, 40, 255) and to's (0, 0, 80, 255); the output is clamp(2, 2, 2, 0.5)
        // premultiplied, (128, 128, 128, 128) everywhere, as GL would store it: no colour above its alpha.
        #expect(r.text.contains("  FAIL progress 0 shows from: largest difference 128/255 at pixel (0, 0)\n"), "\(r.text)")
        #expect(r.text.contains("  FAIL progress 1 shows to: largest difference 128/255 at pixel (0, 0)\n"), "\(r.text)")
        #expect(!r.text.contains("exceeds the alpha"), "\(r.text)")
        #expect(r.text.contains("  ok   compiles: GLSL 450 → SPIR-V\n"))
    }

    @Test("info lists a file's parameters with their defaults; --texture feeds a sampler, and its absence is named")
    func infoAndTextures() throws {
        let info = try segue(["info", fixture("all-types.glsl")])
        #expect(info.status == 0)
        for line in ["f: float = 2", "iv2: ivec2 = 4,4", "bv4: bvec4 = false,true,false,true", "x: float = 1.5", "y: float = 1.5"] {
            #expect(info.text.contains(line), "\(line) in \(info.text)")
        }
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 8, height: 4)
        try ImageFile.write(Image(width: 8, height: 4) { x, _ in x < 4 ? Pixel(51, 51, 51) : Pixel(204, 204, 204) }, to: dir + "/luma.png")
        let base = [
            "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", fixture("luma-mask.glsl"),
            "--progress", "0.5", "-o", dir + "/out.png",
        ]
        let missing = try segue(base)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: effect 'luma-mask' needs the texture 'luma': give it with --texture luma=PATH\n")
        let ok = try segue(base + ["--texture", "luma=" + dir + "/luma.png"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let image = try ImageFile.read(path: dir + "/out.png")
        #expect(image[1, 1] == .white && image[6, 1] == .black)
        // A texture named twice is refused, as a parameter is (the last one won without a word).
        let twice = try segue(base + ["--texture", "luma=" + dir + "/luma.png", "--texture", "luma=" + dir + "/to.png"])
        #expect(twice.status == 1)
        #expect(twice.stderr == "error: parameter 'luma' is given twice; give it once\n")
    }
}
