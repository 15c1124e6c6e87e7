// `TransitionRenderer.frame(progress:…, consume:)` hands out the same pixels as the allocating
// `frame(progress:…)`, for a full-screen effect (from the readback buffer) and a mesh one.
import Segue
import SegueTestSupport
import Testing

@Suite("TransitionRenderer: frames without allocation")
struct TransitionRendererFrameTests {
    @Test("the consumed pixels equal the Image's", arguments: ["doom-melt", "cube"])
    func samePixels(effect name: String) throws {
        let renderer = try TransitionRenderer(
            effect: EffectCatalog.effect(name), from: pattern(40, 24, seed: 1), to: pattern(40, 24, seed: 2),
            context: try TestGPU.context(), framesInFlight: 1)
        for progress in [0.0, 0.3, 0.85] {
            let image = try renderer.frame(progress: progress, time: progress, duration: 1)
            var consumed: [UInt8] = []
            var calls = 0
            try renderer.frame(progress: progress, time: progress, duration: 1) { pixels in
                consumed = [UInt8](pixels)
                calls += 1
            }
            #expect(calls == 1)
            #expect(consumed == image.pixels, "\(name) at \(progress)")
        }
        #expect(throws: RenderError.self) { try renderer.frame(progress: .nan, time: 0, duration: 1) { _ in } }
    }
}
