// Options of SwiftUI-style stitchable shader effects (`--effect file.metal:name`), and the
// `segue info` lines describing one.
import ArgumentParser
import FoundationEssentials
import Segue

/// `--function`, `--arg`, `--animate`, `--insertion`, `--removal`, `--removal-function`, `--max-sample-offset`.
struct StitchableOptions: ParsableArguments {
    @Option(help: "Stitchable function of the .metal effect file (or write file.metal:NAME).")
    var function: String?

    @Option(
        name: .customLong("arg"),
        help: ArgumentHelp(
            "Argument of a stitchable shader; 'auto' fills a float2 with the layer size in points, a float4 with its bounding rectangle, a float with the time in seconds.",
            valueName: "name=value"))
    var args: [String] = []

    @Option(help: ArgumentHelp("The float argument the transition drives (default: the last float argument).", valueName: "name"))
    var animate: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Effect values of the inserted screen at progress 0 and 1 (default 1:0).", valueName: "A:B"))
    var insertion: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Effect values of the removed screen at progress 0 and 1 (default 0:-1).", valueName: "A:B"))
    var removal: String?

    @Option(
        help: ArgumentHelp(
            "Another function of the same file for the removed screen (SwiftUI .asymmetric transitions: LTR/RTL pairs).", valueName: "name")
    )
    var removalFunction: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "SwiftUI's maxSampleOffset: how far the layer's drawing area is padded, in points (a layer fills the output, so no pixel changes; samples outside the layer are transparent either way).",
            valueName: "W[,H]"))
    var maxSampleOffset: String?

    /// Whether any of these options was given.
    var isUsed: Bool {
        function != nil || !args.isEmpty || animate != nil || insertion != nil || removal != nil || maxSampleOffset != nil
            || removalFunction != nil
    }

    func validate() throws {
        _ = try request()
    }

    /// The stitchable part of the effect request; nil when none of these options was given.
    func request() throws -> StitchableRequest? {
        guard isUsed else { return nil }
        return StitchableRequest(
            function: function,
            arguments: try parseAssignments(args, flag: "--arg"),
            animate: animate,
            insertion: try insertion.map { try Self.parseRange($0, option: "--insertion") },
            removal: try removal.map { try Self.parseRange($0, option: "--removal") },
            maxSampleOffset: try maxSampleOffset.map { try Self.parseOffset($0) },
            removalFunction: removalFunction)
    }

    /// The effect of `effectOptions` with these options, resolved (parameters checked, textures read).
    func resolve(_ effectOptions: EffectOptions, scale: Double) throws -> ResolvedEffect {
        var request = try effectOptions.request()
        request.stitchable = try self.request()
        return try request.resolve(scale: scale)
    }

    /// `A:B` as two finite numbers (`--insertion`, `--removal`).
    /// - Throws: `StitchableConfigurationError` naming `option`.
    static func parseRange(_ text: String, option: String) throws(StitchableConfigurationError) -> (from: Double, to: Double) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]) else {
            throw StitchableConfigurationError("\(option) must look like A:B (two numbers, e.g. 1:0), got '\(text)'")
        }
        guard a.isFinite, b.isFinite else { throw StitchableConfigurationError("\(option) must be two finite numbers, got '\(text)'") }
        return (a, b)
    }

    /// `W` or `W,H` in points, finite and ≥ 0 (`--max-sample-offset`).
    /// - Throws: `StitchableConfigurationError`.
    static func parseOffset(_ text: String) throws(StitchableConfigurationError) -> Vector2 {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingWhitespace()) }
        guard (1...2).contains(parts.count), let x = parts[0], let y = parts.count == 2 ? parts[1] : x else {
            throw StitchableConfigurationError("--max-sample-offset must be one or two numbers of points (W or W,H), got '\(text)'")
        }
        guard x.isFinite, y.isFinite, x >= 0, y >= 0 else {
            throw StitchableConfigurationError("--max-sample-offset must be finite and ≥ 0, got '\(text)'")
        }
        return Vector2(x, y)
    }
}

