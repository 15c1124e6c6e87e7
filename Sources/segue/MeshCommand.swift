// `segue mesh`: an image through a mesh, or an animation between two meshes.
import ArgumentParser
import FoundationEssentials
import Segue

struct MeshCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mesh", abstract: "Render an image through a mesh transform, or animate between two meshes.",
        discussion: """
            A mesh is a built-in (curtain, bulge, jelly, ripple, ellipse, skew, flat; see 'segue list') or a JSON \
            mesh file (Docs/MeshFiles.md). --param sets the built-ins' parameters (of both meshes where the \
            name exists). With --to-mesh the two meshes must be compatible (same vertex and face counts, face \
            indices and depth normalization); the animation follows --timing or --spring, and -o takes a \
            directory, '-' or a video.

            With --window the mesh shows live in a window instead: a held button moves the touch of curtain and \
            bulge, which springs back on release (--spring, default response=0.5,damping-fraction=0.7); jelly and \
            ripple run their phase; a click or space toggles to --to-mesh from wherever the animation is; --watch \
            reloads mesh files. Escape or closing the window quits.
            """)

    @Argument(help: "The image (PNG or JPEG).")
    var image: String

    @Option(
        help: ArgumentHelp(
            "A built-in mesh or a JSON mesh file (a path ending in .json or holding a /), as --to-mesh takes them.",
            valueName: "name|file.json"))
    var mesh: String?

    /// The older spelling of `--mesh FILE`, kept for scripts: any path, read as a mesh file.
    @Option(help: ArgumentHelp(visibility: .hidden))
    var meshFile: String?

    @Option(help: ArgumentHelp("Animate to this built-in or JSON file.", valueName: "name|file.json"))
    var toMesh: String?

    @Option(name: .customLong("param"), help: ArgumentHelp("A built-in mesh's parameter.", valueName: "name=value"))
    var params: [String] = []

    @Option(parsing: .unconditional, help: "Pixels per point of the image.")
    var scale: Double = 1

    @Option(
        parsing: .unconditional,
        help:
            "Seconds of the animation (with --to-mesh; default 1, or with --spring and -o the spring's settling duration).")
    var duration: Double?

    @OptionGroup var rate: RateOptions

    @OptionGroup var timing: TimingOptions

    @Flag(help: "4× multisampled mesh edges.")
    var antialias = false

    @OptionGroup(title: "Live window") var live: MeshWindowOptions
    @OptionGroup var deviceOptions: DeviceOptions
    @OptionGroup(title: "Video encoding") var encoder: EncoderOptions

    @Option(name: .shortAndLong, help: "Output: an image (.png/.jpg), or with --to-mesh a directory, '-' or a video.")
    var output: String?

    func validate() throws {
        if mesh != nil, meshFile != nil { throw ValidationError("give the mesh once: --mesh-file is the older spelling of --mesh FILE") }
        if mesh == nil, meshFile == nil {
            throw ValidationError("give the mesh: --mesh NAME (a built-in, see 'segue list') or --mesh FILE.json")
        }
        if live.window {
            try validateWindow()
        } else {
            guard let output else { throw ValidationError("give -o/--output (or --window to show the mesh live)") }
            try encoder.validate(output: output)
        }
        try validateScale(scale, in: live.window ? LiveWindowOptions.scales : .positive)
        if !timing.keyframes.isEmpty { throw ValidationError("--param-keyframes applies to effects, not to meshes") }
    }

    /// The meshes the options name, with their parameters.
    func request() throws -> MeshRequest {
        MeshRequest(
            start: meshFile.map(MeshSource.file) ?? MeshSource(mesh!), end: toMesh.map(MeshSource.init),
            parameters: try parseAssignments(params, flag: "--param"))
    }

    func run() throws {
        if live.window { return try runWindow() }
        guard let output else { throw ValidationError("give -o/--output (or --window to show the mesh live)") }
        let request = try request()
        let files = [OutputGuard.Input("the input image", image)] + request.inputFiles
        // (An output that is no render output is reported after the meshes are checked, as before.)
        if toMesh != nil, let destination = try? RenderOutput(path: output) {
            try destination.check(against: files)
        } else {
            try OutputGuard.check(output: output, inputs: files)
        }
        let source = try ImageFile.read(path: image, scale: scale)
        let renderer = try MeshSceneRenderer(
            from: source, context: deviceOptions.context(), framesInFlight: toMesh == nil ? 1 : 3,
            antialiasing: antialias)
        let (start, end) = try request.resolve(width: renderer.layerWidth, height: renderer.layerHeight)
        guard let end else {
            try ImageFile.write(try renderer.frame(start), to: output, cancellation: InterruptHandler.cancellation)
            return
        }
        let timeline = try Timeline(
            timing: timing.timing(defaultCurve: "linear", defaultDuration: 1, duration: duration), fps: rate.fps)
        let destination = try RenderOutput(path: output)
        let sink = try makeFrameSink(
            destination, width: renderer.width, height: renderer.height, fps: rate.fps,
            settings: encoder.settings, cancellation: InterruptHandler.cancellation)
        let progress = ProgressLine(total: timeline.frameCount)
        defer { progress.finish() }
        try renderer.render(from: start, to: end, timeline: timeline, to: sink, progress: progress.update)
    }
}
