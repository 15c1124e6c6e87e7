import FoundationEssentials
import Segue

// `segue bench --animations`: what one frame of the animation engine costs as the number of
// running animations grows. Each property runs one animation (a third basic ease-in-out, a
// third spring, a third keyframes with per-segment curves), all on repeat, so every frame
// evaluates every property; hosts hold 100 properties each. The CLI prints the table.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Times `AnimationContext.update()` with many animated properties.
public struct AnimationBenchmark: Sendable {
    /// Numbers of animated properties to measure.
    public let counts: [Int]
    /// Frames evaluated per measurement.
    public let frames: Int

    /// One measurement.
    public struct Row: Sendable {
        /// Animated properties.
        public let count: Int
        /// Seconds one frame's update took, on average.
        public let secondsPerFrame: Double
    }

    /// A benchmark of `counts` properties, `frames` frames each.
    /// - Throws: `RenderError.outOfRange` for frames out of range (`TransitionBenchmark.checkFrames`,
    ///   every benchmark's rule); `RenderError.invalidValue` for a count below 1.
    public init(counts: [Int], frames: Int) throws {
        try TransitionBenchmark.checkFrames(frames)
        if let count = counts.first(where: { $0 < 1 }) {
            throw RenderError.invalidValue("animation benchmark: a count of properties must be at least 1, got \(count)")
        }
        self.counts = counts
        self.frames = frames
    }

    /// Measures every count in order.
    /// - Throws: `RenderError.invalidValue` when a frame did not evaluate every property.
    public func measure() throws -> [Row] {
        try counts.map { count in Row(count: count, secondsPerFrame: try measure(count) / Double(frames)) }
    }

    private func measure(_ count: Int) throws -> Double {
        let clock = FrameClock(framesPerSecond: 60)
        let context = AnimationContext(clock: clock)
        let spring = try Spring(response: 0.5, dampingFraction: 0.6)
        let keyframes = try KeyframeAnimation(
            values: [0.0, 1, -1, 0.5, 0], keyTimes: [0, 0.2, 0.5, 0.8, 1],
            timingFunctions: Array(repeating: .easeInEaseOut, count: 4),
            timing: MediaTiming(duration: 2, repeatCount: .infinity))
        var hosts: [AnimationHost] = []
        for index in 0..<count {
            if index % 100 == 0 { hosts.append(AnimationHost(context: context)) }
            let property = hosts[hosts.count - 1].addProperty("p\(index % 100)", initialValue: 0.0, needsDisplay: true)
            switch index % 3 {
            case 0:
                property.addAnimation(
                    BasicAnimation(
                        fromValue: 0.0, toValue: 1,
                        timing: MediaTiming(
                            duration: 1.5, repeatCount: .infinity, autoreverses: true,
                            timingFunction: .easeInEaseOut)), forKey: property.key)
            case 1:
                property.addAnimation(
                    SpringAnimation(
                        spring: spring, fromValue: 0.0, toValue: 1,
                        timing: MediaTiming(repeatCount: .infinity)), forKey: property.key)
            default:
                property.addAnimation(keyframes, forKey: property.key)
            }
        }
        // Warm-up frame (commits), then the timed frames.
        context.update()
        var checksum = 0.0
        var evaluated = 0
        let watch = Stopwatch()
        for _ in 0..<frames {
            clock.advance()
            evaluated += context.update()
            checksum += hosts[0].presentationValue(forKey: "p0", as: Double.self)
        }
        let seconds = watch.elapsed
        guard checksum.isFinite, evaluated == count * frames else {
            throw RenderError.invalidValue("animation benchmark: evaluated \(evaluated) properties, expected \(count * frames)")
        }
        return seconds
    }
}
