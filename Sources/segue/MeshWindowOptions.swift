// `segue mesh --window`: the mesh live in a window. The options here, and the command's window
// path, which only parses and hands over to `LiveMesh`.
import ArgumentParser
import FoundationEssentials
import Segue

struct MeshWindowOptions: ParsableArguments {
    @Flag(
        help:
            "Show the mesh live in a window instead of writing -o: a held button moves the mesh's touch (springing back on release), phases run, a click or space toggles to --to-mesh."
    )
    var window = false

    @Flag(help: "Read the mesh files again when they change on disk.")
    var watch = false

    @OptionGroup var run: LiveWindowOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Radians per second a mesh's phase runs at (jelly, ripple; default 2π, one cycle a second; 0 holds it).",
            valueName: "rad/s"))
    var phaseRate: Double?

    func validate() throws {
        if let phaseRate, !phaseRate.isFinite {
            throw ValidationError("--phase-rate must be a finite number of radians per second, got \(MessageText.number(phaseRate))")
        }
        if !window, watch || run.isGiven || phaseRate != nil {
            throw ValidationError("--watch, --stats, --frames and --phase-rate apply to --window")
        }
    }
}

extension MeshCommand {
    /// Validation of the window path: no output file, no repeating timing, a file to watch.
    func validateWindow() throws {
        if output != nil { throw ValidationError("--window shows the mesh in a window; it takes no -o") }
        if timing.repeatCount != nil || timing.autoreverse {
            throw ValidationError("--repeat and --autoreverse do not apply to --window (a click or space toggles the meshes)")
        }
        if live.watch, try request().inputFiles.isEmpty {
            throw ValidationError("--watch needs a mesh file (--mesh FILE.json or --to-mesh FILE.json)")
        }
    }

    /// Opens the window and runs it until Escape or the window closes.
    func runWindow() throws {
        let source = try ImageFile.read(path: image, scale: scale)
        let request = try request()
        let options = LiveMesh.Options(
            spring: try timing.spring.map { try Spring(parsing: $0) },
            // The toggle runs with --timing or --spring over --duration, 1 s unless given (the
            // spring is the touch's first: one that never settles is refused as such).
            toggle: try timing.timing(defaultCurve: "linear", defaultDuration: 1, duration: duration ?? 1),
            phaseRate: live.phaseRate ?? 2 * .pi, antialiasing: antialias, watch: live.watch)
        DisplayConnection.reportLossAsError()
        let mesh = try LiveMesh(
            image: source, request: request, options: options,
            configuration: deviceOptions.configuration,
            title: "segue mesh", report: { FileIO.writeStandardError($0 + "\n") })
        try live.run.run(mesh.view, mesh.run(frames:clock:))
    }
}
