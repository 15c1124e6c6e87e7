// A decoder whose cancellation is cancelled part-way reports `.cancelled`, not a corrupt file:
// the cancellation kills ffmpeg, and the child process (which holds the token) says so once.
import Foundation
import SegueSystem
import SegueTestSupport
import Testing

@testable import SegueMedia

@Suite("Decoders cancelled part-way")
struct DecoderCancellationTests {
    /// A 20 s clip of 64×48 noise (so ffmpeg has work left when cancelled) with a tone, in a
    /// scratch directory that lasts as long as the value, and a token to cancel its decoding.
    private func longClip() throws -> (dir: TemporaryDirectory, info: MediaInfo, token: Cancellation) {
        let dir = try TemporaryDirectory("media")
        let path = dir.file("long.mkv")
        try ffmpeg([
            "-f", "lavfi", "-i", "nullsrc=s=64x48:r=25:d=20,geq=random(1)*255:128:128", "-f", "lavfi", "-i",
            "sine=frequency=440:duration=20", "-c:v", "ffv1", "-c:a", "pcm_s16le", path,
        ])
        return (dir, try MediaProbe.probe(path: path), Cancellation())
    }

    @Test("the video decoder: frames, then .cancelled once the token is cancelled")
    func video() throws {
        let (dir, info, token) = try longClip()
        defer { withExtendedLifetime(dir) {} }
        let decoder = try TimedVideoDecoder(
            path: info.path, stream: try #require(info.video), width: 64, height: 48, resize: .stretch, cancellation: token)
        var buffer = [UInt8](repeating: 0, count: decoder.frameByteCount)
        #expect(try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) } == 0)
        token.cancel()
        var frames = 1
        let error = #expect(throws: MediaError.self) {
            while try buffer.withUnsafeMutableBytes({ try decoder.read(into: $0) }) != nil { frames += 1 }
        }
        #expect(error == .cancelled(path: info.path), "after \(frames) of 500 frames")
        #expect(frames < 500)
        // The path is the input: the message says the work stopped, not that it was "not written".
        #expect(error?.description == "\(info.path): stopped: the work was cancelled (nothing was written)")
    }

    @Test("the audio decoder: samples, then .cancelled once the token is cancelled")
    func audio() throws {
        let (dir, info, token) = try longClip()
        defer { withExtendedLifetime(dir) {} }
        let decoder = try AudioDecoder(
            path: info.path, stream: try #require(info.audio), sampleRate: 48_000, channels: 2, cancellation: token)
        var buffer = [Float](repeating: 0, count: 4_800 * 2)
        #expect(try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) } == 4_800)
        token.cancel()
        let error = #expect(throws: MediaError.self) {
            while try buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }) > 0 {}
        }
        #expect(error == .cancelled(path: info.path), "after \(decoder.framesRead) of 960000 sample frames")
        #expect(decoder.framesRead < 960_000)
    }
}
