// doom-melt against an independent CPU implementation of shared/reference/effects.md, in
// single precision like the shader (the column hash amplifies rounding, so a few pixels at
// column edges may differ: the issue asks for ≥ 97 % within 2/255).
import Foundation
import Segue
import SegueTestSupport
import Testing

/// CPU reference: the melt formula with bilinear, clamp-to-edge sampling of `from`.
func doomMeltReference(from: Image, to: Image, t: Float, startSpeed: Float = 2.7, meltSpeed: Float = 1, spread: Float = 0.35) -> Image {
    let w = from.width, h = from.height
    func sample(_ img: Image, _ u: Float, _ v: Float) -> [Float] {
        let x = u * Float(w) - 0.5, y = v * Float(h) - 0.5
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let fx = x - Float(x0), fy = y - Float(y0)
        func px(_ xi: Int, _ yi: Int) -> Pixel { img[min(max(xi, 0), w - 1), min(max(yi, 0), h - 1)] }
        let p00 = px(x0, y0), p10 = px(x0 + 1, y0), p01 = px(x0, y0 + 1), p11 = px(x0 + 1, y0 + 1)
        func ch(_ k: KeyPath<Pixel, UInt8>) -> Float {
            let top = Float(p00[keyPath: k]) * (1 - fx) + Float(p10[keyPath: k]) * fx
            let bottom = Float(p01[keyPath: k]) * (1 - fx) + Float(p11[keyPath: k]) * fx
            return top * (1 - fy) + bottom * fy
        }
        return [ch(\.r), ch(\.g), ch(\.b), ch(\.a)]
    }
    return Image(width: w, height: h) { x, y in
        let tc = (u: (Float(x) + 0.5) / Float(w), v: (Float(y) + 0.5) / Float(h))
        var uv = tc
        let velocity = min(startSpeed * t, 1)
        let hash = (sin(uv.u * 12.9898) * 43758.5453)
        uv.v -= velocity * spread * (hash - hash.rounded(.down))
        if velocity == 1 { uv.v -= meltSpeed * (t - velocity / startSpeed) }
        let c = uv.v < 0 ? sample(to, tc.u, tc.v) : sample(from, uv.u, uv.v)
        let q = c.map { UInt8(min(max($0.rounded(), 0), 255)) }
        return Pixel(q[0], q[1], q[2], q[3])
    }
}

/// Screen-like content: colour changes sharply across columns (x is never displaced), smooth
/// vertical gradients, and a disc whose outline gives a few horizontal edges.
func screenLike(_ w: Int, _ h: Int, seed: Int) -> Image {
    Image(width: w, height: h) { x, y in
        let dx = Double(x - w / 3), dy = Double(y - h / 2)
        let inDisc = dx * dx + dy * dy < Double(h * h) / 16
        let r = UInt8((x * 37 + seed * 50) % 256)
        let g = UInt8(y * 255 / (h - 1))
        return inDisc ? Pixel(255 - r, 40, UInt8(seed * 60 % 256)) : Pixel(r, g, UInt8(128 + seed * 20))
    }
}

@Suite("doom-melt")
struct DoomMeltTests {
    @Test("matches the reference formula at t = 0.2, 0.5, 1.0, 1.8 s", arguments: [0.2, 0.5, 1.0, 1.8])
    func matchesReference(t: Double) throws {
        let from = screenLike(160, 120, seed: 1), to = screenLike(160, 120, seed: 2)
        let gpu = try render("doom-melt", from: from, to: to, progress: t / 2, time: t, duration: 2)
        let cpu = doomMeltReference(from: from, to: to, t: Float(t))
        var close = 0
        for i in stride(from: 0, to: gpu.pixels.count, by: 4) {
            if (0..<4).allSatisfy({ abs(Int(gpu.pixels[i + $0]) - Int(cpu.pixels[i + $0])) <= 2 }) { close += 1 }
        }
        let fraction = Double(close) / Double(gpu.width * gpu.height)
        #expect(fraction >= 0.97, "only \(fraction * 100) % of pixels within 2/255 at t = \(t)")
        // The melt has really moved something (the test is not comparing two copies of `from`).
        if t >= 0.5 { #expect(gpu.pixels != from.pixels) }
    }

    @Test("parameters change the melt: spread 0 moves every column together")
    func spreadZero() throws {
        let from = pattern(32, 32, seed: 7), to = Image(width: 32, height: 32, fill: .black)
        let t = 0.5
        let gpu = try render("doom-melt", from: from, to: to, progress: 0.25, time: t, duration: 2, parameters: [("spread", "0")])
        // All columns fall by meltSpeed·(t − 1/startSpeed) = 0.5 − 0.37037 = 0.1296 screen heights:
        // rows whose centre is above that show `to` (black).
        let fall = 0.5 - 1 / 2.7
        for y in 0..<32 {
            let v = (Double(y) + 0.5) / 32
            guard abs(v - fall) > 0.02 else { continue }
            for x in [0, 13, 31] { #expect((gpu[x, y] == .black) == (v < fall), "row \(y)") }
        }
    }
}

/// The column hash needs uv.x to the last bit: the built-in's `meltColumn` must give the correctly
/// rounded `(x + 0.5) / width` that the reference computes, whatever the device's division does
/// (an NVIDIA H200's interpolation and division were one ulp off in 128 of 1,170 columns). Each
/// column's value comes back as its float's bits: bytes 0–2 in row 0, byte 3 in row 1.
@Suite("doom-melt's column")
struct DoomMeltColumnTests {
    @Test("meltColumn is (x + 0.5) / width rounded to nearest, bit for bit", arguments: [1, 3, 320, 1001, 1170, 1920, 4096, 16383, 16384])
    func columnIsCorrectlyRounded(width: Int) throws {
        let melt = try #require(try EffectCatalog.effect("doom-melt").glsl)
        let start = try #require(melt.range(of: "float meltColumn("))
        let end = try #require(melt.range(of: "\n}", range: start.upperBound..<melt.endIndex))
        let probe = """
            // Name: melt-column-probe
            // Origin: top-left
            \(melt[start.lowerBound..<end.upperBound])
            vec4 transition(vec2 tc) {
                uint b = floatBitsToUint(meltColumn(floor(tc.x * resolution.x), resolution.x));
                if (floor(tc.y * resolution.y) == 1.0) b = b >> 24;
                return vec4(float(b & 255u), float((b >> 8) & 255u), float((b >> 16) & 255u), 255.0) / 255.0;
            }
            """
        let effect = try TransitionSourceParser.parse(probe, name: "melt-column-probe", source: .builtIn)
        let blank = Image(width: width, height: 2, fill: .black)
        let frame = try TransitionRenderer(effect: effect, from: blank, to: blank, context: try TestGPU.context())
            .frame(progress: 0.5, time: 0.5, duration: 1)
        var wrong: [Int] = []
        for x in 0..<width {
            let low = frame[x, 0], high = frame[x, 1]
            let bits = UInt32(low.r) | UInt32(low.g) << 8 | UInt32(low.b) << 16 | UInt32(high.r) << 24
            if bits != ((Float(x) + 0.5) / Float(width)).bitPattern { wrong.append(x) }
        }
        let count = wrong.count
        #expect(count == 0, "columns \(wrong.prefix(8)) of \(width) are not (x + 0.5) / width")
    }
}
