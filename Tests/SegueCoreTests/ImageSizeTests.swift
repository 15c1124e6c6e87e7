// "WxH" read once for every caller (the commands' --size, a concat spec's "size"), and the limits
// every image size is checked against.
import SegueCore
import Testing

@Suite("Image sizes")
struct ImageSizeTests {
    @Test("WxH: width and height, an X in either case")
    func parses() throws {
        #expect(try Image.parseSize("1920x1080") == (1920, 1080))
        #expect(try Image.parseSize("8X4") == (8, 4))
        #expect(try Image.parseSize("16384x1") == (16384, 1))
    }

    @Test("anything else is malformed, naming the text; sizes past the limits are refused as validateSize refuses them")
    func refuses() throws {
        for text in ["", "x", "1920", "1920x", "x1080", "0x10", "10x0", "-2x4", "4x-2", "1.5x2", "2x2x2", "a x b", " 2x2", "1920×1080"] {
            #expect(throws: ImageSizeError.malformed(text: text)) { try Image.parseSize(text) }
        }
        #expect(ImageSizeError.malformed(text: "big").description == "size must look like 1920x1080, got 'big'")
        #expect(throws: ImageSizeError.sideTooLarge(width: 20000, height: 10, limit: 16384)) { try Image.parseSize("20000x10") }
        #expect(throws: ImageSizeError.tooManyPixels(width: 16384, height: 16384, limit: Image.maximumPixelCount)) {
            try Image.parseSize("16384x16384")
        }
        // A number past Int's range is malformed, never a trap.
        #expect(throws: ImageSizeError.malformed(text: "99999999999999999999x2")) { try Image.parseSize("99999999999999999999x2") }
    }
}
