// When each frame of a render is taken, the progress shown in it, and keyframed parameters.

import SegueCore
import SegueMath
import SegueMedia
import SegueShaders
import SegueVulkan

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The frames of a transition: frame i at time i/fps for i = 0 … round(duration·fps); the last
/// frame is at `duration` and shows the end state.
///
/// A timeline has at most ``maximumFrameCount`` frames: creating a longer one throws before any
/// work starts, so an absurd duration, repeat count or spring cannot run for ever or trap.
public struct Timeline: Sendable {
    /// The most frames one timeline may have: 1,000,000 (9 h 15 min at 30 fps, 4 h 37 min at 60).
    public static let maximumFrameCount = 1_000_000

    /// Number of frames: round(duration·fps) + 1.
    public let frameCount: Int
    /// Length in seconds (all passes).
    public let duration: Double
    /// Frames per second.
    public let fps: Double
    /// Keyframed parameters, evaluated at the linear fraction of the current pass.
    public let keyframes: [ParameterKeyframes]
    /// Progress and pass fraction at a time in seconds.
    private let sampler: @Sendable (Double) -> (progress: Double, fraction: Double)

    /// A timeline following `timing` (curve or spring, repeats, autoreverse), with keyframed
    /// parameters.
    /// - Throws: `RenderError.invalidValue` when fps is not positive and finite, or the timeline
    ///   would have more than ``maximumFrameCount`` frames.
    public init(timing: TransitionTiming, fps: Double, keyframes: [ParameterKeyframes] = []) throws(RenderError) {
        duration = timing.totalDuration
        frameCount = try Timeline.frameCount(duration: duration, fps: fps)
        self.fps = fps
        self.keyframes = keyframes
        sampler = { t in timing.sample(at: t) }
    }

    /// A timeline; `progress` maps seconds since the start to effect progress. The first frame
    /// shows progress 0 and the last progress 1 whatever `progress` returns there.
    /// - Throws: `RenderError.invalidValue` when the duration is not positive and finite, the fps
    ///   outside `FrameRate.range`, or the timeline would have more than ``maximumFrameCount`` frames.
    public init(
        duration: Double, fps: Double, keyframes: [ParameterKeyframes] = [],
        progress: @escaping @Sendable (Double) -> Double
    ) throws(RenderError) {
        guard duration.isFinite, duration > 0 else {
            throw .invalidValue("the duration must be a positive number of seconds, got \(MessageText.number(duration))")
        }
        frameCount = try Timeline.frameCount(duration: duration, fps: fps)
        self.duration = duration
        self.fps = fps
        self.keyframes = keyframes
        sampler = { t in
            let fraction = min(max(t / duration, 0), 1)
            return (fraction >= 1 ? 1 : fraction <= 0 ? 0 : progress(t), fraction)
        }
    }

    /// A timeline whose progress is `curve(time / duration)`.
    public init(duration: Double, fps: Double, curve: @escaping @Sendable (Double) -> Double) throws(RenderError) {
        try self.init(duration: duration, fps: fps, progress: { t in curve(min(max(t / duration, 0), 1)) })
    }

    /// round(duration·fps) + 1, checked against ``maximumFrameCount`` before converting.
    /// - Throws: `RenderError.invalidValue` naming the frame count and the limit.
    public static func frameCount(duration: Double, fps: Double) throws(RenderError) -> Int {
        if let problem = FrameRate.problem(fps) { throw .invalidValue("the frame rate \(problem)") }
        let intervals = (duration * fps).rounded()
        guard intervals.isFinite, intervals >= 0, intervals < Double(maximumFrameCount) else {
            throw .invalidValue(
                "the render would have \(Timeline.describe(intervals + 1)) frames (\(MessageText.seconds(duration)) at \(Timeline.describe(fps)) fps); "
                    + "the limit is \(maximumFrameCount) frames: shorten the duration, the repeat count or the spring's settling time, or lower the fps"
            )
        }
        return Int(intervals) + 1
    }

    /// A number for a message (see `MessageText.number`).
    private static func describe(_ value: Double) -> String { MessageText.number(value) }

    /// Seconds at frame `i` (the last frame is at `duration`).
    public func time(ofFrame i: Int) -> Double {
        i >= frameCount - 1 ? duration : Double(max(i, 0)) / fps
    }

    /// Progress at frame `i`.
    public func progress(ofFrame i: Int) -> Double {
        sampler(time(ofFrame: i)).progress
    }

    /// Progress at `time` seconds (clamped to the timeline).
    public func progress(at time: Double) -> Double {
        sampler(min(max(time, 0), duration)).progress
    }

    /// The keyframed parameter values at frame `i` (empty without keyframes).
    public func parameters(ofFrame i: Int) -> [String: ParameterValue] {
        parameters(at: time(ofFrame: i))
    }

    /// The keyframed parameter values at `time` seconds.
    public func parameters(at time: Double) -> [String: ParameterValue] {
        guard !keyframes.isEmpty else { return [:] }
        let fraction = sampler(min(max(time, 0), duration)).fraction
        var values: [String: ParameterValue] = [:]
        for k in keyframes { values[k.name] = k.value(atFraction: fraction) }
        return values
    }
}
