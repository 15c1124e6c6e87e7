import SegueCore
import SegueMath
import SegueMetal
// The named effects Segue ships, lookup by name with suggestions, and loading effect files.
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an effect could not be found or loaded.
public enum EffectLookupError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// No built-in of that name; `suggestions` are the nearest names.
    case unknown(name: String, suggestions: [String])
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not of a supported kind.
    case unsupportedFile(path: String)
    /// The file is malformed.
    case invalidSource(ShaderSourceError)
    /// A `.metal` file without the stitchable function asked for, or one that cannot run as a transition.
    case stitchable(path: String, message: String)

    public var description: String {
        switch self {
        case let .unknown(name, suggestions):
            let hint = MessageText.didYouMean(suggestions).map { "; \($0)" } ?? ""
            return "unknown effect '\(name)'\(hint)"
        case let .unreadable(path, reason):
            return "cannot read effect file '\(path)': \(reason)"
        case let .unsupportedFile(path):
            return "'\(path)' is not a supported effect file (expected a .glsl transition or a .metal stitchable shader)"
        case let .invalidSource(e):
            return e.description
        case let .stitchable(path, message):
            return "\(path): \(message)"
        }
    }
}

/// Segue's built-in effects and effect files.
public enum EffectCatalog {
    /// Every built-in effect, in listing order: Segue's own, then the ffmpeg xfade equivalents.
    public static let builtIns: [Effect] =
        parseBuiltIns(
            [
                BuiltInSources.fade, BuiltInSources.doomMelt, BuiltInSources.wipe, BuiltInSources.circle,
                BuiltInSources.iosPush, BuiltInSources.iosPop,
            ], family: .segue)
        + StitchableBuiltIns.all.map { entry in
            var effect = StitchableBuiltIns.effect(entry)
            effect.family = .segue
            return effect
        } + MeshEffects.all.map(\.effect) + parseBuiltIns(XfadeSources.all, family: .xfade)

    /// The names of all 58 transitions of ffmpeg's `xfade` filter, in xfade's order; each names a
    /// built-in. `fade` is Segue's own (the same cross-dissolve); the others are in the `xfade` family.
    public static var xfadeNames: [String] { XfadeSources.names }

    /// The built-ins that run as transitions between two screens (every built-in except the mesh
    /// effects applied to one image, which `segue mesh` renders).
    public static var transitions: [Effect] {
        builtIns.filter { $0.meshBuilder?.isTransition ?? true }
    }

    /// The built-ins of one family, in listing order.
    public static func builtIns(in family: EffectFamily) -> [Effect] {
        builtIns.filter { $0.family == family }
    }

    private static func parseBuiltIns(_ sources: [String], family: EffectFamily) -> [Effect] {
        sources.map { source in
            // Built-in sources are fixed and tested; a parse failure is a programming error.
            do {
                var effect = try TransitionSourceParser.parse(source, name: "built-in", source: .builtIn, defaultOrigin: .topLeft)
                effect.family = family
                // Segue's own sources blend premultiplied colour, as Core Animation does.
                effect.alpha = .premultiplied
                return effect
            } catch {
                fatalError("built-in effect failed to parse: \(error)")
            }
        }
    }

    /// The built-in named `name`.
    public static func builtIn(named name: String) -> Effect? {
        builtIns.first { $0.name == name }
    }

    /// A built-in by name, a stitchable shader (`file.metal` or `file.metal:function`), or a
    /// `.glsl` file when `nameOrPath` names one (contains a `/` or ends in `.glsl`).
    /// - Throws: `EffectLookupError` with the nearest names for an unknown effect, or the
    ///   file's problem.
    public static func effect(_ nameOrPath: String) throws(EffectLookupError) -> Effect {
        if let (path, function) = stitchablePath(nameOrPath) {
            return try load(path: path, function: function)
        }
        if nameOrPath.hasSuffix(".glsl") || nameOrPath.contains("/") {
            return try load(path: nameOrPath)
        }
        if let e = builtIn(named: nameOrPath) { return e }
        throw .unknown(name: nameOrPath, suggestions: suggestions(for: nameOrPath))
    }

