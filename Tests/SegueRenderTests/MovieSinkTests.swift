// The MP4 sink of `render`, `mesh`, `effect` and `demo`: even sizes travel as BT.709 4:2:0
// converted by Segue (the file says BT.709 and holds those levels); odd sizes go as RGBA and are
// padded to even by ffmpeg; premultiplied frames come out as colour over black.
import Foundation
import Segue
import SegueTestSupport
import Testing

@testable import SegueRender

@Suite("Render output: MP4")
struct MovieSinkTests {
    private func probe(_ path: String) throws -> String {
        let r = try runTool(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=width,height,pix_fmt,color_space,color_range,nb_frames",
                "-of", "csv=p=0", path,
            ])
        return String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("an even size: BT.709 4:2:0 levels as Segue converted them, tagged; translucent frames over black")
    func evenSize() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("out.mp4")
        let sink = try makeFrameSink(
            .video(path, .mp4), width: 64, height: 48, fps: 25, settings: VideoSettings(preset: "ultrafast", crf: 1))
        // Premultiplied (200, 100, 50) at alpha 128 and half that colour: (100, 50, 25) over black.
        let frame = Image(width: 64, height: 48, premultipliedRGBA: [UInt8]((0..<64 * 48).flatMap { _ in [100, 50, 25, 128] as [UInt8] }))
        for i in 0..<5 { try frame.pixels.withUnsafeBytes { try sink.write(frame: i, pixels: $0) } }
        try sink.finish()
        #expect(try probe(path) == "64,48,yuv420p,tv,bt709,5")
        var expected = [UInt8](repeating: 0, count: YUV420.byteCount(width: 64, height: 48))
        frame.pixels.withUnsafeBytes { rgba in expected.withUnsafeMutableBytes { YUV420.fromRGBA(rgba, width: 64, height: 48, into: $0) } }
        let decoded = try runTool(
            "ffmpeg", ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "pipe:1"])
        let worst = zip([UInt8](decoded.stdout), expected).map { abs(Int($0) - Int($1)) }.max() ?? 99
        #expect(decoded.stdout.count == expected.count && worst <= 1, "largest difference \(worst)")
        // The colour a player shows: (100, 50, 25), within the codec's and the matrix's rounding.
        let rgb = try runTool("ffmpeg", ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"])
        let shown = [UInt8](rgb.stdout.prefix(3))
        #expect(
            shown.count == 3 && abs(Int(shown[0]) - 100) <= 2 && abs(Int(shown[1]) - 50) <= 2 && abs(Int(shown[2]) - 25) <= 2, "\(shown)")
    }

    @Test("an odd size is padded to even by one black column and row")
    func oddSize() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("odd.mp4")
        let sink = try makeFrameSink(.video(path, .mp4), width: 63, height: 47, fps: 25, settings: VideoSettings(preset: "ultrafast"))
        let frame = Image(width: 63, height: 47, fill: Pixel(255, 255, 255))
        for i in 0..<3 { try frame.pixels.withUnsafeBytes { try sink.write(frame: i, pixels: $0) } }
        try sink.finish()
        #expect(try probe(path) == "64,48,yuv420p,tv,bt709,3")
        let gray = try runTool("ffmpeg", ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1"])
        let luma = [UInt8](gray.stdout)
        #expect(luma.count == 64 * 48)
        if luma.count == 64 * 48 {
            #expect(luma[10 * 64 + 10] > 230 && luma[10 * 64 + 63] < 40 && luma[47 * 64 + 10] < 40, "white inside, black padding")
        }
    }

    @Test("one sink for every container: QuickTime and Matroska take 4:2:0 like MP4; WebM keeps alpha, tagged BT.709 too")
    func everyContainer() throws {
        let dir = try TemporaryDirectory()
        #expect(try RenderOutput(path: dir.file("a.mov")) == .video(dir.file("a.mov"), .mov))
        #expect(try RenderOutput(path: dir.file("a.MKV")) == .video(dir.file("a.MKV"), .mkv))
        let frame = Image(width: 64, height: 48, premultipliedRGBA: [UInt8]((0..<64 * 48).flatMap { _ in [100, 50, 25, 128] as [UInt8] }))
        for (name, expected) in [
            ("out.mov", "64,48,yuv420p,tv,bt709,3"), ("out.mkv", "64,48,yuv420p,tv,bt709,N/A"), ("out.webm", "64,48,yuv420p,tv,bt709,N/A"),
        ] {
            let path = dir.file(name)
            let sink = try makeFrameSink(
                try RenderOutput(path: path), width: 64, height: 48, fps: 25, settings: VideoSettings(preset: "ultrafast"))
            #expect((sink as? VideoSink)?.encoder.input == (name == "out.webm" ? .rgba : .yuv420), "\(name)")
            for i in 0..<3 { try frame.pixels.withUnsafeBytes { try sink.write(frame: i, pixels: $0) } }
            try sink.finish()
            #expect(try probe(path) == expected, "\(name)")
        }
        let alpha = try runTool(
            "ffprobe", ["-v", "error", "-show_entries", "stream_tags=alpha_mode", "-of", "csv=p=0", dir.file("out.webm")])
        #expect(String(decoding: alpha.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["out.mkv", "out.mov", "out.webm"])
    }

    @Test("a cancelled MP4 leaves nothing")
    func cancelled() throws {
        let dir = try TemporaryDirectory()
        let sink = try makeFrameSink(.video(dir.file("c.mp4"), .mp4), width: 64, height: 48, fps: 25)
        let frame = Image(width: 64, height: 48, fill: Pixel(0, 0, 255))
        try frame.pixels.withUnsafeBytes { try sink.write(frame: 0, pixels: $0) }
        sink.cancel()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
