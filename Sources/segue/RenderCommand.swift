// `segue render`: a whole transition to frames, raw RGBA8 or video.
import ArgumentParser
import FoundationEssentials
import Segue

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Render a whole transition.",
        discussion: """
            OUT is a directory (frame-00000.png, …), '-' for raw RGBA8 frames on stdout (straight alpha, \
            width×height×4 bytes each), or a .mp4, .mov, .mkv, .webm, .gif or .apng file encoded by ffmpeg. \
            Frame i is at time i/fps for i = 0 … round(duration·fps); the last frame is the end state. \
            The duration covers every pass (--repeat, --autoreverse); with --spring and no --duration a \
            pass lasts the spring's settling duration.
            """)

    @OptionGroup var inputs: InputOptions
    @OptionGroup var deviceOptions: DeviceOptions
    @OptionGroup var effectOptions: EffectOptions
    @OptionGroup(title: "Stitchable shader options") var stitchable: StitchableOptions
    @OptionGroup var timing: TimingOptions
    @OptionGroup(title: "Video encoding") var encoder: EncoderOptions

    @OptionGroup var rate: RateOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("Output: a directory, '-', or a video file.", valueName: "OUT"))
    var output: String

    func validate() throws {
        try encoder.validate(output: output)
    }

    func run() throws {
        let destination = try RenderOutput(path: output)
        try destination.check(against: inputs.files + effectOptions.request().inputFiles)
        let (from, to, w, h) = try inputs.load()
        let resolved = try stitchable.resolve(effectOptions, scale: inputs.scale)
        let (effect, values, textures) = (resolved.effect, resolved.parameters, resolved.textures)
        let timeline = try timing.timeline(for: effect, duration: effectOptions.duration, fps: rate.fps)
        let renderer = try TransitionRenderer(
            effect: effect, from: from, to: to, width: w, height: h, resize: inputs.resize,
            parameters: values, textures: textures, context: deviceOptions.context())
        let sink = try makeFrameSink(
            destination, width: w, height: h, fps: rate.fps, settings: encoder.settings,
            cancellation: InterruptHandler.cancellation)
        let progress = ProgressLine(total: timeline.frameCount)
        defer { progress.finish() }
        try renderer.render(timeline, to: sink, progress: progress.update)
    }
}