    /// The file an effect name reads (`my.glsl`, `dir/wipe.glsl`, `shaders.metal` of
    /// `shaders.metal:wave`), nil for a built-in name: what `effect(_:)` would open.
    public static func file(ofEffect nameOrPath: String) -> String? {
        if let (path, _) = stitchablePath(nameOrPath) { return path }
        if nameOrPath.hasSuffix(".glsl") || nameOrPath.contains("/") { return nameOrPath }
        return nil
    }

    /// Loads a transition file (gl-transitions interface; `uv` bottom-left unless its header says
    /// `// Origin: top-left`).
    public static func load(path: String) throws(EffectLookupError) -> Effect {
        guard path.hasSuffix(".glsl") else { throw .unsupportedFile(path: path) }
        let text = try EffectFile.read(path)
        let base = FileIO.removingExtension(of: FileIO.lastComponent(of: path))
        do {
            return try TransitionSourceParser.parse(text, name: base, source: .file(path), defaultOrigin: .bottomLeft)
        } catch {
            throw .invalidSource(error)
        }
    }

    // MARK: - Stitchable shaders

    /// Splits `file.metal:function` (or `file.metal`) into the path and the function name; nil
    /// for anything else.
    public static func stitchablePath(_ text: String) -> (path: String, function: String?)? {
        if text.hasSuffix(".metal") { return (text, nil) }
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let path = String(text[..<colon]), function = String(text[text.index(after: colon)...])
        // NAME, or NAME(type, …) naming one overload.
        let name = function.prefix { $0 != "(" }, types = function.dropFirst(name.count)
        guard path.hasSuffix(".metal"), SourceIdentifier.isValid(name),
            types.isEmpty || (types.hasSuffix(")") && !types.dropFirst().dropLast().contains { "()".contains($0) })
        else { return nil }
        return (path, function)
    }

    /// Loads the stitchable function `function` of a `.metal` file as a transition with the
    /// default configuration (see `StitchableConfiguration`); `function` may be nil when the file
    /// has exactly one.
    public static func load(path: String, function: String?) throws(EffectLookupError) -> Effect {
        let f = try stitchableFunction(path, function: function, use: .transition)
        do {
            // A fill has no screens to transition between: it is an effect that draws alone or
            // over an image.
            if f.kind == .fill { return try f.imageEffect(source: .file(path)) }
            return try f.effect(source: .file(path))
        } catch {
            throw .stitchable(path: path, message: error.message)
        }
    }

    /// The effect `segue info` and the gallery describe: `effect(nameOrPath)`, or — for a
    /// stitchable function with no `float` to animate — the function applied to one image.
    /// - Throws: `EffectLookupError`, as `effect(_:)`.
    public static func describableEffect(_ nameOrPath: String) throws(EffectLookupError) -> Effect {
        do {
            return try effect(nameOrPath)
        } catch {
            guard case .stitchable = error, let fn = try? stitchableFunction(nameOrPath), !fn.runsAsTransition
            else { throw error }
            do {
                return try fn.imageEffect(source: .file(fn.file))
            } catch let e {
                throw .stitchable(path: fn.file, message: e.message)
            }
        }
    }

