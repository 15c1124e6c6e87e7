// gl-transitions files and the names Segue adds to their scope: a file may declare its own
// `scale`, `time`, `duration` or `resolution` (functions, constants, locals, parameters) and
// compiles; and the colour a transition returns is straight alpha, as in the format's WebGL
// renderers (getFromColor/getToColor give straight colour; the result is premultiplied after the
// transition function) — compared with a CPU rendering of the same formula; a result outside
// 0…1 is clamped before it is premultiplied, as GL's store to an 8-bit target clamps it.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// Pixel channels 0…1.
private func unit(_ p: Pixel) -> [Double] { [Double(p.r), Double(p.g), Double(p.b), Double(p.a)].map { $0 / 255 } }

/// A premultiplied pixel's straight colour (0…1) and alpha.
private func straight(_ p: Pixel) -> [Double] {
    let c = unit(p)
    return c[3] == 0 ? [0, 0, 0, 0] : [c[0] / c[3], c[1] / c[3], c[2] / c[3], c[3]]
}

/// Compares premultiplied pixels with `expected` (premultiplied, 0…1) within one level.
private func expectImage(_ image: Image, _ label: String, _ expected: (Int, Int) -> [Double]) {
    for y in 0..<image.height {
        for x in 0..<image.width {
            let got = unit(image[x, y]).map { $0 * 255 }, want = expected(x, y).map { $0 * 255 }
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 1.01 }, "\(label): pixel \(x),\(y) is \(got), expected \(want)")
        }
    }
}

@Suite("gl-transitions: the file's own names, straight alpha")
struct GLTransitionNameAndAlphaTests {
    @Test(
        "helpers named scale, time, duration and resolution compile; the translucent result is premultiplied after the function",
        arguments: [0.0, 0.3, 1.0])
    func ownNames(progress: Double) throws {
        let effect = try EffectCatalog.effect(glTransitionFixture("own-names.glsl"))
        #expect(effect.alpha == .straight)
        let from = Image(width: 8, height: 4) { x, y in Pixel(UInt8(30 * x), UInt8(60 * y), 200) }
        let to = Image(width: 8, height: 4) { x, _ in Pixel(250, UInt8(20 * x), 10) }
        let image = try TransitionRenderer(effect: effect, from: from, to: to, context: try TestGPU.context(), framesInFlight: 1)
            .frame(progress: progress, time: progress, duration: 1)
        // c = mix(from, to, scale(progress · duration)) = mix(from, to, progress); alpha = 0.5 · 0.5.
        expectImage(image, "own names at \(progress)") { x, y in
            let a = straight(from[x, y]), b = straight(to[x, y])
            let alpha = 0.25
            let rgb: [Double] = (0..<3).map { (k: Int) -> Double in (a[k] + (b[k] - a[k]) * progress) * alpha }
            return rgb + [alpha]
        }
        let opaque = try TransitionRenderer(
            effect: effect, from: from, to: to, parameters: ["strength": .float(2)], context: try TestGPU.context(), framesInFlight: 1
        )
        .frame(progress: progress, time: progress, duration: 1)
        #expect(opaque.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    @Test("a parameter named time, a function named duration; resolution and scale still reach the file")
    func timeParameter() throws {
        let effect = try EffectCatalog.effect(glTransitionFixture("time-parameter.glsl"))
        #expect(effect.parameters.map(\.name) == ["time"])
        let image = Image(width: 4, height: 2, scale: 2, fill: .black)
        let r = try TransitionRenderer(
            effect: effect, from: image, to: image, parameters: ["time": .float(0.6)], context: try TestGPU.context(), framesInFlight: 1)
        // The transition's own time (0.9 s) does not override the parameter.
        let frame = try r.frame(progress: 0.5, time: 0.9, duration: 1)
        #expect(frame.pixels.enumerated().allSatisfy { $0.offset % 4 == 3 ? $0.element == 255 : $0.element == 153 })
    }

    @Test("straight alpha: translucent inputs are shown exactly at progress 0 and 1, and mixed as straight colour between")
    func translucentInputs() throws {
        let scratch = try TemporaryDirectory("alpha"), dir = URL(fileURLWithPath: scratch.path)
        let path = dir.appendingPathComponent("mix.glsl").path
        try "vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }".write(
            toFile: path, atomically: true, encoding: .utf8)
        let effect = try EffectCatalog.effect(path)
        var fromBytes: [UInt8] = [], toBytes: [UInt8] = []
        for k in 0..<18 {
            fromBytes += [UInt8(40 * (k % 6)), 200, 90, UInt8(60 + 10 * k)]
            toBytes += [250, UInt8(10 * k), 30, k % 2 == 0 ? 255 : 100]
        }
        let from = Image(width: 6, height: 3, straightRGBA: fromBytes), to = Image(width: 6, height: 3, straightRGBA: toBytes)
        let r = try TransitionRenderer(effect: effect, from: from, to: to, context: try TestGPU.context(), framesInFlight: 1)
        #expect(try r.frame(progress: 0, time: 0, duration: 1) == from)
        #expect(try r.frame(progress: 1, time: 1, duration: 1) == to)
        let half = try r.frame(progress: 0.5, time: 0.5, duration: 1)
        expectImage(half, "straight mix") { x, y in
            let a = straight(from[x, y]), b = straight(to[x, y])
            let m: [Double] = (0..<4).map { (k: Int) -> Double in (a[k] + b[k]) / 2 }
            return [m[0] * m[3], m[1] * m[3], m[2] * m[3], m[3]]
        }
        // Segue's own fade blends premultiplied colour, as Core Animation does.
        let fade = try TransitionRenderer(
            effect: EffectCatalog.builtIn(named: "fade")!, from: from, to: to, context: try TestGPU.context(), framesInFlight: 1
        )
        .frame(progress: 0.5, time: 0.5, duration: 1)
        expectImage(fade, "premultiplied fade") { x, y in zip(unit(from[x, y]), unit(to[x, y])).map { ($0 + $1) / 2 } }
        #expect(fade != half)
    }

    @Test(
        "a result outside 0…1 is clamped per channel before premultiplying, as GL stores it in an 8-bit target",
        arguments: [0.25, 0.75])
    func outOfRangeResultIsClamped(progress: Double) throws {
        let effect = try EffectCatalog.effect(glTransitionFixture("out-of-range.glsl"))
        let from = Image(width: 4, height: 2, fill: .black), to = Image(width: 4, height: 2, fill: .white)
        let image = try TransitionRenderer(effect: effect, from: from, to: to, context: try TestGPU.context(), framesInFlight: 1)
            .frame(progress: progress, time: progress, duration: 1)
        // GL writes clamp(c) as 8-bit straight colour: (2, 2, 2, 0.4) → (1, 1, 1, 0.4) → 255, 255, 255, 102
        // and (0.4, 0.4, 0.4, 2) → (0.4, 0.4, 0.4, 1) → 102, 102, 102, 255. Segue keeps clamp(c)
        // premultiplied (102, 102, 102, 102 on the left) and hands out GL's straight bytes. (0.4 × 255 is
        // 102 with no rounding tie: Vulkan lets a device store 127.5 as 127 or 128, and an H200 stores 127.)
        let left: [UInt8] = [102, 102, 102, 102], right: [UInt8] = [102, 102, 102, 255]
        let row = left + left + right + right
        #expect(image.pixels == row + row, "premultiplied \(image.pixels)")
        let straightLeft: [UInt8] = [255, 255, 255, 102]
        let straightRow = straightLeft + straightLeft + right + right
        #expect(image.straightRGBA() == straightRow + straightRow, "straight \(image.straightRGBA())")
    }
}
