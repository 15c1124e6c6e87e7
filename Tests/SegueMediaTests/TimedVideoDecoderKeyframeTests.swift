// Decoding from a keyframe (a smart render's piece): the same frames and times as an accurate
// seek; from a frame that is not a keyframe, the frames from the keyframe before come first with
// negative times, so a caller that asks for a time still finds the frame covering it.
import Foundation
import SegueCore
import SegueTestSupport
import Testing

@testable import SegueMedia

@Suite("Timed video decoder: starting at a keyframe")
struct TimedVideoDecoderKeyframeTests {
    /// Lossless H.264, a keyframe every 5 frames, no B-frames.
    private static let h264 = [
        "-c:v", "libx264", "-qp", "0", "-g", "5", "-keyint_min", "5", "-sc_threshold", "0", "-bf", "0", "-pix_fmt", "yuv444p",
    ]

    /// Every frame's time and grey level.
    private func decode(_ path: String, _ stream: VideoStreamInfo, start: Double, atKeyframe: Bool) throws -> [(time: Double, grey: Int)] {
        let decoder = try TimedVideoDecoder(
            path: path, stream: stream, start: start, width: 16, height: 16, resize: .stretch,
            startsAtKeyframe: atKeyframe)
        defer { decoder.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: decoder.frameByteCount, alignment: 16)
        defer { buffer.deallocate() }
        var frames: [(Double, Int)] = []
        while let time = try decoder.read(into: buffer) { frames.append((time, Int(buffer[(8 * 16 + 8) * 4]))) }
        return frames
    }

    @Test("at a keyframe: the frames from it on, timed from it, as an accurate seek gives them")
    func atKeyframe() throws {
        let dir = try TemporaryDirectory("media")
        let (path, stream) = try greyRamp(dir, encoder: Self.h264, name: "ramp.mp4")
        let exact = try decode(path, stream, start: 1.0, atKeyframe: true)
        let accurate = try decode(path, stream, start: 1.0, atKeyframe: false)
        #expect(exact.count == 10 && accurate.count == 10)
        for (n, (a, b)) in zip(exact, accurate).enumerated() {
            #expect(abs(a.time - Double(n) / 10) < 1e-6 && abs(b.time - Double(n) / 10) < 1e-6, "frame \(n): \(a.time), \(b.time)")
            #expect(abs(a.grey - (100 + 10 * n)) <= 1 && a.grey == b.grey, "frame \(n): grey \(a.grey), \(b.grey)")
        }
    }

    @Test("not at a keyframe: the keyframe before comes first, at a negative time")
    func betweenKeyframes() throws {
        let dir = try TemporaryDirectory("media")
        let (path, stream) = try greyRamp(dir, encoder: Self.h264, name: "ramp.mp4")
        let frames = try decode(path, stream, start: 1.2, atKeyframe: true)
        #expect(frames.count == 10)
        for (n, frame) in frames.enumerated() {
            #expect(abs(frame.time - (Double(n) / 10 - 0.2)) < 1e-6 && abs(frame.grey - (100 + 10 * n)) <= 1, "frame \(n): \(frame)")
        }
    }
}