    /// The stitchable function behind a built-in (`shift`) or a `.metal` file (`file.metal`,
    /// `file.metal:name`, or the path with `function`).
    /// - Throws: `EffectLookupError` for an unknown name, an unreadable or unsupported file, or
    ///   a missing or ambiguous function.
    public static func stitchableFunction(
        _ nameOrPath: String, function: String? = nil,
        use: StitchableUse = .any
    ) throws(EffectLookupError) -> StitchableFunction {
        if let entry = StitchableBuiltIns.all.first(where: { $0.function == nameOrPath }) {
            if let function, function != entry.function {
                throw .stitchable(path: entry.file, message: "the built-in has only the function '\(entry.function)'")
            }
            return StitchableBuiltIns.function(entry)
        }
        guard let (path, named) = stitchablePath(nameOrPath) else {
            if builtIn(named: nameOrPath) != nil {
                throw .stitchable(path: nameOrPath, message: "not a stitchable shader effect")
            }
            if nameOrPath.contains(".") || nameOrPath.contains("/") { throw .unsupportedFile(path: nameOrPath) }
            throw .unknown(name: nameOrPath, suggestions: suggestions(for: nameOrPath))
        }
        if let named, let function, named != function {
            throw .stitchable(path: path, message: "the function is named twice, as '\(named)' and '\(function)'")
        }
        let module = try stitchableModule(path)
        let names = module.names
        guard let wanted = named ?? function else {
            guard names.count == 1 else {
                throw .stitchable(
                    path: path,
                    message: names.isEmpty
                        ? "no [[ stitchable ]] function found"
                        : "several stitchable functions (\(listedNames(names))); name one as \(path):NAME")
            }
            if let refusal = module.refused.first { throw .invalidSource(refusal.error) }
            return module.functions[0]
        }
        return try overload(wanted, of: module, use: use, path: path)
    }

    /// Every overload `nameOrPath` (`FILE.metal:NAME`) names, in source order (one when the name
    /// gives its types); what `segue info` lists.
    /// - Throws: as `stitchableFunction`.
    public static func stitchableOverloads(_ nameOrPath: String) throws(EffectLookupError) -> [StitchableFunction] {
        guard let (path, named) = stitchablePath(nameOrPath), let named, !named.contains("(") else {
            return [try stitchableFunction(nameOrPath)]
        }
        let module = try stitchableModule(path)
        let all = module.functions.filter { $0.name == named }
        return all.isEmpty ? [try overload(named, of: module, use: .any, path: path)] : all
    }

    /// The overloads `nameOrPath` (`FILE.metal:NAME`) names that cannot be used, in source order;
    /// none for a name with its types, a built-in or another effect. What `segue info` lists
    /// beside `stitchableOverloads`.
    /// - Throws: as `stitchableFunction` for a file that cannot be read or translated.
    public static func refusedOverloads(_ nameOrPath: String) throws(EffectLookupError) -> [StitchableRefusal] {
        guard let (path, named) = stitchablePath(nameOrPath), let named, !named.contains("(") else { return [] }
        return try stitchableModule(path).refused.filter { $0.name == named }
    }

    /// Every stitchable function `nameOrPath` covers, in source order: all of a file's
    /// (`FILE.metal`), or the overloads `FILE.metal:NAME` names; what `segue check` checks.
    /// - Throws: as `stitchableFunction`, `.stitchable` for a file with no stitchable function, and
    ///   `.invalidSource` with the first function that cannot be used (a check covers them all).
    public static func stitchableFunctions(_ nameOrPath: String) throws(EffectLookupError) -> [StitchableFunction] {
        guard let (path, named) = stitchablePath(nameOrPath), named == nil else { return try stitchableOverloads(nameOrPath) }
        let module = try stitchableModule(path)
        if let refusal = module.refused.first { throw .invalidSource(refusal.error) }
        guard !module.functions.isEmpty else { throw .stitchable(path: path, message: "no [[ stitchable ]] function found") }
        return module.functions
    }

    /// The `.metal` file at `path`, read and translated.
    private static func stitchableModule(_ path: String) throws(EffectLookupError) -> StitchableTranslator.Module {
        let text = try EffectFile.read(path)
        do {
            return try StitchableTranslator.translate(text, file: path)
        } catch {
            throw .invalidSource(error)
        }
    }

