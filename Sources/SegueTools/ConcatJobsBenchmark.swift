import Dispatch
import FoundationEssentials
import Segue
import SegueCore
import SegueMedia

// `segue bench --concat --jobs N`: a long edit rendered in one process against its plan's jobs run
// by N local `segue concat --job` worker processes at once, in one run, and the time the jobs
// would take on M machines: six 10 s clips of mixed sizes (so it is a full render, split into
// segments) with five 1 s transitions. The prediction schedules the measured job times
// longest first, each on the machine that is free first (LPT), and adds the plan and the join,
// which run once: the longest job and the join bound it however many machines there are.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The distributed-render benchmark.
public struct ConcatJobsBenchmark {
    /// What one run measured.
    public struct Result: Sendable {
        /// Output frames.
        public let frames: Int
        /// Wall-clock seconds of the one-process render.
        public let oneProcess: Double
        /// Worker processes run at once.
        public let workers: Int
        /// Wall-clock seconds of planning, of all jobs with `workers` at once, and of the join.
        public let plan: Double, jobs: Double, join: Double
        /// Each job's wall-clock seconds (its own process, start to exit), by job number.
        public let jobTimes: [Double]
        /// Each job's kind.
        public let jobKinds: [String]

        /// Plan, jobs and join.
        public var distributed: Double { plan + jobs + join }
        /// The one-process render's time over the workers'.
        public var speedUp: Double { oneProcess / distributed }

        /// The predicted seconds on `machines` machines: plan + LPT schedule of the job times + join.
        public func predicted(machines: Int) -> Double { plan + ConcatJobsBenchmark.schedule(jobTimes, machines: machines) + join }
    }

    /// The largest clip's size; the others are smaller (mixed sizes).
    public let width: Int, height: Int
    /// Frames per second and seconds per clip.
    public let fps: Int, clipSeconds: Int
    /// The x264 preset and CRF.
    public let preset: String, crf: Int
    /// The most seconds of output a segment job renders (the plan's and the one-process render's).
    public let jobSeconds: Double
    /// The `segue` executable the workers run.
    public let executable: String
    private let context: () throws -> GPUContext
    /// Stops the benchmark from outside (its scratch directory, renders and workers are registered with it).
    private let cancellation: Cancellation?

    /// A benchmark.
    /// - Throws: `VideoSettingsError` for a preset or CRF x264 does not take.
    public init(
        width: Int = 1920, height: Int = 1080, fps: Int = 30, clipSeconds: Int = 10, preset: String = "veryfast", crf: Int = 23,
        jobSeconds: Double = ConcatPlan.defaultJobSeconds, executable: String, context: @escaping () throws -> GPUContext,
        cancellation: Cancellation? = nil
    ) throws {
        _ = try TransitionBenchmark.encoderSettings(preset: preset, crf: crf)
        (self.width, self.height, self.fps, self.clipSeconds, self.preset, self.crf) = (width, height, fps, clipSeconds, preset, crf)
        self.jobSeconds = jobSeconds
        self.executable = executable
        self.context = context
        self.cancellation = cancellation
    }

    /// The makespan of `times` on `machines` machines, longest first onto the machine free first.
    public static func schedule(_ times: [Double], machines: Int) -> Double {
        var free = [Double](repeating: 0, count: max(1, machines))
        for t in times.sorted(by: >) {
            let i = free.indices.min { free[$0] < free[$1] } ?? 0
            free[i] += t
        }
        return free.max() ?? 0
    }

    /// Makes the clips in a temporary directory, renders in one process, then plans and runs the
    /// jobs with `workers` processes at once and joins; removes everything.
    /// - Parameter log: told what is happening (clip generation is not timed).
    public func run(workers: Int, log: (String) -> Void = { _ in }) throws -> Result {
        try FileIO.withScratchDirectory(prefix: "segue-jobs-bench", cancellation: cancellation) {
            try run(in: $0, workers: workers, log: log)
        }
    }

    private func run(in dir: String, workers: Int, log: (String) -> Void) throws -> Result {
        // Full size, two thirds, three quarters: even sides.
        let sizes = [(1, 1), (2, 3), (3, 4), (1, 1), (2, 3), (3, 4)].map { (n, d) in
            (max(2, width * n / d & ~1), max(2, height * n / d & ~1))
        }
        var clips: [String] = []
        for (k, (w, h)) in sizes.enumerated() {
            let path = dir + "/clip\(k + 1).mp4"
            let clip = BenchmarkClip(width: w, height: h, fps: fps, seconds: clipSeconds, hue: k * 60, frequency: 200 * (k + 1))
            log("making clip\(k + 1).mp4 (\(clip))")
            try clip.write(to: path, cancellation: cancellation)
            clips.append(path)
        }
        let effects = ["fade", "wipe", "fade", "wipe", "fade"]
        let spec = ConcatSpec(
            clips: clips.map { ClipSpec(path: $0) }, cuts: effects.map { CutSpec(effect: $0, duration: 1) },
            size: "\(width)x\(height)")
        let settings = VideoSettings(preset: preset, crf: crf)
        let concatenation = try Concatenation(spec: spec)
        log("one process")
        var clock = Stopwatch()
        let one = try ConcatRenderer(
            concatenation, output: dir + "/one.mp4", settings: settings, context: context, cancellation: cancellation)
        one.jobSeconds = jobSeconds
        try one.render()
        let oneProcess = clock.lap()

        log("plan")
        let planPath = dir + "/plan.json"
        let plan = try ConcatRenderer(
            concatenation, output: dir + "/joined.mp4", settings: settings, context: context, cancellation: cancellation
        )
        .plan(smart: false, jobSeconds: jobSeconds, pieceStem: "plan")
        try plan.write(to: planPath)
        let planSeconds = clock.lap()
        log("\(plan.jobs.count) jobs, \(workers) at once")
        let times = Locked([Double](repeating: 0, count: plan.jobs.count))
        let failure = Locked<(any Error)?>(nil)
        let next = Locked(0)
        let executable = executable, jobCount = plan.jobs.count, cancellation = cancellation
        DispatchQueue.concurrentPerform(iterations: max(1, workers)) { _ in
            while true {
                let n = next.withLock { n in
                    defer { n += 1 }; return n
                }
                guard n < jobCount, failure.withLock({ $0 }) == nil else { return }
                do {
                    let run = try TransitionBenchmark.runProgram(
                        executable, ["concat", "--job", planPath, String(n)], what: "job \(n)", cancellation: cancellation)
                    times.withLock { $0[n] = run.seconds }
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
        }
        switch failure.withLock({ $0 }) {
        case let failed as RenderError: throw RenderError.invalidValue("a worker failed: \(failed.message)")
        case let error?: throw error
        case nil: break
        }
        let jobsSeconds = clock.lap()
        log("join")
        try plan.join(in: dir, output: dir + "/joined.mp4", cancellation: cancellation)
        let joinSeconds = clock.lap()
        return Result(
            frames: plan.output.frames, oneProcess: oneProcess, workers: workers, plan: planSeconds, jobs: jobsSeconds, join: joinSeconds,
            jobTimes: times.withLock { $0 }, jobKinds: plan.jobs.map(\.kind.rawValue))
    }
}
