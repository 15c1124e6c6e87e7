import SegueCore
import Testing

@Suite("Parameters")
struct ParameterValueTests {
    @Test("parsing scalars, vectors, broadcast, bools")
    func parsing() throws {
        #expect(try ParameterValue.parse("2.5", as: .float, name: "x") == .float(2.5))
        #expect(try ParameterValue.parse("0.5, -1", as: .vec2, name: "x") == .vec2(0.5, -1))
        #expect(try ParameterValue.parse("3", as: .ivec3, name: "x") == ParameterValue(.ivec3, [3, 3, 3]))
        #expect(try ParameterValue.parse("true", as: .bool, name: "x") == .bool(true))
        #expect(try ParameterValue.parse("1,0", as: .bvec2, name: "x") == ParameterValue(.bvec2, [1, 0]))
        #expect(try ParameterValue.parse("2", as: .mat3, name: "x").components == [2, 0, 0, 0, 2, 0, 0, 0, 2])
    }

    @Test(
        "bad values are refused with the rule broken",
        arguments: [
            ("nan", ParameterType.float, "finite"), ("inf", .float, "finite"), ("-infinity", .float, "finite"),
            ("abc", .float, "not a valid float"), ("1.5", .int, "not a valid int"), ("1,2,3", .vec2, "2 components"),
            ("maybe", .bool, "not a valid bool"), ("", .float, "not a valid float"),
            // What a double holds but the shader's 32-bit types do not.
            ("1e100", .float, "parameter 'p' is beyond a 32-bit float's range (±3.4e+38), got '1e100'"),
            ("0,-4e38", .vec2, "parameter 'p' is beyond a 32-bit float's range (±3.4e+38), got '0,-4e38'"),
            ("3000000000", .int, "not a valid int"),
            // A long value is quoted in part.
            (
                String(repeating: "x", count: 100_000), .float,
                "'\(String(repeating: "x", count: 80))… (100000 characters)' is not a valid float"
            ),
        ] as [(String, ParameterType, String)])
    func rejects(text: String, type: ParameterType, message: String) {
        #expect {
            _ = try ParameterValue.parse(text, as: type, name: "p")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("a Metal half holds ±65504: a half or half4 argument takes up to that, a float all a 32-bit float holds")
    func halfRange() throws {
        #expect(try ParameterValue.parse("65504,-65504", as: .vec2, name: "h", typeName: "half2") == .vec2(65504, -65504))
        #expect(try ParameterValue.parse("70000", as: .float, name: "f", typeName: "float") == .float(70000))
        #expect(throws: ParameterError.beyondHalf(name: "h", type: "half4", text: "-65505")) {
            try ParameterValue.parse("1,0,-65505,1", as: .vec4, name: "h", typeName: "half4")
        }
        #expect(
            ParameterError.beyondHalf(name: "h", type: "half", text: "1e5").description
                == "parameter 'h' is a half, whose components hold at most ±65504; got '1e5'")
    }

    @Test("effects resolve defaults and reject unknown names with the known ones")
    func resolve() throws {
        let e = Effect(
            name: "e", summary: "", source: .builtIn, glsl: "", origin: .topLeft,
            parameters: [.init(name: "a", type: .float, defaultValue: .float(1)), .init(name: "b", type: .vec2, defaultValue: nil)])
        let v = try e.resolveParameters([("a", "3")])
        #expect(v["a"] == .float(3) && v["b"] == .vec2(0, 0))
        #expect(throws: ParameterError.unknown(name: "c", effect: "e", known: ["a", "b"])) { try e.resolveParameters([("c", "1")]) }
        #expect(
            ParameterError.unknown(name: "sped", effect: "melt", known: ["speed", "spread"]).description
                == "effect 'melt' has no parameter 'sped' (did you mean 'speed'?); its parameters are: speed, spread")
        #expect(
            ParameterError.unknown(name: "zzzz", effect: "melt", known: ["speed"]).description
                == "effect 'melt' has no parameter 'zzzz'; its parameters are: speed")
        // Given twice, neither value wins silently.
        #expect(throws: ParameterError.givenTwice(name: "a")) { try e.resolveParameters([("a", "1"), ("b", "0,0"), ("a", "2")]) }
        #expect(ParameterError.givenTwice(name: "a").description == "parameter 'a' is given twice; give it once")
        #expect(throws: ParameterError.malformedAssignment("novalue")) { try parseAssignment("novalue") }
        #expect(try parseAssignment(" a = 1,2 ") == ("a", "1,2"))
        // An empty value is one: an empty array argument; a scalar refuses it by its type.
        #expect(try parseAssignment("values=") == ("values", ""))
        #expect(throws: ParameterError.malformedAssignment("=1")) { try parseAssignment("=1") }
    }

    @Test("a stitchable function's #rrggbbaa colour is a SwiftUI Color, premultiplied; numbers and a gl-transitions vec4 stay as written")
    func stitchableColoursPremultiplied() throws {
        let tint = EffectParameter(name: "tint", type: .vec4, defaultValue: nil)
        let stitchable = Effect(name: "s", summary: "", kind: .stitchable, source: .builtIn, glsl: "", origin: .topLeft, parameters: [tint])
        let glsl = Effect(name: "g", summary: "", source: .builtIn, glsl: "", origin: .topLeft, parameters: [tint])
        let a = Double(0x80) / 255
        #expect(try stitchable.resolveParameters([("tint", "#ff000080")])["tint"]?.components == [a, 0, 0, a])
        #expect(try stitchable.resolveParameters([("tint", "1,0,0,0.5")])["tint"]?.components == [1, 0, 0, 0.5])
        #expect(try glsl.resolveParameters([("tint", "#ff000080")])["tint"]?.components == [1, 0, 0, a])
        // A keyframe's colour is read as --param's: premultiplied for a stitchable function only.
        let keyed = try ParameterKeyframes.parse("tint=#ff000080@0,(0.5,0,0,0.5)@1", effect: stitchable)
        #expect(keyed.value(atFraction: 0).components == [a, 0, 0, a])
        #expect(keyed.value(atFraction: 1).components == [0.5, 0, 0, 0.5])
        let plain = try ParameterKeyframes.parse("tint=#ff000080@0,#ff000080@1", effect: glsl)
        #expect(plain.value(atFraction: 0.5).components == [1, 0, 0, a])
    }

    @Test("colour parameters take #rgb, #rrggbb and #rrggbbaa; anything else in hex is refused")
    func hexColours() throws {
        #expect(try ParameterValue.parse("#ff8800", as: .vec3, name: "c").components == [1, Double(0x88) / 255, 0])
        #expect(try ParameterValue.parse("#ff8800", as: .vec4, name: "c").components == [1, Double(0x88) / 255, 0, 1])
        #expect(try ParameterValue.parse("#F80", as: .vec4, name: "c").components == [1, Double(0x88) / 255, 0, 1])
        #expect(try ParameterValue.parse("#00ff0080", as: .vec4, name: "c").components == [0, 1, 0, Double(0x80) / 255])
        for bad in ["#ff88", "#gg8800", "#", "#ff8800ff00"] {
            #expect(throws: ParameterError.wrongType(name: "c", type: "vec4", text: bad)) {
                try ParameterValue.parse(bad, as: .vec4, name: "c")
            }
        }
        #expect(throws: ParameterError.self) { try ParameterValue.parse("#ff8800", as: .vec2, name: "c") }
    }
}

