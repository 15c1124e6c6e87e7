// SwiftUI's array and data arguments (issue 28 item 2) rendered on the Vulkan device against
// independent computations: a spectrum of 16 bars from a float array (and count 0), colours from
// a colour array (premultiplied, transparent past the last), and every typed read of a data
// argument through a cast (float, half, uchar, char, ushort, short, int, uint, float2, float3 with
// Metal's 16-byte stride, half4), with reads outside the bytes given returning 0.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// The fixture shared with the C and Python tests.
private let arrays = repositoryRoot + "/Tests/Fixtures/stitchable/Arrays.metal"

/// Renders fill `function` of the fixture alone on a `w` × `h` transparent image.
private func renderFill(_ function: String, _ w: Int, _ h: Int, _ arguments: [(name: String, value: String)]) throws -> Image {
    let resolved = try ImageEffectRequest(effect: "\(arrays):\(function)", arguments: arguments).resolve()
    return try ImageEffectRenderer(resolved, input: Image(width: w, height: h, fill: .clear), context: try TestGPU.context()).frame(time: 0)
}

@Suite("Array and data arguments")
struct ArrayArgumentTests {
    /// The spectrum as the shader defines it, computed here: bar i of `count` across the width, lit
    /// where 1 − v ≤ values[i], coloured (v, 1 − v, 0.25, 1); blue for count 0.
    static func spectrum(_ values: [Double], _ w: Int, _ h: Int) -> (Int, Int) -> [Double] {
        { x, y in
            guard !values.isEmpty else { return [0, 0, 255, 255] }
            let u = (Double(x) + 0.5) / Double(w), v = (Double(y) + 0.5) / Double(h)
            let i = min(max(Int((u * Double(values.count)).rounded(.down)), 0), values.count - 1)
            return 1 - v <= values[i] ? [values[i] * 255, (1 - values[i]) * 255, 63.75, 255] : [0, 0, 0, 0]
        }
    }

    static func expect(_ image: Image, _ label: String, _ expected: (Int, Int) -> [Double]) {
        var worst = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y], e = expected(x, y)
                let d = zip([p.r, p.g, p.b, p.a].map(Double.init), e).map { abs($0 - $1) }.max()!
                worst = max(worst, d)
                #expect(d <= 1, "\(label): pixel \(x),\(y) is \([p.r, p.g, p.b, p.a]), expected \(e)")
                if d > 1 { return }
            }
        }
    }

    @Test("a spectrum of 16 values, a shorter one, and count 0 (the default)")
    func spectrum() throws {
        let values = (0..<16).map { Double(($0 * 7) % 16 + 1) / 16 }
        let text = values.map { String($0) }.joined(separator: ",")
        Self.expect(try renderFill("spectrum", 32, 16, [("values", text)]), "16 values", Self.spectrum(values, 32, 16))
        Self.expect(
            try renderFill("spectrum", 20, 8, [("values", "0.125, 0.875, 0.5")]), "3 values", Self.spectrum([0.125, 0.875, 0.5], 20, 8))
        Self.expect(try renderFill("spectrum", 4, 4, []), "count 0", Self.spectrum([], 4, 4))
    }

    @Test("colours arrive premultiplied as half4, and reads past the last are transparent")
    func colours() throws {
        let image = try renderFill("stripes", 5, 1, [("colors", "#ff0000, #00ff0080, 0.25,0.5,0,0.5")])
        let expected: [[Double]] = [[255, 0, 0, 255], [0, 128, 0, 128], [63.75, 127.5, 0, 127.5], [0, 0, 0, 0], [0, 0, 0, 0]]
        Self.expect(image, "stripes") { x, _ in expected[x] }
    }

    /// The data argument's bytes, little-endian as Metal reads them, and the value each column of
    /// `decode` reads.
    static func decodeBytes() -> (bytes: [UInt8], expected: [Double]) {
        var b = [UInt8](repeating: 0, count: 56)
        func put<T: FixedWidthInteger>(_ v: T, _ at: Int) {
            withUnsafeBytes(of: v.littleEndian) { for (k, c) in $0.enumerated() { b[at + k] = c } }
        }
        put(Float(51).bitPattern, 0)
        put(UInt16(0x5640), 4)  // half 100
        put(UInt16(0x4800), 6)  // half 8
        b[8] = 200
        b[9] = 0xC8  // char −56
        put(UInt16(250), 10)
        put(Int16(-3), 12)
        put(Int32(-100), 16)
        put(UInt32(77), 20)
        put(Float(33).bitPattern, 28)  // float2[3].y
        put(Float(44).bitPattern, 40)  // float3[2].z: a float3 takes 16 bytes
        put(UInt16(0x5420), 54)  // half4[6].w: half 66
        let expected: [Double] = [51, 100, 8, 200, -56, 250, -3, -100, 77, 33, 44, 66, 0, 0, 0, 56, 19, 0, 0, 51]
        return (b, expected)
    }

    @Test(
        "every typed read of a data argument, through casts, and reads outside the bytes give 0",
        arguments: ["hex", "file", "list"])
    func data(form: String) throws {
        let (bytes, expected) = Self.decodeBytes()
        let dir = try TemporaryDirectory("data")
        defer { dir.remove() }
        let text: String
        switch form {
        case "hex": text = "0x" + bytes.map { String(format: "%02x", $0) }.joined()
        case "list": text = bytes.map(String.init).joined(separator: ",")
        default:
            let path = dir.path + "/bytes.bin"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            text = "@" + path
        }
        let image = try renderFill("decode", expected.count, 1, [("bytes", text)])
        Self.expect(image, "decode (\(form))") { x, _ in [min(abs(expected[x]), 255), expected[x] < 0 ? 255 : 0, 0, 255] }
    }
}
