// The text forms of array and data values (`--arg`, the C API, Python, frei0r): lists, colours,
// hex and files, the empty value, and the limits refused with the argument's name before anything
// is allocated by the length given.
import Foundation
import SegueAnimation
import SegueCore
import SegueTestSupport
import Testing

@Suite("Array and data parameter values")
struct ArrayParameterTests {
    @Test("floats, colours (hex premultiplied, numbers as given) and bytes (hex, list); empty is count 0")
    func forms() throws {
        #expect(try ParameterValue.parse("0.1, 0.5,0.9", as: .floatArray, name: "v").components == [0.1, 0.5, 0.9])
        #expect(
            try ParameterValue.parse("#ff0000,#00ff0080, 0.25,0.5,0,0.5", as: .colorArray, name: "c").components
                == [1, 0, 0, 1, 0, 128.0 / 255, 0, 128.0 / 255, 0.25, 0.5, 0, 0.5])
        #expect(try ParameterValue.parse("0x00fF10", as: .data, name: "b").components == [0, 255, 16])
        #expect(try ParameterValue.parse("1, 2,255", as: .data, name: "b").components == [1, 2, 255])
        for t in [ParameterType.floatArray, .colorArray, .data] {
            let empty = try ParameterValue.parse("", as: t, name: "x")
            #expect(empty.elementCount == 0 && empty == EffectParameter(name: "x", type: t, defaultValue: nil).effectiveDefault)
        }
        #expect(try ParameterValue.parse("#ff0000", as: .colorArray, name: "c").elementCount == 1)
        #expect(ParameterValue(.data, [0, 171]).description == "0x00ab")
    }

    @Test("an int value made in code beyond what an Int holds is described, never trapped on")
    func outOfRangeComponents() {
        #expect(ParameterValue(.int, [3]).description == "3" && ParameterValue(.int, [3]).glslLiteral == "3")
        #expect(ParameterValue(.int, [1e300]).description == "1e+300" && ParameterValue(.int, [1e300]).glslLiteral == "1e+300")
        #expect(ParameterValue(.int, [-0x1p64]).description == "-1.8446744073709552e+19")
        #expect(ParameterValue(.int, [-0x1p62]).description == "-4611686018427387904")
    }

    @Test("a file's bytes, up to the limit")
    func file() throws {
        let scratch = try TemporaryDirectory("bytes"), path = scratch.file("b.bin")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect(try ParameterValue.parse("@" + path, as: .data, name: "b").components == [1, 2, 3])
        try Data(count: 4_097).write(to: URL(fileURLWithPath: path))
        #expect(throws: ParameterError.tooLong(name: "b", type: .data, limit: 4_096, got: nil)) {
            try ParameterValue.parse("@" + path, as: .data, name: "b")
        }
        try Data(count: 4_096).write(to: URL(fileURLWithPath: path))
        #expect(try ParameterValue.parse("@" + path, as: .data, name: "b").elementCount == 4_096)
    }

    @Test(
        "too long, refused with the name and the limit",
        arguments: [
            (
                Array(repeating: "1", count: 1_025).joined(separator: ","), ParameterType.floatArray,
                "argument 'x' takes at most 1024 floats; got 1025"
            ),
            (Array(repeating: "#fff", count: 513).joined(separator: ","), .colorArray, "argument 'x' takes at most 512 colours; got 513"),
            (Array(repeating: "1", count: 2_049).joined(separator: ","), .colorArray, "argument 'x' takes at most 512 colours; got more"),
            ("0x" + String(repeating: "ab", count: 4_097), .data, "argument 'x' takes at most 4096 bytes; got 4097"),
            (Array(repeating: "1", count: 4_097).joined(separator: ","), .data, "argument 'x' takes at most 4096 bytes; got 4097"),
            // Ten million commas: counted, never split.
            (String(repeating: ",", count: 10_000_000), .floatArray, "argument 'x' takes at most 1024 floats; got 10000001"),
        ])
    func tooLong(text: String, type: ParameterType, message: String) {
        #expect(throws: ParameterError.self) { try ParameterValue.parse(text, as: type, name: "x") }
        do { _ = try ParameterValue.parse(text, as: type, name: "x") } catch { #expect(error.description == message) }
    }

    @Test(
        "malformed values name the argument and the problem",
        arguments: [
            ("0.1,x", ParameterType.floatArray, "argument 'x': 'x' is not a number; give numbers separated by commas"),
            ("0.1,,2", .floatArray, "argument 'x': '' is not a number; give numbers separated by commas"),
            ("1,nan", .floatArray, "parameter 'x' must be a finite number, got 'nan'"),
            ("1,0,0", .colorArray, "argument 'x': a colour given as numbers needs 4 components (r,g,b,a); the last has 3"),
            ("1,0,#fff", .colorArray, "argument 'x': a colour given as numbers needs 4 (r,g,b,a) before the next '#' colour"),
            ("#ggg", .colorArray, "argument 'x': '#ggg' is not a colour (#rgb, #rrggbb, #rrggbbaa or four numbers r,g,b,a)"),
            (
                "1,0,0,1,70000,0,0,1", .colorArray,
                "parameter 'x' is a color[] (half4 components), whose components hold at most ±65504; got '70000'"
            ),
            ("0x123", .data, "argument 'x': '0x…' needs an even number of hex digits (two per byte)"),
            ("0xzz", .data, "argument 'x': '0x…' takes hex digits only (0-9, a-f), two per byte"),
            ("0x00 11", .data, "argument 'x': '0x…' takes hex digits only (0-9, a-f), two per byte"),
            (
                "1,256", .data,
                "argument 'x': '256' is not a byte (0…255); give bytes as 0x and hex digits, @FILE or numbers 0…255 separated by commas"
            ),
            ("@", .data, "argument 'x': '@' needs a file path (@FILE)"),
        ])
    func malformed(text: String, type: ParameterType, message: String) {
        do {
            _ = try ParameterValue.parse(text, as: type, name: "x")
            Issue.record("'\(text)' was accepted")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("arrays cannot be keyframed; GLSL sources cannot declare them")
    func elsewhere() throws {
        let effect = Effect(
            name: "e", summary: "", kind: .stitchable, source: .builtIn, glsl: "", origin: .topLeft,
            parameters: [EffectParameter(name: "v", type: .floatArray, defaultValue: nil)])
        #expect(throws: ParameterError.notKeyframable(name: "v", type: .floatArray)) {
            try ParameterKeyframes.parse("v=1@0,2@1", effect: effect)
        }
        #expect(
            ParameterError.notKeyframable(name: "v", type: .floatArray).description
                == "'v' is an array argument (float[]); it cannot be keyframed: give it one value")
        #expect(!ParameterType.glslTypes.contains { $0.isArray })
    }
}
