import SegueCore
import SegueMath
// One mesh of a `MeshRequest`, resolved once and built again whenever a parameter changes: a
// built-in with its parsed values, or a mesh file read once. The offline `segue mesh` builds its
// scenes through this type, and a live window rebuilds them each frame with the parameters that
// follow the finger or the clock (`touch`, `phase`), so the two show the same meshes.
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mesh as named by a user, ready to build at any layer size with any of its parameters
/// overridden.
public struct MeshTemplate: Sendable {
    /// The mesh as the user named it.
    public let source: MeshSource
    /// The built-in's description, nil for a mesh file.
    public let definition: MeshEffectDefinition?
    /// The built-in's parameter values as given (the others take their defaults).
    public let values: [String: ParameterValue]
    /// A mesh file's scene, read when the template was made.
    private let fixed: MeshScene?

    /// Resolves `source`: looks a built-in up and parses the `parameters` it declares (the others
    /// are ignored), or reads and validates a mesh file.
    /// - Throws: `MeshError` (an unknown mesh, a transition named as a mesh, a bad file, naming
    ///   the path), `ParameterError` (a value of the wrong type).
    public init(_ source: MeshSource, parameters: [(name: String, value: String)] = []) throws {
        self.source = source
        switch source {
        case let .file(path):
            do {
                let file = try MeshFile(contentsOfFile: path)
                fixed = MeshScene(mesh: file.mesh, appearance: file.appearance)
            } catch let error as MeshError {
                // The file's own errors name its path as given: name it once.
                let absolute = path
                throw MeshError(
                    error.kind,
                    error.message.contains(absolute)
                        ? error.message.replacingAll(absolute, with: path) : "\(path): \(error.message)")
            }
            definition = nil
            values = [:]
        case let .builtIn(name):
            guard let definition = MeshEffects.named(name), !definition.isTransition else {
                let names = MeshEffects.all.filter { !$0.isTransition }.map(\.effect.name)
                let list = "built-in meshes are \(names.joined(separator: ", ")) (or give a .json mesh file)"
                let hint = MessageText.didYouMean(name, among: names)
                throw MeshError(.invalidParameter, "unknown mesh '\(name)'; " + (hint.map { "\($0) The \(list)" } ?? "the \(list)"))
            }
            var values: [String: ParameterValue] = [:]
            for (key, value) in parameters {
                if let p = definition.effect.parameter(named: key) {
                    values[key] = try definition.effect.value(value, of: p)
                }
            }
            self.definition = definition
            self.values = values
            fixed = nil
        }
    }

    /// Whether the mesh declares a parameter `name` (only built-ins have parameters).
    public func declares(_ name: String) -> Bool {
        definition?.effect.parameter(named: name) != nil
    }

    /// The value parameter `name` rests at: the one given, else its default; nil when the mesh
    /// does not declare it.
    public func value(of name: String) -> ParameterValue? {
        guard let parameter = definition?.effect.parameter(named: name) else { return nil }
        return values[name] ?? parameter.effectiveDefault
    }

    /// The scene for a `width` × `height`-point layer, with `overrides` replacing the values of
    /// the parameters this mesh declares (the others are ignored; a mesh file has none).
    /// - Throws: `MeshError` for values the mesh cannot take, naming the mesh.
    public func scene(width: Double, height: Double, overrides: [String: ParameterValue] = [:]) throws -> MeshScene {
        if let fixed { return fixed }
        guard let definition else { preconditionFailure("a template is a file or a built-in") }
        var all = values
        for (name, value) in overrides where definition.effect.parameter(named: name) != nil { all[name] = value }
        do {
            let s = try definition.scene(parameters: all, width: width, height: height)
            return MeshScene(mesh: s.mesh, appearance: s.appearance)
        } catch let error as MeshError {
            throw MeshError(error.kind, "\(source.text): \(error.message)")
        }
    }
}
