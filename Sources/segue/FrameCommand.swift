// `segue frame`: one frame at a progress or a time.
import ArgumentParser
import Foundation
import Segue

struct FrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "frame", abstract: "Render one frame of a transition to a PNG or JPEG.")

    @OptionGroup var inputs: InputOptions
    @OptionGroup var effectOptions: EffectOptions
    @OptionGroup(title: "Stitchable shader options") var stitchable: StitchableOptions
    @OptionGroup var timing: TimingOptions

    @Option(help: "Progress 0…1 (after easing: the value the effect receives).")
    var progress: Double?

    @Option(help: "Time in seconds since the start; progress follows the timing curve.")
    var time: Double?

    @Option(name: .shortAndLong, help: "Output image (.png, .jpg).")
    var output: String

    func validate() throws {
        guard (progress == nil) != (time == nil) else { throw ValidationError("give exactly one of --progress or --time") }
        if let progress { guard progress.isFinite else { throw ValidationError("--progress must be a finite number, got \(progress)") } }
        if let time { guard time.isFinite, time >= 0 else { throw ValidationError("--time must be a finite number ≥ 0, got \(time)") } }
    }

    func run() throws {
        let (from, to, w, h) = try inputs.load()
        let (effect, values, textures) = try stitchable.resolve(effectOptions, scale: inputs.scale)
        let duration = try effectOptions.resolvedDuration(for: effect)
        let curve = try timing.curve(for: effect)
        let t = time ?? progress! * duration
        let p = progress ?? curve(min(t / duration, 1))
        let renderer = try TransitionRenderer(effect: effect, from: from, to: to, width: w, height: h, resize: inputs.resize,
                                              parameters: values, textures: textures, context: inputs.context(), framesInFlight: 1)
        let image = try renderer.frame(progress: p, time: t, duration: duration)
        try ImageFile.write(image, to: output)
    }
}

/// How progress follows time.
struct TimingOptions: ParsableArguments {
    @Option(help: "Timing curve: linear, ease-in, ease-out, ease-in-out, default or cubic-bezier(x1,y1,x2,y2) (default: the effect's).")
    var timing: String?

    /// Eased progress for a fraction of the duration.
    func curve(for effect: Effect) throws -> @Sendable (Double) -> Double {
        let name = timing ?? effect.defaultTiming
        let function: TimingFunction
        do { function = try TimingFunction(parsing: name) } catch { throw CLIFailure(message: "\(error)") }
        return { function.value(at: $0) }
    }
}
