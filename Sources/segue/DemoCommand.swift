// `segue demo`: every built-in between two built-in sample screens.
import ArgumentParser
import Foundation
import Segue

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Render Segue's built-in transitions between two sample screens to videos and a contact sheet, and the sample through each mesh effect.",
        discussion: "The ffmpeg xfade equivalents are not rendered here (see 'segue list'); render them with 'segue render --effect NAME'.")

    @Option(name: .shortAndLong, help: "Directory for the results.")
    var output: String = "segue-demo"

    @Option(help: "Pixels per point of the sample screens (390×844 points).")
    var scale: Double = 1

    @Option(help: "Frames per second of the videos.")
    var fps: Double = 30

    @Option(help: "Vulkan device: an index or a name substring.")
    var device: String?

    func validate() throws {
        guard scale.isFinite, scale > 0, scale <= 4 else { throw ValidationError("--scale must be in (0, 4], got \(scale)") }
        guard fps.isFinite, fps > 0, fps <= 240 else { throw ValidationError("--fps must be in (0, 240], got \(fps)") }
    }

    func run() throws {
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
            throw MediaError.unwritable(path: output, reason: error.localizedDescription)
        }
        let context = try GPUContext(configuration: .init(environment: ProcessInfo.processInfo.environment, deviceSelector: device))
        let from = SampleScreens.home(scale: scale), to = SampleScreens.detail(scale: scale)
        try ImageFile.write(from, to: output + "/sample-from.png")
        try ImageFile.write(to, to: output + "/sample-to.png")
        let haveFFmpeg = (try? FFmpeg.ffmpegExecutable(for: output)) != nil
        if !haveFFmpeg {
            FileHandle.standardError.write(Data("note: ffmpeg not found (Debian package 'ffmpeg'); writing PNG frame directories instead of videos\n".utf8))
        }
        print("Rendering on \(context.info.name)")
        let columns = [0, 0.25, 0.5, 0.75, 1.0]
        var rows: [[Image]] = []
        let transitions = EffectCatalog.transitions.filter { $0.family == .segue }
        for effect in transitions {
            let destination = haveFFmpeg ? output + "/\(effect.name).mp4" : output + "/\(effect.name)"
            let renderer = try TransitionRenderer(effect: effect, from: from, to: to, context: context)
            let timeline = Timeline(timing: try TransitionTiming(defaultFor: effect), fps: fps)
            let sink = try makeFrameSink(try RenderOutput(path: destination), width: renderer.width, height: renderer.height, fps: fps)
            let start = Date()
            try renderer.render(timeline, to: sink)
            let seconds = Date().timeIntervalSince(start)
            print("  " + effect.name.padding(toLength: 10, withPad: " ", startingAt: 0)
                  + String(format: " %@  (%d frames, %.1f fps)", destination, timeline.frameCount, Double(timeline.frameCount) / seconds))
            // Contact-sheet row: a third of the size, at five progress values.
            let small = try TransitionRenderer(effect: effect, from: from, to: to, width: from.width / 3, height: from.height / 3, context: context, framesInFlight: 1)
            rows.append(try columns.map { p in try small.frame(progress: p, time: p * effect.defaultDuration, duration: effect.defaultDuration) })
        }
        let sheet = ContactSheet.compose(rows)
        try ImageFile.write(sheet, to: output + "/contact-sheet.png")
        print("Contact sheet: \(output)/contact-sheet.png (rows: \(transitions.map(\.name).joined(separator: ", ")); columns: progress 0, 0.25, 0.5, 0.75, 1)")

        // The home screen through each mesh effect, side by side.
        let meshes = MeshEffects.all.filter { !$0.isTransition && $0.effect.name != "flat" }
        let small = SampleScreens.home(scale: scale / 2)
        let meshRenderer = try MeshSceneRenderer(from: small, context: context, framesInFlight: 1, antialiasing: true)
        let row = try meshes.map { definition in
            let scene = try definition.scene(width: meshRenderer.layerWidth, height: meshRenderer.layerHeight)
            return try meshRenderer.frame(mesh: scene.mesh, appearance: scene.appearance)
        }
        try ImageFile.write(ContactSheet.compose([row]), to: output + "/meshes.png")
        print("Mesh effects: \(output)/meshes.png (\(meshes.map(\.effect.name).joined(separator: ", ")))")
    }
}
