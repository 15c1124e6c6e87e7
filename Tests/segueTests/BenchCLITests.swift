// `segue bench --account`: the per-stage table (one row per effect, nine columns, stages that add
// up to the printed sum), a gl-transitions file among the effects, and one error line for an
// unknown effect; the whole `segue bench` at a tiny size: every section present, the MP4 ratios
// equal to the quotients of the printed rates; `--concat` on tiny clips; bad numbers refused before
// anything runs. (Speed itself is never asserted.)
import Foundation
import Testing

@Suite("segue bench")
struct BenchCLITests {
    private static let glsl = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gallery/tint.glsl").path

    @Test("a row per effect; the stages add up to the sum")
    func account() throws {
        let r = try segue([
            "bench", "--account", "--size", "32x16", "--frames", "3", "--runs", "1", "--no-ffmpeg",
            "--effect", "fade", "--effect", "cube", "--effect", Self.glsl,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.text.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(r.text)")
        #expect(lines[0].hasPrefix("Segue frame account: 32x16, 3 frames, median of 1 runs"))
        #expect(
            lines[1].split(separator: " ") == [
                "effect", "shading", "readback", "straight", "pipe", "sum", "end-to-end", "fps", "translucent",
            ])
        for (line, name) in zip(lines[2...], ["fade", "cube", "tint"]) {
            let cells = line.split(separator: " ").map(String.init)
            try #require(cells.count == 9, "\(line)")
            #expect(cells[0] == name)
            let numbers = cells[1...7].compactMap(Double.init)
            try #require(numbers.count == 7, "\(line)")
            #expect(numbers.allSatisfy { $0 >= 0 })
            #expect(abs(numbers[0] + numbers[1] + numbers[2] + numbers[3] - numbers[4]) <= 0.021, "\(line)")
            #expect(cells[8].hasSuffix("/3"))
        }
    }

    @Test("the whole bench: every built-in, the xfade peers, the MP4 comparison with its ceiling, the mesh rows with their ratios")
    func whole() throws {
        let r = try segue(["bench", "--size", "32x16", "--frames", "3", "--runs", "1", "--no-moderngl", "--preset", "ultrafast"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("fade        pipe") && $0.contains("fade: ") && $0.contains("x (segue") }, "\(r.text)")
        let mp4 = try #require(lines.firstIndex { $0.hasPrefix("MP4 (libx264 --preset ultrafast --crf 23, 3 frames)") }, "\(r.text)")
        for (offset, name) in [(2, "fade/fade"), (3, "wipe/wipelef")] {
            let cells = lines[mp4 + offset].split(separator: " ").map(String.init)
            try #require(cells.count == 6, "\(lines[mp4 + offset])")
            #expect(cells[0] == name)
            let fps = cells[1...3].compactMap(Double.init)
            #expect(fps.count == 3 && fps.allSatisfy { $0 > 0 })
            // The ratios are the fps columns' quotients (segue/xfade, x264 alone/xfade), to rounding.
            let ratios = cells[4...5].compactMap { Double($0.dropLast()) }
            try #require(ratios.count == 2 && fps.count == 3)
            #expect(
                abs(ratios[0] - fps[0] / fps[1]) <= 0.01 * ratios[0] + 0.06 && abs(ratios[1] - fps[2] / fps[1]) <= 0.01 * ratios[1] + 0.06,
                "\(lines[mp4 + offset])")
        }
        for label in ["static ", "re-uploaded ", "  no readback ", "  1x1 grid ", "fade (readback) ", "rebuilt "] {
            #expect(lines.contains { $0.hasPrefix(label) && $0.contains(" fps ") }, "no mesh row \(label)")
        }
        #expect(lines.contains { $0.contains("static mesh / fade: ") } && lines.contains { $0.contains("rebuilt / static: ") })
    }

