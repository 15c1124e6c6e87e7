// The AnimatedTriangle example with --window, on a private X server: the triangle appears in the
// window and Core-Animation-style animation drives it live (its size changes on screen).
import Foundation
import Segue
import Testing

@Suite("AnimatedTriangle --window (Xvfb)")
struct AnimatedTriangleWindowTests {
    /// Lit pixels (any channel above 40) inside the window: the triangle's area.
    private func area(_ shot: Image, _ g: Geometry) -> Int {
        var n = 0
        for y in g.y..<(g.y + g.height) {
            for x in g.x..<(g.x + g.width) {
                let p = shot[x, y]
                if max(p.r, p.g, p.b) > 40 { n += 1 }
            }
        }
        return n
    }

    @Test("the triangle shows in the window and its animated scale changes what is on screen")
    func liveTriangle() throws {
        guard let display = try VirtualDisplay() else { return }
        let binary = productBinary("AnimatedTriangle")
        let live = try LiveProcess(["--window", "--size", "320x180"], display: display, binary: binary)
        let (id, g) = try #require(try display.openedWindow(named: "AnimatedTriangle", of: live), "no window appeared: \(live.stderr)")
        #expect(g.width == 320 && g.height == 180, "window \(g)")
        // At scale 1 the triangle (height 2h, base 2h, h = 0.15 × 180 = 27 points) covers about
        // 2h² = 1458 pixels; at scale 2 four times that. Sample until both a small and a large
        // triangle have been seen: the picture moves with the animation.
        var seen: [Int] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            seen.append(area(try display.screenshot(), g))
            if let small = seen.filter({ $0 > 100 }).min(), let large = seen.max(), large > 3 * small, large > 4000 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let small = seen.filter { $0 > 100 }.min() ?? 0
        let large = seen.max() ?? 0
        #expect(
            small > 100 && large > 3 * small && large > 4000 && large < 7000,
            "the triangle's area should grow from about 1,500 to about 5,800 pixels; saw \(seen)")
        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit() == 0, "\(live.stderr)")
        #expect(live.stdout.hasPrefix("frames "), "\(live.stdout)")
    }
}
