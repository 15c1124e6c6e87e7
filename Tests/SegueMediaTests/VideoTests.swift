import Foundation
import SegueCore
import SegueSystem
import SegueTestSupport
import Testing

@testable import SegueMedia

#if canImport(Glibc)
import Glibc
#endif

/// Every test that starts ffmpeg through SegueMedia, serialized because some of them change
/// `SEGUE_FFMPEG` for the whole process.
@Suite("Video through ffmpeg", .serialized)
struct VideoTests {
    private let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory("media") }

    /// Frame `index` of a 64x48 test clip: a moving opaque square over a gradient, with a
    /// translucent band at the bottom.
    static func frame(_ index: Int, width: Int = 64, height: Int = 48) -> Image {
        Image(width: width, height: height) { x, y in
            if x >= index * 4 && x < index * 4 + 12 && y >= 8 && y < 20 { return Pixel(250, 20, 30) }
            if y >= height - 8 { return Pixel(UInt8(x), 0, UInt8(x / 2), UInt8(64 + x)) }
            return Pixel(UInt8(x * 3 % 256), UInt8(y * 5 % 256), UInt8(index * 20))
        }
    }

    private func encode(
        _ path: String, frames: Int = 10, width: Int = 64, height: Int = 48,
        format: VideoFormat? = nil
    ) throws {
        let video = try VideoEncoder(path: path, width: width, height: height, fps: 25, format: format)
        for i in 0..<frames { try video.append(VideoTests.frame(i, width: width, height: height)) }
        try video.finish()
        #expect(video.frameCount == frames)
    }

    /// Every frame of `path` with its timestamp, at the video's display size.
    private func decodeAll(_ path: String, scale: Double = 1) throws -> [(image: Image, time: Double)] {
        let decoder = try TimedVideoDecoder(path: path)
        var frames: [(image: Image, time: Double)] = []
        while let frame = try decoder.nextImage(scale: scale) { frames.append(frame) }
        return frames
    }

    // MARK: - Encoding

    @Test(arguments: VideoFormat.allCases)
    func encodesTenFrames(format: VideoFormat) throws {
        let path = dir.file("clip." + format.fileExtension)
        try encode(path)
        let info = try #require(try MediaProbe.probe(path: path).video)
        #expect(info.width == 64 && info.height == 48)
        #expect(abs(info.fps - 25) < 0.01, "fps \(info.fps)")
        #expect(info.codec == ["mp4": "h264", "mov": "h264", "mkv": "h264", "webm": "vp9", "gif": "gif", "apng": "apng"][format.rawValue])
        let times = try decodeAll(path).map(\.time)
        #expect(times.count == 10)
        #expect(zip(times, 0...).allSatisfy { abs($0 - Double($1) / 25) < 0.001 }, "\(times)")
        #expect(dir.contents == ["clip." + format.fileExtension], "only the finished video is left")
    }

    @Test func apngIsLosslessIncludingAlpha() throws {
        let path = dir.file("clip.apng")
        try encode(path)
        let frames = try decodeAll(path).map(\.image)
        #expect(frames.count == 10)
        for (i, frame) in frames.enumerated() {
            #expect(frame == VideoTests.frame(i), "frame \(i) differs")
        }
        #expect(frames.first?[0, 47] == VideoTests.frame(0)[0, 47])
        #expect(frames.first?[5, 10] == Pixel(250, 20, 30))
    }

    @Test func decoderStreamsFramesAndStopsEarly() throws {
        let path = dir.file("clip.mp4")
        try encode(path)
        let decoder = try TimedVideoDecoder(path: path)
        #expect(decoder.width == 64 && decoder.height == 48)
        let first = try #require(try decoder.nextImage(scale: 2))
        #expect(first.image.width == 64 && first.image.scale == 2 && first.image.isOpaque && first.time == 0)
        // The square is red-ish in the lossy copy too.
        let p = first.image[6, 14]
        #expect(p.r > 200 && p.g < 70 && p.b < 70, "\(p)")
        decoder.close()
        #expect(try decoder.nextImage() == nil)
        #expect(try decodeAll(path).count == 10)
    }

    @Test func oddSizedMP4IsPaddedToEven() throws {
        let path = dir.file("odd.mp4")
        try encode(path, frames: 3, width: 63, height: 47)
        let info = try #require(try MediaProbe.probe(path: path).video)
        #expect(info.width == 64 && info.height == 48 && info.frameCount == 3)
        func arguments(width: Int, height: Int, fps: Double) -> [String] {
            VideoEncoder.arguments(
                format: .mp4, settings: VideoSettings(), input: .rgba, alpha: false, width: width, height: height, fps: fps,
                sound: nil, copiedSound: nil, output: "o")
        }
        let args = arguments(width: 63, height: 47, fps: 29.97)
        #expect(args.contains { $0.hasPrefix("pad=ceil(iw/2)*2:ceil(ih/2)*2,") } && args.contains("29.97"))
        let even = arguments(width: 64, height: 48, fps: 30)
        #expect(!even.contains { $0.contains("pad=") } && even.contains("bt709"), "\(even)")
    }

    @Test func cancelAndDropRemoveThePartialOutput() throws {
        let token = Cancellation()
        let video = try VideoEncoder(path: dir.file("a.webm"), width: 64, height: 48, fps: 30, cancellation: token)
        for i in 0..<3 { try video.append(VideoTests.frame(i)) }
        #expect(token.registeredPaths == [video.temporaryPath])
        video.cancel()
        #expect(token.registeredPaths.isEmpty)
        do {
            let dropped = try VideoEncoder(path: dir.file("b.gif"), width: 64, height: 48, fps: 30)
            try dropped.append(VideoTests.frame(0))
        }
        #expect(dir.contents.isEmpty)
    }

    // MARK: - Failures

    @Test func missingFFmpegIsReportedBeforeAnyWork() {
        let path = dir.file("out.mp4")
        let error = withFFmpeg("/nonexistent/bin/ffmpeg") {
            mediaError { () throws(MediaError) in try VideoEncoder(path: path, width: 64, height: 48, fps: 30) }
        }
        guard case .ffmpegNotFound(path, let searched)? = error else {
            Issue.record("expected .ffmpegNotFound, got \(String(describing: error))"); return
        }
        #expect(searched.contains("/nonexistent/bin/ffmpeg"))
        #expect(error?.description.contains("install the Debian package `ffmpeg`") == true)
        #expect(dir.contents.isEmpty)
    }

    @Test func ffmpegFailingMidwayLeavesNoOutput() throws {
        // A stand-in ffmpeg that writes part of an output, complains and dies after ~2 frames.
        let tools = try TemporaryDirectory("media")
        let fake = try fakeFFmpeg(
            at: tools.file("ffmpeg"),
            """
            head -c 30000 > "$out"
            echo "first line of noise" >&2
            echo "simulated encoder crash" >&2
            exit 3
            """)
        let path = dir.file("out.mp4")
        let error = try withFFmpeg(fake) { () throws -> MediaError? in
            let video = try VideoEncoder(path: path, width: 64, height: 48, fps: 30)
            return mediaError { () throws(MediaError) in
                for i in 0..<200 { try video.append(VideoTests.frame(i % 10)) }
                try video.finish()
            }
        }
        guard case .ffmpegFailed(path, 3, let stderr)? = error else {
            Issue.record("expected .ffmpegFailed, got \(String(describing: error))"); return
        }
        #expect(stderr == "first line of noise\nsimulated encoder crash")
        #expect(error?.description.contains("exited with status 3") == true)
        #expect(dir.contents.isEmpty, "no partial output, no temporary")
    }

    @Test func ffmpegFailingAtTheEndLeavesNoOutput() throws {
        let tools = try TemporaryDirectory("media")
        let fake = try fakeFFmpeg(at: tools.file("ffmpeg"), "cat > \"$out\"\necho 'muxer failed' >&2\nexit 1")
        writeFixture([7], to: dir.file("out.gif"))
        let error = try withFFmpeg(fake) { () throws -> MediaError? in
            let video = try VideoEncoder(path: dir.file("out.gif"), width: 64, height: 48, fps: 30)
            try video.append(VideoTests.frame(0))
            return mediaError { () throws(MediaError) in try video.finish() }
        }
        #expect(error == .ffmpegFailed(path: dir.file("out.gif"), status: 1, stderr: "muxer failed"))
        #expect(readFixture(dir.file("out.gif")) == [7], "the old file is untouched")
        #expect(dir.contents == ["out.gif"])
    }

    @Test("a stream copy stopped by its cancellation is .cancelled, not ffmpeg failing with the signal's status")
    func cancelledCopy() throws {
        let tools = try TemporaryDirectory("media")
        let fake = try fakeFFmpeg(at: tools.file("ffmpeg"), "exec sleep 30")
        let path = dir.file("out.mp4"), token = Cancellation()
        try WorkerThread.start(for: "canceller") {
            FileIO.sleep(seconds: 0.3)
            token.cancel()
        }
        let watch = Stopwatch()
        let copy = withFFmpeg(fake) {
            mediaError { () throws(MediaError) in try FFmpeg.run(["-i", "in.mp4", path], for: path, cancellation: token) }
        }
        #expect(copy == .cancelled(path: path))
        #expect(watch.elapsed < 20, "the child was stopped, not waited for")
    }

    @Test("one error for one failure: ffmpeg failing is .ffmpegFailed from a stream copy and from an encoder with sound")
    func oneErrorForAnFFmpegFailure() throws {
        let tools = try TemporaryDirectory("media")
        let fake = try fakeFFmpeg(at: tools.file("ffmpeg"), "echo 'simulated failure' >&2\nexit 3")
        let path = dir.file("out.mp4")
        let copy = withFFmpeg(fake) { mediaError { () throws(MediaError) in try FFmpeg.run(["-i", "in.mp4", path], for: path) } }
        #expect(copy == .ffmpegFailed(path: path, status: 3, stderr: "simulated failure"))
        let encode = try withFFmpeg(fake) { () throws -> MediaError? in
            let movie = try VideoEncoder(path: path, width: 64, height: 48, fps: 25, input: .opaqueRGBA, audio: .standard)
            return mediaError { () throws(MediaError) in
                for i in 0..<50 { try movie.append(VideoTests.frame(i % 10)) }
                try movie.finish()
            }
        }
        #expect(encode == .ffmpegFailed(path: path, status: 3, stderr: "simulated failure"))
        #expect(dir.contents.isEmpty)
    }

    @Test func badVideoRequests() throws {
        let noFrames = try VideoEncoder(path: dir.file("empty.apng"), width: 8, height: 8, fps: 10)
        guard case .encodingFailed? = mediaError({ () throws(MediaError) in try noFrames.finish() }) else {
            Issue.record("finishing without frames must fail"); return
        }
        #expect(
            mediaError { () throws(MediaError) in try VideoEncoder(path: dir.file("x.avi"), width: 8, height: 8, fps: 10) }
                == .unknownOutputFormat(path: dir.file("x.avi"), supported: VideoFormat.extensions))
        guard
            case .unwritable? = mediaError({ () throws(MediaError) in
                try VideoEncoder(path: dir.file("no/dir/x.mp4"), width: 8, height: 8, fps: 10)
            })
        else { Issue.record("missing directory must be .unwritable"); return }
        guard
            case .imageTooLarge? = mediaError({ () throws(MediaError) in
                try VideoEncoder(path: dir.file("big.mp4"), width: 20_000, height: 8, fps: 10)
            })
        else { Issue.record("oversized frames must be refused"); return }
        #expect(dir.contents.isEmpty)
    }

    @Test func probingBadInputs() throws {
        #expect(
            mediaError { () throws(MediaError) in try MediaProbe.probe(path: dir.file("none.mp4")) }
                == .fileNotFound(path: dir.file("none.mp4")))
        #expect(
            mediaError { () throws(MediaError) in try TimedVideoDecoder(path: dir.file("none.mp4")) }
                == .fileNotFound(path: dir.file("none.mp4")))
        writeFixture(Array("not a video at all".utf8), to: dir.file("junk.mp4"))
        #expect(
            mediaError { () throws(MediaError) in try TimedVideoDecoder(path: dir.file("junk.mp4")) }
                == .invalidVideo(path: dir.file("junk.mp4"), reason: "Invalid data found when processing input"))
        let sound = dir.file("sound.m4a")
        #expect(try runTool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=d=0.2", "-c:a", "aac", sound]).status == 0)
        #expect(
            mediaError { () throws(MediaError) in try TimedVideoDecoder(path: sound) }
                == .invalidVideo(path: sound, reason: "it has no video stream"))
        #expect(MediaProbe.rate("30000/1001").map { abs($0 - 29.97) < 0.001 } == true)
        #expect(MediaProbe.rate("0/0") == nil)
    }
}
