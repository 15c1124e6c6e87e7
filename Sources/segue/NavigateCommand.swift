// `segue navigate`: a navigation stack in a window; push, pop and the interactive edge-drag pop.
import ArgumentParser
import FoundationEssentials
import Segue
import SegueTools

struct NavigateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navigate",
        abstract: "A navigation stack in a window: push and pop screens with an effect, or drag from the left edge.",
        discussion: """
            Right arrow, Enter or a click on the right half pushes the next screen; Left arrow or Backspace pops; a drag \
            that starts within 20 points of the left edge pops interactively, following the finger, and on release \
            finishes past half way (or on a flick) and otherwise springs back. A pop plays the effect backwards unless it \
            has its own reverse (ios-push pops with ios-pop). Without images the built-in sample screens are used. Escape \
            or closing the window quits.
            """)

    @Argument(help: "The screens, in push order (PNG or JPEG; default: the built-in sample screens).")
    var images: [String] = []

    @Option(name: .shortAndLong, help: "Effect name (see 'segue list'), a .glsl transition file, or a stitchable file.metal[:NAME].")
    var effect = "ios-push"

    @OptionGroup var values: ParameterOptions

    @Option(parsing: .unconditional, help: "Duration of a push in seconds (default: the effect's own).")
    var duration: Double?

    @Option(parsing: .unconditional, help: "Pixels per point of the screens; the window is their size in points.")
    var scale: Double = 1

    @OptionGroup var timing: TimingOptions

    @OptionGroup(title: "Stitchable shader options") var stitchable: StitchableOptions

    @OptionGroup var window: LiveWindowOptions

    @OptionGroup var deviceOptions: DeviceOptions

    func validate() throws {
        try validateScale(scale, in: LiveWindowOptions.scales)
        if timing.repeatCount != nil || timing.autoreverse || !timing.keyframes.isEmpty {
            throw ValidationError("--repeat, --autoreverse and --param-keyframes do not apply to navigate")
        }
    }

    func run() throws {
        let screens =
            images.isEmpty
            ? [SampleScreens.home(scale: scale), SampleScreens.detail(scale: scale), SampleScreens.settings(scale: scale)]
            : try images.map { try ImageFile.read(path: $0, scale: scale) }
        let request = try values.request(effect: effect, stitchable: try stitchable.request())
        let resolved = try request.resolve(scale: scale)
        let reverse = try request.resolveReverse(of: resolved)
        let pushTiming = try timing.timing(
            defaultCurve: resolved.effect.defaultTiming, defaultDuration: resolved.effect.defaultDuration,
            duration: duration)
        DisplayConnection.reportLossAsError()
        let navigator = try LiveNavigator(
            screens: screens, effect: resolved, reverse: reverse, timing: pushTiming, scale: scale,
            configuration: deviceOptions.configuration,
            title: "segue navigate")
        try window.run(navigator.view, navigator.run(frames:clock:))
    }
}
