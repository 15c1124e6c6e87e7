// Seconds on the monotonic clock, for measurements: benchmarks, the frame account, the concat
// timings. Nothing decides by it (deadlines are `ProgramRun`'s and `Locked.wait`'s).

/// Seconds between laps on the monotonic clock.
package struct Stopwatch {
    private static let clock = ContinuousClock()
    private var last = Stopwatch.clock.now

    /// A stopwatch whose first lap starts now.
    package init() {}

    /// Seconds since the last lap (or the start), starting a new lap.
    package mutating func lap() -> Double {
        let now = Self.clock.now
        defer { last = now }
        return Self.seconds(now - last)
    }

    /// Seconds since the last lap (or the start); the lap goes on.
    package var elapsed: Double { Self.seconds(Self.clock.now - last) }

    /// Seconds `body` takes.
    package static func time(_ body: () throws -> Void) rethrows -> Double {
        let watch = Stopwatch()
        try body()
        return watch.elapsed
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
