// The composition timeline: clip starts, the output's length, what shows at a time, the checks
// on transition lengths, frame selection for constant and variable frame rates, and the
// crossfade gains. Every expected value is worked out by hand from the rules in Composition.swift.
import Foundation
import Segue
import SegueMath
import Testing

@Suite("Composition timeline")
struct CompositionTests {
    @Test("clip k+1 starts T_k before clip k ends; the output lasts Σ durations − Σ T")
    func starts() throws {
        let t = try CompositionTimeline(clipDurations: [3, 2, 4], cutDurations: [1, 0.5])
        #expect(t.clipStarts == [0, 2, 3.5])
        #expect(t.duration == 7.5)
        #expect(t.span(ofCut: 0) == TimeSpan(start: 2, end: 3))
        #expect(t.span(ofCut: 1) == TimeSpan(start: 3.5, end: 4))
        #expect(t.span(ofClip: 2) == TimeSpan(start: 3.5, end: 7.5))
        #expect(try t.frameCount(fps: 30) == 225)
    }

    @Test("what the output shows: one clip alone, or both clips moving and a progress")
    func moments() throws {
        let t = try CompositionTimeline(clipDurations: [3, 2, 4], cutDurations: [1, 0.5])
        #expect(t.moment(at: 0) == .clip(0, time: 0))
        #expect(t.moment(at: 1) == .clip(0, time: 1))
        #expect(t.moment(at: 2) == .transition(0, progress: 0, fromTime: 2, toTime: 0))
        #expect(t.moment(at: 2.5) == .transition(0, progress: 0.5, fromTime: 2.5, toTime: 0.5))
        #expect(t.moment(at: 3) == .clip(1, time: 1))
        #expect(t.moment(at: 3.75) == .transition(1, progress: 0.5, fromTime: 1.75, toTime: 0.25))
        #expect(t.moment(at: 5) == .clip(2, time: 1.5))
        #expect(t.moment(at: 7.5) == .clip(2, time: 4))
        #expect(t.moment(at: 100) == .clip(2, time: 4))
        #expect(t.moment(at: -1) == .clip(0, time: 0))
    }

    @Test("a hard cut switches at the clip's end; a transition may use a whole clip")
    func hardCutsAndWholeClips() throws {
        let hard = try CompositionTimeline(clipDurations: [1, 1], cutDurations: [0])
        #expect(hard.duration == 2)
        #expect(hard.moment(at: 0.999) == .clip(0, time: 0.999))
        #expect(hard.moment(at: 1) == .clip(1, time: 0))
        // A 2 s clip between two 1 s transitions: entirely inside transitions.
        let packed = try CompositionTimeline(clipDurations: [2, 2, 2], cutDurations: [1, 1])
        #expect(packed.clipStarts == [0, 1, 2] && packed.duration == 4)
        #expect(packed.moment(at: 1.5) == .transition(0, progress: 0.5, fromTime: 1.5, toTime: 0.5))
        #expect(packed.moment(at: 2.5) == .transition(1, progress: 0.5, fromTime: 1.5, toTime: 0.5))
        let single = try CompositionTimeline(clipDurations: [3], cutDurations: [])
        #expect(single.duration == 3 && single.moment(at: 1) == .clip(0, time: 1))
    }

