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

// The state of `segue navigate`: a navigation stack of screens, as a UINavigationController shows
// them. Right arrow, Enter or a press on the right half pushes the next screen; Left arrow or
// Backspace pops; a drag that starts within `edgeWidth` points of the left edge pops
// interactively: the finger's horizontal travel over the width is the fraction, and on release an
// `InteractiveTransition` finishes (past half way, or on a flick) or springs back.
//
// A pop plays the effect backwards (from the lower screen to the upper one, progress 1 − p) unless
// the effect has its own reverse (ios-push pops with ios-pop: from the upper screen to the lower,
// progress p). A finger landing while a released pop completes catches it again, as UIKit's
// interruptible animations do. Pure: times are passed in, so it is tested without a window or a clock.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the navigation shows at a moment.
public enum NavigationFrame: Sendable, Equatable {
    /// A screen at rest.
    case screen(Int)
    /// A transition frame: the effect (or its reverse) from screen `from` to screen `to` at
    /// `progress`, `time` seconds into it.
    case transition(from: Int, to: Int, progress: Double, time: Double, reverse: Bool)
}

/// A navigation stack driven by input events.
public final class NavigationSession {
    /// How many screens there are (pushes stop at the last).
    public let screenCount: Int
    /// The push's timing (curve or spring, duration).
    public let timing: TransitionTiming
    /// Whether the effect has its own reverse for pops.
    public let hasReverse: Bool
    /// Points from the left edge within which a drag pops interactively (UIKit: 20).
    public let edgeWidth: Double
    /// How an interactive pop completes after release.
    public let completion: CompletionTiming
    /// The stack of screen indices, bottom first.
    public private(set) var stack: [Int] = [0]

    private enum Motion {
        /// A push or pop running on its own, started at `start`.
        case running(push: Bool, start: Double)
        /// An interactive pop following the finger (or completing after release).
        case interactive(InteractiveTransition, startX: Double, samples: GestureVelocity, released: Bool)
    }

    private var motion: Motion?
    private let clock = ManualClock()

    /// A session on `screenCount` screens, showing the first.
    public init(
        screenCount: Int, timing: TransitionTiming, hasReverse: Bool, edgeWidth: Double = 20,
        completion: CompletionTiming = .release
    ) {
        precondition(screenCount >= 1, "a navigation needs a screen")
        self.screenCount = screenCount
        self.timing = timing
        self.hasReverse = hasReverse
        self.edgeWidth = edgeWidth
        self.completion = completion
    }

    /// The screen on top of the stack.
    public var top: Int { stack[stack.count - 1] }

    /// Whether a transition is running or following a finger.
    public var isTransitioning: Bool { motion != nil }

    // MARK: - Input

    /// Handles an input event at `now` (seconds); `width` is the window's width in points.
    public func handle(_ event: WindowEvent, now: Double, width: Double) {
        clock.now = now
        settle(now: now)
        switch event {
        case .keyDown(.right, false, _), .keyDown(.enter, false, _):
            push(now: now)
        case .keyDown(.left, false, _), .keyDown(.backspace, false, _):
            pop(now: now)
        case let .pointerDown(x, _, time):
            // A finger that lands while a released pop is still completing catches it where it is
            // (an interruptible transition), so a quick second drag is never lost.
            if case .interactive(let t, _, _, true) = motion {
                t.update(t.fractionComplete)
                motion = .interactive(t, startX: x - t.fractionComplete * width, samples: Self.samples(x, time), released: false)
                return
            }
            guard motion == nil else { return }
            if x <= edgeWidth, stack.count > 1, let t = try? InteractiveTransition(duration: timing.totalDuration, clock: clock) {
                motion = .interactive(t, startX: x, samples: Self.samples(x, time), released: false)
            } else if x > width / 2 {
                push(now: now)
            }
        case let .pointerMoved(x, _, pressed, time) where pressed:
            guard case .interactive(let t, let startX, var samples, false) = motion else { return }
            samples.record(x, at: time)
            t.update(width > 0 ? (x - startX) / width : 0)
            motion = .interactive(t, startX: startX, samples: samples, released: false)
        case let .pointerUp(x, _, time):
            guard case .interactive(let t, let startX, var samples, false) = motion else { return }
            samples.record(x, at: time)
            t.update(width > 0 ? (x - startX) / width : 0)
            let velocity = width > 0 ? samples.velocity / width : 0
            t.release(velocity: velocity, timing: completion)
            motion = .interactive(t, startX: startX, samples: samples, released: true)
        default:
            break
        }
    }

    /// A gesture's samples starting with one at `x`, `time`.
    private static func samples(_ x: Double, _ time: Double) -> GestureVelocity {
        var samples = GestureVelocity()
        samples.record(x, at: time)
        return samples
    }

    private func push(now: Double) {
        guard motion == nil, top + 1 < screenCount else { return }
        motion = .running(push: true, start: now)
    }

    private func pop(now: Double) {
        guard motion == nil, stack.count > 1 else { return }
        motion = .running(push: false, start: now)
    }

    /// Ends a transition whose time is up, updating the stack.
    private func settle(now: Double) {
        switch motion {
        case let .running(push, start) where now - start >= timing.totalDuration:
            if push { stack.append(top + 1) } else { stack.removeLast() }
            motion = nil
        case let .interactive(t, _, _, true):
            if let position = t.takeCompletion() {
                if position == .end { stack.removeLast() }
                motion = nil
            }
        default:
            break
        }
    }

    // MARK: - Output

    /// What to show at `now`.
    public func frame(at now: Double) -> NavigationFrame {
        clock.now = now
        settle(now: now)
        switch motion {
        case nil:
            return .screen(top)
        case let .running(push, start):
            let t = min(max(now - start, 0), timing.totalDuration)
            let p = timing.sample(at: t).progress
            return push ? .transition(from: top, to: top + 1, progress: p, time: t, reverse: false) : popFrame(p, time: t)
        case let .interactive(t, _, _, _):
            let p = t.fractionComplete
            return popFrame(p, time: p * timing.totalDuration)
        }
    }

    /// A pop of the top screen at pop progress `p`.
    private func popFrame(_ p: Double, time: Double) -> NavigationFrame {
        let upper = top, lower = stack[stack.count - 2]
        if hasReverse { return .transition(from: upper, to: lower, progress: p, time: time, reverse: true) }
        return .transition(from: lower, to: upper, progress: 1 - p, time: max(timing.totalDuration - time, 0), reverse: false)
    }
}
