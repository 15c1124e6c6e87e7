// `segue concat` from the command line: a spec file with trims and per-cut effects, options
// overriding it, and every kind of bad input — each prints exactly one `error: …` line, exits 1
// and leaves nothing behind but the inputs. Media are made by ffmpeg's lavfi sources.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue concat CLI")
struct ConcatCLITests {

    /// a.mp4: red 64×48 at 25 fps with 440 Hz, 2 s; b.mp4: blue, 1000 Hz, 2 s; still.png: green 32×32.
    private func makeMedia(_ dir: String) throws {
        for (name, color, tone) in [("a", "red", 440.0), ("b", "blue", 1000)] {
            try makeClip(dir + "/\(name).mp4", color: color, tone: tone, channels: 1)
        }
        try ImageFile.write(Image(width: 32, height: 32, fill: Pixel(0, 255, 0)), to: dir + "/still.png")
    }

    private func frameCount(_ path: String) throws -> Int {
        try streamLengths(path).frames
    }

    @Test("a spec with trims, a still, per-cut effects, parameters and timing; relative paths are the spec's; --fps overrides it")
    func specFile() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try FileManager.default.createDirectory(atPath: dir + "/media", withIntermediateDirectories: true)
        try makeMedia(dir + "/media")
        let spec = """
            {
              "clips": [ {"path": "a.mp4", "in": 0.5, "out": 1.5}, {"path": "still.png", "duration": 1.2}, {"path": "b.mp4"} ],
              "cuts": [ {"effect": "wipe", "duration": 0.4, "params": {"direction": [-1, 0]}, "timing": "ease-in-out"}, "none" ],
              "transition": "fade:1", "size": "64x48", "fps": 25, "resize": "contain", "audioCurve": "linear"
            }
            """
        try spec.write(toFile: dir + "/media/edit.json", atomically: true, encoding: .utf8)
        let result = try segue(["concat", "--spec", "media/edit.json", "--fps", "10", "-o", "edit.mp4"], cwd: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty && result.stdout.isEmpty)
        // 1 + 1.2 + 2 − 0.4 = 3.8 s at 10 fps.
        #expect(try frameCount(dir + "/edit.mp4") == 38)
        #expect(listing(dir) == ["edit.mp4", "media"])
    }

    @Test("a stitchable effect (FILE.metal:NAME) named relative to the spec's folder renders from another current directory")
    func stitchableBesideTheSpec() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try FileManager.default.createDirectory(atPath: dir + "/media", withIntermediateDirectories: true)
        try ImageFile.write(Image(width: 16, height: 16, fill: .black), to: dir + "/media/a.png")
        try ImageFile.write(Image(width: 16, height: 16, fill: .white), to: dir + "/media/b.png")
        try """
        [[ stitchable ]] float2 slide(float2 position, float2 size, float amount) {
            return position + float2(amount * size.x, 0.0);
        }
        """.write(toFile: dir + "/media/slide.metal", atomically: true, encoding: .utf8)
        let spec =
            #"{"clips": [{"path": "a.png", "duration": 1}, {"path": "b.png", "duration": 1}], "transition": "slide.metal:slide:0.5", "fps": 10}"#
        try spec.write(toFile: dir + "/media/edit.json", atomically: true, encoding: .utf8)
        let result = try segue(["concat", "--spec", "media/edit.json", "-o", "edit.gif"], cwd: dir)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        // 1 + 1 − 0.5 = 1.5 s at 10 fps.
        #expect(try frameCount(dir + "/edit.gif") == 15)
    }

    @Test("stills and --cut: a slideshow with a hard cut and a cube, sized by --size")
    func slideshowOptions() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir)
        let result = try segue(
            [
                "concat", "still.png", "a.mp4", "still.png", "-o", "show.gif", "--image-duration", "1",
                "--cut", "1=none", "--cut", "2=cube:0.5", "--size", "40x30", "--fps", "10",
            ], cwd: dir)
        #expect(result.status == 0, "\(result.stderr)")
        // 1 + 2 + 1 − 0.5 = 3.5 s at 10 fps.
        #expect(try frameCount(dir + "/show.gif") == 35)
    }

    @Test("--smart: matching inputs render quietly; a still makes it say why it renders everything")
    func smart() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir)
        let matching = try segue(["concat", "a.mp4", "b.mp4", "-o", "smart.mp4", "--smart", "--preset", "ultrafast"], cwd: dir)
        #expect(matching.status == 0 && matching.stderr.isEmpty, "\(matching.stderr)")
        #expect(try frameCount(dir + "/smart.mp4") == 75)
        let still = try segue(["concat", "a.mp4", "still.png", "-o", "mixed.mp4", "--smart", "--preset", "ultrafast"], cwd: dir)
        #expect(still.status == 0)
        #expect(still.stderr == "note: clip 2 (still.png) is a still image; rendering everything\n")
        #expect(try frameCount(dir + "/mixed.mp4") == 100)
        // Rates in messages as everywhere else in Segue's words ("29.97", not "29.970").
        let rate = try segue(
            ["concat", "a.mp4", "b.mp4", "-o", "rate.mp4", "--smart", "--fps", "29.97", "--preset", "ultrafast"], cwd: dir)
        #expect(rate.status == 0)
        #expect(rate.stderr == "note: the output is 29.97 fps, the inputs 25 fps; rendering everything\n", "\(rate.stderr)")
    }

    /// Bad inputs: arguments (after `concat`), the exact message, and an environment.
    static let cases: [(args: [String], message: String, environment: [String: String])] = [
        (["a.mp4", "missing.mp4", "-o", "out.mp4"], "missing.mp4: no such file; check the path", [:]),
        (["a.mp4", "junk.mp4", "-o", "out.mp4"], "junk.mp4: cannot read the video: Invalid data found when processing input", [:]),
        (["a.mp4", "empty.mp4", "-o", "out.mp4"], "clip 2 (empty.mp4) has no length (0 s); a clip must last longer than 0 s", [:]),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4", "--transition", "fade:3"],
            "the 3 s transition between clip 1 (a.mp4) and clip 2 (b.mp4) is longer than clip 1 (a.mp4) (2 s)", [:]
        ),
        (
            ["a.mp4", "still.png", "-o", "out.mp4", "--image-duration", "0.5"],
            "the 1 s transition between clip 1 (a.mp4) and clip 2 (still.png) is longer than clip 2 (still.png) (0.5 s)", [:]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4", "--transition", "fadee"],
            "cut 1 (between clip 1 (a.mp4) and clip 2 (b.mp4)): unknown effect 'fadee'; did you mean 'fade'?", [:]
        ),
        (
            ["a.mp4", "-o", "out.mp4", "--transition", "nosuch:1"],
            "the transition: unknown effect 'nosuch'", [:]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4", "--cut", "1=wipe:0.5", "--transition", "fadee"],
            "the transition: unknown effect 'fadee'; did you mean 'fade'?", [:]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4"],
            "a.mp4: ffmpeg is needed for video but was not found (no `ffprobe` on PATH=/nonexistent-bin); install the Debian package `ffmpeg` (apt-get install ffmpeg) or set SEGUE_FFMPEG to its path",
            ["PATH": "/nonexistent-bin", "SEGUE_FFMPEG": "", "SEGUE_FFPROBE": ""]
        ),
        (
            // Stills need no ffprobe; the encoder's missing ffmpeg named a hidden piece
            // (.out.mp4.segue-tmp-…/render.job-0000.mp4) before.
            ["still.png", "still.png", "-o", "out.mp4"],
            "out.mp4: ffmpeg is needed for video but was not found (SEGUE_FFMPEG=/nonexistent/ffmpeg is not an executable file); install the Debian package `ffmpeg` (apt-get install ffmpeg) or set SEGUE_FFMPEG to its path",
            ["SEGUE_FFMPEG": "/nonexistent/ffmpeg"]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "no-such-dir/out.mp4"],
            "no-such-dir/out.mp4: cannot write the output: the directory no-such-dir does not exist", [:]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "out.avi"],
            "out.avi: cannot tell the output format from the file extension; use one of .mp4, .m4v, .mov, .mkv, .webm, .gif, .apng", [:]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "out.webm", "--codec", "h264"],
            "--codec h264 cannot be written to .webm; use vp9", [:]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4", "--crf", "99"],
            "--crf for h264 must be from 0 to 51, got 99", [:]
        ),
        (["a.mp4", "b.mp4", "-o", "out.mp4", "--cut", "5=fade"], "there is no cut 5: 2 clips have cuts 1 to 1", [:]),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4", "--fps", "0"], "--fps must be a number from 1 to 1000, got 0 (see 'segue concat --help')",
            [:]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4", "--fps", "-2"], "--fps must be a number from 1 to 1000, got -2 (see 'segue concat --help')",
            [:]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4", "--fps", "1e9"],
            "--fps must be a number from 1 to 1000, got 1000000000 (see 'segue concat --help')", [:]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4", "--fps", "nan"],
            "--fps must be a number from 1 to 1000, got NaN (see 'segue concat --help')", [:]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4", "--fps", "1e-9"],
            "--fps must be a number from 1 to 1000, got 1e-09 (see 'segue concat --help')", [:]
        ),
        (
            ["--spec", "bad.json", "-o", "out.mp4"],
            #"bad.json: the spec is not valid: clips[0].in: expected a number, found the string "x""#, [:]
        ),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4", "--size", "64"], "--size must look like 1920x1080, got '64' (see 'segue concat --help')",
            [:]
        ),
        (["--spec", "size.json", "-o", "out.mp4"], "size.json: the size must look like 1920x1080, got '64xx48'", [:]),
        (["--spec", "large.json", "-o", "out.mp4"], "large.json: the image size 20000x10 exceeds the limit of 16384 pixels a side", [:]),
        (["--spec", "typo.json", "-o", "out.mp4"], "typo.json: unknown key 'transtion' in the spec; did you mean 'transition'?", [:]),
        (
            ["a.mp4", "b.mp4", "-o", "out.mp4", "--transition", "fade:1e308"],
            "'fade:1e308': the duration must be from 0 to 3600 s, got 1e+308", [:]
        ),
        (
            ["still.png", "-o", "out.mp4", "--image-duration", "1e300"],
            "the output would have 3e+301 frames (1e+300 s at 30 fps); the limit is 1000000 frames", [:]
        ),
        (["-o", "out.mp4"], "give the clips as INPUT arguments or in --spec (see 'segue concat --help')", [:]),
        (
            ["a.mp4", "still.png", "-o", "out.mp4", "--image-duration", "-1"],
            "--image-duration must be a positive number of seconds, got -1 (see 'segue concat --help')", [:]
        ),
    ]

    @Test("each bad input prints one exact error line, exits 1 and leaves only the inputs", arguments: 0..<cases.count)
    func badInput(index: Int) throws {
        let (args, message, environment) = Self.cases[index]
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir)
        try "not a video\n".write(toFile: dir + "/junk.mp4", atomically: true, encoding: .utf8)
        try #"{"clips": [{"path": "a.mp4", "in": "x"}]}"#.write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        try #"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4"}], "transtion": "wipe:0.5"}"#.write(
            toFile: dir + "/typo.json", atomically: true, encoding: .utf8)
        for (name, size) in [("size", "64xx48"), ("large", "20000x10")] {
            try #"{"clips": [{"path": "a.mp4"}], "size": "\#(size)"}"#.write(
                toFile: dir + "/\(name).json", atomically: true, encoding: .utf8)
        }
        try ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x48:r=25:d=1", "-frames:v", "0", dir + "/empty.mp4"])
        let before = listing(dir)
        let result = try segue(["concat"] + args, environment: environment, cwd: dir)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(message)\n")
        #expect(listing(dir) == before)
    }

    @Test("a video corrupt in the middle stops the render with one error line and no output")
    func corruptInTheMiddle() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir)
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc=s=64x48:r=25:d=2", "-c:v", "libx264", "-preset", "ultrafast", "-g", "10", dir + "/damaged.mp4",
        ])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/damaged.mp4")))
        let middle = bytes.count / 2
        for k in middle..<(middle + 400) { bytes[k] = UInt8(truncatingIfNeeded: k &* 37) }
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/damaged.mp4"))
        let before = listing(dir)
        let result = try segue(["concat", "a.mp4", "damaged.mp4", "-o", "out.mp4"], cwd: dir)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: damaged.mp4: the video data is corrupt or truncated: decoding stopped after "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(result.stderr)")
        #expect(listing(dir) == before)
    }

    @Test("an error that is not Segue's (Foundation's, from an unusable TMPDIR) is one error line without a pointer to --help")
    func foreignError() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir)
        let before = listing(dir)
        let result = try segue(
            ["concat", "a.mp4", "b.mp4", "-o", "out.mp4", "--smart", "--transition", "wipe:0.5"],
            environment: ["TMPDIR": "/proc/nonexistent-segue"], cwd: dir)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("error: ") && !result.stderr.contains("--help") && !result.stderr.contains("ffmpeg"), "\(result.stderr)"
        )
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(result.stderr)")
        #expect(listing(dir) == before)
    }

    @Test(
        "Ctrl-C, SIGTERM or a closed terminal (SIGHUP) during a render exits 128+signal, leaves no output, no temporary directory and no ffmpeg",
        arguments: [(SIGINT, false), (SIGHUP, false), (SIGHUP, true), (SIGTERM, true)])
    func interrupt(signal: Int32, smart: Bool) throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir)
        if smart {  // clips --smart can copy (same H.264 parameters), large enough to take a while
            for (name, pattern) in [("c", "testsrc2"), ("d", "smptebars")] {
                try ffmpeg(
                    [
                        "-f", "lavfi", "-i", "\(pattern)=s=1280x720:r=25:d=4",
                        "-f", "lavfi", "-i", "sine=frequency=500:duration=4", "-c:v", "libx264", "-preset", "ultrafast",
                        "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", dir + "/\(name).mp4",
                    ])
            }
        }
        let tmp = dir + "/scratch"  // the process's TMPDIR: where its audio and smart-piece directories go
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: false)
        let before = listing(dir)
        // A slow encode of a large frame, so the render is still going when the signal comes.
        let arguments =
            smart
            ? ["concat", "c.mp4", "d.mp4", "c.mp4", "d.mp4", "-o", "out.mp4", "--smart", "--transition", "wipe:1", "--audio", "a.mp4"]
            : [
                "concat", "a.mp4", "b.mp4", "a.mp4", "b.mp4", "-o", "out.mp4", "--size", "1280x960", "--preset", "veryslow", "--audio",
                "a.mp4",
            ]
        let cacheScratch = try TemporaryDirectory("cli-cache"), cache = cacheScratch.path
        var environment = ProcessInfo.processInfo.environment
        environment["SEGUE_CACHE_DIR"] = cache
        environment["TMPDIR"] = tmp
        let p = try ChildProcess(
            executable: segueBinary, arguments: arguments, environment: environment, directory: dir,
            pipeInput: false, output: .discard, path: "segue")
        // Wait (at most 60 s) for work in progress (a temporary output or directory), then signal.
        var started = false
        for _ in 0..<600 where !p.hasExited {
            if listing(dir).contains(where: { $0.hasPrefix(".out.mp4.segue-tmp-") }) || !listing(tmp).isEmpty { started = true; break }
            usleep(100_000)
        }
        #expect(started, "the render started")
        usleep(300_000)
        p.send(signal)
        let control = p.control
        let finished = Locked(false)
        try WorkerThread.start(for: "watchdog") { if !finished.wait(seconds: 60, until: { $0 }) { control.kill() } }
        let status = p.wait().status
        finished.withLock { $0 = true }
        #expect(status == 128 + signal)
        #expect(listing(dir) == before)
        #expect(listing(tmp).isEmpty, "temporary directories left: \(listing(tmp))")
        // No ffmpeg of this render may go on encoding after segue is gone (they all name files in `dir`).
        let survivors = try runTool("pgrep", ["-f", "--", dir])
        let described =
            survivors.status == 0
            ? try runTool("ps", ["-o", "pid,stat,args", "-p", survivors.text.split(separator: "\n").joined(separator: ",")]).text : ""
        #expect(survivors.status != 0, "processes still running: \(described)")
    }
}
