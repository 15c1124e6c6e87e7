import FoundationEssentials
import SegueCore
import SegueRender
import SegueShaders
import SegueSystem

// One frei0r plugin: an effect, the kind of plugin it becomes, its name in the hosts, and the
// configuration text written into the plugin template (read by plugins/frei0r/segue_frei0r.c).
//
// Configuration format (version 1): UTF-8 lines of tab-separated fields.
//   segue-frei0r  1
//   name          segue_fade                      the plugin (and frei0r effect) name
//   type          mixer2 | filter | source
//   effect        fade | /abs/file.glsl | /abs/file.metal:fn   what segue_*_create receives
//   explanation   one line
//   library       /abs/path/libsegue.so           tried first when the plugin loads libsegue
//   target        NAME  f|i|b|t  COUNT  D0,D1,…   an effect parameter and its default components
//   param         NAME  double|bool|color|string  TARGET  COMPONENT  MIN  MAX  DEFAULT  EXPLANATION
// TARGET is -1 for `progress`, else the index of a `target` line; DEFAULT is in frei0r units
// (r,g,b for a colour, empty for a string). Text fields never hold tabs or newlines.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A frei0r plugin for one effect.
public struct Frei0rPlugin: Sendable {
    /// frei0r's plugin types Segue writes.
    public enum PluginType: String, Sendable {
        /// Two inputs (`F0R_PLUGIN_TYPE_MIXER2`): a transition.
        case mixer2
        /// One input (`F0R_PLUGIN_TYPE_FILTER`): an effect on one image.
        case filter
        /// No input (`F0R_PLUGIN_TYPE_SOURCE`): a fill that draws alone (MLT's producer
        /// `frei0r.NAME`, GStreamer's `frei0r-src-…`).
        case source
    }

    /// The plugin name: `segue_` and the effect's name (see `Frei0rNaming`).
    public let name: String
    /// Mixer or filter.
    public let type: PluginType
    /// What the plugin passes to `segue_transition_create` or `segue_effect_create`: a built-in's
    /// name, or a file's absolute path (`PATH.metal:FUNCTION` for a stitchable function).
    public let effect: String
    /// One line for the host's listing.
    public let explanation: String
    /// The frei0r parameters, `progress` first for a mixer.
    public let parameters: [Frei0rParameter]
    /// The effect parameters they set.
    public let targets: [Frei0rTarget]

    /// A plugin for `effect` (whose parameters are those `segue_*_create` sees for `spec`).
    public init(name: String, type: PluginType, spec: String, effect: Effect) {
        self.name = name
        self.type = type
        self.effect = spec
        let summary = Frei0rPlugin.oneLine(effect.summary)
        explanation =
            summary.isEmpty ? "Segue \(type == .mixer2 ? "transition" : type == .source ? "fill" : "effect") \(effect.name)" : summary
        (parameters, targets) = Frei0rParameter.map(effect.parameters, withProgress: type == .mixer2)
    }

    /// The MLT service: `frei0r.NAME`.
    public var mltService: String { "frei0r." + name }

    /// The GStreamer element: `frei0r-mixer-…`, `frei0r-filter-…` or `frei0r-src-…`, the name
    /// with `-` for `_`.
    public var gstreamerElement: String {
        (type == .mixer2 ? "frei0r-mixer-" : type == .source ? "frei0r-src-" : "frei0r-filter-") + name.replacingAll("_", with: "-")
    }

    /// Whether a parameter is a texture (the plugin then cannot render before it is set).
    public var hasTextures: Bool { targets.contains { $0.type == .sampler2D } }

    /// The configuration text for the template, naming `library` as the libsegue to load.
    public func configuration(library: String) -> String {
        var lines = [
            "segue-frei0r\t1", "name\t\(name)", "type\t\(type.rawValue)", "effect\t\(Self.oneLine(effect))",
            "explanation\t\(explanation)", "library\t\(Self.oneLine(library))",
        ]
        for t in targets {
            var scalar: String
            switch t.type.scalar {
            case .float: scalar = "f"
            case .int: scalar = "i"
            case .bool: scalar = "b"
            case .texture: scalar = "t"
            }
            if t.type.isArray { scalar = "s" }  // text, passed as it is
            lines.append(
                "target\t\(Self.oneLine(t.name))\t\(scalar)\t\(t.defaults.count)\t\(t.defaults.map(String.init(exactNumber:)).joined(separator: ","))"
            )
        }
        for p in parameters {
            let (target, component): (Int, Int)
            switch p.target {
            case .progress: (target, component) = (-1, 0)
            case let .components(parameter, first): (target, component) = (parameter, first)
            }
            lines.append(
                [
                    "param", Self.oneLine(p.name), p.kind.rawValue, String(target), String(component),
                    String(exactNumber: p.range.lowerBound),
                    String(exactNumber: p.range.upperBound), p.defaultValue.map(String.init(exactNumber:)).joined(separator: ","),
                    Self.oneLine(p.explanation),
                ]
                .joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` on one line: tabs, newlines and other control characters become spaces.
    static func oneLine(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
            .trimmingWhitespace()
    }
}
