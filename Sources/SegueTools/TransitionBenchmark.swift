import Dispatch
import FoundationEssentials
import Segue
import SegueCore
import SegueMedia
import SegueShaders
import SegueVulkan

// Frames per second of a transition, measured three ways: shading only, with readback to the
// host, and end to end as raw RGBA8 frames into a pipe drained by another thread; and the same
// for ffmpeg's xfade filter producing raw RGBA8 into a pipe, as `segue bench` compares them.
// ffmpeg decodes each input once (the loop filter), so the comparison is of transition
// rendering, not of PNG decoding.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Throughput measurements of transitions and of ffmpeg's xfade peer.
public struct TransitionBenchmark {
    /// How much of the work a measurement includes.
    public enum Mode: String, Sendable, CaseIterable {
        /// GPU shading only (no copy to the host).
        case render
        /// Shading and readback to host memory.
        case readback
        /// Shading, readback, straight alpha and raw frames written into a pipe.
        case pipe
    }

    /// Segue effect (with parameters) → the nearest xfade transition.
    public static let xfadePeers: [(effect: String, params: [(String, String)], xfade: String)] = [
        ("fade", [], "fade"), ("wipe", [("direction", "-1,0")], "wipeleft"),
        ("ios-push", [], "slideleft"), ("circle", [], "circleopen"),
    ]

    /// What `segue bench` measures, in order: Segue's full-screen built-ins, then the xfade
    /// equivalents of the ffmpeg peers; each with the parameters its peer row uses.
    public static func benchedEffects() throws -> [(effect: Effect, parameters: [String: ParameterValue])] {
        let effects =
            EffectCatalog.builtIns(in: .segue).filter { $0.kind == .fullScreen }
            + xfadePeers.compactMap { peer in EffectCatalog.builtIns(in: .xfade).first { $0.name == peer.xfade } }
        return try effects.map { effect in
            let params = xfadePeers.first { $0.effect == effect.name }?.params ?? []
            return (effect, try effect.resolveParameters(params.map { (name: $0.0, value: $0.1) }))
        }
    }

    /// Frame width and height.
    public let width: Int, height: Int
    /// Frames per measurement (at 30 fps).
    public let frames: Int
    /// Runs per measurement; the median is reported.
    public let runs: Int
    /// The device.
    public let context: GPUContext
    /// The two inputs: the sample screens fitted (cover) to the frame size.
    public let from: Image, to: Image
    /// Stops the benchmark from outside (its scratch files and encoders are registered with it).
    public let cancellation: Cancellation?

    /// Prepares the inputs.
    /// - Throws: `RenderError.outOfRange` for frames (`checkFrames`) or runs (`checkRuns`) out of
    ///   range; GPU errors.
    public init(width: Int, height: Int, frames: Int, runs: Int, context: GPUContext, cancellation: Cancellation? = nil) throws {
        try Self.checkFrames(frames)
        try Self.checkRuns(runs)
        (self.width, self.height, self.frames, self.runs, self.context) = (width, height, frames, runs, context)
        self.cancellation = cancellation
        let fit = try TransitionRenderer(
            effect: EffectCatalog.builtIn(named: "fade")!, from: SampleScreens.home(scale: 2),
            to: SampleScreens.detail(scale: 2), width: width, height: height, context: context, framesInFlight: 1)
        from = try fit.frame(progress: 0, time: 0, duration: 1)
        to = try fit.frame(progress: 1, time: 1, duration: 1)
    }

    /// Refuses a number of frames per measurement outside 2…`Timeline.maximumFrameCount` (every
    /// benchmark's rule: the transitions', the meshes' and the animation engine's).
    /// - Throws: `RenderError.outOfRange` naming `frames`.
    public static func checkFrames(_ frames: Int) throws {
        guard (2...Timeline.maximumFrameCount).contains(frames) else {
            throw RenderError.outOfRange(setting: "frames", allowed: "from 2 to \(Timeline.maximumFrameCount)", value: "\(frames)")
        }
    }

    /// Refuses a number of runs to take the median of outside 1…100 (every benchmark's rule).
    /// - Throws: `RenderError.outOfRange` naming `runs`.
    public static func checkRuns(_ runs: Int) throws {
        guard (1...100).contains(runs) else { throw RenderError.outOfRange(setting: "runs", allowed: "from 1 to 100", value: "\(runs)") }
    }

    /// The x264 settings of every benchmark encode (the MP4 comparison, the concat benchmarks),
    /// checked against an MP4 as every command checks its `--preset` and `--crf`.
    /// - Throws: `VideoSettingsError` for a preset or CRF x264 does not take.
    public static func encoderSettings(preset: String, crf: Int) throws(VideoSettingsError) -> VideoSettings {
        let settings = VideoSettings(preset: preset, crf: crf)
        try settings.validate(for: .mp4)
        return settings
    }

