import SegueCore
import Testing

@Suite("frame rates")
struct FrameRateTests {
    @Test("frame rates: 1 to 1000, one phrase for everything outside")
    func frameRates() {
        for fps in [1.0, 24, 29.97, 1000] { #expect(FrameRate.problem(fps) == nil) }
        #expect(FrameRate.problem(0) == "must be a number from 1 to 1000, got 0")
        #expect(FrameRate.problem(-2) == "must be a number from 1 to 1000, got -2")
        #expect(FrameRate.problem(0.5) == "must be a number from 1 to 1000, got 0.5")
        #expect(FrameRate.problem(1e9) == "must be a number from 1 to 1000, got 1000000000")
        #expect(FrameRate.problem(.nan) == "must be a number from 1 to 1000, got NaN")
        #expect(FrameRate.problem(.infinity) == "must be a number from 1 to 1000, got infinity")
    }
}
