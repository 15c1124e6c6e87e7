// `ConcatRenderer` end to end on real media made by ffmpeg's lavfi sources: the output's exact
// frame count and length, the colour at chosen times (each clip alone, inside a fade at a known
// progress), and the sound measured by the Goertzel algorithm at each tone's frequency (each
// tone alone, both during a crossfade at the levels the curve predicts), for inputs that differ
// in size, frame rate, sample rate and channel layout.
import Foundation
import Segue
import SegueTestSupport
import Testing

@testable import SegueConcat

@Suite("Concatenation: timeline, picture and sound")
struct ConcatRendererTests {
    /// A: red 64×48 at 25 fps with 440 Hz at 44.1 kHz stereo; B: blue 80×48 at 10 fps with
    /// 1000 Hz at 48 kHz mono; both 2 s.
    private func makeInputs(_ dir: TemporaryDirectory) throws -> (String, String) {
        let a = dir.file("a.mp4"), b = dir.file("b.mp4")
        try makeClip(a, color: "red", tone: 440, sampleRate: 44_100, channels: 2)
        try makeClip(b, color: "blue", width: 80, fps: 10, tone: 1000, sampleRate: 48_000, channels: 1)
        return (a, b)
    }

    /// The mean over a window of samples `start..<end` (48 kHz) of the curve's gain for a
    /// transition over [t0, t1): what a tone's Goertzel amplitude scales by there.
    private func meanGain(_ curve: CrossfadeCurve, outgoing: Bool, window: (Double, Double), transition: (Double, Double)) -> Double {
        let a = Int(window.0 * 48_000), b = Int(window.1 * 48_000)
        let t0 = Int((transition.0 * 48_000).rounded()), t1 = Int((transition.1 * 48_000).rounded())
        let sum = (a..<b).reduce(0.0) { sum, n in
            let g = curve.gains(at: Double(n - t0) / Double(t1 - t0))
            return sum + (outgoing ? g.outgoing : g.incoming)
        }
        return sum / Double(b - a)
    }

