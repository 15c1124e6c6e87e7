import SegueAnimation
import Testing

@Suite("GestureVelocity")
struct GestureVelocityTests {
    @Test(
        "the last 100 ms of motion before release",
        arguments: [
            ([(0.0, 0.0), (10, 0.05), (30, 0.1)], 300.0),
            ([(0.0, 0.0), (50, 0.5)], 0.0),
            ([(0.0, 1.0), (0, 1.2), (-20, 1.25)], -400.0),
        ])
    func velocity(samples: [(Double, Double)], expected: Double) {
        var gesture = GestureVelocity()
        for (x, t) in samples { gesture.record(x, at: t) }
        #expect(abs(gesture.velocity - expected) < 1e-9, "\(gesture.velocity)")
    }

    @Test("keeps the last 16 samples; ignores non-finite ones; one sample is still")
    func capacityAndBadSamples() {
        var gesture = GestureVelocity()
        #expect(gesture.velocity == 0)
        gesture.record(5, at: 0)
        #expect(gesture.velocity == 0)
        for i in 1...40 { gesture.record(Double(i) * 2, at: Double(i) * 0.01) }
        gesture.record(.nan, at: 0.5)
        gesture.record(1, at: .infinity)
        #expect(gesture.samples.count == GestureVelocity.capacity)
        #expect(gesture.samples.last?.position == 80)
        // 2 units every 10 ms over the last 100 ms.
        #expect(abs(gesture.velocity - 200) < 1e-9)
    }
}
