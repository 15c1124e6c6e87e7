// `segue list` and `segue info`.
import ArgumentParser
import FoundationEssentials
import Segue

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the built-in effects.")

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let effects = EffectCatalog.builtIns
        if json {
            print(try jsonString(effects.map(EffectJSON.init)))
            return
        }
        for group in ListCommand.groups(effects) {
            print("\(group.kind.rawValue), \(group.family?.title ?? "other") (\(group.effects.count)):")
            if group.family == .xfade {
                print("  (xfade's fade is Segue's fade above)")
            }
            let width = group.effects.map(\.name.count).max() ?? 0
            for e in group.effects {
                print("  \(e.name.padding(toLength: width))  \(e.summary)")
            }
        }
        print(
            "\nAlso: --effect path/to/file.glsl (a gl-transitions style transition) or file.metal:NAME (a SwiftUI stitchable shader). 'segue info NAME' shows parameters."
        )
    }
}

extension ListCommand {
    /// Effects grouped by kind (in `EffectKind` order), then by family (in order of first
    /// appearance), keeping listing order inside each group.
    static func groups(_ effects: [Effect]) -> [(kind: EffectKind, family: EffectFamily?, effects: [Effect])] {
        var result: [(kind: EffectKind, family: EffectFamily?, effects: [Effect])] = []
        for kind in EffectKind.allCases {
            let ofKind = effects.filter { $0.kind == kind }
            var families: [EffectFamily?] = []
            for e in ofKind where !families.contains(e.family) { families.append(e.family) }
            for family in families {
                result.append((kind, family, ofKind.filter { $0.family == family }))
            }
        }
        return result
    }
}

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Describe an effect: kind, duration, parameters and defaults.")

    @Argument(help: "Effect name, path to a .glsl file, or file.metal:NAME.")
    var name: String

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Print the effect's GLSL source.")
    var source = false

    func run() throws {
        // A name with several overloads: each, with the name that picks it.
        if EffectCatalog.stitchablePath(name) != nil, !source, !json,
            try EffectCatalog.stitchableOverloads(name).count > 1 || !EffectCatalog.refusedOverloads(name).isEmpty
        {
            print("\(name) — overloaded stitchable function")
            try stitchableInfoLines(name).forEach { print($0) }
            return
        }
        let effect = try EffectCatalog.describableEffect(name)
        if source {
            guard let glsl = effect.glsl else {
                throw CLIFailure(message: "'\(effect.name)' is a mesh effect, built in Swift: it has no GLSL source")
            }
            print(glsl)
            return
        }
        if json {
            print(try jsonString(EffectJSON(effect)))
            return
        }
        print("\(effect.name) — \(effect.summary.isEmpty ? "(no description)" : effect.summary)")
        print("  kind:     \(effect.kind.rawValue)")
        print("  source:   \(effect.source.label)\(effect.family.map { " (\($0.title))" } ?? "")")
        print("  duration: \(MessageText.seconds(effect.defaultDuration)), timing \(effect.defaultTiming)")
        if let author = effect.author { print("  author:   \(author)") }
        if let license = effect.license { print("  license:  \(license)") }
        if effect.kind == .stitchable { try stitchableInfoLines(name).forEach { print($0) } }
        if effect.parameters.isEmpty {
            print("  parameters: none")
        } else {
            print("  parameters:")
            for p in effect.parameters {
                let d =
                    p.type == .sampler2D
                    ? "(texture: --texture \(p.name)=PATH)"
                    : p.type.isArray
                        ? "(\(p.type.elementUnit ?? ""), at most \(p.type.maximumElements); default empty)"
                        : "= \(p.effectiveDefault!.description)"
                            + (p.range.map { " in \(MessageText.range($0))" } ?? "")
                print("    \(p.name): \(p.typeName) \(d)\(p.summary.isEmpty ? "" : "  — \(p.summary)")")
            }
        }
    }
}

/// JSON form of an effect for `--json`.
struct EffectJSON: Encodable {
    struct Parameter: Encodable {
        let name: String
        let type: String
        let `default`: [Double]?
        let summary: String
        /// `[min, max]`, the values the effect is meant for, when it states them (`[0, 1]` for a bool).
        let range: [Double]?
        /// For an array or data argument: the most elements (floats, colours or bytes) it takes.
        let maximumLength: Int?
    }
    let name: String
    let summary: String
    let kind: String
    let source: String
    /// The built-in family (`segue`, `xfade`); absent for files.
    let family: String?
    let duration: Double
    let timing: String
    let author: String?
    let license: String?
    let parameters: [Parameter]

    init(_ e: Effect) {
        name = e.name
        summary = e.summary
        kind = e.kind.rawValue
        source = e.source.label
        family = e.family?.rawValue
        duration = e.defaultDuration
        timing = e.defaultTiming
        author = e.author
        license = e.license
        parameters = e.parameters.map {
            Parameter(
                name: $0.name, type: $0.type.rawValue, default: $0.effectiveDefault?.components, summary: $0.summary,
                range: $0.hostRange.map { [$0.lowerBound, $0.upperBound] }, maximumLength: $0.type.isArray ? $0.type.maximumElements : nil)
        }
    }
}

/// `value` as the `--json` flags print it: pretty, with sorted keys.
func jsonString<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "List Vulkan devices with type, driver and Vulkan version.")

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let devices = try GPUContext.listDevices()
        if json {
            print(try jsonString(devices))
            return
        }
        let chosen = try? GPUContext(configuration: .init(environment: ProcessInfo.processInfo.environment)).info.index
        for d in devices {
            let mark = d.index == chosen ? "*" : " "
            print(
                "\(mark) \(d.index): \(d.name) — \(d.type.rawValue), driver \(d.driver), Vulkan \(d.apiVersion)\(d.usable ? "" : " (unusable: needs Vulkan 1.3)")"
            )
        }
        print("(* = used by default; choose with --device or SEGUE_DEVICE)")
    }
}
