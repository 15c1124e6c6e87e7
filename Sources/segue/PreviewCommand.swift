// `segue preview`: a transition looping live in a window; drag to scrub, space to pause, `s` to
// save the frame, and with --watch the effect file reloads when it changes on disk.
import ArgumentParser
import FoundationEssentials
import Segue
import SegueTools

struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview", abstract: "Loop a transition live in a window: drag to scrub, space to pause, s to save the frame.",
        discussion: """
            The window is the from image's size in points (its pixels / --scale), rendered at the window's own pixel size \
            and shown at the display's rate. Without --from and --to the built-in sample screens are used. With --watch \
            the effect file is reloaded whenever it changes; a compile error is printed with the file's own line numbers \
            and the last good version keeps running. Escape or closing the window quits.
            """)

    @Option(help: "The outgoing screen (PNG or JPEG; default: a sample screen).")
    var from: String?

    @Option(help: "The incoming screen (PNG or JPEG; default: a sample screen).")
    var to: String?

    @Option(parsing: .unconditional, help: "Pixels per point of the inputs; geometry in points is multiplied by it.")
    var scale: Double = 1

    @OptionGroup var effectOptions: EffectOptions
    @OptionGroup var timing: TimingOptions

    @Flag(help: "Reload the effect file (FILE.glsl or FILE.metal[:NAME]; a built-in has none) when it changes on disk.")
    var watch = false

    @OptionGroup var window: LiveWindowOptions

    @Option(help: ArgumentHelp("Folder for frames saved with s (default: the current directory).", valueName: "DIR"))
    var saveDirectory: String = "."

    @OptionGroup var deviceOptions: DeviceOptions

    func validate() throws {
        try validateScale(scale, in: LiveWindowOptions.scales)
        if watch, EffectCatalog.file(ofEffect: effectOptions.effect) == nil {
            throw ValidationError(
                "--watch reloads an effect file (FILE.glsl or FILE.metal[:NAME]); '\(effectOptions.effect)' is a built-in effect")
        }
    }

    func run() throws {
        let fromImage = try from.map { try ImageFile.read(path: $0, scale: scale) } ?? SampleScreens.home(scale: scale)
        let toImage = try to.map { try ImageFile.read(path: $0, scale: scale) } ?? SampleScreens.detail(scale: scale)
        let load = { () throws -> LivePreview.Program in
            let resolved = try effectOptions.request().resolve(scale: scale)
            return LivePreview.Program(
                effect: resolved,
                timing: try timing.timing(
                    defaultCurve: resolved.effect.defaultTiming, defaultDuration: resolved.effect.defaultDuration,
                    duration: effectOptions.duration),
                timeline: try timing.timeline(for: resolved.effect, duration: effectOptions.duration, fps: 60))
        }
        // The file behind the effect (`waves.metal:wave` is the file `waves.metal`); a built-in has
        // none, and --watch with one was refused.
        let file = EffectCatalog.file(ofEffect: effectOptions.effect)
        DisplayConnection.reportLossAsError()
        let preview = try LivePreview(
            from: fromImage, to: toImage, scale: scale, load: load, watch: watch ? file : nil,
            saveDirectory: saveDirectory,
            configuration: deviceOptions.configuration,
            title: "segue preview", report: { FileIO.writeStandardError($0 + "\n") })
        try window.run(preview.view, preview.run(frames:clock:))
    }
}
