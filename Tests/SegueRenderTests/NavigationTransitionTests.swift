// ios-push / ios-pop geometry against shared/reference/core-animation.md: the incoming view
// slides from x = W to 0; the outgoing view from 0 to −(W − round(0.7·W)) points, in points × scale.
import Segue
import SegueTestSupport
import Testing

@Suite("iOS navigation transitions")
struct NavigationTransitionTests {
    /// Reference travel of the lower view in points (C rounding, halves away from zero).
    static func travel(_ w: Int) -> Int { w - Int((0.7 * Double(w)).rounded(.toNearestOrAwayFromZero)) }

    @Test("parallax travel values of the reference")
    func travelTable() {
        #expect(Self.travel(375) == 112)
        #expect(Self.travel(390) == 117)
        #expect(Self.travel(393) == 118)
        #expect(Self.travel(414) == 124)
    }

    /// `from`: white with a 2-pixel red marker column at `marker` points; `to`: blue.
    static func images(points: Int, scale: Double, marker: Int) -> (Image, Image) {
        let w = Int(Double(points) * scale), h = 8
        let from = Image(width: w, height: h, scale: scale) { x, _ in
            let pt = Double(x) / scale
            return pt >= Double(marker) && pt < Double(marker) + 2 / scale ? Pixel(255, 0, 0) : .white
        }
        let to = Image(width: w, height: h, scale: scale, fill: Pixel(0, 0, 255))
        return (from, to)
    }

    /// First column (pixels) from the left whose pixel satisfies `test`, on row 4.
    static func firstColumn(_ img: Image, where test: (Pixel) -> Bool) -> Int? {
        (0..<img.width).first { test(img[$0, 4]) }
    }

    @Test("push: incoming and outgoing edges where the reference puts them", arguments: [(375, 2.0), (390, 3.0), (414, 1.0)])
    func pushGeometry(points: Int, scale: Double) throws {
        let marker = 130
        let (from, to) = Self.images(points: points, scale: scale, marker: marker)
        for p in [0.25, 0.5, 0.75] {
            let img = try render("ios-push", from: from, to: to, progress: p)
            // Incoming left edge at W·(1 − p) points.
            let incoming = Double(points) * (1 - p) * scale
            let blue = Self.firstColumn(img) { $0.b > 200 && $0.r < 50 }
            #expect(blue != nil && abs(Double(blue!) - incoming) <= 1, "p=\(p): incoming edge at \(blue ?? -1), expected \(incoming)")
            // Outgoing marker at (marker − travel·p) points, dimmed by 0.1·p.
            let markerX = (Double(marker) - Double(Self.travel(points)) * p) * scale
            let red = Self.firstColumn(img) { $0.r > 150 && $0.g < 60 && $0.b < 60 }
            #expect(markerX < incoming - 4, "test setup: the marker must stay visible")
            #expect(red != nil && abs(Double(red!) - markerX) <= 1, "p=\(p): outgoing marker at \(red ?? -1), expected \(markerX)")
            // Dimming: white under 0.1·p black.
            let white = img[2, 4]
            #expect(abs(Double(white.g) - 255 * (1 - 0.1 * p)) <= 1, "p=\(p): dimmed white is \(white)")
        }
    }

    @Test("pop: outgoing slides right to W, incoming returns from the parallax position")
    func popGeometry() throws {
        let points = 390, scale = 2.0, marker = 300
        let (to, from) = Self.images(points: points, scale: scale, marker: marker)  // `to` carries the marker
        for p in [0.25, 0.5, 0.75] {
            let img = try render("ios-pop", from: from, to: to, progress: p)
            // Outgoing (blue) left edge at W·p.
            let blue = Self.firstColumn(img) { $0.b > 200 && $0.r < 50 }
            #expect(blue != nil && abs(Double(blue!) - Double(points) * p * scale) <= 1, "p=\(p): blue at \(blue ?? -1)")
            // Incoming marker at marker − travel·(1 − p).
            let expected = (Double(marker) - Double(Self.travel(points)) * (1 - p)) * scale
            let red = Self.firstColumn(img) { $0.r > 150 && $0.g < 60 && $0.b < 60 }
            if expected < Double(points) * p * scale - 2 {
                #expect(red != nil && abs(Double(red!) - expected) <= 1, "p=\(p): marker at \(red ?? -1), expected \(expected)")
            }
        }
    }

    @Test("push shadow darkens the 9 points left of the incoming edge, and nothing further left")
    func pushShadow() throws {
        let (from, to) = Self.images(points: 390, scale: 2, marker: 1000)
        let img = try render("ios-push", from: from, to: to, progress: 0.5)
        let edge = Int(390 * 0.5 * 2)
        let dimmed = UInt8((255 * (1 - 0.05)).rounded())
        #expect(abs(Int(img[edge - 1, 4].g) - Int(dimmed)) > 30)  // right next to the edge: shadowed
        #expect(abs(Int(img[edge - 19, 4].g) - Int(dimmed)) <= 1)  // 9.5 points away: not
    }
}
