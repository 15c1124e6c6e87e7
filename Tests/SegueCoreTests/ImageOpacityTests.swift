// `Image.isOpaque` over raw pixels: the block-wise scan finds one translucent pixel anywhere —
// first, last, either side of a block boundary — in aligned and unaligned buffers.
import SegueCore
import Testing

@Suite("Image opacity scan")
struct ImageOpacityTests {
    @Test("one translucent pixel anywhere is found", arguments: [0, 1, 1023, 1024, 1025, 2047, 2048, 4999])
    func oneTranslucentPixel(at index: Int) {
        var bytes = [UInt8](repeating: 255, count: 5000 * 4)
        #expect(bytes.withUnsafeBytes { Image.isOpaque($0) })
        bytes[index * 4 + 3] = 254
        #expect(!bytes.withUnsafeBytes { Image.isOpaque($0) })
        // Colour bytes below 255 do not matter, only alpha.
        bytes[index * 4 + 3] = 255
        bytes[index * 4] = 0
        #expect(bytes.withUnsafeBytes { Image.isOpaque($0) })
    }

    @Test("unaligned and short buffers take the byte path")
    func unaligned() {
        var bytes = [UInt8](repeating: 255, count: 4 * 10 + 1)
        #expect(bytes.withUnsafeBytes { Image.isOpaque(UnsafeRawBufferPointer(rebasing: $0[1...])) })
        bytes[1 + 4 * 9 + 3] = 0
        #expect(!bytes.withUnsafeBytes { Image.isOpaque(UnsafeRawBufferPointer(rebasing: $0[1...])) })
        #expect([UInt8]().withUnsafeBytes { Image.isOpaque($0) })
    }
}