    @Test(
        "past xfade's 60 s (1,802 frames) the xfade rows and the MP4 comparison are skipped with a line; Segue's and the mesh rows are measured"
    )
    func pastXfadeLimit() throws {
        let r = try segue(["bench", "--size", "32x16", "--frames", "1802", "--runs", "1", "--no-moderngl", "--preset", "ultrafast"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("xfade peers skipped: ffmpeg's xfade lasts at most 60 s, 1801 frames at 30 fps"), "\(r.text)")
        #expect(!lines.contains { $0.hasPrefix("MP4 (") || $0.contains("x (segue") }, "\(r.text)")
        #expect(lines.contains { $0.hasPrefix("fade        pipe") } && lines.contains { $0.hasPrefix("rebuilt ") }, "\(r.text)")
    }

    @Test("--concat: four rows whose ratios are the quotients of their seconds; the smart renders draw 60 of 840 frames")
    func concat() throws {
        let r = try segue(["bench", "--concat", "--size", "64x48", "--preset", "ultrafast"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.text.split(separator: "\n").map(String.init)
        var seconds: [String: (Double, Double)] = [:]
        for mode in ["ffmpeg xfade", "segue full", "segue --smart", "--smart .glsl"] {
            let row = try #require(lines.first { $0.hasPrefix(mode + " ") }, "no row \(mode): \(r.text)")
            let numbers = row.dropFirst(mode.count).split(separator: " ").compactMap { Double($0) }
            try #require(numbers.count >= 3, "\(row)")
            seconds[mode] = (numbers[0], numbers[2])
        }
        let reference = try #require(seconds["ffmpeg xfade"]).0
        for (mode, (time, ratio)) in seconds {
            #expect(abs(ratio - reference / time) <= 0.01 + 0.01 * ratio, "\(mode): \(ratio) against \(reference / time)")
        }
        #expect(lines.filter { $0.contains("60 of 840 frames rendered") }.count == 2, "\(r.text)")
    }

    @Test("without ffmpeg the rows that need it are skipped with a line saying so, and the bench succeeds")
    func withoutFFmpeg() throws {
        let noFFmpeg = ["PATH": "/nonexistent", "SEGUE_FFMPEG": ""]
        let account = try segue(
            ["bench", "--account", "--size", "32x16", "--frames", "2", "--runs", "1", "--effect", "fade"], environment: noFFmpeg)
        #expect(account.status == 0, "\(account.stderr)")
        let lines = account.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(account.text)")
        // The line names the missing tool and where it was looked for, as every command's error does.
        #expect(
            lines.last?.hasPrefix(
                "encoder colour conversion skipped: ffmpeg is needed for video but was not found (no `ffmpeg` on PATH=/nonexistent)")
                == true, "\(account.text)")
        let whole = try segue(
            ["bench", "--size", "32x16", "--frames", "2", "--runs", "1", "--no-moderngl"], environment: noFFmpeg)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.text.contains("\nxfade peers skipped: ffmpeg is needed for video but was not found"), "\(whole.text)")
        #expect(!whole.text.contains("MP4 ("), "\(whole.text)")
    }

    @Test("bad numbers are refused before anything is measured, in every mode: one error line, nothing on stdout")
    func refusedUpFront() throws {
        let quick = ["--size", "16x8", "--runs", "1", "--no-ffmpeg", "--no-moderngl"]
        let presets = "ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo"
        for (args, message) in [
            (["--animations", "--frames", "-1"], "--frames must be from 2 to 1000000, got -1"),
            (["--animations", "--frames", "0"], "--frames must be from 2 to 1000000, got 0"),
            (["--animations", "--frames", "1000001"], "--frames must be from 2 to 1000000, got 1000001"),
            (["--meshes", "--frames", "1"] + quick, "--frames must be from 2 to 1000000, got 1"),
            (["--frames", "1"] + quick, "--frames must be from 2 to 1000000, got 1"),
            (["--animations", "--frames", "2", "--runs", "0"], "--runs must be from 1 to 100, got 0"),
            (["--frames", "2", "--size", "16x8", "--runs", "101"], "--runs must be from 1 to 100, got 101"),
            (["--animations", "--frames", "2", "--jobs", "4"], "--jobs goes with --concat"),
            // One mode a run, and --effect only where it is read.
            (
                ["--animations", "--meshes"],
                "give one of --animations, --meshes, --concat, --hosts and --account, not --animations and --meshes"
            ),
            (
                ["--concat", "--hosts", "--account"],
                "give one of --animations, --meshes, --concat, --hosts and --account, not --concat and --hosts and --account"
            ),
            (["--animations", "--effect", "fade"], "--effect goes with --account or --hosts"),
            (["--hosts", "--effect", "fade", "--effect", "wipe"], "--hosts takes one --effect, got 2"),
            (["--concat", "--jobs", "0"], "--jobs must be from 1 to 256, got 0"),
            (["--concat", "--jobs", "257"], "--jobs must be from 1 to 256, got 257"),
            (["--animations", "--frames", "2", "--job-seconds", "4"], "--job-seconds goes with --concat --jobs"),
            (["--animations", "--frames", "2", "--size", "big"], "--size must look like 1920x1080, got 'big'"),
            (
                ["--frames", "2"] + quick + ["--crf", "99"],
                "--crf for h264 must be from 0 to 51, got 99"
            ),
            (
                ["--animations", "--frames", "2", "--crf", "-1"],
                "--crf for h264 must be from 0 to 51, got -1"
            ),
            (
                ["--frames", "2"] + quick + ["--preset", "slowish"],
                "--preset 'slowish' is unknown; use one of \(presets)"
            ),
            (
                ["--concat", "--size", "16x8", "--crf", "52"],
                "--crf for h264 must be from 0 to 51, got 52"
            ),
        ] {
            let r = try segue(["bench"] + args)
            #expect(r.status == 1, "\(args): \(r.stderr)")
            #expect(r.stderr == "error: \(message) (see 'segue bench --help')\n", "\(args)")
            #expect(r.text.isEmpty, "\(args): \(r.text)")
        }
    }

    @Test("an unknown effect is one error line")
    func unknownEffect() throws {
        let r = try segue([
            "bench", "--account", "--size", "32x16", "--frames", "2", "--runs", "1", "--no-ffmpeg", "--effect", "no-such-effect",
        ])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.text.isEmpty)
    }
}
