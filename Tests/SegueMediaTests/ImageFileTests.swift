import Foundation
import SegueCore
import SegueTestSupport
import Testing

@testable import SegueMedia

@Suite("PNG and JPEG files")
struct ImageFileTests {
    // MARK: - PNG round trips

    @Test func opaquePNGRoundTripIsExact() throws {
        let image = Image(width: 7, height: 5, scale: 2, straightRGBA: straightPattern(width: 7, height: 5, alpha: false))
        let bytes = try ImageFile.encodePNG(image)
        #expect(bytes.starts(with: ImageFormat.pngSignature))
        #expect(bytes[25] == 2, "opaque images are stored as RGB (colour type 2)")
        let back = try ImageFile.decode(data: bytes, scale: 2)
        #expect(back == image)
    }

    @Test func translucentPNGRoundTrip() throws {
        let straight = straightPattern(width: 16, height: 16, alpha: true)
        let image = Image(width: 16, height: 16, straightRGBA: straight)
        let bytes = try ImageFile.encodePNG(image)
        #expect(bytes[25] == 6, "translucent images are stored as RGBA (colour type 6)")
        let back = try ImageFile.decode(data: bytes)
        // Premultiplied values survive exactly (un-premultiply then premultiply is the identity on 8 bits) …
        #expect(back.pixels == image.pixels)
        // … so straight values come back as in-memory premultiplication leaves them: within ±1
        // where alpha ≥ 128; below that premultiplication itself keeps fewer levels.
        let out = back.straightRGBA()
        #expect(out == image.straightRGBA())
        for i in stride(from: 0, to: straight.count, by: 4) where straight[i + 3] >= 128 {
            for c in 0..<4 {
                #expect(abs(Int(out[i + c]) - Int(straight[i + c])) <= 1, "pixel \(i / 4) channel \(c)")
            }
        }
    }

    @Test func fastPNGDecodesToTheSamePixels() throws {
        let image = Image(width: 32, height: 9, straightRGBA: straightPattern(width: 32, height: 9, alpha: true))
        let fast = try ImageFile.encodePNG(image, compression: .fast)
        #expect(try ImageFile.decode(data: fast) == image)
    }

    @Test func rawStraightRGBAEncodes() throws {
        let straight = straightPattern(width: 5, height: 4, alpha: true)
        let bytes = try straight.withUnsafeBytes { try ImageFile.encodePNG(straightRGBA: $0, width: 5, height: 4) }
        #expect(try ImageFile.decode(data: bytes) == Image(width: 5, height: 4, straightRGBA: straight))
    }

    @Test func writeAndReadFilesByContentNotExtension() throws {
        let dir = try TemporaryDirectory("media")
        let image = Image(width: 3, height: 2, scale: 3, straightRGBA: straightPattern(width: 3, height: 2, alpha: true))
        try ImageFile.write(image, to: dir.file("a.png"))
        try ImageFile.write(image, to: dir.file("b.jpg"), format: .png)
        #expect(try ImageFile.read(path: dir.file("a.png"), scale: 3) == image)
        #expect(try ImageFile.read(path: dir.file("b.jpg"), scale: 3) == image)
        #expect(dir.contents == ["a.png", "b.jpg"], "no temporary files are left behind")
    }

    // MARK: - PNG flavours (made by ffmpeg from exact raw input)

    @Test func greyPNG() throws {
        let dir = try TemporaryDirectory("media")
        let grey: [UInt8] = [0, 17, 128, 255, 1, 254, 99, 200]
        writeFixture(grey, to: dir.file("in.raw"))
        try ffmpegPNG(input: dir.file("in.raw"), pixelFormat: "gray", size: "4x2", output: dir.file("g.png"))
        let file = readFixture(dir.file("g.png"))
        #expect(file[24] == 8 && file[25] == 0, "8-bit greyscale PNG")
        let image = try ImageFile.read(path: dir.file("g.png"))
        #expect(image.width == 4 && image.height == 2)
        #expect(image.pixels == grey.flatMap { [$0, $0, $0, 255] })
    }

    @Test func sixteenBitPNG() throws {
        let dir = try TemporaryDirectory("media")
        // 16-bit values that are exact multiples of 257 map to the 8-bit value v.
        let rgb: [UInt8] = [0, 10, 20, 255, 128, 64, 1, 2, 3, 250, 251, 252]
        writeFixture(rgb.flatMap { [$0, $0] }, to: dir.file("in.raw"))  // big-endian v*257 is [v, v]
        try ffmpegPNG(input: dir.file("in.raw"), pixelFormat: "rgb48be", size: "2x2", output: dir.file("w.png"))
        let file = readFixture(dir.file("w.png"))
        #expect(file[24] == 16 && file[25] == 2, "16-bit RGB PNG")
        let image = try ImageFile.read(path: dir.file("w.png"))
        #expect(image.pixels == opaqueRGBA(rgb))
    }

