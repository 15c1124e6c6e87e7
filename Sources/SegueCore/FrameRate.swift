// The frame rates Segue renders at, checked in one place: every command that takes `--fps` and
// the concat spec's `fps` ask here before anything is opened, so a rate ffmpeg or the timeline
// would refuse later (0, negative, NaN, 1e-9, 1e9) is named up front with the range.
import SegueMath

/// The range of output frame rates and its check.
public enum FrameRate {
    /// Frames per second Segue renders at: 1 to 1000.
    public static let range: ClosedRange<Double> = 1...1000

    /// What is wrong with `fps` as a phrase to follow its name ("must be a number from 1 to
    /// 1000, got 0"), or nil when it is in `range`.
    public static func problem(_ fps: Double) -> String? {
        range.contains(fps)
            ? nil
            : "must be a number from \(MessageText.number(range.lowerBound)) to \(MessageText.number(range.upperBound)), got \(MessageText.number(fps))"
    }
}