    @Test(
        "two clips with fade:0.4: 90 frames, 3.6 s of picture and sound, colours and equal-power tone levels where the timeline puts them")
    func fadeBetweenTwoClips() throws {
        let dir = try TemporaryDirectory()
        let (a, b) = try makeInputs(dir)
        let out = dir.file("out.mp4")
        let c = try renderConcat(
            ConcatSpec(clips: [ClipSpec(path: a), ClipSpec(path: b)], transition: CutSpec(effect: "fade", duration: 0.4)), to: out)
        // Size and rate of the first video; 2 + 2 − 0.4 = 3.6 s, 90 frames at 25 fps.
        #expect(c.width == 64 && c.height == 48 && c.fps == 25 && c.frameCount == 90)
        #expect(c.timeline.span(ofCut: 0) == TimeSpan(start: 1.6, end: 2.0))
        let lengths = try streamLengths(out)
        #expect(lengths.frames == 90)
        #expect(abs(lengths.video - 3.6) < 1e-6, "video \(lengths.video) s")
        let audioLength = try #require(lengths.audio)
        #expect(abs(audioLength - lengths.video) <= 1.0 / 25, "audio \(audioLength) s, video \(lengths.video) s")

        // Picture: frame i at i/25. Red alone, blue alone (80×48 cropped to 64×48), and the fade
        // at progress (t − 1.6)/0.4: frame 40 (p = 0) is red, 42 (p = 0.2), 45 (p = 0.5), 50 is blue.
        let (w, h, frames) = try decodeFrames(out)
        #expect(w == 64 && h == 48 && frames.count == 90)
        let red = (255.0, 0.0, 0.0), blue = (0.0, 0.0, 255.0)
        func mix(_ p: Double) -> (Double, Double, Double) { (red.0 * (1 - p) + blue.0 * p, 0, red.2 * (1 - p) + blue.2 * p) }
        for (i, expected) in [
            (0, red), (12, red), (39, red), (40, red), (42, mix(0.2)), (45, mix(0.5)), (48, mix(0.8)),
            (50, blue), (75, blue), (89, blue),
        ] {
            let m = meanColor(frames[i])
            #expect(near(m, expected.0, expected.1, expected.2), "frame \(i): \(m), expected \(expected)")
        }

        // Sound: each tone alone at its own level, the other absent; in the crossfade window
        // around its middle (1.75–1.85 s) each at the equal-power gain averaged over the window.
        let left = try decodeLeftChannel(out)
        let a440 = toneAmplitude(window(left, 0.2, 0.7), frequency: 440)
        let b1000 = toneAmplitude(window(left, 2.6, 3.4), frequency: 1000)
        // A's tone was upmixed by ffmpeg to stereo at −3 dB (0.125 · 0.707); B is mono, played on
        // both channels at full level (0.125).
        let ownA = toneAmplitude(window(try decodeLeftChannel(a), 0.2, 0.7), frequency: 440)
        let ownB = toneAmplitude(window(try decodeLeftChannel(b), 0.2, 1.0), frequency: 1000)
        #expect(abs(ownA - 0.0884) < 0.005 && abs(ownB - 0.125) < 0.005, "inputs: 440 Hz \(ownA), 1000 Hz \(ownB)")
        #expect(abs(a440 / ownA - 1) < 0.05 && abs(b1000 / ownB - 1) < 0.05, "alone: 440 Hz \(a440), 1000 Hz \(b1000)")
        #expect(toneAmplitude(window(left, 0.2, 0.7), frequency: 1000) < 0.003)
        #expect(toneAmplitude(window(left, 2.6, 3.4), frequency: 440) < 0.003)
        let mid = (1.75, 1.85)
        let expectOut = meanGain(.equalPower, outgoing: true, window: mid, transition: (1.6, 2.0))
        let expectIn = meanGain(.equalPower, outgoing: false, window: mid, transition: (1.6, 2.0))
        #expect(abs(expectOut - 0.707) < 0.01 && abs(expectIn - 0.707) < 0.01)
        let out440 = toneAmplitude(window(left, mid.0, mid.1), frequency: 440) / a440
        let in1000 = toneAmplitude(window(left, mid.0, mid.1), frequency: 1000) / b1000
        #expect(abs(out440 - expectOut) < 0.04 && abs(in1000 - expectIn) < 0.04, "crossfade gains \(out440), \(in1000)")
        // Early and late in the crossfade the curve's asymmetry shows: 1.6–1.7 s mostly A, 1.9–2.0 s mostly B.
        let early = (1.6, 1.7), late = (1.9, 2.0)
        #expect(
            abs(
                toneAmplitude(window(left, early.0, early.1), frequency: 440) / a440
                    - meanGain(.equalPower, outgoing: true, window: early, transition: (1.6, 2.0))) < 0.04)
        #expect(
            abs(
                toneAmplitude(window(left, late.0, late.1), frequency: 1000) / b1000
                    - meanGain(.equalPower, outgoing: false, window: late, transition: (1.6, 2.0))) < 0.04)
    }

    @Test("HD clips tagged BT.709 and a still travel as 4:2:0: colours right alone and through each fade; untagged clips as RGBA")
    func planarPicture() throws {
        let dir = try TemporaryDirectory()
        let a = dir.file("a.mp4"), b = dir.file("b.mp4"), still = dir.file("green.png"), plain = dir.file("plain.mp4")
        try makeClip(a, color: "red", seconds: 1, bt709: true)
        try makeClip(b, color: "blue", seconds: 1, bt709: true)
        try makeClip(plain, color: "blue", seconds: 1)
        _ = try ffmpeg(["-f", "lavfi", "-i", "color=c=0x00FF00:s=64x48", "-frames:v", "1", still])
        var spec = ConcatSpec(
            clips: [ClipSpec(path: a), ClipSpec(path: still, duration: 1), ClipSpec(path: b)],
            transition: CutSpec(effect: "fade", duration: 0.4))
        let concatenation = try Concatenation(spec: spec)
        let out = dir.file("out.mp4")
        let renderer = try ConcatRenderer(concatenation, output: out, settings: VideoSettings(preset: "ultrafast", crf: 12))
        #expect(renderer.pictureLayout(for: renderer.settings) == .yuv420p)
        try renderer.render()
        spec.clips[2] = ClipSpec(path: plain)
        #expect(try ConcatRenderer(Concatenation(spec: spec), output: dir.file("other.mp4")).pictureLayout(for: VideoSettings()) == .rgba)
        // 1 + 1 + 1 − 0.8 = 2.2 s: 55 frames; fades over frames 15–25 and 30–40.
        let (_, _, frames) = try decodeFrames(out)
        #expect(frames.count == 55)
        func mix(_ x: (Double, Double, Double), _ y: (Double, Double, Double), _ p: Double) -> (Double, Double, Double) {
            (x.0 * (1 - p) + y.0 * p, x.1 * (1 - p) + y.1 * p, x.2 * (1 - p) + y.2 * p)
        }
        let red = (255.0, 0.0, 0.0), green = (0.0, 255.0, 0.0), blue = (0.0, 0.0, 255.0)
        for (i, expected) in [(5, red), (15, red), (20, mix(red, green, 0.5)), (27, green), (35, mix(green, blue, 0.5)), (50, blue)] {
            let m = meanColor(frames[i])
            #expect(near(m, expected.0, expected.1, expected.2, 6), "frame \(i): \(m), expected \(expected)")
        }
    }

    @Test("--audio-curve linear: both tones at half their level in the middle of the crossfade")
    func linearCrossfade() throws {
        let dir = try TemporaryDirectory()
        let (a, b) = try makeInputs(dir)
        let out = dir.file("out.mp4")
        try renderConcat(
            ConcatSpec(
                clips: [ClipSpec(path: a), ClipSpec(path: b)], transition: CutSpec(effect: "fade", duration: 0.4),
                audioCurve: .linear), to: out)
        let left = try decodeLeftChannel(out)
        let a440 = toneAmplitude(window(left, 0.2, 0.7), frequency: 440)
        let b1000 = toneAmplitude(window(left, 2.6, 3.4), frequency: 1000)
        let mid = (1.75, 1.85)
        let out440 = toneAmplitude(window(left, mid.0, mid.1), frequency: 440) / a440
        let in1000 = toneAmplitude(window(left, mid.0, mid.1), frequency: 1000) / b1000
        #expect(abs(out440 - 0.5) < 0.04 && abs(in1000 - 0.5) < 0.04, "linear gains \(out440), \(in1000)")
    }

    @Test(
        "a clip one or two frames longer than its transition: no piece under 8 frames, every frame in the output (a 1-frame piece lost two)",
        arguments: [1, 2])
    func barelyLongerThanTheTransition(extraFrames: Int) throws {
        let dir = try TemporaryDirectory()
        let a = dir.file("a.mp4"), b = dir.file("b.mp4"), out = dir.file("out.mp4")
        // 25 fps: a is 25 + extra frames, the fade 1 s (25 frames), so a has `extra` frames before it.
        try makeClip(a, color: "red", fps: 25, seconds: Double(25 + extraFrames) / 25, tone: 440)
        try makeClip(b, color: "blue", fps: 25, seconds: 2, tone: 1000)
        let spec = ConcatSpec(clips: [ClipSpec(path: a), ClipSpec(path: b)], transition: CutSpec(effect: "fade", duration: 1))
        let plan = try ConcatRenderer(Concatenation(spec: spec), output: out, settings: VideoSettings())
            .plan(smart: false, pieceStem: "p")
        let pieces = plan.jobs.compactMap(\.frames)
        #expect(pieces.first?[0] == 0 && pieces.allSatisfy { $0[1] - $0[0] >= 8 }, "\(pieces)")
        // x264's default preset, with B-frames (ultrafast has none, and no delay to disagree on).
        let c = try renderConcat(spec, to: out, settings: VideoSettings())
        #expect(c.frameCount == 50 + extraFrames)
        let (_, _, frames) = try decodeFrames(out)
        #expect(frames.count == c.frameCount)
        #expect(near(meanColor(frames[0]), 255, 0, 0) && near(meanColor(frames[frames.count - 1]), 0, 0, 255))
    }

    @Test("a hard cut and trims: clip 2 from 0.5 s to 1.5 s follows clip 1 at 2 s; 3 s, 75 frames")
    func hardCutAndTrim() throws {
        let dir = try TemporaryDirectory()
        let (a, b) = try makeInputs(dir)
        let out = dir.file("out.mov")
        let c = try renderConcat(
            ConcatSpec(
                clips: [ClipSpec(path: a), ClipSpec(path: b, in: 0.5, out: 1.5)],
                cuts: [CutSpec(effect: "none")]), to: out)
        #expect(c.frameCount == 75 && c.clips[1].duration == 1)
        let (_, _, frames) = try decodeFrames(out)
        #expect(frames.count == 75)
        #expect(near(meanColor(frames[49]), 255, 0, 0) && near(meanColor(frames[50]), 0, 0, 255))
        let left = try decodeLeftChannel(out)
        // The 1000 Hz tone starts exactly at the cut (2 s): none before, full after.
        #expect(toneAmplitude(window(left, 1.9, 1.99), frequency: 1000) < 0.003)
        #expect(abs(toneAmplitude(window(left, 2.01, 2.1), frequency: 1000) / 0.125 - 1) < 0.05)
    }

    /// Source rates as ffmpeg writes them, and an output rate (nil: the sources').
    static let frameRates: [(source: String, output: String?)] = [
        ("30000/1001", nil), ("24000/1001", nil), ("60000/1001", nil), ("25", "30000/1001"),
    ]

    @Test(
        "clips of 100 frames joined by hard cuts at 29.97, 23.976, 59.94 and 25 → 29.97 fps: every output frame is the source frame its time falls on",
        arguments: 0..<frameRates.count)
    func framesInOrder(rate: Int) throws {
        // Each source frame n shows a white bar n pixels wide over black (luma, so sharp through
        // 4:2:0). ffprobe gives 100 frames at 29.97 fps as 3.336667 s: summed, such lengths put
        // clip 4's start a microsecond after output frame 300, which showed the frame before.
        let (source, output) = Self.frameRates[rate]
        let dir = try TemporaryDirectory()
        let clip = dir.file("bars.mp4")
        try makeBars(clip, rate: source, frames: 100)
        let rate = { (text: String) -> Double in
            let parts = text.split(separator: "/").compactMap { Double($0) }
            return parts.count == 2 ? parts[0] / parts[1] : parts[0]
        }
        let sourceFPS = rate(source), fps = rate(output ?? source)
        var spec = ConcatSpec(clips: Array(repeating: ClipSpec(path: clip), count: 4), transition: CutSpec(effect: "none"))
        spec.fps = output.map(rate)
        let out = dir.file("out.mkv")
        let c = try renderConcat(spec, to: out)
        // Clip k starts at k · 100 / source rate (its first output frame the first at or after
        // that); output frame i shows the source frame whose time n / source rate the time since
        // the clip's start has reached.
        let length = 100 / sourceFPS
        let firstFrames = (0..<4).map { k in Int((Double(k) * length * fps - 1e-3).rounded(.up)) }
        let expected = (0..<c.frameCount).map { i -> Int in
            let k = firstFrames.lastIndex { $0 <= i }!
            return min(99, Int(((Double(i) / fps - Double(k) * length) * sourceFPS + 1e-6).rounded(.down)))
        }
        let bars = try barWidths(out)
        #expect(bars.count == c.frameCount)
        let wrong = zip(bars, expected).enumerated().filter { $0.element.0 != $0.element.1 }
        let wrongCount = wrong.count
        #expect(
            wrongCount == 0,
            "\(wrongCount) of \(c.frameCount) frames show another source frame (output frame: shown, expected): \(wrong.prefix(8).map { "\($0.offset): \($0.element.0), \($0.element.1)" })"
        )
    }

    @Test("an in point between two frames shows the frame covering it, one inside the last frame that frame")
    func inPointBetweenFrames() throws {
        let dir = try TemporaryDirectory()
        let clip = dir.file("bars.mp4")
        try makeBars(clip, rate: "30", frames: 30)
        // 0.05 s lies in frame 1 (1/30 … 2/30 s): frames 1 to 14 over 0.45 s (ffmpeg's exact seek
        // alone drops frame 1 and shows frame 2 twice); 0.99 s lies in frame 29, the last.
        for (start, end, expected) in [(0.05, 0.5, Array(1...14)), (0.0334, 0.5, Array(1...14)), (0.99, nil, [29])] {
            let out = dir.file("out.mkv")
            try renderConcat(ConcatSpec(clips: [ClipSpec(path: clip, in: start, out: end)], transition: CutSpec(effect: "none")), to: out)
            #expect(try barWidths(out) == expected, "in \(start)")
        }
    }

    @Test("a variable-rate source with a long gap before the in point shows the frame before the gap, which covers the in point")
    func inPointAfterAGap() throws {
        let dir = try TemporaryDirectory()
        let bars = dir.file("bars.mp4"), gap = dir.file("gap.mp4")
        try makeBars(bars, rate: "30", frames: 40)
        // Frames 0–9 at n/30 s, then half a second of nothing (15 frames' time), frames 10–39 at
        // n/30 + 0.5 s: frame 9 (0.3 s) covers 0.7 s, frame 10 comes at 0.8333 s.
        try ffmpeg([
            "-i", bars, "-vf", "setpts='if(gte(N,10),PTS+0.5/TB,PTS)'", "-fps_mode", "vfr", "-c:v", "libx264", "-preset", "ultrafast",
            "-qp", "0", gap,
        ])
        let out = dir.file("out.mkv")
        var spec = ConcatSpec(clips: [ClipSpec(path: gap, in: 0.7, out: 1.7)], transition: CutSpec(effect: "none"))
        spec.fps = 30
        try renderConcat(spec, to: out)
        // Output frame i is at 0.7 + i/30 s: frame 9 until 0.8333 s, then n = (t − 0.5)·30.
        let widths = try barWidths(out)
        #expect(widths == [9, 9, 9, 9] + Array(10...35), "\(widths)")
    }

    @Test("a failure part-way (a video corrupt in the middle) throws and leaves no output or temporary file")
    func corruptInTheMiddle() throws {
        let dir = try TemporaryDirectory()
        let (a, _) = try makeInputs(dir)
        let damaged = dir.file("damaged.mp4")
        try makeClip(damaged, color: "green", seconds: 2, box: "white")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: damaged)))
        let mdat = try #require(
            bytes.indices.first { bytes[$0] == 0x6D && bytes[$0 + 1] == 0x64 && bytes[$0 + 2] == 0x61 && bytes[$0 + 3] == 0x74 })
        let middle = mdat + (bytes.count - mdat) / 2
        for k in middle..<min(middle + 400, bytes.count) { bytes[k] = UInt8(truncatingIfNeeded: k &* 37) }
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let before = dir.contents
        let token = Cancellation()
        #expect {
            try renderConcat(ConcatSpec(clips: [ClipSpec(path: a), ClipSpec(path: damaged)]), to: dir.file("out.mp4"), cancellation: token)
        } throws: { error in
            guard case let MediaError.corrupt(path, format, message) = error else { return false }
            return path == damaged && format == "video" && message.hasPrefix("decoding stopped after ")
        }
        #expect(dir.contents == before)
        #expect(token.registeredPaths.isEmpty && !token.isCancelled)
    }

    /// When ffmpeg stops on a full disk, the sound writer and the picture writer each see a closed
    /// pipe, the sound's usually first; the error must be ffmpeg's reason, not "ffmpeg stopped
    /// reading the sound (Broken pipe)". A stand-in encoder reads some of the sound, says "No space
    /// left on device" and exits; the decoders are the real ffmpeg.
    @Test(
        "a host cancels one render from its cancel button: it throws .cancelled, leaves nothing, and the next render with another token completes"
    )
    func cancelledByTheCaller() throws {
        let dir = try TemporaryDirectory()
        let (a, b) = try makeInputs(dir)
        let before = dir.contents
        let spec = ConcatSpec(clips: [ClipSpec(path: a), ClipSpec(path: b)])
        let concatenation = try Concatenation(spec: spec)
        let token = Cancellation()
        let renderer = try ConcatRenderer(
            concatenation, output: dir.file("out.mp4"), settings: VideoSettings(preset: "ultrafast", crf: 12),
            cancellation: token)
        var framesWhenCancelled = 0
        let error = try #require(throws: MediaError.self) {
            try renderer.render { progress in
                // The cancel button, pressed a third of the way in (from the render's own thread
                // here; `cancel()` may be called from any thread).
                if progress.framesDone == progress.frameCount / 3 {
                    framesWhenCancelled = progress.framesDone
                    token.cancel()
                }
            }
        }
        #expect(error == .cancelled(path: dir.file("out.mp4")))
        #expect(framesWhenCancelled > 0)
        #expect(dir.contents == before, "nothing left behind")
        #expect(token.registeredPaths.isEmpty)
        // The process goes on: another render (another token) writes its file.
        _ = try renderConcat(spec, to: dir.file("again.mp4"), cancellation: Cancellation())
        #expect(try MediaProbe.probe(path: dir.file("again.mp4")).video != nil)
    }

    @Test("a full disk while sound and picture are written: the error is the full disk, not a broken pipe")
    func fullDiskDuringTheRender() throws {
        let dir = try TemporaryDirectory(), tools = try TemporaryDirectory()
        let (a, b) = try makeInputs(dir)
        let real = try #require(FileIO.findExecutable("ffmpeg"))
        let fake = try fakeFFmpeg(
            at: tools.file("ffmpeg"),
            """
            case "$last" in
            *segue-tmp-*)
                for a; do case "$a" in file:*audio.f32) sound="${a#file:}" ;; esac; done
                head -c 200000 "$sound" >/dev/null
                echo "av_interleaved_write_frame(): No space left on device" >&2
                exit 1 ;;
            esac
            exec "\(real)" "$@"
            """)
        let output = dir.file("out.mp4")
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        let before = dir.contents
        var environment = ProcessInfo.processInfo.environment
        environment[FFmpeg.ffmpegVariable] = fake
        for _ in 0..<3 {
            #expect {
                try FFmpeg.$environment.withValue(environment) {
                    try renderConcat(ConcatSpec(clips: [ClipSpec(path: a), ClipSpec(path: b)]), to: output)
                }
            } throws: { error in
                (error as? MediaError) == .incompleteOutput(path: output, reason: "no space left on device")
            }
        }
        #expect(dir.contents == before)
        #expect(FileManager.default.contents(atPath: output) == Data("old".utf8))
    }
}
