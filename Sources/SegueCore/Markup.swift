// Text for XML and HTML (the Kdenlive descriptions and the gallery page): one escaping rule.

/// Escaping for markup.
package enum Markup {
    /// `text` with the five characters that are special in XML and HTML content and attribute
    /// values as entities (`&apos;` is XML's and HTML5's).
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}
