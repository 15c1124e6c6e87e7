// Golden images of every Segue built-in at progress 0.25, 0.5 and 0.75, between the sample screens
// at half scale (the xfade equivalents are compared with ffmpeg instead, in XfadeComparisonTests).
// Tolerance: every channel within 2/255 on at least 99.9 % of pixels.
import Segue
import SegueTestSupport
import SegueTools
import Testing

@Suite("Built-in effects, golden images")
struct GoldenEffectTests {
    static let cases: [(String, Double)] = EffectCatalog.transitions.filter { $0.family == .segue }.flatMap { e in
        [0.25, 0.5, 0.75].map { (e.name, $0) }
    }

    @Test("golden frames", arguments: cases)
    func golden(name: String, progress: Double) throws {
        let from = SampleScreens.home(scale: 0.5), to = SampleScreens.detail(scale: 0.5)
        let effect = EffectCatalog.builtIn(named: name)!
        let r = try TransitionRenderer(effect: effect, from: from, to: to, context: try TestGPU.context(), framesInFlight: 1)
        let image = try r.frame(progress: progress, time: progress * effect.defaultDuration, duration: effect.defaultDuration)
        try GoldenImage.assertMatches(image, named: "\(name)-\(Int(progress * 100))")
    }

    @Test(
        "golden mesh effects: the home screen through each built-in mesh at its default parameters",
        arguments: MeshEffects.all.filter { !$0.isTransition }.map(\.effect.name))
    func goldenMesh(name: String) throws {
        let renderer = try MeshSceneRenderer(from: SampleScreens.home(scale: 0.5), context: try TestGPU.context(), framesInFlight: 1)
        let scene = try MeshEffects.named(name)!.scene(width: renderer.layerWidth, height: renderer.layerHeight)
        try GoldenImage.assertMatches(try renderer.frame(mesh: scene.mesh, appearance: scene.appearance), named: "mesh-\(name)")
    }
}