@Suite("Image")
struct ImageTests {
    @Test("premultiply rounds to nearest and unpremultiply inverts within rounding")
    func premultiplication() {
        var bytes: [UInt8] = [200, 100, 50, 128, 255, 255, 255, 0, 10, 20, 30, 255]
        Image.premultiply(&bytes)
        #expect(bytes == [100, 50, 25, 128, 0, 0, 0, 0, 10, 20, 30, 255])
        Image.unpremultiply(&bytes)
        #expect(bytes == [199, 100, 50, 128, 0, 0, 0, 0, 10, 20, 30, 255])
    }

    @Test("size limits are checked before allocation")
    func limits() {
        #expect(throws: ImageSizeError.sideTooLarge(width: 20000, height: 10, limit: 16384)) {
            try Image.validateSize(width: 20000, height: 10)
        }
        #expect(throws: ImageSizeError.tooManyPixels(width: 16384, height: 16384, limit: Image.maximumPixelCount)) {
            try Image.validateSize(width: 16384, height: 16384)
        }
        #expect(throws: ImageSizeError.empty(width: 0, height: 5)) { try Image.validateSize(width: 0, height: 5) }
    }

    @Test("resize factors for cover, contain, stretch")
    func resize() {
        // A 200x100 image into a 100x100 output.
        let cover = ResizeMode.cover.textureScale(imageWidth: 200, imageHeight: 100, outputWidth: 100, outputHeight: 100)
        #expect(cover.x == 0.5 && cover.y == 1)
        let contain = ResizeMode.contain.textureScale(imageWidth: 200, imageHeight: 100, outputWidth: 100, outputHeight: 100)
        #expect(contain.x == 1 && contain.y == 2)
        let stretch = ResizeMode.stretch.textureScale(imageWidth: 200, imageHeight: 100, outputWidth: 100, outputHeight: 100)
        #expect(stretch.x == 1 && stretch.y == 1)
    }
}
