// The cross-dissolve a concatenation draws without the GPU: exact bytes where the arithmetic
// gives them, and the GPU's `fade` as an independent reference, both on translucent
// premultiplied RGBA and on Y'CbCr 4:2:0 (converted to RGBA, faded on the GPU and converted
// back); and a render of fades alone never opening the GPU, while a wipe does.
import Foundation
import Segue
import SegueTestSupport
import Testing

@testable import SegueConcat

@Suite("Concatenation: the cross-dissolve on the CPU")
struct CrossDissolveTests {
    private func mixed(_ a: [UInt8], _ b: [UInt8], _ p: Double) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: a.count)
        a.withUnsafeBytes { ra in
            b.withUnsafeBytes { rb in out.withUnsafeMutableBytes { CrossDissolve.mix(ra, rb, progress: p, into: $0) } }
        }
        return out
    }

    @Test("exact values: the ends, halves rounded up, quarters")
    func exactValues() {
        let a: [UInt8] = [0, 255, 10, 20, 200, 7], b: [UInt8] = [255, 0, 20, 21, 100, 7]
        #expect(mixed(a, b, 0) == a)
        #expect(mixed(a, b, 1) == b)
        #expect(mixed(a, b, 0.5) == [128, 128, 15, 21, 150, 7])  // 127.5 and 20.5 round up
        #expect(mixed(a, b, 0.25) == [64, 191, 13, 20, 175, 7])  // 63.75, 191.25, 12.5, 20.25, 175
    }

    @Test("premultiplied translucent RGBA: the GPU's fade to within one level", arguments: [0.2, 0.5, 0.77])
    func matchesTheGPUOnRGBA(progress: Double) throws {
        let from = Image(width: 24, height: 16) { x, y in  // premultiplied: colours at most alpha
            let alpha = 40 + x * 8
            return Pixel(UInt8(x * 10 * alpha / 255), UInt8(y * 15 * alpha / 255), UInt8(200 * alpha / 255), UInt8(alpha))
        }
        let to = pattern(24, 16, seed: 3)
        let gpu = try render("fade", from: from, to: to, progress: progress)
        let cpu = mixed(from.pixels, to.pixels, progress)
        let worst = zip(gpu.pixels, cpu).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "largest difference \(worst) at progress \(progress)")
    }

    @Test(
        "4:2:0 dissolved in place equals the GPU's fade between the converted frames, converted back, within one level",
        arguments: [0.1, 0.5, 0.9])
    func matchesTheGPUOn420(progress: Double) throws {
        let w = 32, h = 24
        // Smooth colours in gamut, as video is (each 2×2 block's colours close together).
        let a = Image(width: w, height: h) { x, y in Pixel(UInt8(30 + x * 6), UInt8(200 - y * 5), UInt8(60 + (x + y) * 3)) }
        let b = Image(width: w, height: h) { x, y in Pixel(UInt8(220 - x * 5), UInt8(40 + y * 7), UInt8(180 - x * 2 - y * 2)) }
        func planar(_ image: Image) -> [UInt8] {
            var yuv = [UInt8](repeating: 0, count: YUV420.byteCount(width: w, height: h))
            image.pixels.withUnsafeBytes { rgba in yuv.withUnsafeMutableBytes { YUV420.fromRGBA(rgba, width: w, height: h, into: $0) } }
            return yuv
        }
        func rgba(_ yuv: [UInt8]) -> Image {
            var pixels = [UInt8](repeating: 0, count: w * h * 4)
            yuv.withUnsafeBytes { source in pixels.withUnsafeMutableBytes { YUV420.toRGBA(source, width: w, height: h, into: $0) } }
            return Image(width: w, height: h, premultipliedRGBA: pixels)
        }
        let ya = planar(a), yb = planar(b)
        let reference = planar(try render("fade", from: rgba(ya), to: rgba(yb), progress: progress))
        let cpu = mixed(ya, yb, progress)
        let differences = zip(reference, cpu).map { abs(Int($0) - Int($1)) }
        #expect(differences.max() ?? 0 <= 1, "largest difference \(differences.max() ?? 0) at progress \(progress)")
        #expect(Double(differences.filter { $0 > 0 }.count) / Double(cpu.count) < 0.5, "most samples agree exactly")
    }

    @Test("an edit of fades renders without a GPU; a wipe asks for one")
    func fadesNeedNoGPU() throws {
        let dir = try TemporaryDirectory()
        let a = dir.file("a.mp4"), b = dir.file("b.mp4")
        try makeClip(a, color: "red", seconds: 1)
        try makeClip(b, color: "blue", seconds: 1)
        struct NoGPU: Error {}
        for effect in ["fade", "wipe"] {
            let spec = ConcatSpec(clips: [ClipSpec(path: a), ClipSpec(path: b)], transition: CutSpec(effect: effect, duration: 0.4))
            let out = dir.file("\(effect).mp4")
            let renderer = try ConcatRenderer(
                Concatenation(spec: spec), output: out, settings: VideoSettings(preset: "ultrafast", crf: 12),
                context: { throw NoGPU() })
            if effect == "fade" {
                try renderer.render()
                let (_, _, frames) = try decodeFrames(out)
                #expect(frames.count == 40)  // 1 + 1 − 0.4 s at 25 fps
                // The fade spans 0.6…1.0 s; frame 20 (0.8 s) is half way (a symmetric curve).
                #expect(near(meanColor(frames[20]), 128, 0, 128, 16), "\(meanColor(frames[20]))")
            } else {
                #expect(throws: NoGPU.self) { try renderer.render() }
                #expect(!FileManager.default.fileExists(atPath: out))
            }
        }
    }
}
