// Sources of more than 8 bits decoded accurately: a 10-bit ramp (lossless FFV1, BT.709 limited
// range) through `TimedVideoDecoder` lands within one level of the exact 8-bit value, computed here
// from the source's own 10-bit code values and the BT.709 matrix. (ffmpeg's default conversion,
// without accurate rounding and full chroma interpolation, is 2 to 3 levels off.)
import Foundation
import SegueCore
import SegueTestSupport
import Testing

@testable import SegueMedia

@Suite("Decoding 10-bit sources")
struct DeepSourceDecodingTests {
    static let width = 256, height = 16

    /// A 10-bit clip whose luma rises by about 3.4 codes a column from 64 to 940, with flat chroma
    /// `cb`, `cr`; and its Y', Cb, Cr planes as ffmpeg reads them back (the exact code values).
    private func ramp(_ dir: TemporaryDirectory, cb: Int, cr: Int) throws -> (path: String, y: [Int], cb: [Int], cr: [Int]) {
        let path = dir.file("ramp-\(cb)-\(cr).mkv")
        let made = try runTool(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                "color=c=black:s=\(Self.width)x\(Self.height):r=5:d=0.4,format=yuv420p10le,geq=lum='64+X*876/255':cb=\(cb):cr=\(cr)",
                "-c:v", "ffv1", "-pix_fmt", "yuv420p10le", "-colorspace", "bt709", "-color_primaries", "bt709",
                "-color_trc", "bt709", "-color_range", "tv", path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let raw = try runTool(
            "ffmpeg", ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "pipe:1"])
        let codes = [UInt8](raw.stdout).withUnsafeBytes { bytes in
            (0..<bytes.count / 2).map { Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self))) }
        }
        let n = Self.width * Self.height
        try #require(codes.count == n * 3 / 2)
        return (path, Array(codes[0..<n]), Array(codes[n..<n + n / 4]), Array(codes[(n + n / 4)...]))
    }

    /// The exact 8-bit R'G'B' of 10-bit limited-range BT.709 Y'CbCr codes, rounded.
    static func exactRGB(y: Int, cb: Int, cr: Int) -> [Int] {
        let (kr, kb) = (0.2126, 0.0722)
        let luma = Double(y - 64) / 876, pb = Double(cb - 512) / 896, pr = Double(cr - 512) / 896
        let r = luma + 2 * (1 - kr) * pr, b = luma + 2 * (1 - kb) * pb
        let g = (luma - kr * r - kb * b) / (1 - kr - kb)
        return [r, g, b].map { min(255, max(0, Int(($0 * 255).rounded()))) }
    }

    @Test("RGBA: every pixel within one level of the exact value", arguments: [(512, 512), (400, 600)])
    func rgba(cb: Int, cr: Int) throws {
        let dir = try TemporaryDirectory("media")
        let source = try ramp(dir, cb: cb, cr: cr)
        let decoder = try TimedVideoDecoder(path: source.path, frameLimit: 1)
        let frame = try #require(try decoder.nextImage()).image
        #expect(frame.width == Self.width && frame.height == Self.height)
        var worst = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let c = (y / 2) * (Self.width / 2) + x / 2
                let exact = Self.exactRGB(y: source.y[y * Self.width + x], cb: source.cb[c], cr: source.cr[c])
                let p = frame[x, y]
                worst = max(worst, abs(Int(p.r) - exact[0]), abs(Int(p.g) - exact[1]), abs(Int(p.b) - exact[2]))
            }
        }
        #expect(worst <= 1, "largest difference \(worst) levels")
    }

    @Test("4:2:0: Y', Cb and Cr within one level of the 10-bit codes divided by 4")
    func yuv420() throws {
        let dir = try TemporaryDirectory("media")
        let source = try ramp(dir, cb: 400, cr: 600)
        let stream = try #require(try MediaProbe.probe(path: source.path).video)
        let decoder = try TimedVideoDecoder(
            path: source.path, stream: stream, width: Self.width, height: Self.height, resize: .stretch,
            frameLimit: 1, pixelFormat: .yuv420p)
        var planes = [UInt8](repeating: 0, count: decoder.frameByteCount)
        let time = try planes.withUnsafeMutableBytes { try decoder.read(into: $0) }
        #expect(time == 0)
        let exact = (source.y + source.cb + source.cr).map { Int((Double($0) / 4).rounded()) }
        let worst = zip(planes, exact).map { abs(Int($0) - $1) }.max() ?? 99
        #expect(worst <= 1, "largest difference \(worst) levels")
    }
}