    /// The most frames the xfade peers take: ffmpeg's xfade lasts at most 60 s, at 30 fps.
    public static let xfadeMaximumFrames = 60 * 30 + 1

    /// Seconds the transition lasts: `frames` at 30 fps.
    public var duration: Double { Double(frames - 1) / 30 }

    /// Frames per second of `effect` (median of `runs`), after an untimed warm-up.
    public func framesPerSecond(_ effect: Effect, parameters: [String: ParameterValue] = [:], mode: Mode) throws -> Double {
        let timeline = try Timeline(duration: duration, fps: 30, curve: { $0 })
        let renderer = try TransitionRenderer(
            effect: effect, from: from, to: to, parameters: parameters, context: context,
            readback: mode != .render)
        // Warm-up: the driver compiles shader variants on first draw.
        try renderer.render(try Timeline(duration: 1, fps: 2, curve: { $0 })) { _, _ in }
        let seconds = try median {
            switch mode {
            case .pipe:
                return try Self.timeIntoPipe { fd in
                    let sink = rawFrameSink(fileDescriptor: fd, width: renderer.width, height: renderer.height)
                    try renderer.render(timeline) { i, pixels in try sink.write(frame: i, pixels: pixels) }
                }
            case .render, .readback:
                return try Self.renderSeconds(renderer, timeline)
            }
        }
        return Double(timeline.frameCount) / seconds
    }

    /// Seconds `renderer` takes to render `timeline`, touching one byte of each frame read back.
    static func renderSeconds(_ renderer: TransitionRenderer, _ timeline: Timeline) throws -> Double {
        var checksum: UInt8 = 0
        defer { _ = checksum }
        return try Stopwatch.time {
            try renderer.render(timeline) { _, pixels in if !pixels.isEmpty { checksum &+= pixels[pixels.count / 2] } }
        }
    }

    /// A peer measured alongside Segue: the peer's frames per second, measured between two of
    /// Segue's end-to-end (`.pipe`) measurements of each of `effects`, and Segue's frames per
    /// second for each from the mean time per frame of those two, so that load from elsewhere on
    /// the machine hits both alike.
    public func alongside(
        _ effects: [(effect: Effect, parameters: [String: ParameterValue])],
        peer: () throws -> Double
    ) throws -> (peer: Double, segue: [Double]) {
        func secondsPerFrame() throws -> [Double] {
            try effects.map { 1 / (try framesPerSecond($0.effect, parameters: $0.parameters, mode: .pipe)) }
        }
        let before = try secondsPerFrame(), fps = try peer(), after = try secondsPerFrame()
        return (fps, effects.indices.map { 2 / (before[$0] + after[$0]) })
    }

    /// Frames per second of ffmpeg's `xfade=transition=NAME` on the same inputs and frame count,
    /// raw RGBA8 into a pipe (median of `runs`).
    /// - Throws: `MediaError.ffmpegNotFound`, or `RenderError.invalidValue` when ffmpeg fails;
    ///   `SystemError.cancelled` when `cancellation` stops it.
    public func xfadeFramesPerSecond(_ transition: String) throws -> Double {
        try withScratchDirectory { dir in
            let inputs = try xfadeInputs(transition, in: dir, converting: "gbrp", output: "rgba")
            let seconds = try median {
                try timeFFmpeg(inputs + ["-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"], what: "ffmpeg xfade=\(transition)")
            }
            return Double(frames) / seconds
        }
    }

    /// ffmpeg's filter graph for `xfade=transition=NAME` between its inputs 0 and 1, stills: each
    /// decoded and converted to `pixelFormat` once (the conversion before the loop), looped at 30
    /// fps and faded over the benchmark's duration, then converted to `output` when given.
    func xfadeGraph(_ transition: String, converting pixelFormat: String, output: String? = nil) -> String {
        let input = { (n: Int, label: String) in "[\(n):v]format=\(pixelFormat),loop=loop=-1:size=1,fps=30[\(label)];" }
        return input(0, "a") + input(1, "b") + "[a][b]xfade=transition=\(transition):duration=\(duration):offset=0"
            + (output.map { ",format=\($0)" } ?? "")
    }

