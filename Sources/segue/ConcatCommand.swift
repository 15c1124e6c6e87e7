// `segue concat`: clips and stills joined with transitions and crossfaded sound into one movie.
import ArgumentParser
import Foundation
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
        """)

    @Argument(help: ArgumentHelp("Videos (anything ffmpeg reads) and PNG/JPEG stills, in order.", valueName: "INPUT"))
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("The movie to write (.mp4, .mov, .mkv, .webm, .gif, .apng).", valueName: "OUT"))
    var output: String

    @Option(help: ArgumentHelp("The transition of every cut (an effect name or file; 'none' for hard cuts).", valueName: "EFFECT[:SECONDS]"))
    var transition: String?

    @Option(name: .customLong("cut"), help: ArgumentHelp("The transition of cut N (between clips N and N+1).", valueName: "N=EFFECT[:SECONDS]"))
    var cuts: [String] = []

    @Option(name: .customLong("image-duration"), parsing: .unconditional, help: "Seconds a still lasts (default 3).")
    var imageDuration: Double?

    @Option(help: ArgumentHelp("Output size (default: the first video's, else the first image's).", valueName: "WxH"))
    var size: String?

    @Option(parsing: .unconditional, help: "Frames per second (default: the first video's, else 30).")
    var fps: Double?

    @Option(help: "Fit inputs of another shape: cover, contain or stretch (default cover).")
    var resize: ResizeMode?

    @Option(name: .customLong("audio-curve"), help: "Sound crossfade: equal-power or linear (default equal-power).")
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

    @OptionGroup var deviceOptions: DeviceOptions

    func validate() throws {
        if spec == nil, inputs.isEmpty { throw ValidationError("give the clips as INPUT arguments or in --spec") }
        if spec != nil, !inputs.isEmpty { throw ValidationError("give the clips either as INPUT arguments or in --spec, not both") }
        if let fps { try validateFPS(fps) }
        if let codec, VideoCodec(name: codec) == nil {
            throw ValidationError("--codec must be h264, hevc, vp9 or prores, got '\(codec)'")
        }
    }

    func run() throws {
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
        let directory = spec.map { ($0 as NSString).deletingLastPathComponent }
        let concatenation = try Concatenation(spec: description, directory: directory.flatMap { $0.isEmpty ? nil : $0 })
        let settings = VideoSettings(codec: codec.flatMap(VideoCodec.init(name:)), preset: encoder.preset, crf: encoder.crf)
        let device = deviceOptions
        let renderer = try ConcatRenderer(concatenation, output: output, settings: settings, context: { try device.context() },
                                          cancellation: InterruptHandler.cancellation)
        let progress = ProgressLine(total: concatenation.frameCount)
        defer { progress.finish() }
        if smart {
            let report = try renderer.renderSmart(progress: { progress.update($0.framesDone) })
            if let reason = report.fallbackReason { FileHandle.standardError.write(Data("note: \(reason); rendering everything\n".utf8)) }
        } else {
            try renderer.render { progress.update($0.framesDone) }
        }
    }
}

extension CrossfadeCurve: ExpressibleByArgument {}
