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

    @Test("a rate is a number or a ratio as ffmpeg writes it; other text and a zero denominator are none")
    func parsing() {
        #expect(FrameRate.parse("30") == 30)
        #expect(FrameRate.parse("29.97") == 29.97)
        #expect(FrameRate.parse("30000/1001") == 30000.0 / 1001)
        #expect(FrameRate.parse("24000/1001") == 24000.0 / 1001)
        #expect(FrameRate.parse("2.5/0.5") == 5)
        for text in ["", "abc", "30/", "/1001", "1/0", "30000/1001/2", " 30", "30fps", "30000:1001"] {
            #expect(FrameRate.parse(text) == nil, "\(text)")
        }
        // The range is checked apart: a ratio parses whatever its value.
        #expect(FrameRate.parse("-1/2") == -0.5 && FrameRate.problem(-0.5) != nil)
    }
}
