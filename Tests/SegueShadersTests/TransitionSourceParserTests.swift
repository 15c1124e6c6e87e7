import SegueCore
import Testing

@testable import SegueMetal
@testable import SegueShaders

@Suite("Transition source parser")
struct TransitionSourceParserTests {
    func parse(_ text: String) throws -> Effect {
        try TransitionSourceParser.parse(text, name: "t", source: .file("t.glsl"))
    }

    @Test("uniform lines with defaults become parameters, and are blanked keeping line numbers")
    func parameters() throws {
        let src = """
            // Author: Someone
            // License: MIT
            uniform float amplitude; // = 2
            uniform vec2 direction; // = vec2(0.0, 1.0)
            uniform ivec2 size; // = ivec2(4)
            uniform vec2 a /* = vec2(1.) */;
            uniform bool flag; // = true
            uniform float x, y; // = .5
            uniform mat2 m; // = mat2(2.0)
            uniform sampler2D luma;
            uniform float noDefault;
            vec4 transition(vec2 uv) { return getFromColor(uv); }
            """
        let e = try parse(src)
        #expect(e.author == "Someone" && e.license == "MIT")
        #expect(e.origin == .bottomLeft)
        let byName = Dictionary(uniqueKeysWithValues: e.parameters.map { ($0.name, $0) })
        #expect(byName["amplitude"]?.defaultValue == .float(2))
        #expect(byName["direction"]?.defaultValue == .vec2(0, 1))
        #expect(byName["size"]?.defaultValue == ParameterValue(.ivec2, [4, 4]))
        #expect(byName["a"]?.defaultValue == .vec2(1, 1))
        #expect(byName["flag"]?.defaultValue == .bool(true))
        #expect(byName["x"]?.defaultValue == .float(0.5) && byName["y"]?.defaultValue == .float(0.5))
        #expect(byName["m"]?.defaultValue == ParameterValue(.mat2, [2, 0, 0, 2]))
        #expect(byName["luma"]?.type == .sampler2D && byName["luma"]?.defaultValue == nil)
        #expect(byName["noDefault"]?.effectiveDefault == .float(0))
        #expect(e.parameters.map(\.name) == ["amplitude", "direction", "size", "a", "flag", "x", "y", "m", "luma", "noDefault"])
        let lines = e.glsl!.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == src.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(lines[11].hasPrefix("vec4 transition"))
        #expect(!e.glsl!.contains("uniform"))
    }

    @Test("a range after the default: 'in MIN...MAX' or 'MIN…MAX', GLSL literals, for every component; none unless stated")
    func ranges() throws {
        let e = try parse(
            """
            uniform float angle; // = 30.0 in -180.0...180.0; direction of the curl
            uniform vec2 direction; // = vec2(1.0, 0.0) in -1.…1.; where it goes
            uniform int rows /* = 4 in 1...100 */;
            uniform float plain; // = 0.5; no range
            uniform float bare; // = 2 in .5...+4.0f
            vec4 transition(vec2 uv) { return getFromColor(uv); }
            """)
        let byName = Dictionary(uniqueKeysWithValues: e.parameters.map { ($0.name, $0) })
        #expect(byName["angle"]?.range == -180...180 && byName["angle"]?.defaultValue == .float(30))
        #expect(byName["angle"]?.summary == "direction of the curl")
        #expect(byName["direction"]?.range == -1...1 && byName["direction"]?.defaultValue == .vec2(1, 0))
        #expect(byName["rows"]?.range == 1...100 && byName["rows"]?.defaultValue == .int(4))
        #expect(byName["plain"]?.range == nil && byName["plain"]?.summary == "no range")
        #expect(byName["bare"]?.range == 0.5...4 && byName["bare"]?.defaultValue == .float(2))
    }

