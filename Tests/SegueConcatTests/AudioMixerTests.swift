// Mixing sound along the composition: each clip's gain per output sample (1 alone, the curve's
// gains over exactly the transition's samples, 0 outside), the sum of blocks, the soundtrack's
// fade-out, and how inputs are fitted into the output. Expected values are worked out by hand.
import Foundation
import Segue
import Testing

@Suite("Audio mixing and fitting")
struct AudioMixerTests {
    /// Two clips of 1 s and 1 s with a 0.5 s transition at 8 samples a second: the output is
    /// 12 samples; clip 0 plays alone on 0..<4, both on 4..<8, clip 1 alone on 8..<12.
    private func mixer(_ curve: CrossfadeCurve = .linear, channels: Int = 1) throws -> AudioMixer {
        let timeline = try CompositionTimeline(clipDurations: [1, 1], cutDurations: [0.5])
        return AudioMixer(timeline: AudioTimeline(timeline, sampleRate: 8, curve: curve), channels: channels)
    }

    @Test("gains: 1 alone, the linear crossfade over exactly the transition's samples, 0 outside")
    func linearGains() throws {
        let m = try mixer()
        #expect(m.samples(ofClip: 0) == 0..<8)
        #expect(m.samples(ofClip: 1) == 4..<12)
        #expect((0..<12).map { m.gain(ofClip: 0, atSample: $0) } == [1, 1, 1, 1, 1, 0.75, 0.5, 0.25, 0, 0, 0, 0])
        #expect((0..<12).map { m.gain(ofClip: 1, atSample: $0) } == [0, 0, 0, 0, 0, 0.25, 0.5, 0.75, 1, 1, 1, 1])
    }

    @Test("equal-power gains keep g_out² + g_in² = 1 across the crossfade")
    func equalPowerGains() throws {
        let m = try mixer(.equalPower)
        for n in 4..<8 {
            let a = m.gain(ofClip: 0, atSample: n), b = m.gain(ofClip: 1, atSample: n)
            #expect(abs(a * a + b * b - 1) < 1e-12, "sample \(n)")
            #expect(abs(b - sin(Double(n - 4) / 4 * Double.pi / 2)) < 1e-12)
        }
        #expect(m.gain(ofClip: 0, atSample: 6) == cos(Double.pi / 4))
    }

    @Test("adding blocks: clip samples land at their output samples with their gains; stereo frames share a gain")
    func addsBlocks() throws {
        let m = try mixer(.linear, channels: 2)
        var output = [Float](repeating: 0, count: 12 * 2)
        // Clip 0: left 1, right −1 for all 8 of its samples; clip 1: left 2, right 0.5, in two blocks.
        let a = [Float](repeating: 0, count: 16).enumerated().map { $0.offset % 2 == 0 ? Float(1) : -1 }
        let b = [Float](repeating: 0, count: 16).enumerated().map { $0.offset % 2 == 0 ? Float(2) : 0.5 }
        output.withUnsafeMutableBufferPointer { out in
            a.withUnsafeBufferPointer { m.add(clip: 0, $0, at: 0, into: out, outputStart: 0) }
            b.withUnsafeBufferPointer { m.add(clip: 1, UnsafeBufferPointer(rebasing: $0[0..<6]), at: 4, into: out, outputStart: 0) }
            b.withUnsafeBufferPointer { m.add(clip: 1, UnsafeBufferPointer(rebasing: $0[6..<16]), at: 7, into: out, outputStart: 0) }
        }
        let left = stride(from: 0, to: 24, by: 2).map { output[$0] }
        let right = stride(from: 1, to: 24, by: 2).map { output[$0] }
        let expectedLeft: [Float] = [1, 1, 1, 1, 1, 1.25, 1.5, 1.75, 2, 2, 2, 2]  // 0.75·1 + 0.25·2, …
        let expectedRight: [Float] = [-1, -1, -1, -1, -1, -0.625, -0.25, 0.125, 0.5, 0.5, 0.5, 0.5]  // −0.75 + 0.125, …
        #expect(left == expectedLeft)
        #expect(right == expectedRight)
    }

