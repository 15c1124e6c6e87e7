// EXIF orientation and CMYK JPEGs. A JPEG of an asymmetric image is made by Segue's encoder, an
// APP1 Exif segment with the Orientation tag is spliced in after SOI (big- and little-endian TIFF),
// and the decoded picture must be the plain decode turned by the tag's exact permutation.
import Foundation
import SegueCore
import SegueMedia
import SegueSystem
import SegueTestSupport
import Testing

@Suite("JPEG: EXIF orientation and CMYK")
struct JPEGOrientationTests {
    /// A 6 × 4 picture with a distinct flat colour in each 2 × 2 block (JPEG keeps flat blocks).
    static func picture() -> Image {
        let colours: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0], [0, 255, 255], [255, 0, 255]]
        var px: [UInt8] = []
        for y in 0..<4 { for x in 0..<6 { let c = colours[(y / 2) * 3 + x / 2]; px += c + [255] } }
        return Image(width: 6, height: 4, scale: 1, premultipliedRGBA: px)
    }

    /// The expected displayed pixel (x, y) of a w × h stored image for each orientation.
    static func source(_ o: Int, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> (Int, Int) {
        switch o {
        case 2: return (w - 1 - x, y)
        case 3: return (w - 1 - x, h - 1 - y)
        case 4: return (x, h - 1 - y)
        case 5: return (y, x)
        case 6: return (y, h - 1 - x)
        case 7: return (w - 1 - y, h - 1 - x)
        case 8: return (w - 1 - y, x)
        default: return (x, y)
        }
    }

    @Test(
        "orientations 1–8, both TIFF byte orders, turn the decoded picture exactly",
        arguments: Array(1...8), [true, false])
    func orientation(value: Int, littleEndian: Bool) throws {
        let plainBytes = try ImageFile.encodeJPEG(Self.picture(), quality: 100)
        let plain = try ImageFile.decode(data: plainBytes)
        let tagged = withExifOrientation(UInt16(value), plainBytes, littleEndian: littleEndian)
        let turned = try ImageFile.decode(data: tagged)
        let swaps = value >= 5
        #expect(turned.width == (swaps ? 4 : 6) && turned.height == (swaps ? 6 : 4))
        for y in 0..<turned.height {
            for x in 0..<turned.width {
                let (sx, sy) = Self.source(value, x, y, 6, 4)
                #expect(turned[x, y] == plain[sx, sy], "orientation \(value) at (\(x), \(y))")
            }
        }
        // The top-left block of a phone photo tagged 6 (held upright) is the stored bottom-left.
        if value == 6 { #expect(turned[0, 0] == plain[0, 3]) }
    }

    @Test("a CMYK JPEG is refused with a message that says so and how to convert it")
    func cmyk() throws {
        guard
            let convert = ["/usr/bin/convert", "/usr/local/bin/convert"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            Issue.record("ImageMagick's convert makes the CMYK file: apt-get install imagemagick"); return
        }
        let scratch = try TemporaryDirectory("cmyk"), dir = scratch.path
        let run = try ProgramRun(convert, ["-size", "8x8", "xc:red", "-colorspace", "CMYK", dir + "/cmyk.jpg"])
        #expect(run.status == 0)
        do {
            _ = try ImageFile.read(path: dir + "/cmyk.jpg")
            Issue.record("a CMYK JPEG should be refused")
        } catch {
            #expect(
                error.description.hasPrefix(
                    "\(dir)/cmyk.jpg: a CMYK JPEG (print colours); Segue reads RGB and greyscale JPEGs: convert it to sRGB first"),
                "\(error.description)")
        }
    }

    @Test(
        "malformed Exif data is ignored, never trusted",
        arguments: [
            [UInt8](), [0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xF0], [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0xFF, 0xFF], [0x41, 0x41, 0, 0],
        ])
    func malformed(tiff: [UInt8]) throws {
        let plain = try ImageFile.encodeJPEG(Self.picture(), quality: 100)
        let body: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        let image = try ImageFile.decode(data: Array(plain[0..<2]) + segment + Array(plain[2...]))
        #expect(image.width == 6 && image.height == 4)
    }
}
