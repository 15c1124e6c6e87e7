// Smart rendering end to end: H.264 inputs with B-frames and keyframes that do not line up with
// the transitions. Frames outside the rendered stretches must decode bit-identically to the
// sources' (framemd5); frames inside them must equal a full render's within the codec's error;
// inputs that differ fall back to a full render and say why.
import Foundation
import Segue
import SegueTestSupport
import Testing

@testable import SegueConcat

@Suite("Concatenation: smart rendering")
struct SmartConcatTests {
    /// Per-frame MD5 of the decoded picture (ffmpeg's framemd5 of the first video stream).
    private func frameHashes(_ path: String) throws -> [String] {
        let text = String(decoding: try ffmpeg(["-i", path, "-map", "0:v:0", "-f", "framemd5", "pipe:1"]), as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces)
        }
    }

    /// A 4 s 160×120 clip at 30 fps: a moving pattern, H.264 with B-frames and a keyframe every
    /// 40 frames, and an AAC tone.
    /// `bt709`: converted and tagged as HD video is (the pieces then travel as 4:2:0).
    private func makeSource(_ path: String, hue: Int, tone: Int, size: String = "160x120", bt709: Bool = false) throws {
        let colour =
            bt709
            ? [
                "-vf", "scale=out_color_matrix=bt709:out_range=tv", "-colorspace", "bt709", "-color_primaries", "bt709",
                "-color_trc", "bt709", "-color_range", "tv",
            ] : []
        try ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=s=\(size):r=30:d=4,hue=h=\(hue)", "-f", "lavfi", "-i", "sine=frequency=\(tone):duration=4",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "40", "-keyint_min", "40", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
            ]
                + colour + ["-c:a", "aac", path])
    }

    /// Untagged sources with the built-in fade (RGBA pieces, dissolved on the CPU); BT.709 sources
    /// with the fade (4:2:0 pieces, dissolved in place) and with a wipe (4:2:0 pieces, converted
    /// for the GPU and back).
    @Test(
        "copied frames are bit-identical to the sources; rendered ones match a full render; the file decodes cleanly",
        arguments: [(false, "fade"), (true, "fade"), (true, "wipe")])
    func copiesAndRenders(bt709: Bool, effect: String) throws {
        let dir = try TemporaryDirectory()
        let paths = [dir.file("a.mp4"), dir.file("b.mp4"), dir.file("c.mp4")]
        for (k, path) in paths.enumerated() { try makeSource(path, hue: k * 120, tone: 300 * (k + 1), bt709: bt709) }
        let spec = ConcatSpec(clips: paths.map { ClipSpec(path: $0) }, transition: CutSpec(effect: effect, duration: 1))
        let concatenation = try Concatenation(spec: spec)
        let settings = VideoSettings(preset: "veryfast", crf: 18)
        let smart = dir.file("smart.mp4"), full = dir.file("full.mp4")
        let renderer = try ConcatRenderer(concatenation, output: smart, settings: settings)
        let pieceSettings = VideoSettings(preset: "veryfast", crf: 18, matching: MatchedVideo(concatenation.clips[0].video))
        #expect(renderer.pictureLayout(for: pieceSettings) == (bt709 ? .yuv420p : .rgba))
        let report = try renderer.renderSmart()
        #expect(report.fallbackReason == nil)
        let plan = try #require(report.plan)
        // Clips start at output frames 0, 90, 180 (300 in all); keyframes at source frames 0, 40, 80;
        // each transition is rendered from the keyframe before it to the keyframe after it.
        #expect(
            plan.pieces == [
                .copy(clip: 0, sourceFrames: 0..<80, frames: 0..<80), .render(frames: 80..<130),
                .copy(clip: 1, sourceFrames: 40..<80, frames: 130..<170), .render(frames: 170..<220),
                .copy(clip: 2, sourceFrames: 40..<120, frames: 220..<300),
            ])
        try ConcatRenderer(concatenation, output: full, settings: settings).render()

        let hashes = try frameHashes(smart)
        #expect(hashes.count == 300)
        let sources = try paths.map(frameHashes)
        for case let .copy(k, sourceFrames, frames) in plan.pieces {
            #expect(Array(hashes[frames]) == Array(sources[k][sourceFrames]), "clip \(k + 1)'s copied frames \(frames)")
        }
        let smartFrames = try decodeFrames(smart).frames, fullFrames = try decodeFrames(full).frames
        for case let .render(frames) in plan.pieces {
            for i in frames {
                var sum = 0
                for j in smartFrames[i].indices where j % 4 != 3 { sum += abs(Int(smartFrames[i][j]) - Int(fullFrames[i][j])) }
                let mean = Double(sum) / Double(smartFrames[i].count / 4 * 3)
                // Two independent lossy encodes (CRF 18) of testsrc2's fine detail: each is about 2
                // levels from the rendered frame, so they differ by up to 3.5 on average (untagged
                // sources: also different RGB→Y'CbCr matrices, BT.601 here and BT.709 in the full render).
                #expect(mean < 5, "\(effect): rendered frame \(i) differs from the full render by \(mean)")
            }
        }
        let errors = try runTool("ffmpeg", ["-v", "error", "-i", smart, "-f", "null", "-"])
        #expect(errors.status == 0 && errors.stderr.isEmpty, "decoding the smart output: \(errors.stderr)")
        let lengths = try streamLengths(smart)
        #expect(lengths.frames == 300 && abs(lengths.video - 10) < 1e-6 && abs((lengths.audio ?? 0) - 10) <= 1.0 / 30)
    }

    @Test(
        "B-frames at 29.97 fps and an out point inside a GOP: the stretch rendered from its keyframe shows each source frame once, as the full render does"
    )
    func renderedAfterACopy() throws {
        let dir = try TemporaryDirectory()
        let a = dir.file("a.mp4"), b = dir.file("b.mp4")
        // A keyframe every 20 frames, three B-frames between P-frames.
        let gops = ["-preset", "medium", "-crf", "10", "-x264-params", "keyint=20:min-keyint=20:scenecut=0:bframes=3"]
        for path in [a, b] { try makeBars(path, rate: "30000/1001", frames: 120, options: gops) }
        // Clip 1 ends at frame 63: copied to its keyframe at 60, rendered from there.
        let spec = ConcatSpec(
            clips: [ClipSpec(path: a, out: 63 * 1001 / 30000.0), ClipSpec(path: b)], transition: CutSpec(effect: "none"))
        let concatenation = try Concatenation(spec: spec)
        let smart = dir.file("smart.mp4"), full = dir.file("full.mp4")
        let report = try ConcatRenderer(concatenation, output: smart, settings: VideoSettings(preset: "ultrafast", crf: 10)).renderSmart()
        #expect(report.fallbackReason == nil)
        let pieces = try #require(report.plan).pieces
        #expect(
            pieces.contains { if case .render = $0 { true } else { false } }
                && pieces.contains { if case .copy = $0 { true } else { false } },
            "\(pieces)")
        try ConcatRenderer(concatenation, output: full, settings: VideoSettings(preset: "ultrafast", crf: 10)).render()
        let expected = Array(0..<63) + Array(0..<120)
        #expect(try barWidths(full) == expected)
        #expect(try barWidths(smart) == expected, "\(pieces)")
        // Asked for 29.97 fps, the output is not the inputs' NTSC rate, and the note says so exactly.
        var other = spec
        other.fps = 29.97
        let note = try ConcatRenderer(
            try Concatenation(spec: other), output: dir.file("other.mp4"), settings: VideoSettings(preset: "ultrafast")
        )
        .renderSmart().fallbackReason
        #expect(note == "the output is 29.97 fps, the inputs 30000/1001 fps")
        // Asked for the inputs' rate exactly, as a ratio (--fps 30000/1001), the plan copies.
        other.fps = 30000.0 / 1001
        let exact = try ConcatRenderer(
            try Concatenation(spec: other), output: dir.file("exact.mp4"), settings: VideoSettings(preset: "ultrafast")
        )
        .plan(smart: true, pieceStem: "exact")
        #expect(exact.output.note == nil && exact.jobs.contains { $0.kind == .copy }, "\(exact.jobs.map(\.kind))")
        // Lossless pieces cannot keep the inputs' High profile: a full render, saying so.
        let lossless = try ConcatRenderer(
            concatenation, output: dir.file("lossless.mp4"), settings: VideoSettings(preset: "ultrafast", crf: 0)
        )
        .renderSmart()
        #expect(lossless.fallbackReason == "a CRF of 0 (lossless) needs the H.264 profile High 4:4:4 Predictive; clip 1 (\(a)) uses 'High'")
        #expect(try barWidths(dir.file("lossless.mp4")) == expected)
    }

    @Test("inputs that differ fall back to a full render and say why")
    func fallback() throws {
        let dir = try TemporaryDirectory()
        let a = dir.file("a.mp4"), b = dir.file("b.mp4")
        try makeSource(a, hue: 0, tone: 300)
        try makeSource(b, hue: 90, tone: 600, size: "192x120")
        let concatenation = try Concatenation(spec: ConcatSpec(clips: [ClipSpec(path: a), ClipSpec(path: b)]))
        let report = try ConcatRenderer(concatenation, output: dir.file("out.mp4"), settings: VideoSettings(preset: "ultrafast"))
            .renderSmart()
        #expect(report.fallbackReason == "clip 2 (\(b)) differs from clip 1 (\(a)) in its size (192x120, not 160x120)")
        #expect(report.plan == nil)
        #expect(try streamLengths(dir.file("out.mp4")).frames == 210)
    }

    /// A 4 s 160×120 clip at 30 fps with B-frames and a keyframe every second, with x264's open
    /// GOPs (`open-gop=1:bframes=3`, the issue's recipe; `-g 30` gives the 4 s clip keyframes to cut
    /// at, which x264's default interval of 250 frames does not) or closed ones.
    private func makeGOPSource(_ path: String, open: Bool) throws {
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=4", "-f", "lavfi", "-i", "sine=frequency=440:duration=4",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p",
            "-x264-params", open ? "open-gop=1:bframes=3" : "bframes=3", "-c:a", "aac", path,
        ])
    }

    /// Three clips of 4 s joined by 1 s fades: 300 frames. Cutting a copy at an open GOP's keyframe
    /// lost frames (298 of 300, shifted copies, "mmco: unref short failure"); only IDR keyframes
    /// without leading pictures are cut points now, and with none to cut at everything is rendered.
    @Test(
        "open GOPs: 300 frames equal to a full render; copies are cut only at clean IDR keyframes",
        arguments: [[true, true, true], [false, true, true]])
    func openGOPs(open: [Bool]) throws {
        let dir = try TemporaryDirectory()
        let paths = open.indices.map { dir.file("clip\($0).mp4") }
        for (path, isOpen) in zip(paths, open) { try makeGOPSource(path, open: isOpen) }
        let concatenation = try Concatenation(
            spec: ConcatSpec(clips: paths.map { ClipSpec(path: $0) }, transition: CutSpec(effect: "fade", duration: 1)))
        let settings = VideoSettings(preset: "veryfast", crf: 18)
        let smart = dir.file("smart.mp4"), full = dir.file("full.mp4")
        let report = try ConcatRenderer(concatenation, output: smart, settings: settings).renderSmart()
        try ConcatRenderer(concatenation, output: full, settings: settings).render()
        if open[0] {
            #expect(
                report.fallbackReason
                    == "clip 1 (\(paths[0])) has open GOPs (keyframes that are not IDR pictures), so no stretch can be copied without losing frames"
            )
        } else {
            // Clip 1's closed GOPs are copied up to its keyframe at 90; the open ones are rendered.
            #expect(report.fallbackReason == nil)
            #expect(report.plan?.pieces == [.copy(clip: 0, sourceFrames: 0..<90, frames: 0..<90), .render(frames: 90..<300)])
            let hashes = try frameHashes(smart), source = try frameHashes(paths[0])
            #expect(hashes.count == 300 && Array(hashes[0..<90]) == Array(source[0..<90]))
        }
        let errors = try runTool("ffmpeg", ["-v", "error", "-i", smart, "-f", "null", "-"])
        #expect(errors.status == 0 && errors.stderr.isEmpty, "decoding the smart output: \(errors.stderr)")
        #expect(try streamLengths(smart).frames == 300)
        let smartFrames = try decodeFrames(smart).frames, fullFrames = try decodeFrames(full).frames
        #expect(smartFrames.count == 300 && fullFrames.count == 300)
        for i in 0..<min(smartFrames.count, fullFrames.count) {
            var sum = 0
            for j in smartFrames[i].indices where j % 4 != 3 { sum += abs(Int(smartFrames[i][j]) - Int(fullFrames[i][j])) }
            let mean = Double(sum) / Double(smartFrames[i].count / 4 * 3)
            #expect(mean < 5, "frame \(i) differs from the full render by \(mean)")
        }
    }
}