    @Test("bad compositions name the clip and the numbers")
    func errors() {
        func message(_ clips: [Double], _ cuts: [Double], names: [String]? = nil) -> String? {
            do { _ = try CompositionTimeline(clipDurations: clips, cutDurations: cuts, names: names); return nil } catch {
                return error.message
            }
        }
        #expect(message([], []) == "a composition needs at least one clip")
        #expect(message([1, 2], []) == "2 clips need 1 cuts, got 0")
        #expect(message([1, 0], [0], names: ["a.mp4", "b.mp4"]) == "b.mp4 has no length (0 s); a clip must last longer than 0 s")
        #expect(message([.nan], []) == "clip 1 has no length (NaN); a clip must last longer than 0 s")
        #expect(
            message([1, 3], [1.5], names: ["a.mp4", "b.mp4"])
                == "the 1.5 s transition between a.mp4 and b.mp4 is longer than a.mp4 (1 s)")
        #expect(message([3, 1], [1.5]) == "the 1.5 s transition between clip 1 and clip 2 is longer than clip 2 (1 s)")
        #expect(message([3, 1], [-1]) == "the transition between clip 1 and clip 2 must last 0 s or more, got -1 s")
        #expect(message([3, 1.5, 3], [1, 1]) == "clip 2 (1.5 s) is shorter than its two transitions together (1 s in, 1 s out)")
    }

    @Test("a frame at a clip's start shows that clip though the start, summed from trimmed lengths, is a rounding later")
    func boundaryRounding() throws {
        // Clip 1 trimmed to 0.1…0.4: 0.4 − 0.1 = 0.30000000000000004, so clip 2 starts a hair after 0.3.
        let hard = try CompositionTimeline(clipDurations: [0.4 - 0.1, 1], cutDurations: [0])
        #expect(hard.clipStarts[1] > 0.3)
        // Frame 3 at 10 fps is clip 2's first frame, as the smart plan counts it (round(0.3·10) = 3).
        #expect(hard.moment(at: 3.0 / 10) == .clip(1, time: 0))
        #expect(hard.moment(at: 2.0 / 10) == .clip(0, time: 0.2))
        // With a 0.2 s transition over clip 1's end, clip 2 starts a hair after 0.1 s: frame 1 is
        // the transition's first frame, at progress 0, and frame 3 is clip 2 after it.
        let cut = try CompositionTimeline(clipDurations: [0.4 - 0.1, 1], cutDurations: [0.2])
        #expect(cut.clipStarts[1] > 0.1)
        #expect(cut.moment(at: 1.0 / 10) == .transition(0, progress: 0, fromTime: 0.1, toTime: 0))
        guard case let .clip(k, time) = cut.moment(at: 3.0 / 10) else { Issue.record("frame 3 is in a transition"); return }
        #expect(k == 1 && abs(time - 0.2) < 1e-9, "\(k) \(time)")
        // A time well before a start is not moved.
        #expect(cut.moment(at: 0.1 - 1e-3) == .clip(0, time: 0.1 - 1e-3))
    }

    @Test("at 29.97 fps, starts summed from microsecond-rounded lengths drift off the grid; each frame still starts its clip")
    func ntscDrift() throws {
        // 100 frames at 30000/1001 fps last 3.3366666… s; ffprobe says 3.336667. Three of them put
        // clip 4 at 10.010001 s, a microsecond after frame 300 (10.0100000 s).
        let fps = 30000.0 / 1001
        let t = try CompositionTimeline(clipDurations: [3.336667, 3.336667, 3.336667, 1], cutDurations: [0, 0, 0])
        #expect(t.clipStarts[3] > 300 / fps + 5e-7, "further off the grid than half a microsecond")
        #expect(CompositionTimeline.firstFrame(atOrAfter: t.clipStarts[3], fps: fps) == 300)
        #expect(t.moment(atFrame: 300, fps: fps) == .clip(3, time: 0))
        // Later frames are n/fps into the clip, measured from frame 300, not from the drifted
        // start (which asked a microsecond before each source frame's timestamp).
        for n in 1...29 { #expect(t.moment(atFrame: 300 + n, fps: fps) == .clip(3, time: Double(300 + n) / fps - 300 / fps)) }
        guard case let .clip(k, time) = t.moment(atFrame: 299, fps: fps) else { Issue.record("frame 299 is no clip"); return }
        #expect(k == 2 && abs(time - 99 / fps - 1e-6) < 1e-5, "\(k) \(time)")
        // With a transition into clip 4: its first frame is 300, at progress 0, and it ends where the planner splits.
        let cut = try CompositionTimeline(clipDurations: [3.336667, 3.336667, 3.336667 + 0.5, 1], cutDurations: [0, 0, 0.5])
        guard case let .transition(n, progress, _, toTime) = cut.moment(atFrame: 300, fps: fps) else {
            Issue.record("frame 300 is no transition: \(cut.moment(atFrame: 300, fps: fps))")
            return
        }
        #expect(n == 2 && progress == 0 && toTime == 0)
        guard case let .transition(_, _, fromTime, later) = cut.moment(atFrame: 301, fps: fps) else {
            Issue.record("frame 301 is no transition: \(cut.moment(atFrame: 301, fps: fps))")
            return
        }
        #expect(later == 301 / fps - 300 / fps && fromTime == 301 / fps - 200 / fps, "\(fromTime) \(later)")
        if case .transition = cut.moment(atFrame: CompositionTimeline.firstFrame(atOrAfter: cut.span(ofCut: 2).end, fps: fps), fps: fps) {
            Issue.record("the frame the cut ends at is clip 4's")
        }
    }

    @Test("a start off the grid on purpose is not moved: frame 11 of [1.05 s, 1 s] at 10 fps is 0.05 s into clip 2")
    func offGridStart() throws {
        let t = try CompositionTimeline(clipDurations: [1.05, 1], cutDurations: [0])
        #expect(CompositionTimeline.firstFrame(atOrAfter: t.clipStarts[1], fps: 10) == 11)
        guard case let .clip(k, time) = t.moment(atFrame: 11, fps: 10) else { Issue.record("frame 11 is no clip"); return }
        #expect(k == 1 && abs(time - 0.05) < 1e-12, "\(k) \(time)")
        #expect(CompositionTimeline.gridAligned(1.05, fps: 10) == 1.05)
    }

    @Test("150 clips of 100 frames at 29.97 fps: whole-frame lengths keep every start on the grid, for the renderer and the smart plan")
    func manyNTSCClips() throws {
        let fps = 30000.0 / 1001, n = 150
        // ffprobe's 3.336667 s is 1e-5 frames long: summed, clip 102 would start 1e-3 frames late.
        let raw = try CompositionTimeline(
            clipDurations: Array(repeating: 3.336667, count: n), cutDurations: Array(repeating: 0, count: n - 1))
        #expect(
            CompositionTimeline.firstFrame(atOrAfter: raw.clipStarts[n - 1], fps: fps) != 100 * (n - 1), "the drift passes the tolerance")
        let aligned = CompositionTimeline.gridAligned(3.336667, fps: fps)
        #expect(aligned == 100 / fps)
        let t = try CompositionTimeline(clipDurations: Array(repeating: aligned, count: n), cutDurations: Array(repeating: 0, count: n - 1))
        for k in [1, 101, 102, n - 1] {
            #expect(t.moment(atFrame: 100 * k, fps: fps) == .clip(k, time: 0))
            guard case let .clip(clip, time) = t.moment(atFrame: 100 * k + 7, fps: fps) else { Issue.record("no clip"); continue }
            #expect(clip == k && abs(time - 7 / fps) < 1e-9, "clip \(k): \(clip) at \(time)")
        }
        let plan = try SmartPlan(
            timeline: t, fps: fps, inPoints: Array(repeating: 0, count: n), keyframes: Array(repeating: [0], count: n),
            sourceFrameCounts: Array(repeating: 100, count: n))
        #expect(plan.frameCount == 100 * n)
    }

    @Test("frame counts are limited and need a positive frame rate")
    func frameCounts() throws {
        let t = try CompositionTimeline(clipDurations: [1e6], cutDurations: [])
        #expect(throws: CompositionError.self) { try t.frameCount(fps: 30) }
        #expect(throws: CompositionError("the frame rate must be a number from 1 to 1000, got 0")) { try t.frameCount(fps: 0) }
        #expect(throws: CompositionError("the frame rate must be a number from 1 to 1000, got 0.5")) { try t.frameCount(fps: 0.5) }
        #expect(try CompositionTimeline(clipDurations: [0.001], cutDurations: []).frameCount(fps: 30) == 1)
        // The limit itself is allowed, as a render's timeline and a plan allow it; one more is not.
        #expect(try CompositionTimeline(clipDurations: [1000], cutDurations: []).frameCount(fps: 1000) == 1_000_000)
        #expect(throws: CompositionError.self) {
            try CompositionTimeline(clipDurations: [1000.001], cutDurations: []).frameCount(fps: 1000)
        }
    }

    @Test("the frame shown is the one whose timestamp covers the time, variable rates included")
    func frameSelection() {
        let vfr = FrameTimestamps([0, 0.1, 0.15, 0.4, 0.15])
        #expect(vfr.times == [0, 0.1, 0.15, 0.4])
        #expect(vfr.frame(at: -1) == 0)
        #expect(vfr.frame(at: 0) == 0)
        #expect(vfr.frame(at: 0.0999) == 0)
        #expect(vfr.frame(at: 0.1) == 1)
        #expect(vfr.frame(at: 0.12) == 1)
        #expect(vfr.frame(at: 0.39) == 2)
        #expect(vfr.frame(at: 0.4) == 3)
        #expect(vfr.frame(at: 10) == 3)
        #expect(FrameTimestamps([]).frame(at: 0) == nil)
        let cfr = FrameTimestamps(count: 30, fps: 30)
        for i in 0..<30 { #expect(cfr.frame(at: (Double(i) + 0.5) / 30) == i) }
    }

    @Test("crossfade gains: equal power keeps out² + in² = 1, linear keeps out + in = 1, exact ends")
    func gains() {
        for p in stride(from: 0.0, through: 1.0, by: 0.05) {
            let e = CrossfadeCurve.equalPower.gains(at: p)
            #expect(abs(e.outgoing * e.outgoing + e.incoming * e.incoming - 1) < 1e-12)
            #expect(abs(e.outgoing - cos(p * .pi / 2)) < 1e-15)
            let l = CrossfadeCurve.linear.gains(at: p)
            #expect(l.outgoing + l.incoming == 1 && l.incoming == p)
        }
        #expect(CrossfadeCurve.equalPower.gains(at: 0) == (1, 0))
        #expect(abs(CrossfadeCurve.equalPower.gains(at: 1).outgoing) < 1e-16)
        #expect(abs(CrossfadeCurve.equalPower.gains(at: 0.5).incoming - 0.5.squareRoot()) < 1e-15)
        #expect(CrossfadeCurve.linear.gains(at: 2) == (0, 1))
    }

    @Test("audio: the samples split into stretches of one clip or a crossfade, aligned with the picture")
    func audioSegments() throws {
        let t = try CompositionTimeline(clipDurations: [3, 2, 4], cutDurations: [1, 0.5])
        let audio = AudioTimeline(t, sampleRate: 1000)
        #expect(audio.sampleCount == 7500)
        #expect(audio.clipStartSamples == [0, 2000, 3500] && audio.clipEndSamples == [3000, 4000, 7500])
        #expect(audio.segments.map(\.samples) == [0..<2000, 2000..<3000, 3000..<3500, 3500..<4000, 4000..<7500])
        #expect(audio.segments.map(\.clip) == [0, 0, 1, 1, 2])
        #expect(audio.segments.map(\.incoming) == [nil, 1, nil, 2, nil])
        let fade = audio.segments[1]
        #expect(audio.gains(atSample: 2000, in: fade) == (1, 0))
        let mid = audio.gains(atSample: 2500, in: fade)
        #expect(abs(mid.outgoing - 0.5.squareRoot()) < 1e-15 && abs(mid.incoming - 0.5.squareRoot()) < 1e-15)
        // The picture's progress at the same time is the same.
        if case let .transition(_, progress, _, _) = t.moment(at: 2.5) { #expect(progress == 0.5) } else { Issue.record("no transition") }
        // Each clip's own audio is read from its first sample on.
        #expect(audio.clipSample(1, atOutputSample: 2000) == 0 && audio.clipSample(2, atOutputSample: 7499) == 3999)
        // A hard cut: no crossfade stretch.
        let hard = AudioTimeline(try CompositionTimeline(clipDurations: [1, 1], cutDurations: [0]), sampleRate: 48000, curve: .linear)
        #expect(hard.segments.map(\.samples) == [0..<48000, 48000..<96000] && hard.segments.allSatisfy { $0.incoming == nil })
    }

    @Test("the stretches tile the output exactly, for awkward durations and rates")
    func audioTiling() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let n = Int.random(in: 1...6, using: &generator)
            let clips = (0..<n).map { _ in Double.random(in: 0.01...5, using: &generator) }
            let cuts = (0..<max(n - 1, 0)).map { k in Double.random(in: 0...1, using: &generator) * min(clips[k], clips[k + 1]) / 2 }
            let t = try CompositionTimeline(clipDurations: clips, cutDurations: cuts)
            let rate = [8000, 44100, 48000][Int.random(in: 0...2, using: &generator)]
            let audio = AudioTimeline(t, sampleRate: rate)
            var cursor = 0
            for s in audio.segments {
                #expect(s.samples.lowerBound == cursor && !s.samples.isEmpty)
                cursor = s.samples.upperBound
            }
            #expect(cursor == audio.sampleCount)
            // Each clip is heard over one contiguous stretch, as long as its samples.
            for k in 0..<n {
                let heard = audio.segments.filter { $0.clip == k || $0.incoming == k }.map(\.samples)
                #expect(heard.first!.lowerBound == audio.clipStartSamples[k] && heard.last!.upperBound == audio.clipEndSamples[k])
            }
        }
    }
}
