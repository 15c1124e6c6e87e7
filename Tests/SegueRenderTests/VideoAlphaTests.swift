// One rule for alpha in videos: a format without alpha (MP4) shows a translucent frame composited
// over black (the premultiplied colour), whether the frames come from a renderer's sink or from
// `VideoEncoder.append(_:)`; a format with alpha keeps the straight colour and the alpha.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("Video alpha: one rule for every path")
struct VideoAlphaTests {
    @Test("a translucent frame in MP4 is the colour composited over black, through the render sink and through append(image)")
    func mp4IsCompositedOverBlack() throws {
        let scratch = try TemporaryDirectory("valpha"), dir = scratch.path
        // Straight (200, 120, 40) at alpha 128: over black that is (100, 60, 20).
        let translucent = Image(
            width: 32, height: 32, scale: 1,
            straightRGBA: [UInt8](repeating: 0, count: 32 * 32 * 4).enumerated().map { i, _ in
                [200, 120, 40, 128][i % 4]
            })
        let renderer = try TransitionRenderer(
            effect: try EffectRequest(effect: "fade").resolve().effect, from: translucent, to: translucent, context: try TestGPU.context())
        let timeline = try Timeline(timing: try TransitionTiming(curve: .timingFunction(.linear), duration: 0.2), fps: 10)
        try renderer.render(timeline, to: try makeFrameSink(try RenderOutput(path: dir + "/sink.mp4"), width: 32, height: 32, fps: 10))

        let encoder = try VideoEncoder(path: dir + "/append.mp4", width: 32, height: 32, fps: 10, format: .mp4)
        for _ in 0..<3 { try encoder.append(translucent) }
        try encoder.finish()

        for name in ["sink.mp4", "append.mp4"] {
            let frame = try #require(try TimedVideoDecoder(path: dir + "/" + name, frameLimit: 1).nextImage()).image
            let p = frame[16, 16]
            // yuv420p round trip of a flat colour: within a few levels.
            #expect(abs(Int(p.r) - 100) <= 4 && abs(Int(p.g) - 60) <= 4 && abs(Int(p.b) - 20) <= 4 && p.a == 255, "\(name): \(p)")
        }
    }
}