    @Test("a block of the output only takes the samples that fall inside it")
    func partialBlocks() throws {
        let m = try mixer()
        var output = [Float](repeating: 0, count: 3)  // output samples 5, 6, 7
        let ones = [Float](repeating: 1, count: 8)  // clip 1 from output sample 4 on
        output.withUnsafeMutableBufferPointer { out in ones.withUnsafeBufferPointer { m.add(clip: 1, $0, at: 4, into: out, outputStart: 5) }
        }
        #expect(output == [0.25, 0.5, 0.75])
    }

    @Test("the soundtrack plays at 1, fades out over its last samples with the curve, and stops at the end")
    func soundtrackFade() {
        let fade = SoundtrackFade(sampleCount: 10, sampleRate: 2, fadeSeconds: 2, curve: .linear)
        #expect(fade.fadeSamples == 4)
        #expect((0..<11).map { fade.gain(atSample: $0) } == [1, 1, 1, 1, 1, 1, 1, 0.75, 0.5, 0.25, 0])
        let long = SoundtrackFade(sampleCount: 3, sampleRate: 10, fadeSeconds: 5, curve: .linear)
        #expect(long.fadeSamples == 3)
        #expect(long.gain(atSample: 0) == 1)
    }

    @Test("fitting: cover fills and crops, contain fits inside, stretch takes the output size")
    func fittedSizes() {
        // 80×48 (5:3) into 64×48 (4:3): cover scales by 1 (height fits) → 80×48, cropped to 64.
        #expect(ResizeMode.cover.fittedSize(imageWidth: 80, imageHeight: 48, outputWidth: 64, outputHeight: 48).width == 80)
        #expect(ResizeMode.cover.fittedSize(imageWidth: 80, imageHeight: 48, outputWidth: 64, outputHeight: 48).height == 48)
        // contain scales by 0.8 → 64×38.4 → 64×38, bars above and below.
        #expect(ResizeMode.contain.fittedSize(imageWidth: 80, imageHeight: 48, outputWidth: 64, outputHeight: 48).width == 64)
        #expect(ResizeMode.contain.fittedSize(imageWidth: 80, imageHeight: 48, outputWidth: 64, outputHeight: 48).height == 38)
        #expect(ResizeMode.stretch.fittedSize(imageWidth: 80, imageHeight: 48, outputWidth: 64, outputHeight: 48).width == 64)
        #expect(ResizeMode.stretch.fittedSize(imageWidth: 80, imageHeight: 48, outputWidth: 64, outputHeight: 48).height == 48)
        // A portrait 48×64 into 1920×1080: cover scales by max(40, 16.875) = 40 → 1920×2560; contain by 16.875 → 810×1080.
        #expect(ResizeMode.cover.fittedSize(imageWidth: 48, imageHeight: 64, outputWidth: 1920, outputHeight: 1080).width == 1920)
        #expect(ResizeMode.cover.fittedSize(imageWidth: 48, imageHeight: 64, outputWidth: 1920, outputHeight: 1080).height == 2560)
        #expect(ResizeMode.contain.fittedSize(imageWidth: 48, imageHeight: 64, outputWidth: 1920, outputHeight: 1080).width == 810)
        #expect(ResizeMode.contain.fittedSize(imageWidth: 48, imageHeight: 64, outputWidth: 1920, outputHeight: 1080).height == 1080)
    }

    @Test("--cut N=EFFECT[:SECONDS] sets cut N between clips N and N+1, and numbers are checked")
    func numberedCuts() throws {
        let (n, cut) = try CutSpec.numbered(parsing: "2=cube:1.5")
        #expect(n == 2 && cut == CutSpec(effect: "cube", duration: 1.5))
        var spec = ConcatSpec(clips: [ClipSpec(path: "a"), ClipSpec(path: "b"), ClipSpec(path: "c")])
        try spec.setCut(2, to: cut)
        #expect(spec.cut(after: 0) == CutSpec(effect: "fade", duration: 1))
        #expect(spec.cut(after: 1) == cut)
        #expect(throws: CompositionError("there is no cut 3: 3 clips have cuts 1 to 2")) { try spec.setCut(3, to: cut) }
        #expect(
            throws: CompositionError(
                "a cut is written N=EFFECT[:SECONDS] with N from 1 (cut N joins clips N and N+1), e.g. 2=cube:1.5, got '0=fade'")
        ) {
            try CutSpec.numbered(parsing: "0=fade")
        }
    }
}
