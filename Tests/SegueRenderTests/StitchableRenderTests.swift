// Stitchable Metal shaders rendered on the Vulkan device (lavapipe in CI) against CPU evaluations
// of the same formulas: distortions (shift, transpose, flag wave), a colour and a layer effect,
// the insertion-over-removal compositing, and the built-in shift.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// Path of a `.metal` fixture.
func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
}

/// A smooth, asymmetric image: neighbouring pixels differ by at most 17 per channel, so
/// bilinear filtering on the GPU (weights quantized to the sampler's sub-texel precision) stays
/// within a level or two of the exact CPU value.
func smooth(_ w: Int, _ h: Int, seed: Int, alpha: UInt8 = 255) -> Image {
    Image(width: w, height: h) { x, y in
        let a = Double(alpha) / 255
        func c(_ v: Int) -> UInt8 { UInt8((Double(v) * a).rounded()) }
        return Pixel(c(20 + 13 * x + 3 * seed), c(30 + 17 * y), c(200 - 9 * x - 5 * y + seed), alpha)
    }
}

/// CPU model of a layer: premultiplied RGBA as doubles, sampled in points like SwiftUI.
struct CPULayer {
    let image: Image
    var size: (w: Double, h: Double) { (image.pointWidth, image.pointHeight) }

    /// Bilinear sample at `p` (points) with clamp-to-edge, transparent outside the layer; nil
    /// when `p` lies within `margin` of the layer's edge (where GPU and CPU rounding may disagree).
    func sample(_ p: (x: Double, y: Double), margin: Double = 1e-3) -> [Double]? {
        let (w, h) = size
        for (v, limit) in [(p.x, 0.0), (p.x, w), (p.y, 0.0), (p.y, h)] where abs(v - limit) < margin { return nil }
        if p.x < 0 || p.y < 0 || p.x > w || p.y > h { return [0, 0, 0, 0] }
        let tx = p.x / w * Double(image.width) - 0.5, ty = p.y / h * Double(image.height) - 0.5
        let x0 = Int(tx.rounded(.down)), y0 = Int(ty.rounded(.down))
        let fx = tx - Double(x0), fy = ty - Double(y0)
        func texel(_ x: Int, _ y: Int) -> [Double] {
            let px = image[min(max(x, 0), image.width - 1), min(max(y, 0), image.height - 1)]
            return [Double(px.r), Double(px.g), Double(px.b), Double(px.a)]
        }
        let a = texel(x0, y0), b = texel(x0 + 1, y0), c = texel(x0, y0 + 1), d = texel(x0 + 1, y0 + 1)
        return (0..<4).map { i in (a[i] * (1 - fx) + b[i] * fx) * (1 - fy) + (c[i] * (1 - fx) + d[i] * fx) * fy }
    }
}

/// Renders `function` of a fixture as a transition at `progress`.
func renderStitchable(
    _ spec: String, from: Image, to: Image, progress: Double,
    configuration: StitchableConfiguration = StitchableConfiguration(),
    arguments: [(name: String, value: String)] = []
) throws -> Image {
    let fn = try EffectCatalog.stitchableFunction(spec)
    let effect = try fn.effect(configuration, source: .file(fn.file))
    let values = try effect.resolveParameters(arguments)
    return try TransitionRenderer(effect: effect, from: from, to: to, parameters: values, context: try TestGPU.context())
        .frame(progress: progress, time: progress, duration: 1)
}

/// Compares every pixel with `expected(x, y, position)` (nil skips a pixel); returns how many
/// were compared.
@discardableResult
func expectPixels(
    _ image: Image, tolerance: Double, _ label: String,
    expected: (_ position: (x: Double, y: Double)) -> [Double]?
) -> Int {
    var compared = 0
    for y in 0..<image.height {
        for x in 0..<image.width {
            let p = ((Double(x) + 0.5) / image.scale, (Double(y) + 0.5) / image.scale)
            guard let e = expected(p) else { continue }
            let px = image[x, y]
            let got = [Double(px.r), Double(px.g), Double(px.b), Double(px.a)]
            let ok = zip(got, e).allSatisfy { abs($0 - min(max($1, 0), 255)) <= tolerance }
            #expect(ok, "\(label): pixel \(x),\(y) is \(got), expected \(e.map { ($0 * 10).rounded() / 10 })")
            compared += 1
        }
    }
    return compared
}

