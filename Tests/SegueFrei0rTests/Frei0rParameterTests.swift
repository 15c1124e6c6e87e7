// The mapping of effect parameters to frei0r parameters: types, names, ranges and defaults.
import Foundation
import Segue
import SegueFrei0r
import SegueTestSupport
import Testing

@Suite("frei0r parameters")
struct Frei0rParameterTests {
    @Test("ranges follow the default: 0…1 for fractions, 0…N and −N…N otherwise, N in 1-2-5 steps")
    func ranges() {
        #expect(Frei0rParameter.range(forDefault: 0, integer: false) == 0...1)
        #expect(Frei0rParameter.range(forDefault: 0.35, integer: false) == 0...1)
        #expect(Frei0rParameter.range(forDefault: 1, integer: false) == 0...2)
        #expect(Frei0rParameter.range(forDefault: 2.7, integer: false) == 0...10)
        #expect(Frei0rParameter.range(forDefault: 9, integer: false) == 0...20)
        #expect(Frei0rParameter.range(forDefault: 30, integer: false) == 0...100)
        #expect(Frei0rParameter.range(forDefault: 120, integer: false) == 0...500)
        #expect(Frei0rParameter.range(forDefault: -0.5, integer: false) == -1...1)
        #expect(Frei0rParameter.range(forDefault: -3, integer: false) == -10...10)
        #expect(Frei0rParameter.range(forDefault: 1, integer: true) == 0...10)
        #expect(Frei0rParameter.range(forDefault: 0, integer: true) == 0...10)
    }

    @Test("a range the effect states wins over the derived one: 0…1 reaches every value it is meant for, the default in between")
    func statedRanges() throws {
        let curl = try #require(EffectCatalog.builtIn(named: "page-curl"))
        let angle = try #require(Frei0rParameter.map(curl.parameters, withProgress: true).parameters.first { $0.name == "angle" })
        #expect(angle.range == -180...180)
        #expect(abs(angle.defaultValue[0] - 210.0 / 360) < 1e-12)
        #expect(angle.explanation.hasSuffix("(0…1 is -180…180)"))
        let wipe = Frei0rParameter.map(try #require(EffectCatalog.builtIn(named: "wipe")).parameters, withProgress: false).parameters
        #expect(wipe.map(\.range) == [-1...1, -1...1, 0...1] && wipe.map(\.defaultValue) == [[1], [0.5], [0]])
        // A file's own range, and none (derived from the default 30: 0…100).
        let parsed = try TransitionSourceParser.parse(
            """
            uniform float stated; // = 30.0 in 10.0...50.0
            uniform float derived; // = 30.0
            uniform int steps; // = 4 in 1...9
            vec4 transition(vec2 uv) { return getFromColor(uv); }
            """, name: "ranges", source: .file("ranges.glsl"))
        let mapped = Frei0rParameter.map(parsed.parameters, withProgress: false).parameters
        #expect(mapped.map(\.range) == [10...50, 0...100, 1...9])
        #expect(mapped.map(\.defaultValue) == [[0.5], [0.3], [0.375]] && mapped.map(\.integer) == [false, false, true])
        // A colour-like vec4 whose stated range is not 0…1 is a double a component, reaching it all.
        let vectors = try TransitionSourceParser.parse(
            """
            uniform vec4 c; // = vec4(0.5) in -1.0...1.0
            uniform vec3 tint; // = vec3(1.0, 0.5, 0.0) in 0.0...1.0
            vec4 transition(vec2 uv) { return getFromColor(uv); }
            """, name: "vectors", source: .file("vectors.glsl"))
        let split = Frei0rParameter.map(vectors.parameters, withProgress: false).parameters
        #expect(split.map(\.name) == ["c_x", "c_y", "c_z", "c_w", "tint"])
        #expect(split.prefix(4).allSatisfy { $0.kind == .double && $0.range == -1...1 && $0.defaultValue == [0.75] })
        #expect(split[4].kind == .color)
    }
}

extension Frei0rParameterTests {
    /// The frei0r parameters (with progress) of the gl-transitions fixture that declares one
    /// parameter of each type.
    static func allTypes() throws -> (parameters: [Frei0rParameter], targets: [Frei0rTarget]) {
        let effect = try EffectCatalog.load(path: repositoryRoot + "/Tests/Fixtures/gl-transitions/all-types.glsl")
        return Frei0rParameter.map(effect.parameters, withProgress: true)
    }

