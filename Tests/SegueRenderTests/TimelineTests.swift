import Segue
import SegueTestSupport
import Testing

@Suite("Timeline")
struct TimelineTests {
    @Test("frame i at i/fps for i = 0…round(D·fps); the last frame is the end state")
    func frames() throws {
        let t = try Timeline(duration: 2, fps: 30, curve: { $0 })
        #expect(t.frameCount == 61)
        #expect(t.time(ofFrame: 15) == 0.5)
        #expect(t.progress(ofFrame: 15) == 0.25)
        #expect(t.progress(ofFrame: 60) == 1 && t.time(ofFrame: 60) == 2)
        // A duration that is not a whole number of frames still ends at progress 1 and time D.
        let odd = try Timeline(duration: 1.01, fps: 30, curve: { $0 })
        #expect(odd.frameCount == 31)
        #expect(odd.time(ofFrame: 30) == 1.01 && odd.progress(ofFrame: 30) == 1)
    }

    @Test("progress follows the curve over the duration")
    func curve() throws {
        let t = try Timeline(duration: 1, fps: 4, curve: { TimingFunction.easeInEaseOut.value(at: $0) })
        #expect(abs(t.progress(ofFrame: 1) - 0.129162) < 1e-6)
    }

    @Test("frame counts are checked against the limit before converting: no trap, a message naming both")
    func limits() throws {
        // Exactly at the limit: 999,999 intervals → 1,000,000 frames.
        let longest = try Timeline(duration: 999_999, fps: 1, curve: { $0 })
        #expect(longest.frameCount == Timeline.maximumFrameCount)
        #expect(
            throws: RenderError.invalidValue(
                "the render would have 1000001 frames (1000000 s at 1 fps); the limit is 1000000 frames: shorten the duration, the repeat count or the spring's settling time, or lower the fps"
            )
        ) {
            try Timeline(duration: 1_000_000, fps: 1, curve: { $0 })
        }
        for (duration, fps) in [(1e300, 30.0), (1e9, 30), (Double.greatestFiniteMagnitude, 1000), (1, 1e300)] {
            #expect(throws: RenderError.self) { try Timeline(duration: duration, fps: fps, curve: { $0 }) }
        }
        for bad in [Double.nan, .infinity, 0, -1] {
            #expect(throws: RenderError.self) { try Timeline(duration: bad, fps: 30, curve: { $0 }) }
            #expect(throws: RenderError.self) { try Timeline(duration: 1, fps: bad, curve: { $0 }) }
        }
        // The one frame-rate rule (FrameRate.range), as every command and concat word it.
        for fps in [0.5, 1001] {
            #expect(
                throws: RenderError.invalidValue("the frame rate must be a number from 1 to 1000, got \(MessageText.number(fps))")
            ) { try Timeline(duration: 1, fps: fps, curve: { $0 }) }
        }
        #expect(try Timeline(duration: 1, fps: 1, curve: { $0 }).frameCount == 2)
        #expect(try Timeline(duration: 0.001, fps: 1000, curve: { $0 }).frameCount == 2)
        // Through timing: a huge repeat count and a spring that takes for ever to settle.
        let repeated = try TransitionTiming(duration: 1, repeatCount: 1e300)
        #expect(throws: RenderError.self) { try Timeline(timing: repeated, fps: 30) }
    }
}