/// Premultiplied source-over of `top` on `bottom`.
func over(_ top: [Double], _ bottom: [Double]) -> [Double] {
    (0..<4).map { top[$0] + bottom[$0] * (1 - top[3] / 255) }
}

@Suite("Stitchable shaders on the GPU")
struct StitchableRenderTests {
    /// The reference's shift formula.
    static func shift(_ p: (x: Double, y: Double), size: (w: Double, h: Double), value v: Double) -> (x: Double, y: Double) {
        let skewF = 0.1 * size.w
        let yRatio = p.y / size.h
        let skewProgress = min(0.5 - abs(abs(v) - 0.5), 0.2) / 0.2
        let skew = v > 0 ? yRatio * skewF * skewProgress : (1 - yRatio) * skewF * skewProgress
        let sign: Double = v > 0 ? 1 : (v < 0 ? -1 : 0)
        return (p.x + v * size.w + skew * sign, p.y)
    }

    @Test("shift.metal: removed and inserted layers follow the reference formula", arguments: [0.1, 0.25, 0.5, 0.8])
    func shiftDistortion(progress: Double) throws {
        let from = smooth(16, 12, seed: 1), to = smooth(16, 12, seed: 2)
        let clear = Image(width: 16, height: 12, fill: .clear)
        let spec = fixture("Distortions.metal") + ":shift"
        let removed = try renderStitchable(spec, from: from, to: clear, progress: progress)
        let layer = CPULayer(image: from)
        let n = expectPixels(removed, tolerance: 2, "removed at \(progress)") { p in
            layer.sample(Self.shift(p, size: layer.size, value: -progress))
        }
        #expect(n > 100)
        let inserted = try renderStitchable(spec, from: clear, to: to, progress: progress)
        let toLayer = CPULayer(image: to)
        expectPixels(inserted, tolerance: 2, "inserted at \(progress)") { p in
            toLayer.sample(Self.shift(p, size: toLayer.size, value: 1 - progress))
        }
    }

    @Test("transpose.metal swaps x and y on a 6×4 layer; outside the layer is transparent")
    func transpose() throws {
        let from = smooth(6, 4, seed: 3), to = Image(width: 6, height: 4, fill: .clear)
        let image = try renderStitchable(fixture("Distortions.metal") + ":transpose", from: from, to: to, progress: 0.5)
        for y in 0..<4 {
            for x in 0..<6 {
                // Destination (x + ½, y + ½) samples (y + ½, x + ½): texel (y, x) while x < 4.
                #expect(image[x, y] == (x < 4 ? from[y, x] : .clear), "pixel \(x),\(y)")
            }
        }
    }

