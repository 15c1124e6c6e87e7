import FoundationEssentials
import SegueCore
import SegueMetal
import SegueRender
import SegueShaders
import SegueSystem

// Which plugin an effect becomes, and its name.
//
// Built-ins: the transitions (shader, stitchable and mesh transitions) become MIXER2 plugins, the
// meshes applied to one image (curtain, bulge, …) FILTER plugins. Files: a `.glsl` file whose
// source reads `getToColor` is a transition (MIXER2), one that reads only `getFromColor` an effect
// on one image (FILTER); a stitchable `FILE.metal:FUNCTION` is a transition when it has a float
// argument named as a progress (`progress`, `amount`, `value`, … as `segue` animates one), else a
// colour, distortion or layer effect on one image (FILTER, its `time` filled by the host's time).
//
// Names: `segue_` + a built-in's name with `-` as `_` (segue_doom_melt); for a file, `segue_` +
// its base name (a .metal function's name) lowercased, every character other than a–z and 0–9
// as `_`. MLT lists a plugin as `frei0r.NAME`, GStreamer as `frei0r-mixer-NAME` / `frei0r-filter-NAME`
// with `-` for `_`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Frei0rPlugin {
    /// The plugin name of a built-in: `segue_` and its name with `-` as `_`.
    public static func pluginName(builtIn name: String) -> String {
        "segue_" + name.replacingAll("-", with: "_")
    }

    /// The plugin name of a file's effect called `base`: `segue_` and `base` lowercased, every
    /// character other than a–z and 0–9 as `_`.
    public static func pluginName(file base: String) -> String {
        "segue_" + String(base.lowercased().map { ("a"..."z").contains($0) || ("0"..."9").contains($0) ? $0 : "_" })
    }

    /// The plugin of a built-in effect.
    /// - Throws: the effect lookup's error (not expected for a built-in).
    public static func builtIn(_ effect: Effect) throws -> Frei0rPlugin {
        let name = pluginName(builtIn: effect.name)
        if let mesh = effect.meshBuilder, !mesh.isTransition {
            return Frei0rPlugin(name: name, type: .filter, spec: effect.name, effect: effect)
        }
        // As segue_transition_create sees it (a stitchable built-in becomes its transition).
        let transition = try EffectRequest(effect: effect.name).resolve().effect
        return Frei0rPlugin(name: name, type: .mixer2, spec: effect.name, effect: transition)
    }

    /// The plugin of an effect file: `PATH.glsl`, `PATH.metal:FUNCTION` or `PATH.metal` (a file
    /// with one stitchable function). The plugin refers to the file by its absolute path.
    /// - Throws: `Frei0rError.unsupportedFile`, or the file's problem (`EffectLookupError`,
    ///   `StitchableConfigurationError`).
    public static func file(_ spec: String) throws -> Frei0rPlugin {
        if spec.hasSuffix(".glsl") {
            let path = FileIO.resolvedPath(spec)
            let effect = try EffectCatalog.load(path: path)
            let base = FileIO.removingExtension(of: FileIO.lastComponent(of: path))
            let readsTo = effect.glsl?.contains("getToColor") ?? true
            return Frei0rPlugin(name: pluginName(file: base), type: readsTo ? .mixer2 : .filter, spec: path, effect: effect)
        }
        guard let (file, named) = EffectCatalog.stitchablePath(spec) else { throw Frei0rError.unsupportedFile(spec) }
        let path = FileIO.resolvedPath(file)
        let function = try EffectCatalog.stitchableFunction(path, function: named)
        let full = path + ":" + function.name
        let floats = function.arguments.filter { $0.type == .float }.map(\.name)
        if function.kind != .fill, StitchableFunction.progressNames.contains(where: floats.contains) {
            let transition = try EffectRequest(effect: full).resolve().effect
            return Frei0rPlugin(name: pluginName(file: function.name), type: .mixer2, spec: full, effect: transition)
        }
        let image = try ImageEffectRequest(effect: full).resolve().effect
        return Frei0rPlugin(
            name: pluginName(file: function.name), type: function.kind == .fill ? .source : .filter, spec: full, effect: image)
    }
}
