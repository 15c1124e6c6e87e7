// `segue concat`: clips and stills joined with transitions and crossfaded sound into one movie.
import ArgumentParser
import FoundationEssentials
import Segue

struct ConcatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concat", abstract: "Join videos and stills with GPU transitions and crossfaded sound.",
        discussion: """
            Clip k+1 starts T seconds before clip k ends, T being the cut's transition, so the output lasts \
            the sum of the clips minus the transitions; during a transition both clips play. Every cut is \
            --transition (default fade:1) unless --cut N=EFFECT[:SECONDS] sets cut N (between clips N and \
            N+1; 'none' is a hard cut). Sound: each clip's first audio stream, crossfaded over exactly each \
            transition; stills and silent clips give silence; --audio lays a soundtrack under everything. \
            OUT is .mp4, .mov, .mkv, .webm, .gif or .apng. --spec FILE.json describes everything per clip and per \
            cut (see README); options given beside it override its settings.

            Many machines: --plan PLAN.json writes a plan of independent jobs instead of rendering and prints \
            their numbers, one per line. --job PLAN.json N does job N, writing its piece beside the plan or in \
            --work-dir. --join PLAN.json -o OUT checks every piece and joins them by stream copy. Any scheduler \
            can run the jobs, GNU parallel or a cluster's: the guide is Docs/Distributed.md. A full render is \
            split into segments of at most --job-seconds (default 10) cut at the transitions; with --smart the \
            copied and rendered stretches are the jobs; the sound is one more job. The joined file equals what \
            one process renders, which does the same jobs. A .gif or .apng cannot be joined by stream copy: its \
            plan is one job that renders the whole output.
            """)

    @Argument(help: ArgumentHelp("Videos (anything ffmpeg reads) and PNG/JPEG stills, in order.", valueName: "INPUT"))
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("The movie to write (.mp4, .mov, .mkv, .webm, .gif, .apng).", valueName: "OUT"))
    var output: String?

    @Option(
        help: ArgumentHelp("The transition of every cut (an effect name or file; 'none' for hard cuts).", valueName: "EFFECT[:SECONDS]"))
    var transition: String?

    @Option(
        name: .customLong("cut"), help: ArgumentHelp("The transition of cut N (between clips N and N+1).", valueName: "N=EFFECT[:SECONDS]"))
    var cuts: [String] = []

    @Option(parsing: .unconditional, help: "Seconds a still lasts (default 3).")
    var imageDuration: Double?

    @Option(help: ArgumentHelp("Output size (default: the first video's, else the first image's).", valueName: "WxH"))
    var size: String?

    @Option(
        parsing: .unconditional, help: "Frames per second: a number or a ratio such as 30000/1001 (default: the first video's, else 30).",
        transform: parseFPS)
    var fps: Double?

    @Option(help: "Fit inputs of another shape: cover, contain or stretch (default cover).")
    var resize: ResizeMode?

    @Option(help: "Sound crossfade: equal-power or linear (default equal-power).")
    var audioCurve: CrossfadeCurve?

    @Option(help: ArgumentHelp("A soundtrack under the whole edit, faded out at the end.", valueName: "FILE"))
    var audio: String?

    @OptionGroup(title: "Encoding") var encoder: EncoderOptions

    @Option(help: ArgumentHelp("Video codec: h264, hevc, vp9 or prores (default: h264; vp9 for .webm).", valueName: "C"))
    var codec: String?

    @Flag(help: "Copy untouched stretches of inputs that share codec parameters; re-encode only around transitions.")
    var smart = false

    @Option(help: ArgumentHelp("A JSON description of clips, cuts and settings.", valueName: "FILE.json"))
    var spec: String?

    @Option(help: ArgumentHelp("Write a plan of independent jobs instead of rendering; print their numbers.", valueName: "PLAN.json"))
    var plan: String?

    @Option(name: .customLong("job"), help: ArgumentHelp("Do one job of a plan: --job PLAN.json N (N from 0).", valueName: "PLAN.json"))
    var jobPlan: String?

    @Option(name: .customLong("join"), help: ArgumentHelp("Join a plan's pieces into -o OUT by stream copy.", valueName: "PLAN.json"))
    var joinPlan: String?

    @OptionGroup var jobSeconds: JobSecondsOption

    @Option(help: ArgumentHelp("Where the pieces go (default: the plan's directory).", valueName: "DIR"))
    var workDir: String?

    @OptionGroup var deviceOptions: DeviceOptions

    func validate() throws {
        try validateOneOf(["--plan": plan != nil, "--job": jobPlan != nil, "--join": joinPlan != nil])
        try validateSeconds(imageDuration, option: "--image-duration")
        if workDir != nil, plan == nil, jobPlan == nil, joinPlan == nil {
            throw ValidationError("--work-dir goes with --plan, --job or --join")
        }
        if jobPlan != nil || joinPlan != nil {
            let mode = jobPlan != nil ? "--job" : "--join"
            let editOptions: [(String, Bool)] = [
                ("--spec", spec != nil), ("--transition", transition != nil), ("--cut", !cuts.isEmpty),
                ("--image-duration", imageDuration != nil),
                ("--size", size != nil), ("--fps", fps != nil), ("--resize", resize != nil), ("--audio-curve", audioCurve != nil),
                ("--audio", audio != nil), ("--preset", encoder.preset != nil), ("--crf", encoder.crf != nil), ("--codec", codec != nil),
                ("--smart", smart), ("--job-seconds", jobSeconds.given != nil),
            ]
            if let (name, _) = editOptions.first(where: \.1) {
                throw ValidationError("\(name) is part of the plan: give it with --plan, not with \(mode)")
            }
            if jobPlan != nil {
                guard inputs.count == 1, let n = Int(inputs[0]), n >= 0 else {
                    throw ValidationError("give the job's number after the plan: --job PLAN.json N (N from 0)")
                }
                if output != nil { throw ValidationError("a job writes its piece into the work directory; -o goes with --join") }
            } else {
                if !inputs.isEmpty { throw ValidationError("--join takes the plan and -o OUT, not inputs") }
                if output == nil { throw ValidationError("--join needs -o OUT, the movie to write") }
            }
            return
        }
        if output == nil { throw ValidationError("give the movie to write with -o OUT") }
        if spec == nil, inputs.isEmpty { throw ValidationError("give the clips as INPUT arguments or in --spec") }
        if spec != nil, !inputs.isEmpty { throw ValidationError("give the clips either as INPUT arguments or in --spec, not both") }
        if let fps { try validateFPS(fps) }
        if let size { _ = try parseSize(size) }
        if let codec, VideoCodec(name: codec) == nil {
            throw ValidationError("--codec must be h264, hevc, vp9 or prores, got '\(codec)'")
        }
    }

    func run() throws {
        if let jobPlan { return try runJob(planPath: jobPlan) }
        if let joinPlan, let output {
            let plan = try ConcatPlan.read(path: joinPlan)
            return try plan.join(
                in: try workDirectory(plan, planPath: joinPlan), output: output, planPath: joinPlan,
                cancellation: InterruptHandler.cancellation)
        }
        guard let output else { throw ValidationError("give the movie to write with -o OUT") }
        var description = try spec.map { try Concatenation.readSpec(path: $0) } ?? ConcatSpec(clips: inputs.map { ClipSpec(path: $0) })
        if let transition { description.transition = try CutSpec(parsing: transition) }
        for text in cuts {
            let (n, cut) = try CutSpec.numbered(parsing: text)
            try description.setCut(n, to: cut)
        }
        if let imageDuration { description.imageDuration = imageDuration }
        if let size { description.size = size }
        if let fps { description.fps = fps }
        if let resize { description.resize = resize.rawValue }
        if let audioCurve { description.audioCurve = audioCurve }
        if let audio { description.audio = audio }
        // A spec in the current folder leaves its relative paths as they are written.
        let directory = spec.map { FileIO.directory(of: $0) }
        let concatenation = try Concatenation(spec: description, directory: directory.flatMap { $0 == "." ? nil : $0 })
        let settings = VideoSettings(codec: codec.flatMap(VideoCodec.init(name:)), preset: encoder.preset, crf: encoder.crf)
        let device = deviceOptions
        let renderer = try ConcatRenderer(
            concatenation, output: output, settings: settings, context: { try device.context() },
            cancellation: InterruptHandler.cancellation)
        renderer.jobSeconds = jobSeconds.seconds
        if let planPath = plan {
            // Before planning: a plan path that is an input, or not a plan's, is refused at once. A
            // --work-dir is made when missing, as for --job and --join, once the plan's path has
            // passed (writing the plan checks it takes files); a job's recorded directory must be there.
            try ConcatPlan.checkDestination(planPath, workDirectory: nil, inputs: Concatenation.inputFiles(of: concatenation.spec))
            let workDirectory = try workDir.map(makeWorkDirectory)
            var plan = try renderer.plan(
                smart: smart, jobSeconds: jobSeconds.seconds,
                pieceStem: ConcatPlan.pieceStem(planPath: planPath))
            plan.workDirectory = workDirectory
            try plan.write(to: planPath)
            if let note = plan.output.note { FileIO.writeStandardError("note: \(note); the plan renders everything\n") }
            print(plan.jobs.indices.map(String.init).joined(separator: "\n"))
            return
        }
        let progress = ProgressLine(total: concatenation.frameCount)
        defer { progress.finish() }
        if smart {
            let report = try renderer.renderSmart(progress: { progress.update($0.framesDone) })
            if let reason = report.fallbackReason { FileIO.writeStandardError("note: \(reason); rendering everything\n") }
        } else {
            try renderer.render { progress.update($0.framesDone) }
        }
    }

    /// `--job PLAN N`: checks the inputs against the plan, resolves the edit again and does job N.
    private func runJob(planPath: String) throws {
        let plan = try ConcatPlan.read(path: planPath)
        let n = Int(inputs.first ?? "") ?? -1
        try plan.checkJobNumber(n)
        try plan.checkInputs()
        let directory = try workDirectory(plan, planPath: planPath)
        let concatenation = try Concatenation(spec: plan.spec)
        let device = deviceOptions
        let renderer = try ConcatRenderer(
            concatenation, output: plan.output.path, settings: plan.settings,
            audioLayout: plan.audioLayout ?? .standard, context: { try device.context() },
            cancellation: InterruptHandler.cancellation)
        let progress = ProgressLine(total: plan.jobs[n].frameRange.count)
        defer { progress.finish() }
        try renderer.runJob(n, of: plan, in: directory) { progress.update($0) }
    }

    /// --work-dir (created when missing), else the plan's.
    private func workDirectory(_ plan: ConcatPlan, planPath: String) throws -> String {
        try workDir.map(makeWorkDirectory) ?? plan.defaultWorkDirectory(planPath: planPath)
    }

    /// `dir` as an absolute path, created with its parents when missing: the rule for a
    /// --work-dir in every mode (--plan, --job, --join).
    private func makeWorkDirectory(_ dir: String) throws -> String {
        let path = ConcatPaths.absolute(dir)
        if let problem = FileIO.directoryCreationProblem(path) {
            throw CLIFailure(message: "cannot create the work directory \(path): \(problem)")
        }
        return path
    }
}

extension CrossfadeCurve: ExpressibleByArgument {}
