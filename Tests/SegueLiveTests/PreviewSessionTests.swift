import Foundation
import Segue
import Testing

@Suite("PreviewSession")
struct PreviewSessionTests {
    static func session(start: Double = 0) throws -> PreviewSession {
        PreviewSession(timing: try TransitionTiming(curve: .timingFunction(.linear), duration: 2), hold: 0.5, start: start)
    }

    static func close(_ a: (progress: Double, time: Double), _ b: (Double, Double)) -> Bool {
        abs(a.progress - b.0) < 1e-9 && abs(a.time - b.1) < 1e-9
    }

    @Test(
        "the loop: a hold on from, the transition, a hold on to, again",
        arguments: [
            (0.0, 0.0, 0.0), (0.4, 0.0, 0.0), (0.5, 0.0, 0.0), (1.0, 0.25, 0.5), (2.0, 0.75, 1.5), (2.6, 1.0, 2.0),
            (3.0, 0.0, 0.0), (4.5, 0.5, 1.0), (-0.5, 1.0, 2.0),
        ])
    func loop(now: Double, progress: Double, time: Double) throws {
        let s = try Self.session()
        #expect(s.loopDuration == 3)
        #expect(Self.close(s.moment(at: now), (progress, time)), "\(s.moment(at: now))")
    }

    @Test("space pauses where it is and resumes from there")
    func pause() throws {
        var s = try Self.session()
        let save = s.handle(.keyDown(.space, isRepeat: false, time: 0), now: 1.5, width: 100)
        #expect(!save)
        #expect(s.isPaused)
        #expect(Self.close(s.moment(at: 9), (0.5, 1)))
        _ = s.handle(.keyDown(.space, isRepeat: false, time: 0), now: 10, width: 100)
        #expect(!s.isPaused)
        #expect(Self.close(s.moment(at: 10.5), (0.75, 1.5)))
    }

    @Test("a drag scrubs progress from the pointer's x and stays there after release; s asks to save")
    func scrub() throws {
        var s = try Self.session()
        _ = s.handle(.pointerDown(x: 25, y: 0, time: 0), now: 1, width: 100)
        #expect(s.isScrubbing && s.isPaused)
        #expect(Self.close(s.moment(at: 5), (0.25, 0.5)))
        _ = s.handle(.pointerMoved(x: 150, y: 0, isPressed: true, time: 0), now: 1.1, width: 100)
        #expect(Self.close(s.moment(at: 5), (1, 2)), "clamped to the right edge")
        _ = s.handle(.pointerMoved(x: 60, y: 0, isPressed: true, time: 0), now: 1.2, width: 100)
        _ = s.handle(.pointerUp(x: 60, y: 0, time: 0), now: 1.3, width: 100)
        #expect(!s.isScrubbing)
        _ = s.handle(.pointerMoved(x: 90, y: 0, isPressed: false, time: 0), now: 1.4, width: 100)
        #expect(Self.close(s.moment(at: 7), (0.6, 1.2)), "a move after release does not scrub")
        let save = s.handle(.keyDown(.character("s"), isRepeat: false, time: 0), now: 8, width: 100)
        #expect(save)
    }
}
