// Paths a spec names relative to its own folder: clips, the soundtrack and effect files (`.glsl`,
// `FILE.metal`, `FILE.metal:NAME`) are found there whatever the current directory is, and the
// resolved spec names them absolutely.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("Concat paths")
struct ConcatPathsTests {
    static let slide = """
        #include <metal_stdlib>
        using namespace metal;

        [[ stitchable ]] float2 slide(float2 position, float2 size, float amount) {
            return position + float2(amount * size.x, 0.0);
        }
        """

    static let glsl = """
        vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }
        """

    /// A folder with two stills, `slide.metal` and `mix.glsl`; the current directory holds none of them.
    private func folder() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("concat-paths")
        try ImageFile.write(Image(width: 8, height: 8, fill: .black), to: dir.file("a.png"))
        try ImageFile.write(Image(width: 8, height: 8, fill: .white), to: dir.file("b.png"))
        try Self.slide.write(toFile: dir.file("slide.metal"), atomically: true, encoding: .utf8)
        try Self.glsl.write(toFile: dir.file("mix.glsl"), atomically: true, encoding: .utf8)
        #expect(!FileManager.default.fileExists(atPath: "slide.metal") && !FileManager.default.fileExists(atPath: "mix.glsl"))
        return dir
    }

    @Test(
        "an effect file named relative to the spec's folder is read from there: FILE.metal:NAME, FILE.metal, FILE.glsl",
        arguments: [("slide.metal:slide", "slide.metal", ":slide"), ("slide.metal", "slide.metal", ""), ("mix.glsl", "mix.glsl", "")])
    func effectBesideTheSpec(effect: String, file: String, suffix: String) throws {
        let dir = try folder()
        let spec = ConcatSpec(
            clips: [ClipSpec(path: "a.png", duration: 1), ClipSpec(path: "b.png", duration: 1)],
            transition: CutSpec(effect: effect, duration: 0.5))
        let concatenation = try Concatenation(spec: spec, directory: dir.path)
        #expect(concatenation.cuts[0].effect?.effect.source == .file(dir.file(file)))
        // The resolved spec, which a plan's jobs resolve again anywhere, names the same files.
        #expect(concatenation.spec.transition.effect == dir.file(file) + suffix)
        #expect(concatenation.spec.clips.map(\.path) == [dir.file("a.png"), dir.file("b.png")])
        let again = try Concatenation(spec: concatenation.spec)
        #expect(again.cuts[0].effect?.effect.source == .file(dir.file(file)))
    }

    @Test("a cut's effect file relative to the spec's folder, as a cut of its own and under a default transition left unused")
    func cutsBesideTheSpec() throws {
        let dir = try folder()
        let spec = ConcatSpec(
            clips: [ClipSpec(path: "a.png", duration: 1), ClipSpec(path: "b.png", duration: 1)],
            cuts: [CutSpec(effect: "slide.metal:slide", duration: 0.5)], transition: CutSpec(effect: "mix.glsl"))
        let concatenation = try Concatenation(spec: spec, directory: dir.path)
        #expect(concatenation.cuts[0].effect?.effect.source == .file(dir.file("slide.metal")))
        #expect(concatenation.spec.cuts == [CutSpec(effect: dir.file("slide.metal") + ":slide", duration: 0.5)])
        #expect(concatenation.spec.transition.effect == dir.file("mix.glsl"))
    }
}
