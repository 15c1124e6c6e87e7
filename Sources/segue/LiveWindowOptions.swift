// `--stats` and `--frames`: what the window commands (`navigate`, `preview`, `mesh --window`)
// share, with the run until the window closes.
import ArgumentParser
import Segue

struct LiveWindowOptions: ParsableArguments {
    @Flag(help: "Print frame-time percentiles at exit.")
    var stats = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Quit after this many frames (for scripts and measurements).", valueName: "N"))
    var frames: Int?

    /// Refuses a `--frames` below 1; none (run until the window closes) passes.
    func validate() throws {
        if let frames { guard frames > 0 else { throw ValidationError("--frames must be at least 1, got \(frames)") } }
    }

    /// Whether either option was given.
    var isGiven: Bool { stats || frames != nil }

    /// The scales of a window's screens: [0.1, 8] (the sample screens round to no pixels far
    /// below it, and an image's window would be wider than any display).
    static let scales = ScaleRange(minimum: 0.1, maximum: 8)

    /// Runs a live window (`run`: its `run(frames:clock:)`) for `--frames` frames or until it
    /// closes, its clock the seconds since now; then prints `view`'s frame-time percentiles with
    /// `--stats`.
    func run(_ view: LiveView, _ run: (Int?, () -> Double) throws -> Void) throws {
        let watch = Stopwatch()
        try run(frames) { watch.elapsed }
        if stats, let line = view.statisticsLine { print(line) }
    }
}
