// The size of a window showing an image at a scale: pixels / scale rounded, at least one point,
// and an error (never a trap) for a scale that is not a positive finite number or a window
// larger than Image.maximumSide points.
import Segue
import Testing

@Suite("LiveView.points")
struct LiveViewPointsTests {
    @Test("pixels / scale, rounded to the nearest point, at least 1 × 1")
    func sizes() throws {
        #expect(try LiveView.points(width: 1170, height: 2532, scale: 3) == (390, 844))
        #expect(try LiveView.points(width: 3, height: 5, scale: 2) == (2, 3))  // 1.5 and 2.5 round away from zero
        #expect(try LiveView.points(width: 1, height: 1, scale: 8) == (1, 1))  // 0.125 would be no window
        #expect(try LiveView.points(width: 16_384, height: 10, scale: 1) == (16_384, 10))
        #expect(try LiveView.points(width: 100, height: 50, scale: 0.5) == (200, 100))
    }

    @Test("a scale that is not a positive finite number is an error", arguments: [0, -1, Double.nan, .infinity, -.infinity])
    func badScale(scale: Double) {
        #expect {
            _ = try LiveView.points(width: 8, height: 8, scale: scale)
        } throws: { error in
            "\(error)" == "scale must be a positive number, got \(MessageText.number(scale))"
        }
    }

    @Test("a window larger than Image.maximumSide points is an error that says to give a larger scale")
    func tooLarge() {
        #expect {
            _ = try LiveView.points(width: 8, height: 8, scale: 0.0001)
        } throws: { error in
            "\(error)" == "a 8×8-pixel image at scale 0.0001 needs a window larger than 16384 points; give a larger scale"
        }
        #expect(throws: (any Error).self) { _ = try LiveView.points(width: 16_385, height: 1, scale: 1) }
    }
}
