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

    @Option(parsing: .unconditional, help: ArgumentHelp("Effect values of the inserted screen at progress 0 and 1 (default 1:0).", valueName: "A:B"))
    var insertion: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Effect values of the removed screen at progress 0 and 1 (default 0:-1).", valueName: "A:B"))
    var removal: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Farthest a distortion or layer effect may sample from the destination, in points (samples beyond are transparent; default unlimited).", valueName: "W[,H]"))
    var maxSampleOffset: String?

    /// Whether any of these options was given.
    var isUsed: Bool {
        function != nil || !args.isEmpty || animate != nil || insertion != nil || removal != nil || maxSampleOffset != nil
    }

    func validate() throws {
        _ = try request()
    }

    /// The stitchable part of the effect request; nil when none of these options was given.
    func request() throws -> StitchableRequest? {
        guard isUsed else { return nil }
        return StitchableRequest(
            function: function,
            arguments: try args.map { text in
                do { return try parseAssignment(text) } catch { throw ValidationError("--arg: \(error)") }
            },
            animate: animate,
            insertion: try insertion.map { try StitchableRequest.parseRange($0, option: "--insertion") },
            removal: try removal.map { try StitchableRequest.parseRange($0, option: "--removal") },
            maxSampleOffset: try maxSampleOffset.map { try StitchableRequest.parseOffset($0) })
    }

    /// The effect of `effectOptions` with these options, resolved (parameters checked, textures read).
    func resolve(_ effectOptions: EffectOptions, scale: Double) throws -> ResolvedEffect {
        var request = try effectOptions.request()
        request.stitchable = try self.request()
        return try request.resolve(scale: scale)
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