/// `segue info` lines for a stitchable effect: its kind, signature, how each argument is filled,
/// and the flags that apply it as a transition or to one image.
func stitchableInfoLines(_ nameOrPath: String) throws -> [String] {
    let overloads = try EffectCatalog.stitchableOverloads(nameOrPath)
    let refused = try EffectCatalog.refusedOverloads(nameOrPath)
    guard overloads.count == 1 && refused.isEmpty else {
        // Every overload (those that cannot be used with why), then each usable one described
        // under the name that picks it.
        let path = EffectCatalog.file(ofEffect: nameOrPath) ?? nameOrPath
        var lines = ["  overloads: \(overloads.count + refused.count) (name one as \(path):NAME(types after position))"]
        for f in overloads { lines.append("    \(f.signatureText)  — \(f.kind.rawValue), line \(f.line)") }
        for r in refused {
            lines.append(
                "    \(r.name)(\(r.parameterTypes.joined(separator: ", ")))  — cannot be used, line \(r.error.line): \(r.error.message)")
        }
        for f in overloads {
            let spec = "\(path):" + StitchableTranslator.spelled(f.name, f.parameterTypes)
            lines.append("  \(spec):")
            lines += try stitchableInfoLines(spec)
        }
        return lines
    }
    let fn = overloads[0]
    let configuration = StitchableConfiguration()
    let fill = fn.kind == .fill
    let animated = fill ? nil : try? fn.animatedArgument(configuration)
    var lines = ["  shader:   \(fn.kind.rawValue) function '\(fn.name)' (\(fn.file):\(fn.line))"]
    lines.append(fn.arguments.isEmpty ? "  arguments: none" : "  arguments:")
    for a in fn.arguments {
        let role: String
        let fallback = a.effectiveDefault.map { "default \($0.description)\(a.defaultValue == nil ? "" : ", from the source")" }
        if a.name == animated?.name {
            role =
                "animated: insertion \(configuration.insertion.from)→\(configuration.insertion.to), removal \(configuration.removal.from)→\(configuration.removal.to) (--animate, --insertion, --removal)"
                + "; on one image \(fallback!)"
        } else if a.type == .sampler2D {
            role = "texture: --texture \(a.name)=PATH"
        } else if a.type.isArray {
            role =
                "--arg \(a.name)=\(arraySyntax(a.type)) (at most \(a.type.maximumElements) \(a.type.elementUnit ?? ""); "
                + "'\(a.countName ?? "count")' gets the number\(a.type == .data ? " of bytes" : ""); default empty, count 0)"
        } else if fn.defaultAutomatic.contains(a.name) {
            role = "auto: \(a.type == .vec2 ? "the layer size in points" : "the layer's bounding rectangle") (or --arg \(a.name)=VALUE)"
        } else if fn.defaultImageAutomatic.contains(a.name) {
            role =
                fill
                ? "auto: the time in seconds (or --arg \(a.name)=VALUE)"
                : "--arg \(a.name)=VALUE (\(fallback!)); on one image: auto, the time in seconds"
        } else {
            role = "--arg \(a.name)=VALUE (\(fallback!)\(a.type == .float ? "; 'auto': the time in seconds" : ""))"
        }
        lines.append("    \(a.name): \(a.type.isArray ? a.declaration : a.metalType)  — \(role)")
    }
    let spec = EffectCatalog.stitchablePath(nameOrPath).map { "\($0.path):\($0.function ?? fn.name)" } ?? fn.name
    if fill {
        lines.append(
            "  alone:           segue effect --effect \(spec) --size WxH --time 0 -o out.png (or --duration D for frames or a video)")
        lines.append(
            "  over an image:   segue effect --input IMAGE --effect \(spec) --time 0 -o out.png (drawn over it, as SwiftUI's .overlay)")
        return lines
    }
    let suggestion = fn.suggestion
    if suggestion.animated != nil {
        lines.append(
            "  as a transition: segue render --from A.png --to B.png --effect \(spec) \(suggestion.flags.joined(separator: " ")) -o out.mp4"
        )
        if !suggestion.swappedFlags.isEmpty {
            lines.append(
                "    (if \(suggestion.animated!) = 1 shows the view unchanged, use: \(suggestion.swappedFlags.joined(separator: " ")))")
        }
    } else {
        lines.append("  (no float argument: it cannot run as a transition)")
    }
    lines.append("  on one image:    segue effect --input IMAGE --effect \(spec) --time 0 -o out.png")
    return lines
}

extension StitchableSuggestion {
    /// The command-line flags.
    var flags: [String] {
        guard let animated else { return [] }
        return ["--animate", animated, "--insertion", insertion] + (removalFunction.map { ["--removal-function", $0] } ?? []) + [
            "--removal", removal,
        ]
    }

    /// The flags with the ranges swapped, for functions whose value 1 leaves the view unchanged
    /// (empty for an `effectValue`, which runs from 1 through 0 to −1).
    var swappedFlags: [String] {
        guard let animated, removal == "0:1" else { return [] }
        return ["--animate", animated, "--insertion", "0:1"] + (removalFunction.map { ["--removal-function", $0] } ?? []) + [
            "--removal", "1:0",
        ]
    }
}

/// How `--arg` writes a value of an array type.
func arraySyntax(_ type: ParameterType) -> String {
    switch type {
    case .floatArray: "0.1,0.5,0.9"
    case .colorArray: "#ff0000,#00ff0080 (or r,g,b,a,…)"
    default: "@FILE (or 0x00ff…, or 0,255,…)"
    }
}
