/// The source of time for an ``AnimationContext``: the engine never reads the wall clock, so
/// tests and offline renderers control time exactly.
///
/// Clocks are reference types read on the thread that owns their context.
public protocol AnimationClock: AnyObject {
    /// The current time in seconds.
    var now: Double { get }
}

/// A clock that only moves when told to (tests, scrubbing).
public final class ManualClock: AnimationClock {
    /// The current time in seconds; set it to jump.
    public var now: Double

    /// Creates a clock reading `now`.
    public init(now: Double = 0) {
        self.now = now
    }

    /// Moves the clock forward (or back, for negative `seconds`).
    public func advance(by seconds: Double) {
        now += seconds
    }
}

/// A clock for offline rendering: frame `i` is at time `i / framesPerSecond`, with no
/// accumulated rounding error however many frames pass.
public final class FrameClock: AnimationClock {
    /// The frame rate.
    public let framesPerSecond: Double
    /// The current frame index.
    public var frame: Int

    /// Creates a clock at `frame` of a `framesPerSecond` timeline.
    ///
    /// - Precondition: `framesPerSecond` is finite and positive.
    public init(framesPerSecond: Double = 60, frame: Int = 0) {
        precondition(framesPerSecond > 0 && framesPerSecond.isFinite, "FrameClock needs a positive, finite frame rate")
        self.framesPerSecond = framesPerSecond
        self.frame = frame
    }

    /// The time of the current frame: `frame / framesPerSecond`.
    public var now: Double { Double(frame) / framesPerSecond }

    /// Moves to a later (or, for negative `frames`, earlier) frame.
    public func advance(frames: Int = 1) {
        frame += frames
    }
}
