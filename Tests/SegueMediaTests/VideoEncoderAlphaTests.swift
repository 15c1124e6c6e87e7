// One encoder for every container: alpha is kept where the codec has it (VP9 in WebM, ProRes 4444
// in QuickTime, APNG) for frames that carry it (`.rgba`), and never for opaque pictures
// (`.opaqueRGBA`, a movie made of clips), whatever the container.
import Foundation
import SegueCore
import SegueTestSupport
import Testing

@testable import SegueMedia

@Suite("VideoEncoder: alpha where the codec has it")
struct VideoEncoderAlphaTests {
    /// Straight (200, 120, 40) at alpha 128.
    static let translucent = Image(width: 32, height: 32, straightRGBA: (0..<32 * 32).flatMap { _ in [200, 120, 40, 128] as [UInt8] })

    /// Encodes three translucent frames.
    private func encode(_ path: String, settings: VideoSettings = VideoSettings(), input: VideoEncoder.Input) throws -> VideoEncoder {
        let encoder = try VideoEncoder(path: path, width: 32, height: 32, fps: 10, settings: settings, input: input)
        for _ in 0..<3 { try encoder.append(Self.translucent) }
        try encoder.finish()
        return encoder
    }

    /// The pixel format and the `alpha_mode` tag (VP9's alpha in WebM) of the first video stream.
    private func stream(_ path: String) throws -> String {
        try runTool(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,pix_fmt:stream_tags=alpha_mode",
                "-of", "csv=p=0", path,
            ]
        ).text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The centre pixel of the first frame, straight RGBA, decoded by `decoder` (libvpx for VP9's
    /// alpha) through `filters`.
    private func centre(_ path: String, decoder: [String] = [], filters: [String] = []) throws -> [Int] {
        let r = try runTool(
            "ffmpeg",
            ["-v", "error"] + decoder + ["-i", path, "-frames:v", "1"] + filters + ["-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"])
        let bytes = [UInt8](r.stdout)
        try #require(bytes.count == 32 * 32 * 4, "\(r.stderr)")
        return bytes[(16 * 32 + 16) * 4..<(16 * 32 + 17) * 4].map(Int.init)
    }

    private func near(_ pixel: [Int], _ expected: [Int], within tolerance: Int) -> Bool {
        zip(pixel, expected).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test("WebM: VP9 with its alpha from RGBA frames; opaque frames get no alpha plane")
    func webm() throws {
        let dir = try TemporaryDirectory("media")
        let encoder = try encode(dir.file("alpha.webm"), input: .rgba)
        #expect(encoder.keepsAlpha)
        #expect(try stream(dir.file("alpha.webm")) == "vp9,yuv420p,1")
        let kept = try centre(dir.file("alpha.webm"), decoder: ["-c:v", "libvpx-vp9"])
        #expect(near(kept, [200, 120, 40, 128], within: 4), "\(kept)")
        #expect(try !encode(dir.file("opaque.webm"), input: .opaqueRGBA).keepsAlpha)
        #expect(try stream(dir.file("opaque.webm")) == "vp9,yuv420p")
        let opaque = try centre(dir.file("opaque.webm"), decoder: ["-c:v", "libvpx-vp9"])
        #expect(near(opaque, [100, 60, 20, 255], within: 4), "the premultiplied colour, over black: \(opaque)")
    }

    @Test("QuickTime: ProRes 4444 keeps alpha, ProRes 422 HQ for opaque frames, H.264 over black")
    func quickTime() throws {
        let dir = try TemporaryDirectory("media")
        let prores = VideoSettings(codec: .prores)
        func profile(_ path: String) throws -> String {
            try runTool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,profile", "-of", "csv=p=0", path]).text
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try _ = encode(dir.file("alpha.mov"), settings: prores, input: .rgba)
        #expect(try profile(dir.file("alpha.mov")) == "prores,4444")
        // (ffmpeg 5.1's ProRes carries no colour description: the BT.709 matrix is named to decode it.)
        let kept = try centre(dir.file("alpha.mov"), filters: ["-vf", "scale=in_color_matrix=bt709:in_range=tv"])
        #expect(near(kept, [200, 120, 40, 128], within: 3), "\(kept)")
        try _ = encode(dir.file("opaque.mov"), settings: prores, input: .opaqueRGBA)
        #expect(try profile(dir.file("opaque.mov")) == "prores,HQ")
        #expect(try !encode(dir.file("h264.mov"), input: .rgba).keepsAlpha)
        #expect(try stream(dir.file("h264.mov")) == "h264,yuv420p")
        let black = try centre(dir.file("h264.mov"))
        #expect(near(black, [100, 60, 20, 255], within: 4), "\(black)")
    }

    @Test("APNG and GIF from opaque frames: no transparency")
    func opaqueAnimatedImages() throws {
        let dir = try TemporaryDirectory("media")
        try _ = encode(dir.file("opaque.apng"), input: .opaqueRGBA)
        #expect(try stream(dir.file("opaque.apng")) == "apng,rgb24")
        #expect(try centre(dir.file("opaque.apng")) == [100, 60, 20, 255])
        try _ = encode(dir.file("opaque.gif"), input: .opaqueRGBA)
        let gif = try centre(dir.file("opaque.gif"))
        #expect(gif[3] == 255 && near(gif, [100, 60, 20, 255], within: 8), "\(gif)")
        #expect(dir.contents == ["opaque.apng", "opaque.gif"])
    }

    @Test("settings that do not fit the container are refused before anything starts")
    func refusedSettings() throws {
        let dir = try TemporaryDirectory("media")
        #expect(
            mediaError { () throws(MediaError) in
                try VideoEncoder(path: dir.file("a.webm"), width: 8, height: 8, fps: 10, settings: VideoSettings(codec: .prores))
            }
                == .invalidSettings(path: dir.file("a.webm"), VideoSettingsError(.codec, "prores cannot be written to .webm; use vp9")))
        #expect(
            mediaError { () throws(MediaError) in
                try VideoEncoder(path: dir.file("a.apng"), width: 8, height: 8, fps: 10, settings: VideoSettings(crf: 3))
            }
                == .invalidSettings(path: dir.file("a.apng"), VideoSettingsError(.crf, "does not apply to apng")))
        #expect(
            MediaError.invalidSettings(path: "a.apng", VideoSettingsError(.crf, "does not apply to apng")).message
                == "a.apng: crf (quality) does not apply to apng")
        #expect(dir.contents.isEmpty)
    }
}
