// Analytic checks of every built-in effect on tiny images, rendered on the Vulkan device
// (lavapipe in CI): exact end states and exact values where the formula gives them.
import Segue
import SegueTestSupport
import Testing

@Suite("Built-in effects, analytic")
struct BuiltInEffectTests {
    static let names = EffectCatalog.transitions.map(\.name)

    @Test("progress 0 shows from exactly, progress 1 shows to exactly", arguments: names)
    func endStates(name: String) throws {
        let from = pattern(16, 12, seed: 1), to = pattern(16, 12, seed: 2)
        let duration = EffectCatalog.builtIn(named: name)!.defaultDuration
        let start = try render(name, from: from, to: to, progress: 0, time: 0, duration: duration)
        let end = try render(name, from: from, to: to, progress: 1, time: duration, duration: duration)
        #expect(start.pixels == from.pixels, "\(name) at progress 0 differs from `from`")
        #expect(end.pixels == to.pixels, "\(name) at progress 1 differs from `to`")
    }

    @Test("fade at 0.5 is the average within 1/255")
    func fadeHalf() throws {
        let from = pattern(8, 8, seed: 3), to = pattern(8, 8, seed: 4)
        let mid = try render("fade", from: from, to: to, progress: 0.5)
        for i in 0..<mid.pixels.count {
            let expected = (Double(from.pixels[i]) + Double(to.pixels[i])) / 2
            #expect(abs(Double(mid.pixels[i]) - expected) <= 1, "byte \(i): \(mid.pixels[i]) vs \(expected)")
        }
    }

    @Test("fade of black to white follows progress within 1")
    func fadeValues() throws {
        let black = Image(width: 4, height: 4, fill: .black), white = Image(width: 4, height: 4, fill: .white)
        for p in [0.1, 0.25, 0.33, 0.5, 0.9] {
            let img = try render("fade", from: black, to: white, progress: p)
            #expect(abs(Double(img[2, 2].r) - 255 * p) <= 1)
            #expect(img[2, 2].a == 255)
        }
    }

    @Test("wipe reveals to on the side it starts from")
    func wipeHalf() throws {
        let red = Image(width: 20, height: 10, fill: Pixel(255, 0, 0)), blue = Image(width: 20, height: 10, fill: Pixel(0, 0, 255))
        let img = try render("wipe", from: red, to: blue, progress: 0.5)
        // Left to right: the left half is `to`.
        #expect(img[4, 5] == Pixel(0, 0, 255))
        #expect(img[9, 5] == Pixel(0, 0, 255))
        #expect(img[10, 5] == Pixel(255, 0, 0))
        #expect(img[15, 5] == Pixel(255, 0, 0))
        let up = try render("wipe", from: red, to: blue, progress: 0.3, parameters: [("direction", "0,-1")])
        #expect(up[10, 9] == Pixel(0, 0, 255))  // bottom row revealed first
        #expect(up[10, 0] == Pixel(255, 0, 0))
    }

    @Test("circle reveals to inside a circle of radius progress × farthest-corner distance")
    func circleRadius() throws {
        let red = Image(width: 40, height: 40, fill: Pixel(255, 0, 0)), blue = Image(width: 40, height: 40, fill: Pixel(0, 0, 255))
        let p = 0.5
        let img = try render("circle", from: red, to: blue, progress: p)
        let far = (0.5 * 0.5 * 2).squareRoot()
        let r = p * far
        var checked = 0
        for y in 0..<40 {
            for x in 0..<40 {
                let d =
                    (((Double(x) + 0.5) / 40 - 0.5) * ((Double(x) + 0.5) / 40 - 0.5) + ((Double(y) + 0.5) / 40 - 0.5)
                        * ((Double(y) + 0.5) / 40 - 0.5))
                    .squareRoot()
                guard abs(d - r) > 0.01 else { continue }
                #expect(img[x, y] == (d < r ? Pixel(0, 0, 255) : Pixel(255, 0, 0)), "pixel \(x),\(y) d=\(d)")
                checked += 1
            }
        }
        #expect(checked > 1400)
    }
}
