// The AnimatedTriangle example (Examples/AnimatedTriangle) end to end: the triangle's measured
// size in the rendered frames follows the presentation value of its animated `scale`, computed
// here from the reference formulas.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// easeInEaseOut, control points (0.42, 0) and (0.58, 1), solved by bisection to 1e-12.
private func easeInEaseOut(_ x: Double) -> Double {
    func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        3 * p1 * s * (1 - s) * (1 - s) + 3 * p2 * s * s * (1 - s) + s * s * s
    }
    var lo = 0.0, hi = 1.0
    while hi - lo > 1e-12 {
        let mid = (lo + hi) / 2
        if bezier(mid, 0.42, 0.58) < x { lo = mid } else { hi = mid }
    }
    return bezier((lo + hi) / 2, 0, 1)
}

/// The presentation scale at `t` seconds: 1 → 2 over 2 s (easeInEaseOut), then keyframes
/// [1, −1, 2, −2, 1] at [0, 0.2, 0.5, 0.8, 1] over 8 s with easeInEaseOut per segment.
private func expectedScale(at t: Double) -> Double {
    if t < 2 { return 1 + easeInEaseOut(t / 2) }
    let f = min((t - 2) / 8, 1)
    let values = [1.0, -1, 2, -2, 1], times = [0, 0.2, 0.5, 0.8, 1]
    var i = 0
    while i < 3 && f >= times[i + 1] { i += 1 }
    let s = easeInEaseOut((f - times[i]) / (times[i + 1] - times[i]))
    return values[i] + (values[i + 1] - values[i]) * s
}

@Suite("AnimatedTriangle example", .serialized)
struct AnimatedTriangleTests {
    @Test("the measured triangle follows the presentation scale within a pixel")
    func triangleFollowsPresentationScale() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let (width, height, fps) = (320, 180, 10.0)
        let r = try runProduct(productBinary("AnimatedTriangle"), [dir + "/frames", "--fps", "10", "--size", "\(width)x\(height)"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(listing(dir + "/frames").count == 101)
        let h = 0.15 * Double(height)
        for t in [0.0, 0.5, 1.0, 1.5, 2.5, 3.1, 4.0, 5.0, 6.0, 6.7, 7.6, 8.5, 9.3, 10.0] {
            let frame = Int((t * fps).rounded())
            let image = try ImageFile.read(path: dir + String(format: "/frames/frame-%05d.png", frame))
            // Coverage is the alpha channel (antialiased edges, transparent background).
            var area = 0.0, centroidY = 0.0
            for y in 0..<height {
                for x in 0..<width {
                    let coverage = Double(image[x, y].a) / 255
                    area += coverage
                    centroidY += coverage * (Double(y) + 0.5)
                }
            }
            let scale = expectedScale(at: t)
            let extent = 2 * h * abs(scale)  // base width and height of the triangle in pixels
            // The size from the covered area (base × height / 2 = extent² / 2).
            let size = (2 * area).squareRoot()
            #expect(abs(size - extent) <= 1, "t=\(t): size \(size) vs \(extent) (scale \(scale))")
            guard extent > 4 else { continue }
            // The centroid lies h·scale/3 below the centre: the apex points up for a positive
            // scale and down for a negative one.
            let centroid = centroidY / area - Double(height) / 2
            #expect(abs(centroid - h * scale / 3) <= 0.5, "t=\(t): centroid \(centroid) vs \(h * scale / 3)")
        }
    }
}
