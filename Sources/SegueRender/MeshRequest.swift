import SegueCore
import SegueMath
import SegueMedia
import SegueShaders
import SegueVulkan

// What a user names as a mesh — a built-in mesh effect with parameters given as text, or a JSON
// mesh file — resolved into scenes, and an animation between two scenes rendered along a timeline.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mesh as named by a user: a built-in mesh (`curtain`, `bulge`, …; see ``MeshEffects``) or a
/// JSON mesh file (`Docs/MeshFiles.md`).
public enum MeshSource: Sendable, Hashable {
    /// A built-in mesh effect, by name.
    case builtIn(String)
    /// A JSON mesh file, by path.
    case file(String)

    /// A path when `text` ends in `.json` or contains a `/`, else a built-in name.
    public init(_ text: String) {
        self = text.hasSuffix(".json") || text.contains("/") ? .file(text) : .builtIn(text)
    }

    /// The name or path as given.
    public var text: String {
        switch self {
        case let .builtIn(name), let .file(name): name
        }
    }
}

/// One or two meshes with `name=value` parameters for the built-ins; a parameter applies to every
/// built-in of the request that declares it.
public struct MeshRequest: Sendable {
    /// The mesh shown first (or alone).
    public var start: MeshSource
    /// The mesh to animate to, if any.
    public var end: MeshSource?
    /// `name=value` parameters of the built-in meshes.
    public var parameters: [(name: String, value: String)]

    /// A request.
    public init(start: MeshSource, end: MeshSource? = nil, parameters: [(name: String, value: String)] = []) {
        self.start = start
        self.end = end
        self.parameters = parameters
    }

    /// The meshes, resolved once: built-ins looked up with their parameters parsed, mesh files
    /// read; build their scenes with ``scenes(_:_:width:height:overrides:)``.
    /// - Throws: `MeshError` (unknown mesh, bad file), `ParameterError` (a parameter no mesh of
    ///   the request declares, a bad value).
    public func templates() throws -> (start: MeshTemplate, end: MeshTemplate?) {
        let definitions = [start, end].compactMap { source -> MeshEffectDefinition? in
            if case let .builtIn(name)? = source { return MeshEffects.named(name) }
            return nil
        }
        let declared = definitions.flatMap(\.effect.parameters)
        for (name, _) in parameters where !declared.contains(where: { $0.name == name }) {
            throw ParameterError.unknown(name: name, effect: start.text, known: declared.map(\.name))
        }
        return (try MeshTemplate(start, parameters: parameters), try end.map { try MeshTemplate($0, parameters: parameters) })
    }

    /// The scenes for a layer of `width` × `height` points; `end` is nil without an end mesh.
    /// - Throws: `MeshError` (unknown mesh, bad file, parameter out of range, incompatible
    ///   meshes), `ParameterError` (a parameter no mesh of the request declares, a bad value).
    public func resolve(width: Double, height: Double) throws -> (start: MeshScene, end: MeshScene?) {
        let (first, last) = try templates()
        return try Self.scenes(first, last, width: width, height: height)
    }

    /// The scenes of two templates for a layer of `width` × `height` points, with `overrides`
    /// for the parameters each declares, checked to be compatible when there is an end mesh.
    /// - Throws: `MeshError` (parameter out of range, incompatible meshes).
    public static func scenes(
        _ start: MeshTemplate, _ end: MeshTemplate?, width: Double, height: Double,
        overrides: [String: ParameterValue] = [:]
    ) throws -> (start: MeshScene, end: MeshScene?) {
        let first = try start.scene(width: width, height: height, overrides: overrides)
        guard let end else { return (first, nil) }
        let last = try end.scene(width: width, height: height, overrides: overrides)
        do { try first.mesh.checkCompatible(with: last.mesh) } catch let error as MeshError {
            throw MeshError(error.kind, "cannot animate from \(start.source.text) to \(end.source.text): \(error.message)")
        }
        return (first, last)
    }
}

extension MeshSceneRenderer {
    /// Renders the animation from `start` to `end` along `timeline` (its progress blends the
    /// scenes) into `sink`, cancelling the sink on error and calling `progress` after each frame.
    public func render(
        from start: MeshScene, to end: MeshScene, timeline: Timeline, to sink: FrameSink,
        progress: (Int) -> Void = { _ in }
    ) throws {
        try render(
            count: timeline.frameCount,
            scene: { i in
                let s = start.interpolated(to: end, fraction: timeline.progress(ofFrame: i))
                return (s.mesh, s.appearance)
            }, to: sink, progress: progress)
    }

    /// One image of `scene`.
    public func frame(_ scene: MeshScene) throws -> Image {
        try frame(mesh: scene.mesh, appearance: scene.appearance)
    }
}
