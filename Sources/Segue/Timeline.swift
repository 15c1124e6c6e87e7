// When each frame of a render is taken, the progress shown in it, and keyframed parameters.

/// The frames of a transition: frame i at time i/fps for i = 0 … round(duration·fps); the last
/// frame is at `duration` and shows the end state.
public struct Timeline: Sendable {
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
    /// - Precondition: fps positive and finite.
    public init(timing: TransitionTiming, fps: Double, keyframes: [ParameterKeyframes] = []) {
        precondition(fps.isFinite && fps > 0, "fps must be positive")
        duration = timing.totalDuration
        self.fps = fps
        self.keyframes = keyframes
        sampler = { t in timing.sample(at: t) }
    }

    /// A timeline; `progress` maps seconds since the start to effect progress. The first frame
    /// shows progress 0 and the last progress 1 whatever `progress` returns there.
    /// - Precondition: duration and fps positive and finite.
    public init(duration: Double, fps: Double, keyframes: [ParameterKeyframes] = [],
                progress: @escaping @Sendable (Double) -> Double) {
        precondition(duration.isFinite && duration > 0 && fps.isFinite && fps > 0, "duration and fps must be positive")
        self.duration = duration
        self.fps = fps
        self.keyframes = keyframes
        sampler = { t in
            let fraction = min(max(t / duration, 0), 1)
            return (fraction >= 1 ? 1 : fraction <= 0 ? 0 : progress(t), fraction)
        }
    }

    /// A timeline whose progress is `curve(time / duration)`.
    public init(duration: Double, fps: Double, curve: @escaping @Sendable (Double) -> Double) {
        self.init(duration: duration, fps: fps, progress: { t in curve(min(max(t / duration, 0), 1)) })
    }

    /// Number of frames: round(duration·fps) + 1.
    public var frameCount: Int { Int((duration * fps).rounded()) + 1 }

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