    @Test("a function SwiftUI could not call does not stop the file's others: it is compiled with them, and transpose renders")
    func besideRefused() throws {
        let scratch = try TemporaryDirectory("refused"), path = scratch.path + "/lib.metal"
        try """
        #include <metal_stdlib>
        using namespace metal;
        [[ stitchable ]] half4 odd(float2 position, half4 color, device const float3 *v, int n) { return color * half(v[0].x); }
        [[ stitchable ]] float2 transpose(float2 position, float effectValue) { return position.yx; }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: EffectLookupError.self) { try EffectCatalog.stitchableFunction(path + ":odd") }
        let from = smooth(6, 4, seed: 3), to = Image(width: 6, height: 4, fill: .clear)
        let image = try renderStitchable(path + ":transpose", from: from, to: to, progress: 0.5)
        for y in 0..<4 {
            for x in 0..<6 {
                #expect(image[x, y] == (x < 4 ? from[y, x] : .clear), "pixel \(x),\(y)")
            }
        }
    }

    @Test("flag wave with an amplitude argument, at scale 2 (positions in points)")
    func flagWave() throws {
        let from = Image(width: 20, height: 16, scale: 2) { x, y in Pixel(UInt8(10 + 12 * x), UInt8(20 + 14 * y), 90) }
        let to = Image(width: 20, height: 16, scale: 2, fill: .clear)
        var configuration = StitchableConfiguration()
        configuration.removal = (0.5, 1.5)
        let image = try renderStitchable(
            fixture("Distortions.metal") + ":flagWave", from: from, to: to, progress: 0.5,
            configuration: configuration, arguments: [("amplitude", "3")])
        let layer = CPULayer(image: from)
        #expect(layer.size == (10, 8))
        let n = expectPixels(image, tolerance: 2, "flag wave") { p in
            layer.sample((p.x, p.y + 3 * 1.0 * sin(2 * Double.pi * p.x / 10)))
        }
        #expect(n > 250)
    }

    @Test("colour effect: fmod with C semantics, a helper function, saturate and a ternary")
    func colorEffect() throws {
        let from = smooth(16, 6, seed: 4), to = Image(width: 16, height: 6, fill: .clear)
        var configuration = StitchableConfiguration()
        configuration.removal = (0.75, 0.75)
        let image = try renderStitchable(
            fixture("Colors.metal"), from: from, to: to, progress: 0.3,
            configuration: configuration, arguments: [("period", "4")])
        let layer = CPULayer(image: from)
        expectPixels(image, tolerance: 1, "stripes") { p in
            let c = layer.sample(p)!
            let phase = fmod(p.x - 0.5 * 4, 4) / 4
            let grey: Double = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
            let target: [Double] = phase < 0.5 ? [grey, grey, grey] : Array(c[0..<3])
            let rgb: [Double] = (0..<3).map { (i: Int) -> Double in c[i] + (target[i] - c[i]) * 0.75 }
            return rgb + [c[3]]
        }
        // Pixel 0: x = 0.5 → fmod(−1.5, 4) = −1.5 (GLSL mod would give 2.5): grey.
        #expect(image[0, 0] != from[0, 0])
        #expect(image[4, 0] == from[4, 0])
    }

    @Test("layer effect: two samples of the layer, transparent outside it", arguments: [0.0, 0.5, 1.0])
    func layerEffect(progress: Double) throws {
        let from = smooth(12, 5, seed: 5), to = Image(width: 12, height: 5, fill: .clear)
        var configuration = StitchableConfiguration()
        configuration.removal = (0, 2)
        let image = try renderStitchable(
            fixture("Layers.metal"), from: from, to: to, progress: progress,
            configuration: configuration, arguments: [("spread", "1.5")])
        let layer = CPULayer(image: from)
        let offset = 1.5 * 2 * progress
        expectPixels(image, tolerance: 1, "double vision at \(progress)") { p in
            guard let a = layer.sample((p.x - offset, p.y)), let b = layer.sample((p.x + offset, p.y)) else { return nil }
            return (0..<4).map { (a[$0] + b[$0]) / 2 }
        }
    }

    @Test("max sample offset is SwiftUI's padding of the drawing area: .zero (or any value) leaves every sample as it is")
    func maxSampleOffset() throws {
        let from = smooth(16, 4, seed: 6), to = Image(width: 16, height: 4, fill: .clear)
        let layer = CPULayer(image: from)
        let plain = try renderStitchable(fixture("Distortions.metal") + ":shift", from: from, to: to, progress: 0.25)
        for offset in [Vector2(0, 0), Vector2(3, 3)] {
            var configuration = StitchableConfiguration()
            configuration.maxSampleOffset = offset
            // Removal −0.25 at progress 0.25: samples 4 points and more away, inside the layer
            // for most pixels; only samples outside the layer's bounds are transparent.
            let image = try renderStitchable(
                fixture("Distortions.metal") + ":shift", from: from, to: to, progress: 0.25, configuration: configuration)
            #expect(image == plain, "offset \(offset.x),\(offset.y)")
            let n = expectPixels(image, tolerance: 2, "offset \(offset.x)") { p in
                layer.sample(Self.shift(p, size: layer.size, value: -0.25))
            }
            #expect(n > 40)
            #expect(image.pixels.contains { $0 != 0 })
        }
    }

    @Test("compositing: the inserted layer over the removed one, premultiplied", arguments: [0.2, 0.5, 0.7])
    func compositing(progress: Double) throws {
        // A half-transparent inserted screen shows the removed one through it where they overlap.
        let from = smooth(16, 8, seed: 7), to = smooth(16, 8, seed: 8, alpha: 128)
        let image = try renderStitchable(fixture("Distortions.metal") + ":shift", from: from, to: to, progress: progress)
        let removed = CPULayer(image: from), inserted = CPULayer(image: to)
        let n = expectPixels(image, tolerance: 2, "composite at \(progress)") { p in
            guard let r = removed.sample(Self.shift(p, size: removed.size, value: -progress)),
                let i = inserted.sample(Self.shift(p, size: inserted.size, value: 1 - progress))
            else { return nil }
            return over(i, r)
        }
        #expect(n > 100)
    }

    @Test("built-in shift at progress 0, 0.25, 0.5 and 1", arguments: [0.0, 0.25, 0.5, 1.0])
    func builtInShift(progress: Double) throws {
        let from = smooth(16, 12, seed: 9), to = smooth(16, 12, seed: 10)
        let image = try render("shift", from: from, to: to, progress: progress)
        if progress == 0 { #expect(image == from) }
        if progress == 1 { #expect(image == to) }
        let removed = CPULayer(image: from), inserted = CPULayer(image: to)
        expectPixels(image, tolerance: 2, "shift at \(progress)") { p in
            guard let r = removed.sample(Self.shift(p, size: removed.size, value: -progress)),
                let i = inserted.sample(Self.shift(p, size: inserted.size, value: 1 - progress))
            else { return nil }
            return over(i, r)
        }
    }

    @Test("an undeclared name is found when the file is read (segue info), naming the .metal file and line")
    func compileErrorLine() throws {
        let scratch = try TemporaryDirectory("stitchable"), dir = URL(fileURLWithPath: scratch.path)
        let path = dir.appendingPathComponent("broken.metal").path
        try """
        #include <metal_stdlib>
        using namespace metal;

        [[ stitchable ]] float2 broken(float2 position, float amount) {
            float2 p = position;
            return p + undefinedName * amount;
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            _ = try EffectCatalog.effect(path + ":broken")
        } throws: { error in
            "\(error)" == "\(path):6: use of undeclared identifier 'undefinedName'"
        }
    }

