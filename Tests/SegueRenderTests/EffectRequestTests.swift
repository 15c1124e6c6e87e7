// The library's errors for a request an effect cannot take speak of settings, not of the
// command's flags (a C host or a Python script has none): the command line words them itself
// (ErrorPathCLITests checks its wording).
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("EffectRequest errors")
struct EffectRequestTests {
    @Test("stitchable settings on a full-screen effect: the case and words without flags")
    func stitchableSettingsOnAnotherKind() throws {
        let request = EffectRequest(effect: "fade", stitchable: StitchableRequest(insertion: (-1, 0)))
        let error = try #require(throws: StitchableConfigurationError.self) { try request.resolve() }
        #expect(error.reason == .notStitchable(effect: "fade", kind: "full-screen"))
        #expect(
            error.message
                == "a function, arguments, an animated argument, insertion and removal ranges, a removal function and a maximum sample offset apply to stitchable shader effects (.metal files, shift); 'fade' is a full-screen effect: set its parameters instead"
        )
    }

    @Test("a value for the animated argument: the case names the argument, the words no flag")
    func animatedArgumentAssigned() throws {
        let path = fixture("Distortions.metal")
        let request = EffectRequest(
            effect: path + ":flagWave", stitchable: StitchableRequest(arguments: [(name: "effectValue", value: "0.5")]))
        let error = try #require(throws: StitchableConfigurationError.self) { try request.resolve() }
        #expect(error.reason == .animatedArgumentAssigned(name: "effectValue"))
        #expect(error.message == "'effectValue' is the animated argument; set its insertion and removal ranges instead of a value")
    }

    @Test("the pop's effect takes those of the push's values it declares: ios-pop all of ios-push's, a file's other reverse none")
    func reverse() throws {
        let push = EffectRequest(effect: "ios-push", parameters: [(name: "parallax", value: "0.5")])
        let pop = try #require(try push.resolveReverse(of: try push.resolve()))
        #expect(pop.effect.name == "ios-pop" && pop.parameters["parallax"] == .float(0.5))
        // A file whose pop is `fade`: its texture and parameter stay with the push.
        let dir = try TemporaryDirectory("render")
        let mask = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gl-transitions/luma-mask.glsl").path
        let source = try String(contentsOfFile: mask, encoding: .utf8)
        try source.replacingOccurrences(of: "// License: MIT", with: "// License: MIT\n// Reverse: fade").write(
            toFile: dir.file("luma-pop.glsl"), atomically: true, encoding: .utf8)
        try ImageFile.write(Image(width: 4, height: 4, fill: .white), to: dir.file("luma.png"))
        let file = EffectRequest(
            effect: dir.file("luma-pop.glsl"), parameters: [(name: "softness", value: "0.1")],
            textures: [(name: "luma", path: dir.file("luma.png"))])
        let resolved = try file.resolve()
        #expect(resolved.textures.keys.sorted() == ["luma"])
        let fade = try #require(try file.resolveReverse(of: resolved))
        #expect(fade.effect.name == "fade" && fade.textures.isEmpty && fade.parameters == EffectCatalog.builtIn(named: "fade")!.values())
        // An effect that names no reverse is played backwards.
        let plain = EffectRequest(effect: "wipe")
        #expect(try plain.resolveReverse(of: try plain.resolve()) == nil)
    }
}
