// Every PNG flavour the format has — colour types 0, 2, 3, 4, 6 at each of their bit depths,
// plain and Adam7-interlaced — written by an encoder of the test's own (stored deflate blocks,
// CRC-32, Adler-32; nothing of libpng) with known sample values, then decoded by Segue and
// compared pixel for pixel with the values computed here:
//   • 1/2/4-bit grey expands by bit replication: v·255 / (2^d − 1);
//   • 16-bit samples are written as b·257, which scale exactly to b;
//   • a tRNS colour becomes alpha 0; palettes look up their entries.
// The decoded image is premultiplied; the expectation is built the same way from straight values.
import Foundation
import SegueCore
import SegueMedia
import Testing

@Suite("PNG flavours against an independent encoder")
struct PNGFlavourTests {
    static let width = 11, height = 9

    // MARK: - A minimal PNG writer

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var i = 0
        repeat {
            let n = min(65535, data.count - i)
            out.append(i + n == data.count ? 1 : 0)
            out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[i..<(i + n)]
            i += n
        } while i < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + be32(b << 16 | a)
    }

    /// Packs samples of `depth` bits (1, 2, 4, 8, 16) into a filter-0 scanline.
    static func scanline(_ samples: [Int], depth: Int) -> [UInt8] {
        var out: [UInt8] = [0]
        if depth == 16 { for s in samples { out += [UInt8(s >> 8), UInt8(s & 0xFF)] }; return out }
        if depth == 8 { return out + samples.map { UInt8($0) } }
        var byte = 0, used = 0
        for s in samples {
            byte = byte << depth | s
            used += depth
            if used == 8 { out.append(UInt8(byte)); byte = 0; used = 0 }
        }
        if used > 0 { out.append(UInt8(byte << (8 - used))) }
        return out
    }

    static func png(
        type: Int, depth: Int, interlaced: Bool, palette: [[UInt8]]? = nil, trns: [UInt8]? = nil,
        samples: (Int, Int) -> [Int]
    ) -> [UInt8] {
        var raw: [UInt8] = []
        let passes: [(Int, Int, Int, Int)] =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx)), ys = Array(stride(from: y0, to: height, by: dy))
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            for y in ys { raw += scanline(xs.flatMap { samples($0, y) }, depth: depth) }
        }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [UInt8(depth), UInt8(type), 0, 0, interlaced ? 1 : 0])
        if let palette { file += chunk("PLTE", palette.flatMap { $0 }) }
        if let trns { file += chunk("tRNS", trns) }
        return file + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    // MARK: - Cases

    /// A sample value in 0..<levels that varies with x and y.
    static func level(_ x: Int, _ y: Int, _ k: Int, _ levels: Int) -> Int { (x * 7 + y * 3 + k * 5) % levels }

    /// An 8-bit channel value that varies with x, y and the channel k.
    static func channel(_ x: Int, _ y: Int, _ k: Int) -> UInt8 {
        let v: Int = level(x, y, k, 256) * 37
        return UInt8(v % 256)
    }

    static func check(_ bytes: [UInt8], expected: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8), label: String) throws {
        let image = try ImageFile.decode(data: bytes, path: "\(label).png")
        #expect(image.width == width && image.height == height)
        var straight: [UInt8] = []
        for y in 0..<height { for x in 0..<width { let p = expected(x, y); straight += [p.0, p.1, p.2, p.3] } }
        let reference = Image(width: width, height: height, scale: 1, straightRGBA: straight)
        var wrong = 0
        for y in 0..<height { for x in 0..<width where image[x, y] != reference[x, y] { wrong += 1 } }
        #expect(
            wrong == 0,
            "\(label): \(wrong) of \(width * height) pixels differ, first row \((0..<width).map { image[$0, 0] }) vs \((0..<width).map { reference[$0, 0] })"
        )
    }

    @Test("grey at 1, 2, 4, 8 and 16 bits, with and without a tRNS grey", arguments: [1, 2, 4, 8, 16], [false, true])
    func grey(depth: Int, interlaced: Bool) throws {
        let levels = depth == 16 ? 256 : 1 << depth
        let toByte = { (v: Int) -> UInt8 in depth == 16 ? UInt8(v) : UInt8(v * 255 / (levels - 1)) }
        let sample = { (v: Int) in depth == 16 ? v * 257 : v }
        let bytes = Self.png(type: 0, depth: depth, interlaced: interlaced) { x, y in [sample(Self.level(x, y, 0, levels))] }
        try Self.check(
            bytes,
            expected: { x, y in
                let g = toByte(Self.level(x, y, 0, levels)); return (g, g, g, 255)
            },
            label: "grey\(depth)\(interlaced ? "i" : "")")
        // tRNS: the grey of level 1 is transparent.
        let key = sample(1)
        let trns = Self.png(type: 0, depth: depth, interlaced: interlaced, trns: [UInt8(key >> 8), UInt8(key & 0xFF)]) { x, y in
            [sample(Self.level(x, y, 0, levels))]
        }
        try Self.check(
            trns,
            expected: { x, y in
                let v = Self.level(x, y, 0, levels), g = toByte(v)
                return (g, g, g, v == 1 ? 0 : 255)
            }, label: "grey\(depth)trns\(interlaced ? "i" : "")")
    }

    @Test("RGB, grey+alpha and RGBA at 8 and 16 bits", arguments: [8, 16], [false, true])
    func colour(depth: Int, interlaced: Bool) throws {
        let sample = { (v: Int) in depth == 16 ? v * 257 : v }
        let c = Self.channel
        let rgb = Self.png(type: 2, depth: depth, interlaced: interlaced) { x, y in (0..<3).map { sample(Int(c(x, y, $0))) } }
        try Self.check(rgb, expected: { x, y in (c(x, y, 0), c(x, y, 1), c(x, y, 2), 255) }, label: "rgb\(depth)")
        let ga = Self.png(type: 4, depth: depth, interlaced: interlaced) { x, y in [sample(Int(c(x, y, 0))), sample(Int(c(x, y, 3)))] }
        try Self.check(ga, expected: { x, y in (c(x, y, 0), c(x, y, 0), c(x, y, 0), c(x, y, 3)) }, label: "ga\(depth)")
        let rgba = Self.png(type: 6, depth: depth, interlaced: interlaced) { x, y in (0..<4).map { sample(Int(c(x, y, $0))) } }
        try Self.check(rgba, expected: { x, y in (c(x, y, 0), c(x, y, 1), c(x, y, 2), c(x, y, 3)) }, label: "rgba\(depth)")
    }

    @Test("palettes at 1, 2, 4 and 8 bits, with tRNS alpha", arguments: [1, 2, 4, 8], [false, true])
    func palette(depth: Int, interlaced: Bool) throws {
        let count = 1 << depth
        let entries: [[UInt8]] = (0..<count).map { (i: Int) -> [UInt8] in
            let r: Int = i * 53 % 256, g: Int = 255 - i * 29 % 256, b: Int = i * 97 % 256
            return [UInt8(r), UInt8(g), UInt8(b)]
        }
        let alphas = (0..<count).map { UInt8($0 * 71 % 256) }
        let bytes = Self.png(type: 3, depth: depth, interlaced: interlaced, palette: entries, trns: alphas) { x, y in
            [Self.level(x, y, 0, count)]
        }
        try Self.check(
            bytes,
            expected: { x, y in
                let i = Self.level(x, y, 0, count)
                return (entries[i][0], entries[i][1], entries[i][2], alphas[i])
            }, label: "palette\(depth)\(interlaced ? "i" : "")")
    }

    @Test("a truncated interlaced file is an error naming PNG, not a crash")
    func truncatedInterlaced() throws {
        let bytes = Self.png(type: 6, depth: 16, interlaced: true) { x, y in [x * 1000, y * 1000, 0, 65535] }
        #expect(throws: MediaError.self) { try ImageFile.decode(data: Array(bytes.prefix(bytes.count - 40)), path: "cut.png") }
    }
}
