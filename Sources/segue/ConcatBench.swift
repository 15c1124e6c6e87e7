import FoundationEssentials
import Segue
import SegueTools

// `segue bench --concat`: prints the concatenation benchmark's table (the work is in the library).
struct ConcatBench {
    let width: Int, height: Int, preset: String, crf: Int
    let device: DeviceOptions

    func run() throws {
        let bench = try ConcatBenchmark(
            width: width, height: height, preset: preset, crf: crf, context: { try device.context() },
            cancellation: InterruptHandler.cancellation)
        let results = try bench.run { FileIO.writeStandardError("… \($0)\n") }
        print(
            "segue bench --concat: 3 × \(bench.clipSeconds) s \(width)x\(height) at \(bench.fps) fps (H.264, keyframe every second, AAC), "
                + "two 1 s fades; x264 --preset \(preset) --crf \(crf); \(ProcessInfo.processInfo.activeProcessorCount) CPU cores")
        print(
            pad("mode", 16) + pad("seconds", 10, right: true) + pad("fps", 9, right: true) + pad("× ffmpeg", 10, right: true)
                + pad("cpu self", 10, right: true) + pad("cpu ffmpeg", 12, right: true))
        let reference = results.first { $0.mode == "ffmpeg xfade" }?.seconds ?? 0
        for r in results {
            print(
                pad(r.mode, 16) + pad(String(cFormat: "%.2f", r.seconds), 10, right: true)
                    + pad(String(cFormat: "%.1f", r.fps), 9, right: true)
                    + pad(String(cFormat: "%.2f", reference / r.seconds), 10, right: true)
                    + pad(String(cFormat: "%.1f s", r.processCPU), 10, right: true)
                    + pad(String(cFormat: "%.1f s", r.childCPU), 12, right: true))
        }
        print("")
        print("where segue's time goes (its feeding thread; decoders and the encoder run in parallel in ffmpeg processes):")
        for r in results {
            guard let t = r.timings else { continue }
            var line =
                "  \(r.mode): waiting for decoders \(String(cFormat: "%.2f", t.decoding)) s, drawing transitions "
                + "\(String(cFormat: "%.2f", t.transitions)) s, blocked on the encoder \(String(cFormat: "%.2f", t.encoding)) s"
            if let rendered = r.renderedFrames {
                line +=
                    "; \(rendered) of \(r.frames) frames rendered, sources copied and indexed in \(String(cFormat: "%.2f", t.smartPreparation)) s, "
                    + "pieces joined with the sound in \(String(cFormat: "%.2f", t.smartJoin)) s"
            }
            print(line)
        }
    }
}

/// `segue bench --concat --jobs N`: prints the distributed-render benchmark's table.
struct ConcatJobsBench {
    let width: Int, height: Int, preset: String, crf: Int, workers: Int, jobSeconds: Double
    let device: DeviceOptions

    func run() throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let bench = try ConcatJobsBenchmark(
            width: width, height: height, preset: preset, crf: crf, jobSeconds: jobSeconds,
            executable: FileManager.default.isExecutableFile(atPath: executable) ? executable : CommandLine.arguments[0],
            context: { try device.context() }, cancellation: InterruptHandler.cancellation)
        let r = try bench.run(workers: workers) { FileIO.writeStandardError("… \($0)\n") }
        let seconds = { (t: Double) in String(cFormat: "%.2f", t) }
        print(
            "segue bench --concat --jobs \(workers): six \(bench.clipSeconds) s clips of mixed sizes (largest \(width)x\(height)) at \(bench.fps) fps "
                + "with five 1 s transitions, \(r.frames) frames; segments of at most \(String(cFormat: "%g", jobSeconds)) s; x264 --preset \(preset) --crf \(crf); "
                + "\(ProcessInfo.processInfo.activeProcessorCount) CPU cores")
        print(pad("run", 34) + pad("seconds", 10, right: true) + pad("× one process", 15, right: true))
        print(pad("one process", 34) + pad(seconds(r.oneProcess), 10, right: true) + pad("1.00", 15, right: true))
        print(
            pad("\(workers) local workers (plan+jobs+join)", 34) + pad(seconds(r.distributed), 10, right: true)
                + pad(String(cFormat: "%.2f", r.speedUp), 15, right: true))
        for machines in [4, 16, 64] {
            let t = r.predicted(machines: machines)
            print(
                pad("predicted on \(machines) machines", 34) + pad(seconds(t), 10, right: true)
                    + pad(String(cFormat: "%.2f", r.oneProcess / t), 15, right: true))
        }
        print("")
        let longest = r.jobTimes.indices.max { r.jobTimes[$0] < r.jobTimes[$1] } ?? 0
        print(
            "plan \(seconds(r.plan)) s, jobs \(seconds(r.jobs)) s, join \(seconds(r.join)) s; \(r.jobTimes.count) jobs "
                + "(\(r.jobKinds.filter { $0 == "segment" }.count) segments, \(r.jobKinds.filter { $0 == "sound" }.count) sound) "
                + "of \(seconds(r.jobTimes.reduce(0, +))) s in all; the longest, job \(longest) (\(r.jobKinds[longest])), \(seconds(r.jobTimes[longest])) s"
        )
        print("predicted: plan + the job times scheduled longest first on M machines + join (the longest job and the join bound it)")
    }
}

/// `text` padded with spaces to `width` characters, on the left when `right` (a table cell).
private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return right ? fill + text : text + fill
}
