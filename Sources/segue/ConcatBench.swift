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
            "mode".padding(toLength: 16) + "seconds".rightAligned(10) + "fps".rightAligned(9) + "× ffmpeg".rightAligned(10)
                + "cpu self".rightAligned(10) + "cpu ffmpeg".rightAligned(12))
        let reference = results.first { $0.mode == "ffmpeg xfade" }?.seconds ?? 0
        for r in results {
            print(
                r.mode.padding(toLength: 16) + String(cFormat: "%.2f", r.seconds).rightAligned(10)
                    + String(cFormat: "%.1f", r.fps).rightAligned(9)
                    + String(cFormat: "%.2f", reference / r.seconds).rightAligned(10)
                    + String(cFormat: "%.1f s", r.processCPU).rightAligned(10)
                    + String(cFormat: "%.1f s", r.childCPU).rightAligned(12))
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
        let bench = try ConcatJobsBenchmark(
            width: width, height: height, preset: preset, crf: crf, jobSeconds: jobSeconds,
            executable: Executable.path,
            context: { try device.context() }, cancellation: InterruptHandler.cancellation)
        let r = try bench.run(workers: workers) { FileIO.writeStandardError("… \($0)\n") }
        let seconds = { (t: Double) in String(cFormat: "%.2f", t) }
        print(
            "segue bench --concat --jobs \(workers): six \(bench.clipSeconds) s clips of mixed sizes (largest \(width)x\(height)) at \(bench.fps) fps "
                + "with five 1 s transitions, \(r.frames) frames; segments of at most \(String(cFormat: "%g", jobSeconds)) s; x264 --preset \(preset) --crf \(crf); "
                + "\(ProcessInfo.processInfo.activeProcessorCount) CPU cores")
        print("run".padding(toLength: 34) + "seconds".rightAligned(10) + "× one process".rightAligned(15))
        print("one process".padding(toLength: 34) + seconds(r.oneProcess).rightAligned(10) + "1.00".rightAligned(15))
        print(
            "\(workers) local workers (plan+jobs+join)".padding(toLength: 34) + seconds(r.distributed).rightAligned(10)
                + String(cFormat: "%.2f", r.speedUp).rightAligned(15))
        for machines in [4, 16, 64] {
            let t = r.predicted(machines: machines)
            print(
                "predicted on \(machines) machines".padding(toLength: 34) + seconds(t).rightAligned(10)
                    + String(cFormat: "%.2f", r.oneProcess / t).rightAligned(15))
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
