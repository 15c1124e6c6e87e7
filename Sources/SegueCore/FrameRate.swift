// The frame rates Segue renders at, read and checked in one place: every command that takes
// `--fps`, the concat spec's `fps` and ffprobe's rates are read here (a number, or a ratio such as
// NTSC's 30000/1001, as ffmpeg writes them), and the first two ask here before anything is
// opened, so a rate ffmpeg or the timeline would refuse later (0, negative, NaN, 1e-9, 1e9) is
// named up front with the range.
import SegueMath

/// The range of output frame rates and its check.
public enum FrameRate {
    /// Frames per second Segue renders at: 1 to 1000.
    public static let range: ClosedRange<Double> = 1...1000

    /// A rate as ffmpeg writes one: a number ("30", "29.97") or a ratio of two ("30000/1001",
    /// "24000/1001"); nil for other text and a zero denominator. The range is ``problem(_:)``'s
    /// to check.
    public static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return Double(text)
        case 2:
            guard let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator != 0 else { return nil }
            return numerator / denominator
        default: return nil
        }
    }

    /// What is wrong with `fps` as a phrase to follow its name ("must be a number from 1 to
    /// 1000, got 0"), or nil when it is in `range`.
    public static func problem(_ fps: Double) -> String? {
        range.contains(fps)
            ? nil
            : "must be a number from \(MessageText.number(range.lowerBound)) to \(MessageText.number(range.upperBound)), got \(MessageText.number(fps, outside: range.lowerBound, range.upperBound))"
    }
}
