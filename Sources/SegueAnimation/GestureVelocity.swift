// The speed of a one-dimensional gesture when it lets go, as a pan recogniser reports it: the
// motion over the last 100 ms of samples before release, so a finger that rested before lifting
// has velocity 0 and a flick has the speed of its last stretch. The samples are the caller's
// (positions in any unit, times in seconds from any clock); nothing here reads a clock.

/// The velocity of a gesture from its recent samples.
public struct GestureVelocity: Sendable {
    /// The samples kept, oldest first (at most ``capacity``).
    public private(set) var samples: [(position: Double, time: Double)] = []
    /// How many samples are kept.
    public static let capacity = 16
    /// The stretch of time before the last sample that the velocity is measured over, in seconds.
    public static let window = 0.1

    /// No samples yet (velocity 0).
    public init() {}

    /// Records the gesture at `position` at `time` seconds (non-finite values are ignored).
    public mutating func record(_ position: Double, at time: Double) {
        guard position.isFinite, time.isFinite else { return }
        samples.append((position, time))
        if samples.count > Self.capacity { samples.removeFirst(samples.count - Self.capacity) }
    }

    /// The velocity in position units per second over the last ``window`` seconds of samples;
    /// 0 with fewer than two samples in it.
    public var velocity: Double { Self.velocity(of: samples) }

    /// The velocity of `samples` (oldest first) over their last ``window`` seconds.
    public static func velocity(of samples: [(position: Double, time: Double)]) -> Double {
        guard let last = samples.last else { return 0 }
        let recent = samples.filter { last.time - $0.time <= window }
        guard let first = recent.first, last.time - first.time > 0.001 else { return 0 }
        return (last.position - first.position) / (last.time - first.time)
    }
}
