// `segue frame` and `segue info` with a SwiftUI stitchable shader file and `--arg`.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue CLI, stitchable shaders", .serialized)
struct StitchableCLITests {
    static let source = """
        #include <metal_stdlib>
        #include <SwiftUI/SwiftUI_Metal.h>
        using namespace metal;

        // Moves the layer right by `offset` points times the effect value.
        [[ stitchable ]] float2 slide(float2 position, float2 size, float2 offset, float effectValue) {
            return position - offset * effectValue;
        }
        """

    @Test("frame from a .metal file with --arg, --removal and --insertion; info shows kind and arguments")
    func frameWithArgs() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let from = Image(width: 8, height: 4) { x, y in Pixel(UInt8(30 * x), UInt8(60 * y), 200) }
        try ImageFile.write(from, to: dir + "/from.png")
        try ImageFile.write(Image(width: 8, height: 4, fill: .white), to: dir + "/to.png")
        try Self.source.write(toFile: dir + "/slide.metal", atomically: true, encoding: .utf8)
        // Removed layer: value 1 at progress 0.5 with --removal 1:1, offset (3, 1): the output
        // at (x, y) shows from at (x − 3, y − 1), transparent where that is off the layer.
        // Inserted layer: --insertion 5:5 moves it entirely off to the right.
        let r = try segue([
            "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", dir + "/slide.metal",
            "--function", "slide", "--arg", "offset=3,1", "--arg", "size=auto", "--removal", "1:1",
            "--insertion", "0:0", "--animate", "effectValue", "--progress", "0.5", "-o", dir + "/out.png",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        // With --insertion 0:0 the inserted (white) layer covers everything.
        #expect(try ImageFile.read(path: dir + "/out.png") == Image(width: 8, height: 4, fill: .white))
        let moved = try segue([
            "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", dir + "/slide.metal:slide",
            "--arg", "offset=3,1", "--removal", "1:1", "--insertion", "100:100", "--progress", "0.5", "-o", dir + "/moved.png",
        ])
        #expect(moved.status == 0, "\(moved.stderr)")
        let image = try ImageFile.read(path: dir + "/moved.png")
        for y in 0..<4 {
            for x in 0..<8 {
                let expected = x >= 3 && y >= 1 ? from[x - 3, y - 1] : Pixel.clear
                #expect(image[x, y] == expected, "pixel \(x),\(y)")
            }
        }
        let bad = try segue([
            "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", dir + "/slide.metal",
            "--arg", "ofset=1", "--progress", "0.5", "-o", dir + "/bad.png",
        ])
        #expect(bad.status != 0)
        #expect(
            bad.stderr.contains("'slide' has no argument 'ofset'; its arguments are: size (float2), offset (float2), effectValue (float)"))
        let nan = try segue([
            "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", dir + "/slide.metal",
            "--removal", "nan:1", "--progress", "0.5", "-o", dir + "/bad.png",
        ])
        #expect(nan.status != 0 && nan.stderr.contains("--removal must be two finite numbers"))
        let info = try segue(["info", dir + "/slide.metal:slide"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.text.contains("shader:   distortion function 'slide'"))
        #expect(info.text.contains("effectValue: float  — animated"))
        #expect(info.text.contains("size: float2  — auto"))
    }
}
