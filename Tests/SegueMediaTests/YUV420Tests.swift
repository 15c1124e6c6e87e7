// Y'CbCr 4:2:0 conversions against the BT.709 formulas in floating point, and against ffmpeg's
// own conversion of the same picture.
import Foundation
import SegueCore
import SegueTestSupport
import Testing

@testable import SegueMedia

@Suite("Y'CbCr 4:2:0 (BT.709, limited range)")
struct YUV420Tests {
    /// BT.709 limited range from R'G'B' in 0…255, in floating point.
    private func reference(_ r: Double, _ g: Double, _ b: Double) -> (y: Double, cb: Double, cr: Double) {
        let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
        return (16 + 219 * luma / 255, 128 + 224 * (b - luma) / 1.8556 / 255, 128 + 224 * (r - luma) / 1.5748 / 255)
    }

    /// A `width`×`height` RGBA picture of `size`×`size` blocks, each one colour from a fixed
    /// pseudo-random sequence (the first four white, black, red and blue).
    private func blocks(width: Int, height: Int, size: Int = 2) -> [UInt8] {
        var state: UInt32 = 12345
        var colours: [[UInt8]] = []
        for _ in 0..<((width / size) * (height / size)) {
            var c: [UInt8] = []
            for _ in 0..<3 { state = state &* 1_103_515_245 &+ 12345; c.append(UInt8(truncatingIfNeeded: state >> 16)) }
            colours.append(c)
        }
        colours[0] = [255, 255, 255]; colours[1] = [0, 0, 0]; colours[2] = [255, 0, 0]; colours[3] = [0, 0, 255]
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let c = colours[(y / size) * (width / size) + x / size]
                for k in 0..<3 { rgba[(y * width + x) * 4 + k] = c[k] }
            }
        }
        return rgba
    }

    @Test("white, black, red and blue are BT.709's code values exactly")
    func codeValues() {
        let rgba = blocks(width: 8, height: 2)
        var yuv = [UInt8](repeating: 0, count: YUV420.byteCount(width: 8, height: 2))
        rgba.withUnsafeBytes { src in yuv.withUnsafeMutableBytes { YUV420.fromRGBA(src, width: 8, height: 2, into: $0) } }
        // Y of the first pixel of each block; Cb and Cr of the four blocks.
        #expect([yuv[0], yuv[2], yuv[4], yuv[6]] == [235, 16, 63, 32])
        #expect(Array(yuv[16..<20]) == [128, 128, 102, 240])
        #expect(Array(yuv[20..<24]) == [128, 128, 240, 118])
    }

    @Test("every block of a random picture within 1 of the floating-point formulas, and back within 2")
    func formulas() {
        let (w, h) = (64, 32)
        let rgba = blocks(width: w, height: h)
        var yuv = [UInt8](repeating: 0, count: YUV420.byteCount(width: w, height: h))
        rgba.withUnsafeBytes { src in yuv.withUnsafeMutableBytes { YUV420.fromRGBA(src, width: w, height: h, into: $0) } }
        var back = [UInt8](repeating: 0, count: w * h * 4)
        yuv.withUnsafeBytes { src in back.withUnsafeMutableBytes { YUV420.toRGBA(src, width: w, height: h, into: $0) } }
        var worst = (forward: 0.0, back: 0)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                let ref = reference(Double(rgba[i]), Double(rgba[i + 1]), Double(rgba[i + 2]))
                let c = (y / 2) * (w / 2) + x / 2
                worst.forward = max(
                    worst.forward, abs(Double(yuv[y * w + x]) - ref.y), abs(Double(yuv[w * h + c]) - ref.cb),
                    abs(Double(yuv[w * h + (w / 2) * (h / 2) + c]) - ref.cr))
                for k in 0..<3 { worst.back = max(worst.back, abs(Int(back[i + k]) - Int(rgba[i + k]))) }
                #expect(back[i + 3] == 255)
            }
        }
        #expect(worst.forward <= 1.0, "forward: \(worst.forward)")
        // Limited range has 219 levels for 256: a round trip loses up to about 1.2 levels, plus rounding.
        #expect(worst.back <= 2, "round trip: \(worst.back)")
    }

    @Test("the same picture converted by ffmpeg (swscale, bt709, tv): luma within 1 everywhere, chroma within 1 inside blocks")
    func againstFFmpeg() throws {
        // 16×16 blocks: swscale filters chroma across block edges (bicubic, with its chroma
        // siting), so chroma is compared two samples away from them.
        let (w, h, size) = (128, 64, 16)
        let rgba = blocks(width: w, height: h, size: size)
        let dir = try TemporaryDirectory("media")
        let input = dir.file("in.rgba")
        writeFixture(rgba, to: input)
        let r = try runTool(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(w)x\(h)",
                "-i", input, "-vf", "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd",
                "-pix_fmt", "yuv420p", "-f", "rawvideo", "pipe:1",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        let theirs = [UInt8](r.stdout)
        var ours = [UInt8](repeating: 0, count: YUV420.byteCount(width: w, height: h))
        rgba.withUnsafeBytes { src in ours.withUnsafeMutableBytes { YUV420.fromRGBA(src, width: w, height: h, into: $0) } }
        try #require(theirs.count == ours.count)
        let luma = (0..<(w * h)).map { abs(Int(ours[$0]) - Int(theirs[$0])) }.max() ?? 0
        #expect(luma <= 1, "luma differs by up to \(luma)")
        var chroma = 0
        let (cw, ch) = (w / 2, h / 2)
        for plane in 0..<2 {
            let base = w * h + plane * cw * ch
            for cy in 0..<ch where (2..<(size / 2 - 2)).contains(cy % (size / 2)) {
                for cx in 0..<cw where (2..<(size / 2 - 2)).contains(cx % (size / 2)) {
                    chroma = max(chroma, abs(Int(ours[base + cy * cw + cx]) - Int(theirs[base + cy * cw + cx])))
                }
            }
        }
        #expect(chroma <= 1, "chroma differs by up to \(chroma)")
    }
}