    @Test("TransitionCheck.checks covers each function of a .metal file in its use; a .glsl file is one check by gl-transitions' rules")
    func checks() throws {
        let checks = try TransitionCheck.checks(
            file: repositoryRoot + "/Tests/Fixtures/stitchable/Check.metal", context: TestGPU.context)
        #expect(
            checks.map(\.subject) == [
                "float2 slide(float2 position, float2 size, float amount), as a transition",
                "half4 tint(float2 position, half4 color, float amount), as a transition",
                "half4 gradient(float2 position, float4 bounds), as a fill",
                "half4 invert(float2 position, half4 color), on one image",
            ])
        #expect(checks.map(\.passed) == [true, false, true, true])
        #expect(
            checks.map { $0.findings.map(\.rule) } == [
                ["compiles", "progress 0 shows from", "progress 1 shows to"],
                ["compiles", "progress 0 shows from", "progress 1 shows to"],
                ["compiles", "draws"], ["compiles", "draws"],
            ])
        // tint at progress 0: the inserted screen at value 1 is opaque red over from's (0, 0, 40, 255).
        #expect(checks[1].findings[1].detail.hasPrefix("largest difference 255/255 at pixel (0, 0); as a transition by default"))
        let glsl = try TransitionCheck.checks(
            file: repositoryRoot + "/Tests/Fixtures/gl-transitions/luma-mask.glsl", context: TestGPU.context)
        #expect(glsl.map(\.subject) == ["luma-mask"] && glsl[0].findings.count == 5 && glsl[0].passed)
        // A file that does not read is reported without a GPU: the context is not asked for.
        for file in [repositoryRoot + "/Tests/Fixtures/gl-transitions/unknown-type.glsl", "/nonexistent/a.metal"] {
            #expect(throws: EffectLookupError.self) {
                _ = try TransitionCheck.checks(file: file) {
                    Issue.record("\(file): a GPU was asked for")
                    return try TestGPU.context()
                }
            }
        }
    }
}