    /// Writes the two inputs as PNGs into `dir` and returns ffmpeg's options that read them through
    /// `xfadeGraph` for the benchmark's frames (the output's options follow them).
    func xfadeInputs(_ transition: String, in dir: String, converting pixelFormat: String, output: String? = nil) throws -> [String] {
        try ImageFile.write(from, to: dir + "/from.png")
        try ImageFile.write(to, to: dir + "/to.png")
        return [
            "-i", dir + "/from.png", "-i", dir + "/to.png", "-filter_complex",
            xfadeGraph(transition, converting: pixelFormat, output: output),
            "-frames:v", String(frames),
        ]
    }

    // MARK: - Helpers

    /// `body` with a fresh scratch directory registered with `cancellation` (whose `cancel()`
    /// removes it), removed afterwards: `FileIO.withScratchDirectory`, where every benchmark keeps
    /// its scratch files.
    func withScratchDirectory<T>(_ body: (String) throws -> T) throws -> T {
        try FileIO.withScratchDirectory(prefix: "segue-bench", cancellation: cancellation, body)
    }

    /// Seconds one ffmpeg run with `arguments` takes (quiet, `-nostdin -y`, standard output
    /// drained), under `cancellation`.
    /// - Throws: `MediaError.ffmpegNotFound`; `RenderError.invalidValue` naming `what` when it
    ///   fails; `SystemError.cancelled`.
    func timeFFmpeg(_ arguments: [String], what: String) throws -> Double {
        let ffmpeg = try FFmpeg.ffmpegExecutable(for: what)
        return try Self.runProgram(
            ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments, what: what, cancellation: cancellation
        ).seconds
    }

    /// Runs `executable` with `arguments` to its end, its standard output drained, as every
    /// benchmark runs a program (ffmpeg, the moderngl peer, melt, `segue render`, concat workers):
    /// timed, and registered with `cancellation`, whose `cancel()` kills it and its process group.
    /// - Parameters:
    ///   - what: what it does, for the error ("ffmpeg xfade=fade").
    ///   - environment, inheriting: its environment, as `ProgramRun` takes it.
    ///   - timeout: seconds after which it is killed; such a run is returned (`timedOut`), not
    ///     thrown, for the caller to try again. Nil: no limit.
    /// - Returns: the run: its `seconds` and its standard error.
    /// - Throws: `RenderError.invalidValue` naming `what`, the exit status and the last lines of
    ///   its standard error when it fails; `SystemError` when it cannot start, and `.cancelled`
    ///   when `cancellation` stops it (or was cancelled before: nothing is started).
    static func runProgram(
        _ executable: String, _ arguments: [String], what: String, environment: [String: String] = [:], inheriting: Bool = true,
        timeout: Double? = nil, cancellation: Cancellation?
    ) throws -> ProgramRun {
        let run = try ProgramRun(
            executable, arguments, environment: environment, inheriting: inheriting, timeout: timeout, keepingOutput: false,
            cancellation: cancellation)
        guard run.status == 0 || run.timedOut else {
            let lines = run.stderr.split(separator: "\n").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }.suffix(3)
            throw RenderError.invalidValue(
                "\(what) failed with status \(run.status): \(lines.isEmpty ? "no message" : lines.joined(separator: " / "))")
        }
        return run
    }

    /// The median of `runs` results of `measure`.
    func median(_ measure: () throws -> Double) rethrows -> Double {
        try Statistics.median(of: runs, measure)
    }

    /// Reads `fd` to its end, discarding the bytes.
    static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while buffer.withUnsafeMutableBytes({ FileIO.readSome(fd, $0) }) > 0 {}
    }

    /// Times `write`, which writes into a pipe's write end while another thread drains it.
    /// - Parameter drainerStack: stack bytes of the draining thread.
    /// - Throws: `RenderError.invalidValue` when no pipe can be made; `SystemError.systemLimit`
    ///   when the draining thread cannot start (`write` has then not run: nothing would read what
    ///   it writes); what `write` throws.
    static func timeIntoPipe(drainerStack: Int = WorkerThread.stackSize, _ write: (Int32) throws -> Void) throws -> Double {
        let reader: Int32, writer: Int32
        switch FileIO.makePipe() {
        case let .success(ends): (reader, writer) = ends
        case let .failure(failure): throw RenderError.invalidValue("cannot create a pipe: \(FileIO.message(failure.code))")
        }
        let drained = DispatchSemaphore(value: 0)
        do {
            try WorkerThread.start(for: "the benchmark's pipe", stackSize: drainerStack) {
                drain(reader)
                close(reader)
                drained.signal()
            }
        } catch {
            close(reader)
            close(writer)
            throw error
        }
        let watch = Stopwatch()
        do { try write(writer) } catch {
            close(writer)
            drained.wait()
            throw error
        }
        close(writer)
        drained.wait()
        return watch.elapsed
    }
}
