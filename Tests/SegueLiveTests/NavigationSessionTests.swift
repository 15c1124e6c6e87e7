import Foundation
import Segue
import Testing

@Suite("NavigationSession")
struct NavigationSessionTests {
    /// Whether two frames are the same, progress and time within 1e-9 (a linear Bézier curve is
    /// solved numerically).
    static func same(_ a: NavigationFrame, _ b: NavigationFrame) -> Bool {
        switch (a, b) {
        case let (.screen(x), .screen(y)): return x == y
        case let (.transition(f1, t1, p1, s1, r1), .transition(f2, t2, p2, s2, r2)):
            return f1 == f2 && t1 == t2 && r1 == r2 && abs(p1 - p2) < 1e-9 && abs(s1 - s2) < 1e-9
        default: return false
        }
    }

    static func linear(_ duration: Double) throws -> TransitionTiming {
        try TransitionTiming(curve: .timingFunction(.linear), duration: duration)
    }

    @Test("keys push and pop; a pop plays the effect backwards; pushes stop at the last screen")
    func keys() throws {
        let s = NavigationSession(screenCount: 2, timing: try Self.linear(2), hasReverse: false)
        #expect(s.frame(at: 0) == .screen(0))
        s.handle(.keyDown(.right, isRepeat: false, time: 0), now: 1, width: 100)
        #expect(Self.same(s.frame(at: 1.5), .transition(from: 0, to: 1, progress: 0.25, time: 0.5, reverse: false)))
        // Input during a transition is ignored.
        s.handle(.keyDown(.left, isRepeat: false, time: 0), now: 2, width: 100)
        #expect(s.frame(at: 3) == .screen(1))
        #expect(s.stack == [0, 1])
        s.handle(.keyDown(.enter, isRepeat: false, time: 0), now: 4, width: 100)
        #expect(s.frame(at: 4.5) == .screen(1), "no screen after the last")
        s.handle(.keyDown(.backspace, isRepeat: false, time: 0), now: 5, width: 100)
        // Pop progress 0.25 shows the push at 0.75, 1.5 s into it.
        #expect(Self.same(s.frame(at: 5.5), .transition(from: 0, to: 1, progress: 0.75, time: 1.5, reverse: false)))
        #expect(s.frame(at: 7) == .screen(0))
        #expect(s.stack == [0])
        // Auto-repeated keys do nothing; a press on the right half pushes.
        s.handle(.keyDown(.right, isRepeat: true, time: 0), now: 8, width: 100)
        #expect(s.frame(at: 8.5) == .screen(0))
        s.handle(.pointerDown(x: 70, y: 10, time: 0), now: 9, width: 100)
        #expect(Self.same(s.frame(at: 10), .transition(from: 0, to: 1, progress: 0.5, time: 1, reverse: false)))
    }

    @Test("an effect with its own reverse plays it forwards from the upper screen to the lower")
    func ownReverse() throws {
        let s = NavigationSession(screenCount: 3, timing: try Self.linear(1), hasReverse: true)
        s.handle(.keyDown(.right, isRepeat: false, time: 0), now: 0, width: 100)
        _ = s.frame(at: 1)
        s.handle(.keyDown(.right, isRepeat: false, time: 0), now: 1, width: 100)
        #expect(Self.same(s.frame(at: 1.5), .transition(from: 1, to: 2, progress: 0.5, time: 0.5, reverse: false)))
        _ = s.frame(at: 2)
        #expect(s.stack == [0, 1, 2])
        s.handle(.keyDown(.left, isRepeat: false, time: 0), now: 3, width: 100)
        #expect(Self.same(s.frame(at: 3.25), .transition(from: 2, to: 1, progress: 0.25, time: 0.25, reverse: true)))
    }

    @Test("an edge drag follows the finger; a slow release before half way springs back, a flick pops")
    func edgeDrag() throws {
        let s = NavigationSession(screenCount: 2, timing: try Self.linear(0.5), hasReverse: true)
        s.handle(.keyDown(.right, isRepeat: false, time: 0), now: 0, width: 200)
        _ = s.frame(at: 1)
        // Not at the edge: nothing (x = 30 is on the left half, past the 20-point edge).
        s.handle(.pointerDown(x: 30, y: 0, time: 1), now: 1, width: 200)
        s.handle(.pointerMoved(x: 120, y: 0, isPressed: true, time: 1.1), now: 1.1, width: 200)
        #expect(s.frame(at: 1.1) == .screen(1))
        s.handle(.pointerUp(x: 120, y: 0, time: 1.2), now: 1.2, width: 200)

        s.handle(.pointerDown(x: 10, y: 0, time: 2), now: 2, width: 200)
        s.handle(.pointerMoved(x: 70, y: 0, isPressed: true, time: 2.1), now: 2.1, width: 200)
        #expect(Self.same(s.frame(at: 2.1), .transition(from: 1, to: 0, progress: 0.3, time: 0.15, reverse: true)))
        // Rest for half a second, release: velocity 0, fraction 0.3: back to the upper screen.
        s.handle(.pointerUp(x: 70, y: 0, time: 2.6), now: 2.6, width: 200)
        _ = s.frame(at: 2.7)
        #expect(s.isTransitioning)
        #expect(s.frame(at: 10) == .screen(1))
        #expect(s.stack == [0, 1])

        // A flick: 40 points in the last 50 ms (800 pt/s = 4 widths/s) at 20 % of the way pops.
        s.handle(.pointerDown(x: 5, y: 0, time: 11), now: 11, width: 200)
        s.handle(.pointerMoved(x: 5, y: 0, isPressed: true, time: 11.2), now: 11.2, width: 200)
        s.handle(.pointerMoved(x: 25, y: 0, isPressed: true, time: 11.225), now: 11.225, width: 200)
        s.handle(.pointerUp(x: 45, y: 0, time: 11.25), now: 11.25, width: 200)
        #expect(s.frame(at: 20) == .screen(0))
        #expect(s.stack == [0])
    }

    @Test("a finger landing while a released pop completes catches it where it is")
    func catchCompletion() throws {
        let s = NavigationSession(
            screenCount: 2, timing: try Self.linear(0.5), hasReverse: false,
            completion: .curve(.linear))
        s.handle(.keyDown(.right, isRepeat: false, time: 0), now: 0, width: 100)
        _ = s.frame(at: 1)
        s.handle(.pointerDown(x: 0, y: 0, time: 1), now: 1, width: 100)
        s.handle(.pointerMoved(x: 40, y: 0, isPressed: true, time: 1.1), now: 1.1, width: 100)
        s.handle(.pointerUp(x: 40, y: 0, time: 2), now: 2, width: 100)
        // Cancelling linearly from 0.4 over 0.4 × 0.5 s: at 2.1 s the pop is at 0.2.
        guard case let .transition(_, _, p, _, _) = s.frame(at: 2.1) else { Issue.record("expected a transition"); return }
        #expect(abs((1 - p) - 0.2) < 1e-9)
        s.handle(.pointerDown(x: 50, y: 0, time: 2.1), now: 2.1, width: 100)
        s.handle(.pointerMoved(x: 80, y: 0, isPressed: true, time: 2.2), now: 2.2, width: 100)
        guard case let .transition(_, _, q, _, _) = s.frame(at: 2.2) else { Issue.record("expected a transition"); return }
        #expect(abs((1 - q) - 0.5) < 1e-9, "caught at 0.2, moved 30 % further")
    }
}