    @Test("every GLSL type maps to frei0r types: doubles, bools, colours (+ alpha), a double per other component; progress first")
    func everyType() throws {
        let plugin = try Self.allTypes()
        let described = plugin.parameters.map { "\($0.name):\($0.kind.rawValue)" }
        #expect(
            described == [
                "progress:double", "f:double", "i:double", "b:bool", "v2_x:double", "v2_y:double", "v3:color", "v4:color",
                "v4_alpha:double",
                "iv2_x:double", "iv2_y:double", "iv3_x:double", "iv3_y:double", "iv3_z:double", "iv4_x:double", "iv4_y:double",
                "iv4_z:double", "iv4_w:double",
                "bv2_x:bool", "bv2_y:bool", "bv3_x:bool", "bv3_y:bool", "bv3_z:bool", "bv4_x:bool", "bv4_y:bool", "bv4_z:bool",
                "bv4_w:bool",
                "m2_0:double", "m2_1:double", "m2_2:double", "m2_3:double",
            ] + (0..<9).map { "m3_\($0):double" } + (0..<16).map { "m4_\($0):double" } + ["x:double", "y:double"])
        func param(_ name: String) throws -> Frei0rParameter { try #require(plugin.parameters.first { $0.name == name }) }
        // f = 2: 0…5, so its default is 0.4 in frei0r units (the plugin maps v to min + v·(max − min),
        // which the MLT and GStreamer host tests check on real pixels).
        let f = try param("f")
        #expect(f.range == 0...5 && f.defaultValue == [0.4] && !f.integer)
        // i = 3 (an int): 0…10, rounded by the plugin.
        let i = try param("i")
        #expect(i.range == 0...10 && i.integer && i.defaultValue == [0.3])
        #expect(try param("b").defaultValue == [1])
        #expect(try param("v3").defaultValue == [0.25, 0.5, 0.75])
        #expect(try param("v4").defaultValue == [1, 1, 1])
        #expect(try param("v4_alpha").range == 0...1)
        #expect(try param("v2_y").range == 0...2 && param("v2_y").defaultValue == [0.5])
        #expect(try param("m3_7").range == 0...1 && param("m3_7").defaultValue == [0.5])
        #expect(plugin.parameters[0].target == .progress && plugin.parameters[0].range == 0...1)
        #expect(
            plugin.targets.map(\.name) == [
                "f", "i", "b", "v2", "v3", "v4", "iv2", "iv3", "iv4", "bv2", "bv3", "bv4", "m2", "m3", "m4", "x", "y",
            ])
        #expect(try param("v4_alpha").target == .components(parameter: 5, component: 3))
    }

    @Test("doom-melt: progress, then its speeds scaled to 0…1 with their defaults; a texture becomes a string")
    func builtInAndTexture() throws {
        let melt = try Frei0rPlugin.builtIn(#require(EffectCatalog.builtIn(named: "doom-melt")))
        #expect(melt.parameters.map(\.name) == ["progress", "startSpeed", "meltSpeed", "spread"])
        #expect(melt.parameters.map(\.range) == [0...1, 0...10, 0...2, 0...1])
        #expect(melt.parameters.map(\.defaultValue) == [[0], [0.27], [0.5], [0.35]])
        let luma = try Frei0rPlugin.file(repositoryRoot + "/Tests/Fixtures/gl-transitions/luma-mask.glsl")
        #expect(luma.parameters.map { "\($0.name):\($0.kind.rawValue)" } == ["progress:double", "luma:string", "softness:double"])
        #expect(luma.hasTextures && !melt.hasTextures)
    }

    @Test("array and data arguments become string parameters passed as they are")
    func arrays() {
        let (parameters, targets) = Frei0rParameter.map(
            [
                EffectParameter(name: "values", type: .floatArray, defaultValue: nil, summary: "values"),
                EffectParameter(name: "bytes", type: .data, defaultValue: nil, summary: "bytes"),
            ],
            withProgress: false)
        #expect(parameters.map { "\($0.name):\($0.kind.rawValue)" } == ["values:string", "bytes:string"])
        #expect(parameters[0].explanation == "values (numbers separated by commas: 0.1,0.5,0.9; at most 1024)")
        #expect(targets.map(\.defaults) == [[], []])
    }
}
