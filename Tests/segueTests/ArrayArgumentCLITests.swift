// `segue effect --arg` and `segue info` (text and --json) with SwiftUI's array and data arguments.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue CLI, array and data arguments")
struct ArrayArgumentCLITests {
    static let arrays = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/stitchable/Arrays.metal").path

    @Test("info shows each pointer-and-count pair as one argument, in text and JSON")
    func info() throws {
        let text = try segue(["info", Self.arrays + ":spectrum"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.text.contains(
                "    values: device const float *values, int count  — --arg values=0.1,0.5,0.9 (at most 1024 floats; 'count' gets the number; default empty, count 0)"
            ),
            "\(text.text)")
        #expect(text.text.contains("    values: float[] (floats, at most 1024; default empty)"), "\(text.text)")
        let json = try segue(["info", "--json", Self.arrays + ":decode"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let parameters = try #require(object["parameters"] as? [[String: Any]])
        #expect(parameters.count == 1)
        #expect(
            parameters.first?["type"] as? String == "bytes" && parameters.first?["maximumLength"] as? Int == 4096
                && (parameters.first?["default"] as? [Double])?.isEmpty == true, "\(parameters)")
        #expect((parameters.first?["summary"] as? String)?.contains("device const void *bytes, int size") == true)
    }

    @Test("effect --arg takes a list; a list past the limit and an unreadable file are refused naming the argument")
    func values() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let ok = try segue([
            "effect", "--effect", Self.arrays + ":spectrum", "--size", "8x4", "--time", "0",
            "--arg", "values=1,0.25", "-o", dir + "/s.png",
        ])
        #expect(ok.status == 0, "\(ok.stderr)")
        let image = try ImageFile.read(path: dir + "/s.png")
        #expect(
            image[1, 0] == Pixel(255, 0, 64, 255) && image[5, 0] == Pixel(0, 0, 0, 0) && image[5, 3].a == 255, "bar 0 full, bar 1 a quarter"
        )
        let long = try segue([
            "effect", "--effect", Self.arrays + ":spectrum", "--size", "8x4", "--time", "0",
            "--arg", "values=" + Array(repeating: "1", count: 1_025).joined(separator: ","), "-o", dir + "/l.png",
        ])
        #expect(long.status != 0 && long.stderr.contains("argument 'values' takes at most 1024 floats; got 1025"), "\(long.stderr)")
        let missing = try segue([
            "effect", "--effect", Self.arrays + ":decode", "--size", "8x4", "--time", "0",
            "--arg", "bytes=@" + dir + "/none.bin", "-o", dir + "/m.png",
        ])
        #expect(missing.status != 0 && missing.stderr.contains("argument 'bytes': cannot read '\(dir)/none.bin'"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/l.png") && !FileManager.default.fileExists(atPath: dir + "/m.png"))
    }

    @Test("an array argument cannot be keyframed: one error line, the library's words with the flag that sets it")
    func notKeyframed() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try """
        #include <metal_stdlib>
        using namespace metal;
        [[ stitchable ]] half4 levels(float2 position, half4 color, float progress, device const float *v, int count) {
            return color * half(progress * v[0]);
        }
        """.write(toFile: dir + "/levels.metal", atomically: true, encoding: .utf8)
        try ImageFile.write(Image(width: 8, height: 4, fill: .white), to: dir + "/a.png")
        let r = try segue([
            "render", "--from", dir + "/a.png", "--to", dir + "/a.png", "--effect", dir + "/levels.metal:levels",
            "--param-keyframes", "v=1@0,2@1", "-o", dir + "/out",
        ])
        #expect(r.status == 1)
        #expect(r.stderr == "error: --param-keyframes: 'v' is an array argument (float[]); it cannot be keyframed: set it with --arg\n")
        #expect(scratch.contents == ["a.png", "levels.metal"])
    }
}
