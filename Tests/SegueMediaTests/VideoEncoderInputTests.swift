// VideoEncoder's inputs beyond plain frames: a sound-only file, a movie whose sound is copied
// from such a file packet for packet, and 4:2:0 frames encoded to match a BT.709 source with no
// colour conversion on the way (what a smart render's pieces need).
import Foundation
import SegueCore
import SegueTestSupport
import Testing

@testable import SegueMedia

@Suite("VideoEncoder: sound alone, copied sound, matched 4:2:0")
struct VideoEncoderInputTests {
    /// One second of a 440 Hz tone, 48 kHz stereo, into `encoder`'s sound.
    private func writeTone(_ encoder: VideoEncoder) throws {
        let writer = try #require(encoder.audioWriter())
        let samples = (0..<48_000 * 2).map { i in Float(0.5 * sin(2 * Double.pi * 440 * Double(i / 2) / 48_000)) }
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
    }

    /// ffprobe's `codec_type` of each stream.
    private func streamTypes(_ path: String) throws -> [String] {
        let probe = try runTool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", path])
        return probe.text.split(separator: "\n").map(String.init)
    }

    /// ffmpeg's per-packet MD5s of the first audio stream, copied without decoding.
    private func audioPacketHashes(_ path: String) throws -> [Substring] {
        let result = try runTool("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:0", "-c", "copy", "-f", "framemd5", "pipe:1"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: ",").last! }
    }

    @Test("a sound-only file has one AAC stream a second long; a movie copying it has its packets unchanged")
    func soundAloneThenCopied() throws {
        let dir = try TemporaryDirectory("media")
        let soundPath = dir.file("sound.mp4"), moviePath = dir.file("movie.mp4")
        let sound = try VideoEncoder(path: soundPath, width: 64, height: 48, fps: 25, input: .soundOnly, audio: .standard)
        try writeTone(sound)
        try sound.finish()
        #expect(try streamTypes(soundPath) == ["audio"])
        let duration = try runTool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,duration", "-of", "csv=p=0", soundPath])
            .text
        let fields = duration.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        #expect(fields.first == "aac")
        #expect(abs((Double(fields.last ?? "") ?? 0) - 1) < 0.03, "sound lasts \(duration)")

        let movie = try VideoEncoder(
            path: moviePath, width: 64, height: 48, fps: 25, input: .opaqueRGBA, audio: .standard, copiedSound: soundPath)
        #expect(movie.audioWriter() == nil)
        let frame = [UInt8](repeating: 200, count: 64 * 48 * 4)
        for _ in 0..<25 { try frame.withUnsafeBytes { try movie.append(frame: $0) } }
        try movie.finish()
        #expect(try streamTypes(moviePath) == ["video", "audio"])
        let copied = try audioPacketHashes(moviePath), original = try audioPacketHashes(soundPath)
        #expect(copied.count > 40 && copied == original, "\(copied.count) packets against \(original.count)")
        #expect(dir.contents == ["movie.mp4", "sound.mp4"])
    }

    @Test("4:2:0 frames matched to a BT.709 source keep their exact levels (no conversion); a BT.601 match converts")
    func matchedYUVInput() throws {
        let dir = try TemporaryDirectory("media")
        let source = dir.file("source.mp4")
        let made = try runTool(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=64x48:d=0.2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", source,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let video = try #require(try MediaProbe.probe(path: source).video)
        var settings = VideoSettings(preset: "ultrafast", crf: 1)  // (0 is lossless, which the High profile cannot carry)
        settings.matching = MatchedVideo(video)
        let arguments = settings.videoArguments(for: .mp4, width: 64, height: 48, yuvInput: true)
        #expect(!arguments.joined(separator: " ").contains("scale="), "\(arguments)")
        var untagged = settings
        untagged.matching?.colorSpace = ""
        #expect(
            untagged.videoArguments(for: .mp4, width: 64, height: 48, yuvInput: true).joined(separator: " ").contains(
                "out_color_matrix=bt601"))

        // Y = 100, Cb = 90, Cr = 170: levels a conversion through RGB would move.
        let out = dir.file("piece.mp4")
        let encoder = try VideoEncoder(path: out, width: 64, height: 48, fps: 25, settings: settings, input: .yuv420)
        let frame =
            [UInt8](repeating: 100, count: 64 * 48) + [UInt8](repeating: 90, count: 32 * 24) + [UInt8](repeating: 170, count: 32 * 24)
        for _ in 0..<3 { try frame.withUnsafeBytes { try encoder.append(frame: $0) } }
        try encoder.finish()
        let decoded = try runTool(
            "ffmpeg", ["-v", "error", "-i", out, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "pipe:1"])
        #expect([UInt8](decoded.stdout) == frame)
        let tags = try runTool(
            "ffprobe", ["-v", "error", "-show_entries", "stream=profile,color_space,color_range", "-of", "csv=p=0", out]
        ).text
        #expect(tags.contains("bt709") && tags.contains("tv"), "\(tags)")
    }
}
