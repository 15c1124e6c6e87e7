// Options of SwiftUI-style stitchable shader effects (`--effect file.metal:name`), and the
// `segue info` lines describing one.
import ArgumentParser
import Foundation
import Segue

/// `--function`, `--arg`, `--animate`, `--insertion`, `--removal`, `--max-sample-offset`.
struct StitchableOptions: ParsableArguments {
    @Option(help: "Stitchable function of the .metal effect file (or write file.metal:NAME).")
    var function: String?

    @Option(name: .customLong("arg"), help: ArgumentHelp("Argument of a stitchable shader; 'auto' fills a float2 with the layer size in points, a float4 with its bounding rectangle, a float with the time in seconds.", valueName: "name=value"))
    var args: [String] = []

    @Option(help: ArgumentHelp("The float argument the transition drives (default: the last float argument).", valueName: "name"))
    var animate: String?

    @Option(help: ArgumentHelp("Effect values of the inserted screen at progress 0 and 1 (default 1:0).", valueName: "A:B"))
    var insertion: String?

    @Option(help: ArgumentHelp("Effect values of the removed screen at progress 0 and 1 (default 0:-1).", valueName: "A:B"))
    var removal: String?

    @Option(help: ArgumentHelp("Farthest a distortion or layer effect may sample from the destination, in points (samples beyond are transparent; default unlimited).", valueName: "W[,H]"))
    var maxSampleOffset: String?

    /// Whether any of these options was given.
    var isUsed: Bool {
        function != nil || !args.isEmpty || animate != nil || insertion != nil || removal != nil || maxSampleOffset != nil
    }

    func validate() throws {
        if let insertion { _ = try Self.parseRange(insertion, option: "--insertion") }
        if let removal { _ = try Self.parseRange(removal, option: "--removal") }
        if let maxSampleOffset { _ = try Self.parseOffset(maxSampleOffset) }
        for a in args { _ = try assignment(a) }
    }

    private func assignment(_ text: String) throws -> (name: String, value: String) {
        do { return try parseAssignment(text) } catch { throw ValidationError("--arg: \(error)") }
    }

    /// `A:B` as two finite numbers.
    static func parseRange(_ text: String, option: String) throws -> (from: Double, to: Double) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]) else {
            throw ValidationError("\(option) must look like A:B (two numbers, e.g. 1:0), got '\(text)'")
        }
        guard a.isFinite, b.isFinite else { throw ValidationError("\(option) must be two finite numbers, got '\(text)'") }
        return (a, b)
    }

    /// `W` or `W,H` in points, finite and ≥ 0.
    static func parseOffset(_ text: String) throws -> Vector2 {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--max-sample-offset must be one or two numbers of points (W or W,H), got '\(text)'")
        }
        let v = Vector2(parts[0]!, parts.count == 2 ? parts[1]! : parts[0]!)
        guard v.x.isFinite, v.y.isFinite, v.x >= 0, v.y >= 0 else {
            throw ValidationError("--max-sample-offset must be finite and ≥ 0, got '\(text)'")
        }
        return v
    }

    /// The effect with parameter values and textures: a stitchable effect configured by these
    /// options (its `--arg` and `--param` values merged), or `effectOptions` as they are.
    func resolve(_ effectOptions: EffectOptions, scale: Double) throws -> (Effect, [String: ParameterValue], [String: Image]) {
        let base = try EffectCatalog.effect(function.map { f in effectOptions.effect.hasSuffix(".metal") ? "\(effectOptions.effect):\(f)" : effectOptions.effect } ?? effectOptions.effect)
        guard base.kind == .stitchable else {
            if isUsed {
                throw CLIFailure(message: "--function, --arg, --animate, --insertion, --removal and --max-sample-offset apply to stitchable shader effects (.metal files, shift); '\(effectOptions.effect)' is a \(base.kind.rawValue) effect: use --param")
            }
            return try effectOptions.resolve(scale: scale)
        }
        let fn = try EffectCatalog.stitchableFunction(effectOptions.effect, function: function)
        var configuration = StitchableConfiguration(animated: animate)
        if let insertion { configuration.insertion = try Self.parseRange(insertion, option: "--insertion") }
        if let removal { configuration.removal = try Self.parseRange(removal, option: "--removal") }
        if let maxSampleOffset { configuration.maxSampleOffset = try Self.parseOffset(maxSampleOffset) }
        var automatic = fn.defaultAutomatic
        var assignments: [(name: String, value: String)] = []
        for text in args {
            let (name, value) = try assignment(text)
            guard fn.arguments.contains(where: { $0.name == name }) else {
                throw CLIFailure(message: "'\(fn.name)' has no argument '\(name)'; its arguments are: \(fn.arguments.map { "\($0.name) (\($0.metalType))" }.joined(separator: ", "))")
            }
            if value.lowercased() == "auto" { automatic.insert(name) } else { automatic.remove(name); assignments.append((name, value)) }
        }
        configuration.automatic = automatic
        let animated = try fn.animatedArgument(configuration)
        if let clash = assignments.first(where: { $0.name == animated.name }) {
            throw CLIFailure(message: "'\(clash.name)' is the animated argument; set its range with --insertion and --removal instead of --arg")
        }
        let effect = try fn.effect(configuration, summary: base.summary, source: base.source,
                                   defaultDuration: base.defaultDuration, defaultTiming: base.defaultTiming)
        let params = try effectOptions.params.map { text throws(ParameterError) in try parseAssignment(text) }
        let values = try effect.resolveParameters(assignments + params)
        var images: [String: Image] = [:]
        for t in effectOptions.textures {
            let (name, path) = try parseAssignment(t)
            images[name] = try ImageFile.read(path: path, scale: scale)
        }
        return (effect, values, images)
    }
}

/// `segue info` lines for a stitchable effect: its kind, signature and how each argument is filled.
func stitchableInfoLines(_ nameOrPath: String) throws -> [String] {
    let fn = try EffectCatalog.stitchableFunction(nameOrPath)
    let configuration = StitchableConfiguration()
    let animated = try? fn.animatedArgument(configuration)
    var lines = ["  shader:   \(fn.kind.rawValue) function '\(fn.name)' (\(fn.file):\(fn.line))"]
    lines.append(fn.arguments.isEmpty ? "  arguments: none" : "  arguments:")
    for a in fn.arguments {
        let role: String
        if a.name == animated?.name {
            role = "animated: insertion \(configuration.insertion.from)→\(configuration.insertion.to), removal \(configuration.removal.from)→\(configuration.removal.to) (--animate, --insertion, --removal)"
        } else if fn.defaultAutomatic.contains(a.name) {
            role = "auto: \(a.type == .vec2 ? "the layer size in points" : "the layer's bounding rectangle") (or --arg \(a.name)=VALUE)"
        } else {
            role = "--arg \(a.name)=VALUE (default 0\(a.type == .float ? "; 'auto': the time in seconds" : ""))"
        }
        lines.append("    \(a.name): \(a.metalType)  — \(role)")
    }
    if animated == nil { lines.append("  (no float argument: it cannot run as a transition)") }
    return lines
}
