// `segue bench`: frames per second of each built-in, (a) shading only, (b) with readback,
// (c) end to end as raw frames into a pipe, beside ffmpeg's xfade on the same inputs and
// frame count and the moderngl peer (the fade through OpenGL on the same driver). ffmpeg decodes
// each input once (loop filter) so the comparison is of transition rendering, not PNG decoding;
// then the same into an MP4 beside xfade and x264 alone, and the mesh pipeline (`--meshes`).
// `--account` prints where a frame's time goes instead (Docs/Performance.md).
import ArgumentParser
import FoundationEssentials
import Segue
import SegueTools

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Benchmark built-in effects against ffmpeg xfade.")

    @Option(help: ArgumentHelp("Frame size.", valueName: "WxH"))
    var size: String = "1920x1080"

    @Option(parsing: .unconditional, help: "Frames per measurement.")
    var frames: Int = 120

    @OptionGroup var deviceOptions: DeviceOptions

    @Option(parsing: .unconditional, help: "Runs per measurement; the median is reported.")
    var runs: Int = 3

    @Flag(name: .customLong("no-ffmpeg"), help: "Skip the ffmpeg xfade peers.")
    var noFFmpeg = false

    @Flag(name: .customLong("no-moderngl"), help: "Skip the moderngl peer (the fade through OpenGL on the same driver).")
    var noModernGL = false

    @Flag(help: "Benchmark the animation engine instead: cost per frame for 1,000 to 100,000 animated properties.")
    var animations = false

    @Flag(help: "Benchmark the mesh pipeline instead: a 100×100 grid static, re-uploaded and rebuilt every frame.")
    var meshes = false

    @Flag(
        help:
            "Benchmark segue concat instead: three 10 s clips of --size at 30 fps with two 1 s fades, full and --smart, against ffmpeg xfade + acrossfade."
    )
    var concat = false

    @Option(
        help: ArgumentHelp(
            "With --concat: six 10 s clips of mixed sizes with five transitions in one process, against their plan's jobs run by N 'segue concat --job' processes at once, and the time predicted on 4, 16 and 64 machines.",
            valueName: "N"))
    var jobs: Int?

    @OptionGroup var jobSeconds: JobSecondsOption

    @Option(help: ArgumentHelp("x264 preset of every encode (--concat and the MP4 comparison).", valueName: "P"))
    var preset: String = "veryfast"

    @Option(parsing: .unconditional, help: ArgumentHelp("x264 CRF of every encode (--concat and the MP4 comparison).", valueName: "N"))
    var crf: Int = 23

    @Flag(
        help:
            "Account for a frame stage by stage instead: shading, readback, straight alpha, pipe write, end to end, and the encoder's colour conversion."
    )
    var account = false

    @Flag(
        help:
            "Benchmark the host path instead: a 2 s transition of --size rendered by melt through the frei0r plugin, by segue render, and by MLT's own luma dissolve (needs melt)."
    )
    var hosts = false

    @Option(
        name: .customLong("effect"),
        help: ArgumentHelp(
            "An effect for --account (name or .glsl path; repeat; default: fade, wipe, ios-push, doom-melt, cube), or the built-in for --hosts (default fade).",
            valueName: "E"))
    var accountEffects: [String] = []

    /// Every check of the options that needs no GPU, before anything is measured; the library's
    /// own checks (frames, runs, the x264 settings) worded as the flags that set them.
    func validate() throws {
        _ = try parseSize(size)
        do {
            try TransitionBenchmark.checkFrames(frames)
            try TransitionBenchmark.checkRuns(runs)
            _ = try TransitionBenchmark.encoderSettings(preset: preset, crf: crf)
        } catch let error as SegueError {
            throw ValidationError(FlagWording.message(for: error))
        }
        // One benchmark a run: a second mode flag was ignored without a word.
        try validateOneOf(["--animations": animations, "--meshes": meshes, "--concat": concat, "--hosts": hosts, "--account": account])
        if !accountEffects.isEmpty, !(hosts || account) { throw ValidationError("--effect goes with --account or --hosts") }
        if hosts, accountEffects.count > 1 { throw ValidationError("--hosts takes one --effect, got \(accountEffects.count)") }
        if let jobs {
            guard concat else { throw ValidationError("--jobs goes with --concat") }
            guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 256, got \(jobs)") }
        } else if jobSeconds.given != nil {
            throw ValidationError("--job-seconds goes with --concat --jobs")
        }
    }

    func run() throws {
        if animations {
            print("Animation engine: one AnimationContext.update() per frame, \(frames) frames, every property animated")
            print("properties".padding(toLength: 12) + "   ms/frame     frames/s   ns/property")
            for row in try AnimationBenchmark(counts: [1_000, 10_000, 100_000], frames: frames).measure() {
                let perFrame = row.secondsPerFrame
                print(
                    String(
                        cFormat: "%10d   %8.3f   %10.1f   %11.1f", row.count, perFrame * 1000, 1 / perFrame,
                        perFrame * 1e9 / Double(row.count)))
            }
            return
        }
        let (w, h) = try parseSize(size)
        if let jobs {
            try ConcatJobsBench(
                width: w, height: h, preset: preset, crf: crf, workers: jobs, jobSeconds: jobSeconds.seconds,
                device: deviceOptions
            ).run()
            return
        }
        if concat {
            try ConcatBench(width: w, height: h, preset: preset, crf: crf, device: deviceOptions).run()
            return
        }
        let context = try deviceOptions.context()
        if hosts {
            try HostBench(width: w, height: h, runs: runs, effect: accountEffects.first ?? "fade", context: context).run()
            return
        }
        if meshes {
            try MeshBench(width: w, height: h, frames: frames, runs: runs, context: context).run()
            return
        }
        let bench = try TransitionBenchmark(
            width: w, height: h, frames: frames, runs: runs, context: context, cancellation: InterruptHandler.cancellation)
        if account {
            try runAccount(bench)
            return
        }
        print(
            "Segue bench: \(w)x\(h), \(frames) frames, median of \(runs) runs, device \(context.info.name) (\(context.info.type.rawValue)), \(ProcessInfo.processInfo.activeProcessorCount) CPU cores"
        )
        print(row("effect", "mode", "fps", "ms/frame"))
        var resolved: [String: (Effect, [String: ParameterValue])] = [:]
        for (effect, values) in try TransitionBenchmark.benchedEffects() {
            resolved[effect.name] = (effect, values)
            for mode in TransitionBenchmark.Mode.allCases {
                let fps = try bench.framesPerSecond(effect, parameters: values, mode: mode)
                print(row(effect.name, mode.rawValue, String(cFormat: "%.1f", fps), String(cFormat: "%.2f", 1000 / fps)))
            }
        }
        // A peer's ratio compares it with Segue's end to end measured right before and right after it.
        func alongside(_ name: String, _ peer: () throws -> Double) throws -> (peer: Double, segue: [String: Double]) {
            let names = name.split(separator: ",").map(String.init).filter { resolved[$0] != nil }
            let measured = try bench.alongside(
                names.map {
                    let (e, v) = resolved[$0]!; return (effect: e, parameters: v)
                }, peer: peer)
            return (measured.peer, Dictionary(uniqueKeysWithValues: zip(names, measured.segue)))
        }
        func ratio(_ name: String, _ segue: [String: Double], _ peer: Double) -> String {
            name + String(cFormat: ": %.2fx (segue %.1f fps alongside)", (segue[name] ?? 0) / peer, segue[name] ?? 0)
        }
        if !noModernGL {
            print("")
            if frames > ModernGLPeer.maximumFrames {
                print("moderngl peer skipped: it renders at most \(ModernGLPeer.maximumFrames) frames")
            } else if ModernGLPeer.isAvailable(cancellation: InterruptHandler.cancellation) {
                let (fps, ours) = try alongside("fade") { try bench.modernGLFadeFramesPerSecond() }
                print(row("moderngl", "pipe", "fps", "ms/frame") + "   segue end-to-end / moderngl")
                print(
                    row("fade", "pipe", String(cFormat: "%.1f", fps), String(cFormat: "%.2f", 1000 / fps)) + "   "
                        + ratio("fade", ours, fps))
            } else {
                print("moderngl peer skipped: python3 cannot import moderngl (install it with '\(ModernGLPeer.installHint)')")
            }
        }
        print("")
        if frames > TransitionBenchmark.xfadeMaximumFrames {
            print("xfade peers skipped: ffmpeg's xfade lasts at most 60 s, \(TransitionBenchmark.xfadeMaximumFrames) frames at 30 fps")
        } else if runsFFmpegPeers("xfade peers") {
            print(row("xfade", "pipe", "fps", "ms/frame") + "   segue end-to-end / xfade")
            for peer in TransitionBenchmark.xfadePeers {
                let both = peer.xfade == peer.effect ? peer.effect : peer.effect + "," + peer.xfade
                let (fps, ours) = try alongside(both) { try bench.xfadeFramesPerSecond(peer.xfade) }
                let ratios = both.split(separator: ",").map { ratio(String($0), ours, fps) }.joined(separator: ", ")
                print(row(peer.xfade, "pipe", String(cFormat: "%.1f", fps), String(cFormat: "%.2f", 1000 / fps)) + "   " + ratios)
            }
            try runMP4Comparison(bench, resolved: resolved)
        }
        // The mesh targets too, so that one command prints every figure and ratio.
        print("")
        try MeshBench(width: bench.width, height: bench.height, frames: frames, runs: bench.runs, context: bench.context).run()
    }

    /// Into an MP4 with the same x264 settings: Segue (before and after the peer, averaged), ffmpeg
    /// xfade, and x264 alone on the same frames, the floor both share.
    private func runMP4Comparison(_ bench: TransitionBenchmark, resolved: [String: (Effect, [String: ParameterValue])]) throws {
        let settings = VideoSettings(preset: preset, crf: crf)  // checked by validate()
        print("")
        print("MP4 (libx264 --preset \(preset) --crf \(crf), \(bench.frames) frames): fps")
        print("effect".padding(toLength: 12) + "     segue     xfade  x264 alone   segue/xfade   ceiling (x264 alone/xfade)")
        for (name, xfade) in [("fade", "fade"), ("wipe", "wipeleft")] {
            guard let (effect, values) = resolved[name] else { continue }
            let fps = try bench.mp4Comparison(effect, parameters: values, xfade: xfade, settings: settings)
            let cells = [fps.segue, fps.xfade, fps.x264Alone].map { String(cFormat: "%10.1f", $0) }.joined()
            print(
                "\(name)/\(xfade)".padding(toLength: 12) + cells
                    + String(cFormat: "   %10.2fx   %10.2fx", fps.segue / fps.xfade, fps.x264Alone / fps.xfade))
        }
    }

    private func runAccount(_ bench: TransitionBenchmark) throws {
        let names = accountEffects.isEmpty ? ["fade", "wipe", "ios-push", "doom-melt", "cube"] : accountEffects
        let effects = try names.map { try EffectCatalog.effect($0) }
        let context = bench.context
        print(
            "Segue frame account: \(bench.width)x\(bench.height), \(bench.frames) frames, median of \(bench.runs) runs, device \(context.info.name) (\(context.info.type.rawValue)), \(ProcessInfo.processInfo.activeProcessorCount) CPU cores; ms per frame"
        )
        let header = ["effect", "shading", "readback", "straight", "pipe", "sum", "end-to-end", "fps", "translucent"]
        print(accountRow(header))
        for effect in effects {
            let a = try bench.account(effect)
            print(
                accountRow(
                    [a.effect]
                        + [a.shading, a.readback, a.straightAlpha, a.pipeWrite, a.stageSum, a.endToEnd].map { String(cFormat: "%.2f", $0) }
                        + [String(cFormat: "%.1f", 1000 / a.endToEnd), "\(a.translucentFrames)/\(a.frames)"]))
        }
        guard runsFFmpegPeers("encoder colour conversion") else { return }
        let conversion = try bench.encoderColourConversion()
        print(String(cFormat: "encoder colour conversion (ffmpeg rgba -> yuv420p, any effect): %.2f ms per frame", conversion))
    }

    /// Whether the rows that need ffmpeg run: not with --no-ffmpeg, and not where ffmpeg or
    /// ffprobe is missing, which a line names as every command does (the rest of the bench
    /// stands without them).
    private func runsFFmpegPeers(_ what: String) -> Bool {
        guard !noFFmpeg else { return false }
        if let problem = FFmpeg.videoToolsProblem(for: "\(what) skipped") {
            print(problem.description)
            return false
        }
        return true
    }

    private func accountRow(_ cells: [String]) -> String {
        cells.enumerated().map { i, c in
            i == 0 ? c.padding(toLength: 12) : " " + c.rightAligned(10)
        }.joined()
    }

    private func row(_ a: String, _ b: String, _ c: String, _ d: String) -> String {
        a.padding(toLength: 12) + b.padding(toLength: 10) + c.rightAligned(9) + d.rightAligned(10)
    }
}
