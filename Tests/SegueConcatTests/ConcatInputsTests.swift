// Concatenation of inputs that differ: a rotated phone clip, non-square pixels, a variable frame
// rate, a clip without sound, stills (with and without a soundtrack), contain bars; and the
// effect kinds that need moving frames on both sides — a mesh transition (cube) and a stitchable
// .metal shader — compared with the same transition rendered directly from the source frames
// the timeline names.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("Concatenation: mismatched inputs and every kind of transition")
struct ConcatInputsTests {
    @Test("a clip with rotation metadata comes out upright at its display size")
    func rotatedClip() throws {
        let dir = try TemporaryDirectory()
        // Stored 64×48: top half red, bottom half blue; then a display matrix that ffprobe reports
        // as rotation 90 (a quarter turn counter-clockwise), so the top edge is shown on the left.
        let stored = dir.file("stored.mp4"), phone = dir.file("phone.mp4")
        try ffmpeg([
            "-f", "lavfi", "-i", "color=c=red:s=64x48:r=25:d=1[a];color=c=blue:s=64x24:r=25:d=1[b];[a][b]overlay=0:24[out0]",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", stored,
        ])
        try ffmpeg(["-i", stored, "-c", "copy", "-metadata:s:v:0", "rotate=90", phone])
        let info = try MediaProbe.probe(path: phone)
        #expect(info.video?.rotation == 90 && info.video?.width == 64)
        let out = dir.file("out.mp4")
        let c = try renderConcat(ConcatSpec(clips: [ClipSpec(path: phone)]), to: out)
        #expect(c.width == 48 && c.height == 64)
        let (w, h, frames) = try decodeFrames(out)
        #expect(w == 48 && h == 64 && frames.count == 25)
        for (x, y, r, b) in [(6, 10, 255, 0), (6, 54, 255, 0), (41, 10, 0, 255), (41, 54, 0, 255)] {
            let p = pixel(frames[12], w, x, y)
            #expect(abs(p.r - r) < 16 && abs(p.b - b) < 16 && p.g < 16, "(\(x), \(y)): \(p)")
        }
    }

    @Test("non-square pixels: a 32×48 clip with 2:1 pixels is 64×48 on screen and fills a 64×48 output")
    func nonSquarePixels() throws {
        let dir = try TemporaryDirectory()
        let clip = dir.file("anamorphic.mkv")
        try ffmpeg([
            "-f", "lavfi", "-i", "color=c=red:s=16x48:r=25:d=1[a];color=c=blue:s=32x48:r=25:d=1[b];[b][a]overlay=0:0,setsar=2[out0]",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip,
        ])
        let out = dir.file("out.mp4")
        let c = try renderConcat(ConcatSpec(clips: [ClipSpec(path: clip)]), to: out)
        #expect(c.width == 64 && c.height == 48)
        let (w, _, frames) = try decodeFrames(out)
        // Left half red (the stored left 16 columns, widened), right half blue.
        #expect(pixel(frames[5], w, 28, 24).r > 230 && pixel(frames[5], w, 36, 24).b > 230)
    }

