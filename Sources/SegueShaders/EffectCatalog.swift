// The named effects Segue ships, lookup by name with suggestions, and loading effect files.
import Foundation
import SegueCore

/// Why an effect could not be found or loaded.
public enum EffectLookupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No built-in of that name; `suggestions` are the nearest names.
    case unknown(name: String, suggestions: [String])
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not of a supported kind.
    case unsupportedFile(path: String)
    /// The file is malformed.
    case invalidSource(ShaderSourceError)

    public var description: String {
        switch self {
        case let .unknown(name, suggestions):
            let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: " or "))?"
            return "unknown effect '\(name)'\(hint) (run 'segue list' to see them all)"
        case let .unreadable(path, reason):
            return "cannot read effect file '\(path)': \(reason)"
        case let .unsupportedFile(path):
            return "'\(path)' is not a supported effect file (expected a .glsl transition)"
        case let .invalidSource(e):
            return e.description
        }
    }
}

/// Segue's built-in effects and effect files.
public enum EffectCatalog {
    /// Every built-in effect, in listing order: Segue's own, then the ffmpeg xfade equivalents.
    public static let builtIns: [Effect] = parseBuiltIns([
        BuiltInSources.fade, BuiltInSources.doomMelt, BuiltInSources.wipe, BuiltInSources.circle,
        BuiltInSources.iosPush, BuiltInSources.iosPop,
    ], family: .segue) + parseBuiltIns(XfadeSources.all, family: .xfade)

    /// The names of all 58 transitions of ffmpeg's `xfade` filter, in xfade's order; each names a
    /// built-in. `fade` is Segue's own (the same cross-dissolve); the others are in the `xfade` family.
    public static var xfadeNames: [String] { XfadeSources.names }

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

    /// A built-in by name, or a `.glsl` file when `nameOrPath` names one (contains a `/` or ends
    /// in `.glsl`).
    /// - Throws: `EffectLookupError` with the nearest names for an unknown effect, or the
    ///   file's problem.
    public static func effect(_ nameOrPath: String) throws(EffectLookupError) -> Effect {
        if nameOrPath.hasSuffix(".glsl") || nameOrPath.contains("/") {
            return try load(path: nameOrPath)
        }
        if let e = builtIn(named: nameOrPath) { return e }
        throw .unknown(name: nameOrPath, suggestions: suggestions(for: nameOrPath))
    }

    /// Loads a transition file (gl-transitions interface; `uv` bottom-left unless its header says
    /// `// Origin: top-left`).
    public static func load(path: String) throws(EffectLookupError) -> Effect {
        guard path.hasSuffix(".glsl") else { throw .unsupportedFile(path: path) }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "not readable UTF-8 text" : "no such file"
            throw .unreadable(path: path, reason: reason)
        }
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        do {
            return try TransitionSourceParser.parse(text, name: base, source: .file(path), defaultOrigin: .bottomLeft)
        } catch {
            throw .invalidSource(error)
        }
    }

    /// Up to three built-in names closest to `name` (edit distance, prefix and substring matches).
    public static func suggestions(for name: String) -> [String] {
        let lower = name.lowercased()
        let scored = builtIns.map(\.name).map { candidate -> (String, Int) in
            var d = editDistance(lower, candidate)
            if candidate.hasPrefix(lower) || candidate.contains(lower) || lower.contains(candidate) { d = min(d, 1) }
            return (candidate, d)
        }
        let limit = max(2, lower.count / 3)
        return scored.filter { $0.1 <= limit }.sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }.prefix(3).map(\.0)
    }

    /// Levenshtein distance.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