    @Test func sixteenBitTranslucentPNG() throws {
        let dir = try TemporaryDirectory("media")
        let straight: [UInt8] = [200, 100, 50, 255, 200, 100, 50, 128, 10, 240, 130, 51, 0, 0, 0, 0]
        writeFixture(straight.flatMap { [$0, $0] }, to: dir.file("in.raw"))
        try ffmpegPNG(input: dir.file("in.raw"), pixelFormat: "rgba64be", size: "2x2", output: dir.file("w.png"))
        #expect(readFixture(dir.file("w.png"))[24] == 16)
        let out = try ImageFile.read(path: dir.file("w.png")).straightRGBA()
        for i in 0..<straight.count {
            #expect(abs(Int(out[i]) - Int(straight[i])) <= 1, "byte \(i): \(out[i]) vs \(straight[i])")
        }
    }

    @Test func palettePNG() throws {
        let dir = try TemporaryDirectory("media")
        let colours: [[UInt8]] = [[255, 0, 0], [0, 128, 255], [20, 200, 40], [255, 255, 255], [0, 0, 0], [90, 10, 160]]
        let rgb = (0..<12).flatMap { colours[$0 % colours.count] }
        writeFixture(rgb, to: dir.file("in.raw"))
        let result = try runTool(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-y",
                "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "4x3", "-i", dir.file("in.raw"),
                "-vf", "split[a][b];[a]palettegen=reserve_transparent=0:stats_mode=single[p];[b][p]paletteuse=dither=none",
                "-frames:v", "1", "-c:v", "png", "-pix_fmt", "pal8", dir.file("p.png"),
            ])
        try #require(result.status == 0, "\(result.stderr)")
        let file = readFixture(dir.file("p.png"))
        #expect(file[25] == 3, "palette PNG (colour type 3)")
        let image = try ImageFile.read(path: dir.file("p.png"))
        #expect(image.pixels == opaqueRGBA(rgb))
    }

    private func opaqueRGBA(_ rgb: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        for i in stride(from: 0, to: rgb.count, by: 3) {
            out += [rgb[i], rgb[i + 1], rgb[i + 2], 255]
        }
        return out
    }

    private func ffmpegPNG(input: String, pixelFormat: String, size: String, output: String) throws {
        let result = try runTool(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-y",
                "-f", "rawvideo", "-pix_fmt", pixelFormat, "-s", size, "-i", input,
                "-frames:v", "1", "-c:v", "png", "-pix_fmt", pixelFormat, output,
            ])
        try #require(result.status == 0, "ffmpeg failed: \(result.stderr)")
    }

    // MARK: - JPEG

    @Test func jpegRoundTripOfASmoothImage() throws {
        let image = Image(width: 64, height: 48) { x, y in
            Pixel(UInt8(x * 4), UInt8(y * 5), UInt8(128 + (x - y) / 2))
        }
        let bytes = try ImageFile.encodeJPEG(image, quality: 92)
        #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]))
        let back = try ImageFile.decode(data: bytes)
        #expect(back.width == 64 && back.height == 48 && back.isOpaque)
        let error = zip(image.pixels, back.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        let mean = Double(error) / Double(64 * 48 * 3)  // alpha is 255 in both
        #expect(mean < 3, "mean absolute error \(mean)")
    }

    @Test func jpegDropsAlphaAsOverBlack() throws {
        let image = Image(width: 16, height: 16, fill: Pixel(100, 50, 0, 128))
        let back = try ImageFile.decode(data: ImageFile.encodeJPEG(image, quality: 100))
        let p = back[8, 8]
        #expect(p.a == 255)
        #expect(abs(Int(p.r) - 100) <= 2 && abs(Int(p.g) - 50) <= 2 && p.b <= 2)
    }

    @Test func jpegFileWithUpperCaseExtension() throws {
        let dir = try TemporaryDirectory("media")
        let image = Image(width: 8, height: 8, fill: .white)
        try ImageFile.write(image, to: dir.file("photo.JPEG"), quality: 80)
        #expect(readFixture(dir.file("photo.JPEG")).starts(with: [0xFF, 0xD8]))
        #expect(try ImageFile.read(path: dir.file("photo.JPEG")).pixels.allSatisfy { $0 >= 253 })
    }
}
