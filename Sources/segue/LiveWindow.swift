// What the window commands (`navigate`, `preview`, `mesh --window`) share: the checks of their
// options and the run until the window closes.
import ArgumentParser
import Segue

enum LiveWindow {
    /// Refuses a `--frames` below 1; nil (run until the window closes) passes.
    static func validate(frames: Int?) throws {
        if let frames { guard frames > 0 else { throw ValidationError("--frames must be at least 1, got \(frames)") } }
    }

    /// The scales of a window's screens: [0.1, 8] (the sample screens round to no pixels far
    /// below it, and an image's window would be wider than any display).
    static let scales = ScaleRange(minimum: 0.1, maximum: 8)

    /// Runs a live window (`run`: its `run(frames:clock:)`) for `frames` frames or until it closes,
    /// its clock the seconds since now; then prints `view`'s frame-time percentiles when `stats`.
    static func run(_ view: LiveView, frames: Int?, stats: Bool, _ run: (Int?, () -> Double) throws -> Void) throws {
        let watch = Stopwatch()
        try run(frames) { watch.elapsed }
        if stats, let line = view.statisticsLine { print(line) }
    }
}