    @Test("a 10-bit clip (yuv420p10le, High 10) joins an 8-bit one: colours right on both sides of the cut")
    func tenBitClip() throws {
        let dir = try TemporaryDirectory()
        let deep = dir.file("deep.mkv"), plain = dir.file("plain.mp4")
        try ffmpeg([
            "-f", "lavfi", "-i", "color=c=0x3080C0:s=64x48:r=25:d=1", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p10le", deep,
        ])
        let probe = try runTool(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=pix_fmt", "-of", "csv=p=0", deep])
        #expect(String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "yuv420p10le")
        try makeClip(plain, color: "0xC08030", seconds: 1)
        let out = dir.file("out.mp4")
        _ = try renderConcat(
            ConcatSpec(clips: [ClipSpec(path: deep), ClipSpec(path: plain)], transition: CutSpec(parsing: "none")), to: out)
        let (_, _, frames) = try decodeFrames(out)
        #expect(frames.count == 50)
        // 0x3080C0 = (48, 128, 192) from the 10-bit clip, then 0xC08030 = (192, 128, 48).
        #expect(near(meanColor(frames[12]), 48, 128, 192, 6), "\(meanColor(frames[12]))")
        #expect(near(meanColor(frames[37]), 192, 128, 48, 6), "\(meanColor(frames[37]))")
    }

    @Test("variable frame rate: each output frame shows the source frame whose timestamp covers its time")
    func variableFrameRate() throws {
        let dir = try TemporaryDirectory()
        // Frames at 0, 0.12, 0.52, 0.60 and 1.00 s (red, green, blue, white, white), 1.04 s long.
        for (name, pixel) in [("red", Pixel(255, 0, 0)), ("green", Pixel(0, 255, 0)), ("blue", Pixel(0, 0, 255)), ("white", Pixel.white)] {
            try ImageFile.write(Image(width: 32, height: 32, fill: pixel), to: dir.file(name + ".png"))
        }
        try
            "file red.png\nduration 0.12\nfile green.png\nduration 0.4\nfile blue.png\nduration 0.08\nfile white.png\nduration 0.4\nfile white.png\n"
            .write(toFile: dir.file("list.txt"), atomically: true, encoding: .utf8)
        let vfr = dir.file("vfr.mp4")
        try ffmpeg([
            "-f", "concat", "-i", dir.file("list.txt"), "-fps_mode", "passthrough", "-enc_time_base", "0.001",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", vfr,
        ])
        let stamps = try runTool("ffprobe", ["-v", "error", "-show_entries", "frame=pts_time", "-of", "csv=p=0", vfr])
        let times = String(decoding: stamps.stdout, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap {
            Double($0.split(separator: ",").first ?? "")
        }
        #expect(times == [0, 0.12, 0.52, 0.6, 1.0], "the fixture's timestamps")
        // At 20 fps: frames at 0.05 s steps, 21 of them (1.04 s · 20, rounded).
        let out = dir.file("out.mp4")
        let c = try renderConcat(ConcatSpec(clips: [ClipSpec(path: vfr)], fps: 20), to: out)
        #expect(c.frameCount == 21)
        let (_, _, frames) = try decodeFrames(out)
        let expected =
            Array(repeating: "red", count: 3) + Array(repeating: "green", count: 8) + ["blue"] + Array(repeating: "white", count: 9)
        let seen = frames.map { frame -> String in
            let m = meanColor(frame)
            if near(m, 255, 0, 0, 20) { return "red" }
            if near(m, 0, 255, 0, 20) { return "green" }
            if near(m, 0, 0, 255, 20) { return "blue" }
            return near(m, 255, 255, 255, 20) ? "white" : "\(m)"
        }
        #expect(seen == expected)
    }

    @Test("a clip without sound is silent in the output; the other clip's tone fades out over the transition")
    func clipWithoutSound() throws {
        let dir = try TemporaryDirectory()
        let a = dir.file("a.mp4"), mute = dir.file("mute.mp4")
        try makeClip(a, color: "red", tone: 440)
        try makeClip(mute, color: "lime")
        let out = dir.file("out.mp4")
        try renderConcat(
            ConcatSpec(clips: [ClipSpec(path: a), ClipSpec(path: mute)], transition: CutSpec(effect: "fade", duration: 0.4)), to: out)
        let lengths = try streamLengths(out)
        let audio = try #require(lengths.audio)
        #expect(abs(audio - 3.6) <= 1.0 / 25 && lengths.frames == 90)
        let left = try decodeLeftChannel(out)
        let alone = toneAmplitude(window(left, 0.2, 0.7), frequency: 440)
        #expect(alone > 0.08)
        #expect(rms(window(left, 2.05, 3.55)) < 1e-3, "silence after the transition")
        let mid = toneAmplitude(window(left, 1.75, 1.85), frequency: 440) / alone
        #expect(abs(mid - cos(Double.pi / 4)) < 0.04, "outgoing gain \(mid)")
    }

    @Test("a phone photo tagged EXIF orientation 6 comes out upright, fitted by its display size")
    func orientedStill() throws {
        let dir = try TemporaryDirectory()
        // Stored 64×32: left half red, right half blue; orientation 6 shows it turned a quarter
        // clockwise, 32×64 with red on top. Contained in 64×64: 16 columns of bars either side.
        var stored = Image(width: 64, height: 32, fill: Pixel(0, 0, 255))
        for y in 0..<32 { for x in 0..<32 { stored[x, y] = Pixel(255, 0, 0) } }
        let photo = dir.file("photo.jpg")
        try Data(withExifOrientation(6, try ImageFile.encodeJPEG(stored, quality: 100))).write(to: URL(fileURLWithPath: photo))
        let out = dir.file("out.mp4")
        try renderConcat(ConcatSpec(clips: [ClipSpec(path: photo)], imageDuration: 0.5, size: "64x64", resize: "contain"), to: out)
        let (w, h, frames) = try decodeFrames(out)
        #expect(w == 64 && h == 64)
        for (x, y, r, b) in [(24, 8, 255, 0), (40, 24, 255, 0), (24, 40, 0, 255), (40, 56, 0, 255), (4, 32, 0, 0), (60, 32, 0, 0)] {
            let p = pixel(frames[0], w, x, y)
            #expect(abs(p.r - r) < 24 && abs(p.b - b) < 24 && p.g < 24, "(\(x), \(y)): \(p)")
        }
    }

    @Test("stills only: a slideshow of 1 s images with fade:0.5 lasts 1.5 s at 30 fps, in silence")
    func stillsSlideshow() throws {
        let dir = try TemporaryDirectory()
        try ImageFile.write(Image(width: 48, height: 32, fill: Pixel(0, 255, 0)), to: dir.file("one.png"))
        try ImageFile.write(Image(width: 48, height: 32, fill: .white), to: dir.file("two.jpg"))
        let out = dir.file("show.mp4")
        let c = try renderConcat(
            ConcatSpec(
                clips: [ClipSpec(path: dir.file("one.png")), ClipSpec(path: dir.file("two.jpg"))],
                transition: CutSpec(effect: "fade", duration: 0.5), imageDuration: 1), to: out)
        #expect(c.width == 48 && c.height == 32 && c.fps == 30 && c.frameCount == 45)
        let (_, _, frames) = try decodeFrames(out)
        #expect(frames.count == 45)
        // Frame 22 is at 0.7333 s: progress 0.4667 from green to white.
        let p = (22.0 / 30 - 0.5) / 0.5
        #expect(near(meanColor(frames[10]), 0, 255, 0))
        #expect(near(meanColor(frames[22]), 255 * p, 255, 255 * p))
        #expect(near(meanColor(frames[44]), 255, 255, 255))
        let left = try decodeLeftChannel(out)
        #expect(abs(Double(left.count) / 48_000 - 1.5) <= 1.0 / 30)
        #expect(rms(left[...]) < 1e-4)
    }

    @Test("a soundtrack plays under stills at its own level and fades out over the last half of the edit")
    func soundtrack() throws {
        let dir = try TemporaryDirectory()
        try ImageFile.write(Image(width: 32, height: 32, fill: Pixel(0, 0, 255)), to: dir.file("one.png"))
        try ImageFile.write(Image(width: 32, height: 32, fill: Pixel(255, 0, 0)), to: dir.file("two.png"))
        let music = dir.file("music.m4a")
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=300:sample_rate=44100:duration=3", "-c:a", "aac", music])
        let out = dir.file("out.mp4")
        try renderConcat(
            ConcatSpec(
                clips: [ClipSpec(path: dir.file("one.png")), ClipSpec(path: dir.file("two.png"))],
                transition: CutSpec(effect: "fade", duration: 0.5), imageDuration: 1, audio: music), to: out)
        let left = try decodeLeftChannel(out)
        let own = toneAmplitude(window(try decodeLeftChannel(music), 0.1, 0.6), frequency: 300)
        #expect(abs(toneAmplitude(window(left, 0.1, 0.6), frequency: 300) / own - 1) < 0.05)
        // Faded out over the last 0.75 s (1.5 s / 2) with the equal-power curve.
        let fade = SoundtrackFade(sampleCount: 72_000, sampleRate: 48_000, fadeSeconds: 0.75)
        for (a, b) in [(1.0, 1.1), (1.4, 1.5)] {
            let expected = (Int(a * 48_000)..<Int(b * 48_000)).reduce(0.0) { $0 + fade.gain(atSample: $1) } / (b - a) / 48_000
            let measured = toneAmplitude(window(left, a, b), frequency: 300) / own
            #expect(abs(measured - expected) < 0.04, "\(a)–\(b) s: \(measured), expected \(expected)")
        }
    }

    @Test("contain: a wider clip sits between black bars")
    func containBars() throws {
        let dir = try TemporaryDirectory()
        let a = dir.file("a.mp4"), wide = dir.file("wide.mp4")
        try makeClip(a, color: "red", seconds: 1)
        try makeClip(wide, color: "blue", width: 80, seconds: 1)
        let out = dir.file("out.mp4")
        try renderConcat(
            ConcatSpec(clips: [ClipSpec(path: a), ClipSpec(path: wide)], cuts: [CutSpec(effect: "none")], resize: "contain"), to: out)
        let (w, _, frames) = try decodeFrames(out)
        // 80×48 scaled by 0.8 to 64×38, centred: bars of 5 rows above and below.
        let last = frames[frames.count - 1]
        #expect(pixel(last, w, 32, 1).b < 20 && pixel(last, w, 32, 46).b < 20)
        #expect(pixel(last, w, 32, 24).b > 230 && pixel(last, w, 32, 8).b > 230)
    }

    // MARK: - Effect kinds between moving clips

    static let metalFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../SegueRenderTests/Fixtures/Distortions.metal"
    ).path

    @Test(
        "mesh (cube) and stitchable (.metal shift) transitions between moving clips match the effect rendered from the frames the timeline names",
        arguments: ["cube", metalFixture + ":shift"])
    func movingTransitions(effectName: String) throws {
        let dir = try TemporaryDirectory()
        let a = dir.file("a.mp4"), b = dir.file("b.mp4")
        try makeClip(a, color: "red", box: "white")
        try makeClip(b, color: "blue", box: "yellow")
        let out = dir.file("out.mp4")
        let cut = CutSpec(effect: effectName, duration: 1, timing: "linear")
        let c = try renderConcat(ConcatSpec(clips: [ClipSpec(path: a), ClipSpec(path: b)], transition: cut), to: out)
        #expect(c.frameCount == 75)
        let output = try decodeFrames(out).frames, framesA = try decodeFrames(a).frames, framesB = try decodeFrames(b).frames
        let resolved = try EffectRequest(effect: effectName).resolve()
        func image(_ bytes: [UInt8]) -> Image { Image(width: 64, height: 48, premultipliedRGBA: bytes) }
        func meanDifference(_ x: [UInt8], _ y: [UInt8]) -> Double {
            var sum = 0
            for i in x.indices where i % 4 != 3 { sum += abs(Int(x[i]) - Int(y[i])) }
            return Double(sum) / Double(x.count / 4 * 3)
        }
        // Frame i (25 ≤ i < 50) is at i/25 s: A's frame i and B's frame i − 25, progress (i − 25)/25.
        // That pair must match the output best among the pairs up to two frames off on either side
        // (a side whose box the effect hides at that moment matches equally at every offset), and
        // within the codec's error.
        for i in [30, 37, 45] {
            let p = Double(i - 25) / 25
            var differences: [[Double]] = []
            for da in -2...2 {
                differences.append(
                    try (-2...2).map { db in
                        let reference = try TransitionRenderer(
                            effect: resolved.effect, from: image(framesA[i + da]), to: image(framesB[i - 25 + db]),
                            parameters: resolved.parameters, context: try TestGPU.context(), framesInFlight: 1
                        )
                        .frame(progress: p, time: p, duration: 1)
                        return meanDifference(output[i], reference.pixels)
                    })
            }
            let named = differences[2][2], all = differences.flatMap { $0 }
            let table = differences.map { $0.map { String(format: "%.1f", $0) } }
            // Chroma subsampling of the boxes' sharp edges leaves a few levels of error.
            #expect(named < 6, "frame \(i): mean difference \(named) from the reference")
            #expect(all.allSatisfy { $0 >= named - 0.05 }, "frame \(i): the named frames match best: \(table)")
            #expect(all.max()! > named + 5, "frame \(i): the clips move, so frames off by one or two differ: \(table)")
            #expect(meanDifference(output[i], framesA[i]) > 10 && meanDifference(output[i], framesB[i - 25]) > 10, "frame \(i) shows both")
        }
    }
}
