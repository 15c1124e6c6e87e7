// `segue mesh`: an image through a mesh, or an animation between two meshes.
import ArgumentParser
import Foundation
import Segue

struct MeshCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mesh", abstract: "Render an image through a mesh transform, or animate between two meshes.",
        discussion: """
        A mesh is a built-in (curtain, bulge, jelly, ripple, ellipse, skew, flat; see 'segue list') or a JSON
        mesh file (Docs/MeshFiles.md). --param sets the built-ins' parameters (of both meshes where the
        name exists). With --to-mesh the two meshes must be compatible (same vertex and face counts, face
        indices and depth normalization); the animation follows --timing or --spring, and -o takes a
        directory, '-' or a video.
        """)

    @Argument(help: "The image (PNG or JPEG).")
    var image: String

    @Option(help: ArgumentHelp("A built-in mesh.", valueName: "name"))
    var mesh: String?

    @Option(name: .customLong("mesh-file"), help: ArgumentHelp("A JSON mesh file.", valueName: "file.json"))
    var meshFile: String?

    @Option(name: .customLong("to-mesh"), help: ArgumentHelp("Animate to this built-in or JSON file.", valueName: "name|file.json"))
    var toMesh: String?

    @Option(name: .customLong("param"), help: ArgumentHelp("A built-in mesh's parameter.", valueName: "name=value"))
    var params: [String] = []

    @Option(help: "Pixels per point of the image.")
    var scale: Double = 1

    @Option(help: "Seconds of the animation (with --to-mesh).")
    var duration: Double = 1

    @Option(help: "Frames per second (with --to-mesh).")
    var fps: Double = 30

    @OptionGroup var timing: TimingOptions

    @Flag(help: "4× multisampled mesh edges.")
    var antialias = false

    @Option(help: "Vulkan device: an index or a name substring.")
    var device: String?

    @Option(name: .shortAndLong, help: "Output: an image (.png/.jpg), or with --to-mesh a directory, '-' or a video.")
    var output: String

    func validate() throws {
        guard (mesh == nil) != (meshFile == nil) else { throw ValidationError("give exactly one of --mesh or --mesh-file") }
        guard scale.isFinite, scale > 0 else { throw ValidationError("--scale must be a positive number, got \(scale)") }
        guard fps.isFinite, fps > 0, fps <= 1000 else { throw ValidationError("--fps must be in (0, 1000], got \(fps)") }
    }

    func run() throws {
        let source = try ImageFile.read(path: image, scale: scale)
        let context = try GPUContext(configuration: .init(environment: ProcessInfo.processInfo.environment, deviceSelector: device))
        let renderer = try MeshSceneRenderer(from: source, context: context, framesInFlight: toMesh == nil ? 1 : 3,
                                             antialiasing: antialias)
        let start = try scene(mesh ?? meshFile!, isFile: meshFile != nil, renderer: renderer)
        guard let toMesh else {
            if !timing.keyframes.isEmpty { throw CLIFailure(message: "--param-keyframes needs --to-mesh") }
            try ImageFile.write(try renderer.frame(mesh: start.mesh, appearance: start.appearance), to: output)
            return
        }
        let end = try scene(toMesh, isFile: toMesh.hasSuffix(".json") || toMesh.contains("/"), renderer: renderer)
        do { try start.mesh.checkCompatible(with: end.mesh) } catch {
            throw CLIFailure(message: "cannot animate from \(mesh ?? meshFile!) to \(toMesh): \(error)")
        }
        let timeline = try timing.timeline(for: placeholderEffect, duration: duration, fps: fps)
        let sink = try makeFrameSink(try RenderOutput(path: output), width: renderer.width, height: renderer.height, fps: fps)
        let progress = ProgressLine(total: timeline.frameCount)
        defer { progress.finish() }
        try renderer.render(count: timeline.frameCount, scene: { i in
            let p = timeline.progress(ofFrame: i)
            return (start.mesh.interpolated(to: end.mesh, fraction: p),
                    MeshAppearance(lightDirection: start.appearance.lightDirection.interpolated(to: end.appearance.lightDirection, fraction: p),
                                   diffuseLightFactor: start.appearance.diffuseLightFactor.interpolated(to: end.appearance.diffuseLightFactor, fraction: p),
                                   supplementaryTransform: start.appearance.supplementaryTransform.interpolated(to: end.appearance.supplementaryTransform, fraction: p),
                                   subdivisionSteps: max(start.appearance.subdivisionSteps, end.appearance.subdivisionSteps)))
        }, to: sink, progress: progress.update)
    }

    /// Timing options need an effect for their defaults: linear over `--duration`.
    private var placeholderEffect: Effect {
        Effect(name: "mesh", summary: "", kind: .mesh, source: .builtIn, glsl: "", origin: .topLeft, parameters: [],
               defaultDuration: duration, defaultTiming: "linear")
    }

    /// A built-in mesh (with `--param` values it declares) or a mesh file.
    private func scene(_ name: String, isFile: Bool, renderer: MeshSceneRenderer) throws -> (mesh: MeshTransform, appearance: MeshAppearance) {
        if isFile {
            do {
                let file = try MeshFile(contentsOf: URL(fileURLWithPath: name))
                return (file.mesh, file.appearance)
            } catch let error as MeshError {
                throw CLIFailure(message: "\(name): \(error)")
            }
        }
        guard let definition = MeshEffects.named(name), !definition.isTransition else {
            let names = MeshEffects.all.filter { !$0.isTransition }.map(\.effect.name)
            throw CLIFailure(message: "unknown mesh '\(name)'; the built-in meshes are \(names.joined(separator: ", ")) (or give a .json mesh file)")
        }
        // --param applies to every built-in mesh of the command that declares the name.
        let declared = [mesh, toMesh].compactMap { $0.flatMap(MeshEffects.named) }.flatMap(\.effect.parameters)
        var values: [String: ParameterValue] = [:]
        for text in params {
            let (key, value) = try parseAssignment(text)
            guard declared.contains(where: { $0.name == key }) else {
                throw ParameterError.unknown(name: key, effect: name, known: declared.map(\.name))
            }
            if let p = definition.effect.parameter(named: key) {
                values[key] = try ParameterValue.parse(value, as: p.type, name: key)
            }
        }
        do {
            return try definition.scene(parameters: values, width: renderer.layerWidth, height: renderer.layerHeight)
        } catch let error as MeshError {
            throw CLIFailure(message: "\(name): \(error)")
        }
    }
}
