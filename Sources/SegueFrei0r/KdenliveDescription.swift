import FoundationEssentials
import SegueCore
import SegueSystem

// The XML description Kdenlive needs before it shows a frei0r plugin: a `<transition>` (in
// `transitions/`) for a mixer, an `<effect>` (in `effects/`) for a filter, each `<parameter>`
// named as the MLT property the frei0r module reads (the frei0r parameter name). Kdenlive shows
// a double as value × factor + offset, so factor = max − min and offset = min display the
// effect's own units between min and max; `progress` is animated 0 → 1 over the transition
// (`0=0;-1=1`: MLT keyframes at the first and the last frame). Format as in Kdenlive's
// data/transitions and data/effects.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kdenlive's description of a plugin.
public enum KdenliveDescription {
    /// The folder under Kdenlive's data directory (`~/.local/share/kdenlive`) the file goes in.
    public static func folder(for plugin: Frei0rPlugin) -> String {
        plugin.type == .mixer2 ? "transitions" : "effects"
    }

    /// The file name: `frei0r_NAME.xml`.
    public static func fileName(for plugin: Frei0rPlugin) -> String {
        "frei0r_\(plugin.name).xml"
    }

    /// The XML text.
    public static func xml(for plugin: Frei0rPlugin) -> String {
        let element = plugin.type == .mixer2 ? "transition" : "effect"
        let kind = plugin.type == .mixer2 ? " type=\"short\"" : ""
        var lines = [
            "<?xml version=\"1.0\"?>",
            "<!DOCTYPE kpartgui>",
            "<\(element) tag=\"\(escape(plugin.mltService))\" id=\"\(escape(plugin.mltService))\"\(kind)>",
            "    <name>\(escape(title(plugin)))</name>",
            "    <description>\(escape(plugin.explanation))</description>",
            "    <author>Segue</author>",
        ]
        for p in plugin.parameters {
            lines.append("    <parameter \(attributes(p))>")
            lines.append("        <name>\(escape(p.target == .progress ? "Progress" : p.name))</name>")
            lines.append("        <comment>\(escape(p.explanation))</comment>")
            lines.append("    </parameter>")
        }
        lines.append("</\(element)>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// What Kdenlive shows as the name: "Segue " and the effect's name.
    static func title(_ plugin: Frei0rPlugin) -> String {
        "Segue " + String(plugin.name.dropFirst("segue_".count)).replacingAll("_", with: " ")
    }

    private static func attributes(_ p: Frei0rParameter) -> String {
        let name = "name=\"\(escape(p.name))\""
        switch p.kind {
        case .bool:
            return "type=\"bool\" \(name) default=\"\(p.defaultValue.first ?? 0 >= 0.5 ? 1 : 0)\""
        case .color:
            // Colours are parameters whose defaults are all 0…1 (`Frei0rParameter.map`).
            let bytes = p.defaultValue.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }.hexDigits
            return "type=\"color\" \(name) default=\"0x\(bytes)ff\" alpha=\"0\""
        case .string:
            return "type=\"url\" \(name) default=\"\" filter=\"Images (*.png *.jpg *.jpeg)\""
        case .double:
            if p.target == .progress {
                return "type=\"animated\" \(name) default=\"0=0;-1=1\" min=\"0\" max=\"100\" factor=\"100\""
            }
            let (lo, hi) = (p.range.lowerBound, p.range.upperBound)
            let decimals = p.integer ? " decimals=\"0\"" : " decimals=\"3\""
            return
                "type=\"animated\" \(name) default=\"\(String(exactNumber: p.defaultValue.first ?? 0))\" min=\"\(String(exactNumber: lo))\""
                + " max=\"\(String(exactNumber: hi))\" factor=\"\(String(exactNumber: hi - lo))\" offset=\"\(String(exactNumber: lo))\""
                + decimals
        }
    }

    /// `text` with XML's special characters as entities.
    static func escape(_ text: String) -> String { Markup.escape(text) }
}
