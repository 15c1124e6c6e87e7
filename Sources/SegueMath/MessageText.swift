// Numbers and names as Segue's messages word them, in one place: seconds and other numbers short
// and readable (never `1.6482708333333334 s` or `inf s`), and the "did you mean" of a misspelt
// name (Levenshtein distance).
import SegueSystem

/// Wording shared by every layer's messages.
public enum MessageText {
    /// A duration for a message: `2 s`, `1.648 s` (at most three decimals, trailing zeros
    /// dropped), `0.0004 s` and `1e+308 s` for the very small and the huge; `infinity` and
    /// `NaN` for values that are no duration.
    public static func seconds(_ value: Double) -> String {
        value.isFinite ? number(value) + " s" : number(value)
    }

    /// A number for a message: whole numbers in full below 10¹⁵ (`2`, `30000000001`), others
    /// with at most three decimals, trailing zeros dropped (`1.648`, `-0.5`); three significant
    /// digits in scientific notation for the tiny and the huge (`0.0004`, `1e-05`, `3e+301`);
    /// `infinity`, `-infinity` or `NaN`.
    public static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "infinity" : "-infinity" }
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        let magnitude = abs(value)
        if magnitude >= 1e15 || magnitude < 0.0005 { return String(cFormat: "%.3g", value) }
        if value == value.rounded() { return String(Int64(value)) }
        var text = String(cFormat: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A value refused for lying outside a range, for "…, got X": `number(value)`, unless that
    /// reads as one of `bounds` (`1000.0001` shortened to `1000`, a value that looks allowed);
    /// then every digit Swift needs to read it back.
    public static func number(_ value: Double, outside bounds: Double...) -> String {
        let short = number(value)
        return bounds.contains(where: { number($0) == short && $0 != value }) ? "\(value)" : short
    }

    /// A range for people, its ends as `number` words them: `-180…180`, `0…6.283`.
    public static func range(_ range: ClosedRange<Double>) -> String {
        "\(number(range.lowerBound))…\(number(range.upperBound))"
    }

    /// Text a user gave, quoted back in a message: whole up to `limit` characters, else its
    /// first `limit` and a count (a 100 KB value must not make a 100 KB error line).
    public static func excerpt(_ text: some StringProtocol, limit: Int = 80) -> String {
        let count = text.count
        return count <= limit ? String(text) : String(text.prefix(limit)) + "… (\(count) characters)"
    }

    /// "did you mean 'curtain'?" or "did you mean 'fade' or 'fadegrays'?": the one wording of
    /// the names a misspelt one may have meant (`suggestions`, `closest`); nil for none.
    public static func didYouMean(_ guesses: [String]) -> String? {
        guesses.isEmpty ? nil : "did you mean \(guesses.map { "'\($0)'" }.joined(separator: " or "))?"
    }

    /// `didYouMean` of the `suggestions` for `name`: "did you mean 'curtain'?"; nil for none.
    public static func didYouMean(_ name: String, among candidates: [String], limit: Int = 3) -> String? {
        didYouMean(suggestions(for: name, among: candidates, limit: limit))
    }

    /// The candidate closest to `name` (see `suggestions`), when one is close enough.
    public static func closest(to name: String, among candidates: [String]) -> String? {
        suggestions(for: name, among: candidates, limit: 1).first
    }

    /// Up to `limit` candidates close enough to `name` to be what was meant, nearest first: by
    /// edit distance, case ignored, a candidate that starts with, contains or is contained in the
    /// name counting as one edit; at most two edits, or a third of the name's length.
    public static func suggestions(for name: String, among candidates: [String], limit: Int = 3) -> [String] {
        let lower = name.lowercased()
        guard !lower.isEmpty else { return [] }
        let scored = candidates.map { candidate -> (name: String, score: Int, edits: Int) in
            let other = candidate.lowercased()
            let d = editDistance(lower, other)
            return (candidate, other.contains(lower) || lower.contains(other) ? min(d, 1) : d, d)
        }
        let reach = max(2, lower.count / 3)
        // Ties on the score go to the fewer real edits ('circleopn': 'circleopen', one edit,
        // before 'circle', contained in it), then to the name.
        return scored.filter { $0.score <= reach }.sorted { ($0.score, $0.edits, $0.name) < ($1.score, $1.edits, $1.name) }
            .prefix(limit).map(\.name)
    }

    /// The Levenshtein distance between two strings (insertions, deletions, substitutions).
    public static func editDistance(_ a: String, _ b: String) -> Int {
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
