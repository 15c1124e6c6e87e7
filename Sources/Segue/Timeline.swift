// When each frame of a render is taken, and the progress shown in it.

/// The frames of a transition: frame i at time i/fps for i = 0 … round(duration·fps); the last
/// frame is the end state (time = duration, progress 1).
public struct Timeline: Sendable {
    /// Length in seconds.
    public let duration: Double
    /// Frames per second.
    public let fps: Double
    /// Eased progress at a time in seconds (a timing curve over the duration, a spring, …).
    public let progress: @Sendable (Double) -> Double

    /// A timeline; `progress` maps seconds since the start to effect progress.
    /// - Precondition: duration and fps positive and finite.
    public init(duration: Double, fps: Double, progress: @escaping @Sendable (Double) -> Double) {
        precondition(duration.isFinite && duration > 0 && fps.isFinite && fps > 0, "duration and fps must be positive")
        self.duration = duration
        self.fps = fps
        self.progress = progress
    }

    /// A timeline whose progress is `curve(time / duration)`.
    public init(duration: Double, fps: Double, curve: @escaping @Sendable (Double) -> Double) {
        self.init(duration: duration, fps: fps, progress: { t in curve(min(max(t / duration, 0), 1)) })
    }

    /// Number of frames: round(duration·fps) + 1.
    public var frameCount: Int { Int((duration * fps).rounded()) + 1 }

    /// Seconds at frame `i` (the last frame is at `duration`).
    public func time(ofFrame i: Int) -> Double {
        i >= frameCount - 1 ? duration : Double(i) / fps
    }

    /// Progress at frame `i` (exactly 1 at the last frame, 0 at the first).
    public func progress(ofFrame i: Int) -> Double {
        if i >= frameCount - 1 { return 1 }
        if i <= 0 { return 0 }
        return progress(time(ofFrame: i))
    }
}
