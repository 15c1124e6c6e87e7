import Segue
import Testing

@Suite("Timeline")
struct TimelineTests {
    @Test("frame i at i/fps for i = 0…round(D·fps); the last frame is the end state")
    func frames() {
        let t = Timeline(duration: 2, fps: 30, curve: { $0 })
        #expect(t.frameCount == 61)
        #expect(t.time(ofFrame: 15) == 0.5)
        #expect(t.progress(ofFrame: 15) == 0.25)
        #expect(t.progress(ofFrame: 60) == 1 && t.time(ofFrame: 60) == 2)
        // A duration that is not a whole number of frames still ends at progress 1 and time D.
        let odd = Timeline(duration: 1.01, fps: 30, curve: { $0 })
        #expect(odd.frameCount == 31)
        #expect(odd.time(ofFrame: 30) == 1.01 && odd.progress(ofFrame: 30) == 1)
    }

    @Test("progress follows the curve over the duration")
    func curve() {
        let t = Timeline(duration: 1, fps: 4, curve: { TimingFunction.easeInEaseOut.value(at: $0) })
        #expect(abs(t.progress(ofFrame: 1) - 0.129162) < 1e-6)
    }
}
