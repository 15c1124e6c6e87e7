// `segue bench`: frames per second of each built-in, (a) shading only, (b) with readback,
// (c) end to end as raw frames into a pipe, beside ffmpeg's xfade on the same inputs and
// frame count. ffmpeg decodes each input once (loop filter) so the comparison is of
// transition rendering, not PNG decoding.
import ArgumentParser
import Foundation
import Segue

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Benchmark built-in effects against ffmpeg xfade.")

    @Option(help: ArgumentHelp("Frame size.", valueName: "WxH"))
    var size: String = "1920x1080"

    @Option(help: "Frames per measurement.")
    var frames: Int = 120

    @Option(help: "Vulkan device: an index or a name substring.")
    var device: String?

    @Option(help: "Runs per measurement; the median is reported.")
    var runs: Int = 3

    @Flag(name: .customLong("no-ffmpeg"), help: "Skip the ffmpeg xfade peers.")
    var noFFmpeg = false

    @Flag(help: "Benchmark the animation engine instead: cost per frame for 1,000 to 100,000 animated properties.")
    var animations = false

    @Flag(help: "Benchmark the mesh pipeline instead: a 100×100 grid static, re-uploaded and rebuilt every frame.")
    var meshes = false

    /// Segue effect (with parameters) → nearest xfade transition.
    static let peers: [(effect: String, params: [(String, String)], xfade: String)] = [
        ("fade", [], "fade"), ("wipe", [("direction", "-1,0")], "wipeleft"),
        ("ios-push", [], "slideleft"), ("circle", [], "circleopen"),
    ]

    func run() throws {
        if animations {
            try AnimationBenchmark(counts: [1_000, 10_000, 100_000], frames: frames).run()
            return
        }
        let (w, h) = try InputOptions.parseSize(size)
        let context = try GPUContext(configuration: .init(environment: ProcessInfo.processInfo.environment, deviceSelector: device))
        if meshes {
            try MeshBench(width: w, height: h, frames: frames, context: context).run()
            return
        }
        guard frames > 1 else { throw ValidationError("--frames must be at least 2") }
        // Inputs: the sample screens fitted (cover) to the frame size.
        let fit = try TransitionRenderer(effect: EffectCatalog.builtIn(named: "fade")!, from: SampleScreens.home(scale: 2),
                                         to: SampleScreens.detail(scale: 2), width: w, height: h, context: context, framesInFlight: 1)
        let from = try fit.frame(progress: 0, time: 0, duration: 1), to = try fit.frame(progress: 1, time: 1, duration: 1)
        let duration = Double(frames - 1) / 30

        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        print("Segue bench: \(w)x\(h), \(frames) frames, median of \(runs) runs, device \(context.info.name) (\(context.info.type.rawValue)), \(ProcessInfo.processInfo.activeProcessorCount) CPU cores")
        print(row("effect", "mode", "fps", "ms/frame"))
        var endToEnd: [String: Double] = [:]
        // Segue's own full-screen effects and the xfade equivalents of the ffmpeg peers.
        let effects = EffectCatalog.builtIns(in: .segue).filter { $0.kind == .fullScreen }
            + Self.peers.compactMap { peer in EffectCatalog.builtIns(in: .xfade).first { $0.name == peer.xfade } }
        for effect in effects {
            let params = Self.peers.first { $0.effect == effect.name }?.params ?? []
            let values = try effect.resolveParameters(params.map { (name: $0.0, value: $0.1) })
            let timeline = Timeline(duration: duration, fps: 30, curve: { $0 })
            for mode in ["render", "readback", "pipe"] {
                let renderer = try TransitionRenderer(effect: effect, from: from, to: to, parameters: values, context: context,
                                                      readback: mode != "render")
                // Warm-up, untimed: the driver compiles shader variants on first draw.
                try renderer.render(Timeline(duration: 1, fps: 2, curve: { $0 })) { _, _ in }
                let seconds = try median(runs) {
                    if mode == "pipe" { return try timePipe(renderer, timeline) }
                    var sink: UInt8 = 0
                    let start = DispatchTime.now()
                    try renderer.render(timeline) { _, pixels in if !pixels.isEmpty { sink &+= pixels[pixels.count / 2] } }
                    _ = sink
                    return elapsed(since: start)
                }
                let fps = Double(timeline.frameCount) / seconds
                if mode == "pipe" { endToEnd[effect.name] = fps }
                print(row(effect.name, mode, String(format: "%.1f", fps), String(format: "%.2f", 1000 / fps)))
            }
        }
        guard !noFFmpeg else { return }
        let ffmpeg = try FFmpeg.ffmpegExecutable(for: "xfade benchmark")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("segue-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ImageFile.write(from, to: dir + "/from.png")
        try ImageFile.write(to, to: dir + "/to.png")
        print("")
        print(row("xfade", "pipe", "fps", "ms/frame") + "   segue end-to-end / xfade")
        for peer in Self.peers {
            let seconds = try median(runs) { try timeXfade(ffmpeg: ffmpeg, dir: dir, transition: peer.xfade, duration: duration) }
            let fps = Double(frames) / seconds
            var ratios = String(format: "   %@: %.2fx", peer.effect, (endToEnd[peer.effect] ?? 0) / fps)
            if peer.xfade != peer.effect, let same = endToEnd[peer.xfade] {
                ratios += String(format: ", %@: %.2fx", peer.xfade, same / fps)
            }
            print(row(peer.xfade, "pipe", String(format: "%.1f", fps), String(format: "%.2f", 1000 / fps)) + ratios)
        }
    }

    private func median(_ n: Int, _ measure: () throws -> Double) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<n { times.append(try measure()) }
        return times.sorted()[n / 2]
    }

    private func row(_ a: String, _ b: String, _ c: String, _ d: String) -> String {
        a.padding(toLength: 12, withPad: " ", startingAt: 0) + b.padding(toLength: 10, withPad: " ", startingAt: 0)
            + String(repeating: " ", count: max(0, 9 - c.count)) + c + String(repeating: " ", count: max(0, 10 - d.count)) + d
    }

    private func elapsed(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// End to end: frames written as raw RGBA8 into a pipe drained by another thread.
    private func timePipe(_ renderer: TransitionRenderer, _ timeline: Timeline) throws -> Double {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw CLIFailure(message: "pipe() failed") }
        let reader = fds[0], writer = fds[1]
        let drained = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while buffer.withUnsafeMutableBytes({ read(reader, $0.baseAddress, $0.count) }) > 0 {}
            close(reader)
            drained.signal()
        }
        let sink = rawFrameSink(fileDescriptor: writer, width: renderer.width, height: renderer.height)
        let start = DispatchTime.now()
        try renderer.render(timeline) { i, pixels in try sink.write(frame: i, pixels: pixels) }
        close(writer)
        drained.wait()
        return elapsed(since: start)
    }

    /// ffmpeg xfade producing raw RGBA frames into a pipe we drain.
    private func timeXfade(ffmpeg: String, dir: String, transition: String, duration: Double) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        let graph = "[0:v]loop=loop=-1:size=1,fps=30,format=gbrp[a];[1:v]loop=loop=-1:size=1,fps=30,format=gbrp[b];"
            + "[a][b]xfade=transition=\(transition):duration=\(duration):offset=0,format=rgba"
        process.arguments = ["-hide_banner", "-loglevel", "error", "-i", dir + "/from.png", "-i", dir + "/to.png",
                             "-filter_complex", graph, "-frames:v", String(frames), "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"]
        let out = Pipe()
        process.standardOutput = out
        let start = DispatchTime.now()
        try process.run()
        let handle = out.fileHandleForReading
        while !handle.availableData.isEmpty {}
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CLIFailure(message: "ffmpeg xfade=\(transition) failed with status \(process.terminationStatus)") }
        return elapsed(since: start)
    }
}
