import SegueCore
import SegueShaders
import Testing

@testable import SegueMetal

@Suite("Transition sources: line ends and multi-line defaults")
struct TransitionSourceLineEndTests {
    static let lf = """
        // Name: wave
        // Author: Someone
        // License: MIT
        uniform float amplitude; // = 2.5
        uniform vec2 direction /* = vec2(0.0, 1.0) */;
        vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress * amplitude * direction.y); }
        """

    @Test("CRLF and CR files read exactly like LF files: header, parameters, defaults, code", arguments: ["\r\n", "\r"])
    func lineEnds(ending: String) throws {
        let reference = try TransitionSourceParser.parse(Self.lf, name: "w", source: .file("w.glsl"))
        let other = try TransitionSourceParser.parse(
            Self.lf.replacingOccurrences(of: "\n", with: ending), name: "w", source: .file("w.glsl"))
        #expect(other.parameters == reference.parameters)
        #expect(other.parameters.map(\.name) == ["amplitude", "direction"])
        #expect(other.parameters.first?.defaultValue == .float(2.5))
        #expect(other.name == "wave" && other.author == "Someone" && other.license == "MIT")
        #expect(other.glsl == reference.glsl)
        #expect(other.glsl?.contains("\r") == false)
    }

    @Test("a /* = … */ default may run over several lines; later lines keep their numbers")
    func multiLineDefault() throws {
        let src = """
            uniform vec4 tint /* = vec4(1.0,
                                   0.5,
                                   0.25, 1.0) */;
            uniform float amount; // = 0.75
            vec4 transition(vec2 uv) { return tint * amount; }
            """
        let e = try TransitionSourceParser.parse(src, name: "m", source: .file("m.glsl"))
        #expect(e.parameters.map(\.name) == ["tint", "amount"])
        #expect(e.parameters[0].defaultValue == ParameterValue(.vec4, [1, 0.5, 0.25, 1]))
        #expect(e.parameters[1].defaultValue == .float(0.75))
        // The declaration's lines are blanked: the code stays on line 5.
        let lines = e.glsl!.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines[0...3].allSatisfy { $0.isEmpty })
        #expect(lines[4].hasPrefix("vec4 transition"))
    }

    @Test("an unterminated declaration is still an error at its own line")
    func unterminated() {
        let src = "uniform float a // = 1\nvec4 transition(vec2 uv) { return vec4(a); }\n"
        #expect(throws: ShaderSourceError.self) { try TransitionSourceParser.parse(src, name: "u", source: .file("u.glsl")) }
        do { _ = try TransitionSourceParser.parse(src, name: "u", source: .file("u.glsl")) } catch {
            #expect(error.line == 1, "\(error)")
        }
    }

    @Test(
        "a declaration without a name is an error, not a crash (found by the fuzzer)",
        arguments: ["uniform vec3 ,; // = vec3(1.0)", "uniform float a,,b; // = 1", "uniform float ,"])
    func missingName(line: String) {
        do {
            _ = try TransitionSourceParser.parse(
                line + "\nvec4 transition(vec2 uv) { return vec4(0.0); }\n", name: "n", source: .file("n.glsl"))
            Issue.record("'\(line)' should be refused")
        } catch {
            #expect(error.line == 1)
            #expect(error.message == "expected a parameter name" || error.message.hasPrefix("expected"), "\(error.message)")
        }
    }
}
