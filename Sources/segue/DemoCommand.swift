// `segue demo`: every built-in between two built-in sample screens.
import ArgumentParser
import FoundationEssentials
import Segue
import SegueTools

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Render Segue's built-in transitions between two sample screens to videos and a contact sheet, and the sample through each mesh effect.",
        discussion: "The ffmpeg xfade equivalents are not rendered here (see 'segue list'); render them with 'segue render --effect NAME'.")

    @Option(name: .shortAndLong, help: "Directory for the results.")
    var output: String = "segue-demo"

    @Option(parsing: .unconditional, help: "Pixels per point of the sample screens (390×844 points).")
    var scale: Double = 1

    @OptionGroup var rate: RateOptions

    @OptionGroup var deviceOptions: DeviceOptions

    func validate() throws {
        try validateScale(scale, in: Demo.scales)
    }

    func run() throws {
        try Demo.checkDirectory(output)  // before the device opens: a refusal is immediate
        let demo = try Demo(
            directory: output, scale: scale, fps: rate.fps, context: deviceOptions.context(), cancellation: InterruptHandler.cancellation)
        if !demo.writesVideos {
            FileIO.writeStandardError(
                "note: ffmpeg or ffprobe not found (Debian package 'ffmpeg'); writing PNG frame directories instead of videos\n")
        }
        print("Rendering on \(demo.context.info.name)")
        try demo.run { item in
            print(
                "  " + item.effect.padding(toLength: 10)
                    + " \(item.path)  " + String(cFormat: "(%d frames, %.1f fps)", item.frames, item.framesPerSecond))
        }
        print(
            "Contact sheet: \(output)/contact-sheet.png (rows: \(Demo.transitions.map(\.name).joined(separator: ", ")); columns: progress 0, 0.25, 0.5, 0.75, 1)"
        )
        print("Mesh effects: \(output)/meshes.png (\(Demo.meshEffects.map(\.effect.name).joined(separator: ", ")))")
    }
}
