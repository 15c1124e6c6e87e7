import FoundationEssentials
import Segue
import SegueCore
import SegueMedia

// The MP4 comparison of `segue bench`: a transition rendered into an H.264 MP4 through the render
// path (4:2:0 converted by Segue, x264 in ffmpeg), ffmpeg's `xfade` filtergraph into the same
// encoder with the same preset and CRF, and x264 alone on the same frames read from a file —
// the floor both share, which bounds the ratio any transition tool can reach.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TransitionBenchmark {
    /// Seconds to render `effect` over the benchmark's frames into an MP4 with `settings`.
    public func mp4Seconds(_ effect: Effect, parameters: [String: ParameterValue] = [:], settings: VideoSettings) throws -> Double {
        try withScratchDirectory { dir in
            let renderer = try TransitionRenderer(effect: effect, from: from, to: to, parameters: parameters, context: context)
            try renderer.render(try Timeline(duration: 1, fps: 2, curve: { $0 })) { _, _ in }  // warm-up
            let timeline = try Timeline(duration: duration, fps: 30, curve: { $0 })
            return try median {
                let watch = Stopwatch()
                let sink = try makeFrameSink(
                    .video(dir + "/segue.mp4", .mp4), width: width, height: height, fps: 30, settings: settings,
                    cancellation: cancellation)
                do {
                    try renderer.render(timeline) { i, pixels in try sink.write(frame: i, pixels: pixels) }
                    try sink.finish()
                } catch {
                    sink.cancel()
                    throw error
                }
                return watch.elapsed
            }
        }
    }

    /// Seconds for ffmpeg's `xfade=transition=NAME` between the same inputs (each decoded and
    /// converted to 4:2:0 once) into an MP4 with the same x264 settings.
    public func xfadeMP4Seconds(_ transition: String, settings: VideoSettings) throws -> Double {
        try withScratchDirectory { dir in
            let inputs = try xfadeInputs(transition, in: dir, converting: "yuv420p")
            return try median {
                try timeFFmpeg(inputs + x264Arguments(settings) + [dir + "/xfade.mp4"], what: "ffmpeg xfade=\(transition) into an MP4")
            }
        }
    }

    /// Seconds for x264 alone (through ffmpeg, same settings) on the benchmark's frames of `effect`,
    /// rendered beforehand as 4:2:0 into a file (read from the page cache while timed).
    public func x264AloneSeconds(_ effect: Effect, parameters: [String: ParameterValue] = [:], settings: VideoSettings) throws -> Double {
        try withScratchDirectory { dir in
            let renderer = try TransitionRenderer(effect: effect, from: from, to: to, parameters: parameters, context: context)
            let path = dir + "/frames.yuv"
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            guard let file = FileStream(forWritingAtPath: path) else { throw RenderError.invalidValue("cannot write \(path)") }
            var planar = [UInt8](repeating: 0, count: YUV420.byteCount(width: width, height: height))
            try renderer.render(try Timeline(duration: duration, fps: 30, curve: { $0 })) { _, pixels in
                planar.withUnsafeMutableBytes { YUV420.fromRGBA(pixels, width: width, height: height, into: $0) }
                try file.write(contentsOf: planar)
            }
            file.close()
            return try median {
                try timeFFmpeg(
                    ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-r", "30", "-i", path]
                        + x264Arguments(settings) + [dir + "/alone.mp4"], what: "x264 on raw frames")
            }
        }
    }

    /// One row of the MP4 comparison: frames per second into MP4s with the same x264 settings.
    public struct MP4Comparison: Sendable {
        /// Segue's render path, from the mean time of one run before the peer and one after it.
        public let segue: Double
        /// ffmpeg's xfade filtergraph.
        public let xfade: Double
        /// x264 alone on the same frames: the floor both share.
        public let x264Alone: Double
    }

    /// `effect` against xfade's `transition`, each into an MP4 with `settings`: Segue before and
    /// after the peer (so that load from elsewhere on the machine hits both alike), then x264 alone.
    /// - Throws: `MediaError.ffmpegNotFound`; `RenderError.invalidValue` when ffmpeg fails; GPU errors.
    public func mp4Comparison(
        _ effect: Effect, parameters: [String: ParameterValue] = [:], xfade transition: String, settings: VideoSettings
    ) throws -> MP4Comparison {
        let before = try mp4Seconds(effect, parameters: parameters, settings: settings)
        let peer = try xfadeMP4Seconds(transition, settings: settings)
        let after = try mp4Seconds(effect, parameters: parameters, settings: settings)
        let alone = try x264AloneSeconds(effect, parameters: parameters, settings: settings)
        let n = Double(frames)
        return MP4Comparison(segue: 2 * n / (before + after), xfade: n / peer, x264Alone: n / alone)
    }

    private func x264Arguments(_ settings: VideoSettings) -> [String] {
        [
            "-c:v", "libx264", "-preset", settings.preset ?? VideoSettings.defaultPreset, "-crf",
            String(settings.crf ?? VideoCodec.h264.defaultCRF ?? 23), "-pix_fmt", "yuv420p",
            "-movflags", "+faststart", "-f", "mp4",
        ]
    }
}
