import FoundationEssentials
import Segue
import SegueCore
import SegueMedia

// `segue bench --concat`: three 10 s 1080p30 H.264 clips (a keyframe every second, AAC sound)
// joined with two 1 s fades, four ways in one run: ffmpeg's own filtergraph (`xfade` +
// `acrossfade`, everything decoded and re-encoded), Segue's full render, and Segue's smart render
// (also with the fade given as a `.glsl` file, so its frames are drawn on the GPU) — the same x264
// preset and CRF for all. Wall-clock seconds, output frames per second, the
// speed-up over ffmpeg, and where the time went: the CPU seconds of Segue's own process and of
// its ffmpeg children, and for Segue's renders the time its feeding thread spent waiting for
// decoders, drawing transitions and blocked on the encoder.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The concatenation benchmark.
public struct ConcatBenchmark {
    /// One measured way of making the output.
    public struct Result: Sendable {
        /// "ffmpeg xfade", "segue full", "segue --smart" or "--smart .glsl".
        public let mode: String
        /// Wall-clock seconds.
        public let seconds: Double
        /// Frames in the output.
        public let frames: Int
        /// CPU seconds of this process and of the child processes (ffmpeg) during the run.
        public let processCPU: Double, childCPU: Double
        /// Segue's own breakdown (nil for ffmpeg).
        public let timings: ConcatTimings?
        /// Frames rendered by a smart render (nil otherwise).
        public let renderedFrames: Int?

        /// Output frames per wall-clock second.
        public var fps: Double { Double(frames) / seconds }
    }

    /// Clip size and rate.
    public let width: Int, height: Int, fps: Int
    /// Seconds per clip.
    public let clipSeconds: Int
    /// The x264 preset and CRF of every encode.
    public let preset: String, crf: Int
    private let context: () throws -> GPUContext
    /// Stops the benchmark from outside (its scratch directory and renders are registered with it).
    private let cancellation: Cancellation?

    /// A benchmark; `context` gives the GPU for the transitions.
    /// - Throws: `VideoSettingsError` for a preset or CRF x264 does not take.
    public init(
        width: Int = 1920, height: Int = 1080, fps: Int = 30, clipSeconds: Int = 10, preset: String = "veryfast", crf: Int = 23,
        context: @escaping () throws -> GPUContext, cancellation: Cancellation? = nil
    ) throws {
        _ = try TransitionBenchmark.encoderSettings(preset: preset, crf: crf)
        (self.width, self.height, self.fps, self.clipSeconds, self.preset, self.crf, self.context) = (
            width, height, fps, clipSeconds, preset, crf, context
        )
        self.cancellation = cancellation
    }

    /// Makes the clips in a temporary directory, runs the three renders, removes everything.
    /// - Parameter log: told what is happening (clip generation is not timed).
    public func run(log: (String) -> Void = { _ in }) throws -> [Result] {
        try FileIO.withScratchDirectory(prefix: "segue-concat-bench", cancellation: cancellation) { try run(in: $0, log: log) }
    }

    private func run(in dir: String, log: (String) -> Void) throws -> [Result] {
        var clips: [String] = []
        for k in 0..<3 {
            let path = dir + "/clip\(k + 1).mp4"
            let clip = BenchmarkClip(width: width, height: height, fps: fps, seconds: clipSeconds, hue: k * 120, frequency: 300 * (k + 1))
            log("making clip\(k + 1).mp4 (\(clip))")
            try clip.write(to: path, cancellation: cancellation)
            clips.append(path)
        }
        var results: [Result] = []
        // ffmpeg's own filtergraph: fades at 9 s and 18 s of the joined picture.
        let a = clipSeconds - 1, b = 2 * clipSeconds - 2
        let graph =
            "[0:v][1:v]xfade=transition=fade:duration=1:offset=\(a)[v01];[v01][2:v]xfade=transition=fade:duration=1:offset=\(b)[v];"
            + "[0:a][1:a]acrossfade=d=1[a01];[a01][2:a]acrossfade=d=1[a]"
        log("ffmpeg xfade + acrossfade")
        let reference = dir + "/ffmpeg.mp4"
        results.append(
            try measure("ffmpeg xfade") {
                try FFmpeg.run(
                    [
                        "-i", FFmpeg.fileArgument(clips[0]), "-i", FFmpeg.fileArgument(clips[1]), "-i", FFmpeg.fileArgument(clips[2]),
                        "-filter_complex", graph, "-map", "[v]", "-map", "[a]",
                        "-c:v", "libx264", "-preset", preset, "-crf", String(crf), "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "192k",
                        "-movflags", "+faststart", FFmpeg.fileArgument(reference),
                    ], for: reference, cancellation: cancellation)
                return (try MediaProbe.probe(path: reference).video?.frameCount ?? 0, nil, nil)
            })
        let concatenation = try Concatenation(
            spec: ConcatSpec(clips: clips.map { ClipSpec(path: $0) }, transition: CutSpec(effect: "fade", duration: 1)))
        let settings = VideoSettings(preset: preset, crf: crf)
        log("segue concat")
        let full = try ConcatRenderer(
            concatenation, output: dir + "/full.mp4", settings: settings, context: context, cancellation: cancellation)
        results.append(
            try measure("segue full") {
                try full.render()
                return (concatenation.frameCount, full.timings, nil)
            })
        func smart(_ concatenation: Concatenation, _ mode: String, _ output: String) throws {
            log(mode)
            let renderer = try ConcatRenderer(
                concatenation, output: dir + "/" + output, settings: settings, context: context, cancellation: cancellation)
            results.append(
                try measure(mode) {
                    let report = try renderer.renderSmart()
                    if let reason = report.fallbackReason { throw RenderError.invalidValue("the smart render fell back: \(reason)") }
                    return (concatenation.frameCount, renderer.timings, report.plan?.renderedFrames)
                })
        }
        try smart(concatenation, "segue --smart", "smart.mp4")
        // The same fade as a transition file, which is drawn on the GPU (the built-in `fade` is
        // dissolved on the CPU in the frames' own layout): what any other effect costs.
        let fadeFile = dir + "/fade.glsl"
        try "// Origin: top-left\nvec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }\n"
            .write(toFile: fadeFile, atomically: true, encoding: .utf8)
        try smart(
            Concatenation(spec: ConcatSpec(clips: clips.map { ClipSpec(path: $0) }, transition: CutSpec(effect: fadeFile, duration: 1))),
            "--smart .glsl", "smart-gpu.mp4")
        return results
    }

    /// Times `body`, with the CPU used by this process and its children meanwhile.
    private func measure(_ mode: String, _ body: () throws -> (frames: Int, timings: ConcatTimings?, rendered: Int?)) throws -> Result {
        let cpu0 = Self.cpuSeconds()
        var clock = Stopwatch()
        let (frames, timings, rendered) = try body()
        let seconds = clock.lap()
        let cpu1 = Self.cpuSeconds()
        return Result(
            mode: mode, seconds: seconds, frames: frames, processCPU: cpu1.process - cpu0.process, childCPU: cpu1.children - cpu0.children,
            timings: timings, renderedFrames: rendered)
    }

    /// User + system CPU seconds of this process and of its waited-for children.
    private static func cpuSeconds() -> (process: Double, children: Double) {
        func seconds(_ who: Int32) -> Double {
            var usage = rusage()
            getrusage(__rusage_who_t(who), &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        return (seconds(RUSAGE_SELF.rawValue), seconds(RUSAGE_CHILDREN.rawValue))
    }
}