    @Test(
        "a range that cannot be read, is empty, leaves out its default or is given to a bool or texture is refused on its line",
        arguments: [
            ("uniform float x; // = 1 in 0..2", "invalid range '0..2' for 'x': expected MIN...MAX"),
            ("uniform float x; // = 1 in 0...two", "invalid range '0...two'"),
            ("uniform float x; // = 1 in 0...inf", "invalid range '0...inf'"),
            ("uniform float x; // = 1 in", "invalid range '' for 'x'"),
            ("uniform float x; // = 1 in 2...0", "the range of 'x' must go from a smaller number to a larger one, got 2...0"),
            ("uniform float x; // = 1 in 1...1", "must go from a smaller number to a larger one"),
            ("uniform float x; // = 3 in 0...2", "the default of 'x' (3) is outside its range 0…2"),
            ("uniform vec2 d; // = vec2(0.5, -1.5) in -1...1", "the default of 'd' (-1.5) is outside its range -1…1"),
            ("uniform bool b; // = true in 0...1", "bool 'b' takes no range"),
            (
                "uniform float x; // = 0 in -1e308...1e308",
                "the range of 'x' must lie within a 32-bit float's range (±3.4e+38), got -1e308...1e308"
            ),
            ("uniform int n; // = 2 in 0.5...3.5", "the range of int 'n' must be whole numbers a 32-bit int holds, got 0.5...3.5"),
            ("uniform ivec2 n; // = ivec2(0) in -1e20...1e20", "the range of ivec2 'n' must be whole numbers a 32-bit int holds"),
        ])
    func rangeErrors(declaration: String, message: String) {
        let src = "// Author: a\n" + declaration + "\nvec4 transition(vec2 uv) { return getFromColor(uv); }"
        #expect {
            try parse(src)
        } throws: { error in
            guard let error = error as? ShaderSourceError else { return false }
            return error.line == 2 && error.message.contains(message)
        }
    }

    @Test("every built-in parameter states its range, which holds its default")
    func builtInRanges() {
        for e in EffectCatalog.builtIns {
            for p in e.parameters where p.type.scalar != .bool && p.type != .sampler2D && !p.type.isArray {
                guard let range = p.range else {
                    Issue.record("\(e.name).\(p.name) states no range")
                    continue
                }
                #expect(p.effectiveDefault!.components.allSatisfy(range.contains), "\(e.name).\(p.name) default outside \(range)")
            }
        }
        #expect(EffectCatalog.builtIn(named: "page-curl")?.parameters.first?.range == -180...180)
    }

    @Test("declarations are found as the compiler reads comments: none inside /* */, one after a comment closes on its line")
    func declarationsAndComments() throws {
        let src = """
            // Author: Someone
            // License: MIT
            float keep = 1.0; /* old
            uniform float commented; // = 2
            */ uniform float afterClose; // = 3
            /* a */ /* b
            uniform float alsoCommented;
            */
            /* note */ uniform vec2 leading; /* = vec2(1.0, 2.0) */
            vec4 transition(vec2 uv) { return getFromColor(uv); }
            """
        let e = try parse(src)
        #expect(e.parameters.map(\.name) == ["afterClose", "leading"])
        #expect(e.parameters.first?.defaultValue == .float(3))
        #expect(e.parameters.last?.defaultValue == .vec2(1, 2))
        // The comments stay whole in the GLSL (their closing `*/` kept), the declarations go.
        let glsl = e.glsl!
        let (code, unclosed) = GLSLComments.stripped(glsl)
        #expect(!unclosed)
        #expect(!code.contains("uniform") && !code.contains("commented"))
        #expect(code.contains("float keep = 1.0;"))
        #expect(
            glsl.split(separator: "\n", omittingEmptySubsequences: false).count
                == src.split(separator: "\n", omittingEmptySubsequences: false).count)
    }

    @Test("the transition function's parameter may carry GLSL's qualifiers; white space and line breaks as GLSL allows")
    func transitionSignatures() throws {
        for signature in [
            "vec4 transition(in vec2 uv)", "vec4 transition(const vec2 p)", "vec4 transition ( highp vec2 uv )\n",
            "vec4\ntransition(vec2 uv)",
        ] {
            #expect(throws: Never.self) { try parse(signature + " { return vec4(1.0); }") }
        }
    }

    @Test("control characters in comments (an escape sequence, a NUL) are not handed to a terminal")
    func controlCharacters() throws {
        let e = try parse(
            "// Author: x\u{1B}[31mred\n// Description: a\u{0}b\tc\nuniform float k; // = 1.0; bell\u{7}\nvec4 transition(vec2 uv) { return vec4(k); }"
        )
        #expect(e.author == "x\u{FFFD}[31mred" && e.summary == "a\u{FFFD}b\tc")
        #expect(e.parameters.first?.summary.contains("bell\u{FFFD}") == true, "\(e.parameters)")
    }

    @Test("header keys: origin, duration, timing, description")
    func headers() throws {
        let e = try parse(
            "// Origin: top-left\n// Duration: 2.5\n// Timing: ease-in\n// Description: A test.\nvec4 transition(vec2 uv) { return vec4(1.0); }"
        )
        #expect(e.origin == .topLeft && e.defaultDuration == 2.5 && e.defaultTiming == "ease-in" && e.summary == "A test.")
    }

    @Test(
        "errors name the file and the line",
        arguments: [
            ("uniform float3 x; // = 1\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "unknown parameter type 'float3'"),
            ("\nuniform float x // = 1\nvec4 transition(vec2 uv) { return vec4(1.0); }", 2, "expected ';'"),
            ("uniform vec2 d; // = vec3(1.0, 2.0, 3.0)\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "invalid default"),
            ("uniform float progress;\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "provided by Segue"),
            // Names the template or GLSL uses were reported by glslang on the template's lines.
            (
                "// c\nuniform float getFromColor;\nvec4 transition(vec2 uv) { return vec4(1.0); }", 2,
                "'getFromColor' is a GLSL word or a name"
            ),
            ("uniform float float;\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "'float' is a GLSL word or a name"),
            ("uniform vec2 _segue_from;\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "'_segue_from' is a GLSL word or a name"),
            // A header value is quoted in part, however long.
            (
                "// Duration: " + String(repeating: "9x", count: 50_000) + "\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1,
                "… (100000 characters)'"
            ),
            // Names are ASCII, as glslang reads them (the parser took any letter, the compiler did not).
            ("uniform float café; // = 1\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "'café' is not a valid parameter name"),
            ("uniform float a; // = 1\nuniform float a; // = 2\nvec4 transition(vec2 uv) { return vec4(1.0); }", 2, "declared twice"),
            ("vec4 main2(vec2 uv) { return vec4(1.0); }", 1, "no 'vec4 transition(vec2 uv)'"),
            // Only a definition counts: not one in a comment, nor a prototype alone.
            (
                "// vec4 transition(vec2 uv) { return vec4(1.0); }\nvec4 f(vec2 uv) { return vec4(1.0); }", 1,
                "no 'vec4 transition(vec2 uv)'"
            ),
            ("vec4 transition(vec2 uv);\nvec4 f(vec2 uv) { return vec4(1.0); }", 1, "no 'vec4 transition(vec2 uv)'"),
            ("uniform float x; // = nan\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "invalid default"),
            ("// Duration: -1\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "duration must be a positive"),
            // An hour at most, as a cut: 1e308 s passed here and made every render refuse "infinity frames".
            (
                "// Duration: 1e308\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1,
                "duration must be a positive number of seconds, at most 3600 s, got '1e308'"
            ),
            ("// Duration: 3600.5\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "at most 3600 s, got '3600.5'"),
            ("// Duration: nan\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "at most 3600 s, got 'nan'"),
            // A reverse naming no built-in failed at every pop, not when the file was read.
            (
                "// Author: a\n// Reverse: fdae\nvec4 transition(vec2 uv) { return vec4(1.0); }", 2,
                "reverse: unknown effect 'fdae'; did you mean 'fade'"
            ),
            ("// Reverse: bulge\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "reverse: 'bulge' applies to one image"),
            // A default that is not a number is quoted whole (its last 'f' is no float suffix).
            ("uniform float x; // = 0.5 & stuff\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1, "'0.5 & stuff' for float 'x': "),
            (
                "uniform float x; // = 0.5 & stuff\nvec4 transition(vec2 uv) { return vec4(1.0); }", 1,
                "'0.5 & stuff' is not a valid float value"
            ),
        ] as [(String, Int, String)])
    func errors(source: String, line: Int, message: String) {
        do {
            _ = try parse(source)
            Issue.record("expected an error containing \(message)")
        } catch let error as ShaderSourceError {
            #expect(error.file == "t.glsl")
            #expect(error.line == line)
            #expect(error.message.contains(message), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("a file's reverse: a built-in transition is checked when the file is read, a file when a pop plays")
    func reverse() throws {
        for name in ["fade", "ios-pop", "cube", "pop.glsl", "dir/pop", "fx.metal:pop"] {
            #expect(try parse("// Reverse: \(name)\nvec4 transition(vec2 uv) { return vec4(1.0); }").reverse == name)
        }
    }

    @Test("every built-in parses with top-left origin and documented parameters")
    func builtIns() {
        #expect(
            EffectCatalog.builtIns(in: .segue).filter { $0.kind == .fullScreen }.map(\.name) == [
                "fade", "doom-melt", "wipe", "circle", "ios-push", "ios-pop",
            ])
        for e in EffectCatalog.builtIns {
            #expect(e.origin == .topLeft)
            #expect(!e.summary.isEmpty)
            for p in e.parameters { #expect(!p.summary.isEmpty, "\(e.name).\(p.name) has no summary") }
        }
        let melt = EffectCatalog.builtIn(named: "doom-melt")!
        #expect(melt.defaultDuration == 2)
        #expect(melt.parameters.map(\.name) == ["startSpeed", "meltSpeed", "spread"])
        #expect(melt.parameters.map { $0.defaultValue!.scalar } == [2.7, 1.0, 0.35])
    }

    @Test("unknown names suggest the nearest built-ins")
    func suggestions() {
        #expect(EffectCatalog.suggestions(for: "doom") == ["doom-melt"])
        #expect(EffectCatalog.suggestions(for: "fdae").contains("fade"))
        #expect(EffectCatalog.suggestions(for: "ios-psuh").first == "ios-push")
        do {
            _ = try EffectCatalog.effect("wipe-left")
            Issue.record("expected unknown effect")
        } catch {
            #expect(error.description.contains("unknown effect 'wipe-left'"))
            #expect(error.description.contains("'wipe'"))
        }
    }
}

@Suite("std140 uniform layout")
struct UniformLayoutTests {
    @Test("offsets follow std140 alignment rules after the 64-byte header")
    func offsets() {
        let params: [EffectParameter] = [
            .init(name: "f", type: .float, defaultValue: nil), .init(name: "v3", type: .vec3, defaultValue: nil),
            .init(name: "b", type: .bool, defaultValue: nil), .init(name: "v2", type: .vec2, defaultValue: nil),
            .init(name: "m2", type: .mat2, defaultValue: nil), .init(name: "s", type: .sampler2D, defaultValue: nil),
            .init(name: "i4", type: .ivec4, defaultValue: nil), .init(name: "m3", type: .mat3, defaultValue: nil),
        ]
        let layout = UniformLayout(parameters: params)
        #expect(layout.members.map(\.name) == ["f", "v3", "b", "v2", "m2", "i4", "m3"])
        #expect(layout.members.map(\.offset) == [64, 80, 92, 96, 112, 144, 160])
        #expect(layout.size == 208)
    }

    @Test("packing writes floats, ints, bools and matrix columns where the layout says")
    func packing() {
        let params: [EffectParameter] = [
            .init(name: "i", type: .int, defaultValue: nil), .init(name: "m", type: .mat2, defaultValue: nil),
            .init(name: "bv", type: .bvec2, defaultValue: nil),
        ]
        let layout = UniformLayout(parameters: params)
        let bytes = layout.pack(
            FrameUniforms(progress: 0.5, time: 1.5, duration: 2, width: 200, height: 100, scale: 3, fromFit: (0.5, 1)),
            parameters: ["i": .int(-3), "m": ParameterValue(.mat2, [1, 2, 3, 4]), "bv": ParameterValue(.bvec2, [1, 0])])
        func f(_ o: Int) -> Float { bytes.withUnsafeBytes { $0.load(fromByteOffset: o, as: Float.self) } }
        func i(_ o: Int) -> Int32 { bytes.withUnsafeBytes { $0.load(fromByteOffset: o, as: Int32.self) } }
        #expect([f(0), f(4), f(8), f(12), f(16), f(20), f(24), f(32), f(36)] == [0.5, 1.5, 2, 2, 200, 100, 3, 0.5, 1])
        #expect(i(64) == -3)
        #expect([f(80), f(84), f(96), f(100)] == [1, 2, 3, 4])  // columns 16 bytes apart
        #expect([i(112), i(116)] == [1, 0])
    }

    @Test("an int beyond 32 bits is packed as the nearest one, NaN as 0: nothing traps")
    func intsHeld() {
        #expect(UniformLayout.int32(3e9) == Int32.max && UniformLayout.int32(-3e9) == Int32.min)
        #expect(UniformLayout.int32(.infinity) == Int32.max && UniformLayout.int32(-.infinity) == Int32.min)
        #expect(UniformLayout.int32(.nan) == 0)
        #expect(UniformLayout.int32(2.5) == 3 && UniformLayout.int32(-2.5) == -3 && UniformLayout.int32(-7) == -7)
        let layout = UniformLayout(parameters: [.init(name: "i", type: .int, defaultValue: nil)])
        let bytes = layout.pack(
            FrameUniforms(progress: 0, time: 0, duration: 1, width: 1, height: 1), parameters: ["i": ParameterValue(.int, [1e12])])
        #expect(bytes.withUnsafeBytes { $0.load(fromByteOffset: 64, as: Int32.self) } == Int32.max)
    }
}