    /// The function `wanted` names (`NAME`, or `NAME(type, …)` with the types after `position`)
    /// among `module`'s: the one overload, the one whose types are given, else the one that fits
    /// `use` (a fill to draw alone, a colour, distortion or layer function for an image or a
    /// transition).
    /// - Throws: `EffectLookupError.stitchable` naming the overloads when none or several fit;
    ///   `.invalidSource` with why when `wanted` names a function that cannot be used.
    static func overload(
        _ wanted: String, of module: StitchableTranslator.Module, use: StitchableUse,
        path: String
    ) throws(EffectLookupError) -> StitchableFunction {
        let name = String(wanted.prefix { $0 != "(" })
        let named = module.functions.filter { $0.name == name }
        let refused = module.refused.filter { $0.name == name }
        // Types compare without spaces or `thread` (`thread float &` is `float&`), as written or
        // with `float2` (position) before them.
        func normalized(_ type: some StringProtocol) -> String {
            let t = String(type).replacingAll(" ", with: "")
            return t.hasPrefix("thread") ? String(t.dropFirst(6)) : t
        }
        let types = wanted.count > name.count ? wanted.dropFirst(name.count + 1).dropLast().split(separator: ",").map(normalized) : nil
        let listing = listedNames(
            named.map(\.signatureText)
                + refused.map { "\(name)(\($0.parameterTypes.joined(separator: ", "))) at line \($0.line), which cannot be used" },
            separator: "; ")
        if let types {
            // The overload the types name: written exactly, then after `float2`; usable or refused.
            for prefix in [[], ["float2"]] {
                if let f = named.first(where: { prefix + $0.parameterTypes.map(normalized) == types }) { return f }
                if let r = refused.first(where: { prefix + $0.parameterTypes.map(normalized) == types }) { throw .invalidSource(r.error) }
            }
        }
        // Every overload of the name refused: why (the first).
        if named.isEmpty, let r = refused.first { throw .invalidSource(r.error) }
        guard !named.isEmpty else {
            let names = module.names
            throw .stitchable(
                path: path,
                message: "no [[ stitchable ]] function '\(name)'" + (names.isEmpty ? "" : " (it has: \(listedNames(names)))"))
        }
        if let types {
            throw .stitchable(path: path, message: "no overload of '\(name)' takes (\(types.joined(separator: ", "))); it has: \(listing)")
        }
        // An overload that cannot be used is never passed over for another without a word: the
        // use might have picked it.
        guard refused.isEmpty else {
            let unusable = refused.map { "\(name)(\($0.parameterTypes.joined(separator: ", "))) at line \($0.line)" }
            // The ones that fit the use first: with an image, a colour function before a fill.
            let choices = (named.filter(use.fits) + named.filter { !use.fits($0) }).map {
                "\(path):\(StitchableTranslator.spelled(name, $0.parameterTypes))"
            }
            throw .stitchable(
                path: path,
                message: "'\(name)' has \(refused.count == 1 ? "an overload" : "\(refused.count) overloads") that cannot be used ("
                    + listedNames(unusable, separator: "; ")
                    + "), which the name alone might mean: name the one to use by the types after position, as "
                    + listedNames(choices, separator: " or "))
        }
        if named.count == 1 { return named[0] }
        let fitting = named.filter(use.fits)
        guard fitting.count == 1 else {
            throw .stitchable(
                path: path,
                message:
                    "'\(name)' has \(named.count) overloads (\(listing)); name one by the types after position, as \(path):\(name)(half4, float) names half4 \(name)(float2 position, half4 color, float …)"
            )
        }
        return fitting[0]
    }

    /// Up to three built-in names closest to `name` (`MessageText.suggestions`).
    public static func suggestions(for name: String) -> [String] {
        MessageText.suggestions(for: name, among: builtIns.map(\.name))
    }
}

/// What a stitchable function is wanted for, which picks among overloads of one name.
public enum StitchableUse: Sendable {
    /// Any (only one overload may have the name).
    case any
    /// Drawn alone, without an image: a fill.
    case alone
    /// On an image: a colour, distortion or layer function, else a fill drawn over it.
    case image
    /// As a transition between two screens: a colour, distortion or layer function.
    case transition

    /// Whether `function` fits this use (`any`: every function).
    func fits(_ function: StitchableFunction) -> Bool {
        switch self {
        case .any: true
        case .alone: function.kind == .fill
        case .image, .transition: function.kind != .fill
        }
    }
}
