import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan
import SegueWindow

// The state of `segue preview`: the transition loops (a hold on `from`, the transition, a hold
// on `to`), a horizontal drag scrubs progress from the pointer's x, space pauses and resumes.
// Pure: times are passed in, so the loop is tested without a window or a clock.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a looping, scrubbable preview shows at each moment.
public struct PreviewSession: Sendable {
    /// The transition's timing (its curve or spring, over its duration).
    public var timing: TransitionTiming
    /// Seconds held on each end before the loop goes on.
    public let hold: Double
    /// Whether the loop is paused (by space or by scrubbing).
    public private(set) var isPaused = false
    /// Whether a drag is scrubbing now.
    public private(set) var isScrubbing = false

    /// Seconds into the loop at which time `origin` started it.
    private var origin: Double
    /// The moment shown while paused.
    private var pausedMoment: (progress: Double, time: Double) = (0, 0)

    /// A session starting its loop at time `start`.
    public init(timing: TransitionTiming, hold: Double = 0.5, start: Double = 0) {
        self.timing = timing
        self.hold = hold
        origin = start
    }

    /// Seconds of one loop: hold, transition, hold.
    public var loopDuration: Double { timing.totalDuration + 2 * hold }

    /// The progress and the transition's time (seconds into it) shown at `now`.
    public func moment(at now: Double) -> (progress: Double, time: Double) {
        if isPaused { return pausedMoment }
        var phase = (now - origin).truncatingRemainder(dividingBy: loopDuration)
        if phase < 0 { phase += loopDuration }
        let t = min(max(phase - hold, 0), timing.totalDuration)
        if phase < hold { return (0, 0) }
        if phase >= hold + timing.totalDuration { return (timing.sample(at: timing.totalDuration).progress, timing.totalDuration) }
        return (timing.sample(at: t).progress, t)
    }

    /// Handles an input event at `now`; `width` is the window's width in points.
    /// - Returns: true when the event asks to save the current frame (`s`).
    public mutating func handle(_ event: WindowEvent, now: Double, width: Double) -> Bool {
        switch event {
        case .keyDown(.space, false, _):
            if isPaused {
                resume(from: pausedMoment.time, now: now)
            } else {
                pausedMoment = moment(at: now)
                isPaused = true
            }
        case let .pointerDown(x, _, _):
            isScrubbing = true
            scrub(x: x, width: width)
        case let .pointerMoved(x, _, _, _) where isScrubbing:
            scrub(x: x, width: width)
        case .pointerUp:
            isScrubbing = false
        case .keyDown(.character("s"), false, _):
            return true
        default:
            break
        }
        return false
    }

    /// Shows the progress the pointer's x gives (0 at the left edge, 1 at the right), paused.
    private mutating func scrub(x: Double, width: Double) {
        let p = width > 0 ? min(max(x / width, 0), 1) : 0
        pausedMoment = (p, p * timing.totalDuration)
        isPaused = true
    }

    /// Plays on from `time` seconds into the transition.
    private mutating func resume(from time: Double, now: Double) {
        origin = now - hold - time
        isPaused = false
    }
}
