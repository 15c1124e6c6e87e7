// A card of text for live views: an error from a reloaded effect file, drawn on the CPU in the
// block font (white on dark red), word-wrapped to the card's width. Text the font lacks is drawn
// as a gap.

import FoundationEssentials
import SegueCore
import SegueMath
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Images of short messages for showing in a window.
public enum MessageCard {
    /// Points between the card's edge and its text.
    public static let margin = 8.0
    /// Points per font cell (a glyph is 5 × 7 cells, advancing 6 cells; lines are 10 cells apart).
    public static let cell = 2.0

    /// The lines `text` wraps to within `width` points: at spaces where possible, else anywhere;
    /// newlines in `text` start new lines.
    public static func wrap(_ text: String, width: Double) -> [String] {
        let perLine = max(1, Int((width - 2 * margin + cell) / (6 * cell)))
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var word = Substring(word)
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if candidate.count <= perLine { line = candidate; continue }
                if !line.isEmpty { lines.append(line); line = "" }
                while word.count > perLine {
                    lines.append(String(word.prefix(perLine)))
                    word = word.dropFirst(perLine)
                }
                line = String(word)
            }
            lines.append(line)
        }
        return lines
    }

    /// A `width` × `height`-pixel card at `scale` pixels per point with `text` wrapped on it,
    /// from the top; lines that do not fit are left out.
    public static func image(_ text: String, width: Int, height: Int, scale: Double = 1) -> Image {
        var canvas = Canvas(width: width, height: height, scale: scale, background: CanvasColor(120, 16, 24))
        let pointWidth = Double(width) / scale, pointHeight = Double(height) / scale
        var y = margin
        for line in wrap(text, width: pointWidth) {
            guard y + 7 * cell <= pointHeight else { break }
            canvas.text(line, x: margin, y: y, cell: cell, CanvasColor(255, 255, 255))
            y += 10 * cell
        }
        return canvas.image()
    }

    /// The height in pixels a card of `text` needs at `width` pixels and `scale`.
    public static func height(for text: String, width: Int, scale: Double = 1) -> Int {
        let lines = wrap(text, width: Double(width) / scale).count
        return Int(((2 * margin + Double(lines) * 10 * cell - 3 * cell) * scale).rounded(.up))
    }
}
