// `segue frame`: one frame at a progress or a time.
import ArgumentParser
import FoundationEssentials
import Segue

struct FrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "frame", abstract: "Render one frame of a transition to a PNG or JPEG.")

    @OptionGroup var inputs: InputOptions
    @OptionGroup var deviceOptions: DeviceOptions
    @OptionGroup var effectOptions: EffectOptions
    @OptionGroup(title: "Stitchable shader options") var stitchable: StitchableOptions
    @OptionGroup var timing: TimingOptions

    @Option(
        parsing: .unconditional,
        help: "Progress 0…1 (after easing: the value the effect receives; keyframes are taken at the same fraction).")
    var progress: Double?

    @Option(parsing: .unconditional, help: "Time in seconds since the start; progress follows the timing (curve or spring, repeats).")
    var time: Double?

    @Option(name: .shortAndLong, help: "Output image (.png, .jpg).")
    var output: String

    func validate() throws {
        guard (progress == nil) != (time == nil) else { throw ValidationError("give exactly one of --progress or --time") }
        if let progress {
            guard progress.isFinite, (0...1).contains(progress) else {
                throw ValidationError("--progress must be a number from 0 to 1, got \(MessageText.number(progress, outside: 0, 1))")
            }
        }
        try validateTime(time)
    }

    func run() throws {
        try OutputGuard.check(output: output, inputs: inputs.files + effectOptions.request().inputFiles)
        let (from, to, w, h) = try inputs.load()
        let resolved = try stitchable.resolve(effectOptions, scale: inputs.scale)
        let (effect, values, textures) = (resolved.effect, resolved.parameters, resolved.textures)
        let timeline = try timing.timeline(for: effect, duration: effectOptions.duration, fps: 1)
        let renderer = try TransitionRenderer(
            effect: effect, from: from, to: to, width: w, height: h, resize: inputs.resize,
            parameters: values, textures: textures, context: deviceOptions.context(), framesInFlight: 1)
        let image: Image
        if let progress {
            // The progress is given: keyframes are evaluated at the same fraction.
            let t = progress * timeline.duration
            image = try renderer.frame(
                progress: progress, time: t, duration: timeline.duration,
                overrides: timeline.parameters(at: t))
        } else {
            image = try renderer.frame(of: timeline, at: time!)
        }
        try ImageFile.write(image, to: output, cancellation: InterruptHandler.cancellation)
    }
}
