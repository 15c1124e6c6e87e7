// The `segue` executable end to end: outputs, exit codes and error messages.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue CLI", .serialized)
struct CLITests {
    @Test("list and info, text and JSON")
    func listAndInfo() throws {
        let list = try segue(["list"])
        #expect(list.status == 0)
        for name in ["fade", "doom-melt", "wipe", "circle", "ios-push", "ios-pop", "wipeleft", "circleopen", "revealdown"] {
            #expect(list.text.contains(name))
        }
        // Grouped by kind and family, Segue's own first, each heading with its count.
        let lines = list.text.split(separator: "\n").map(String.init)
        let headings = lines.filter { !$0.hasPrefix(" ") && $0.hasSuffix(":") }
        #expect(
            headings == [
                "full-screen, Segue built-ins (6):", "full-screen, ffmpeg xfade equivalents (57):",
                "mesh, Segue built-ins (9):", "stitchable, Segue built-ins (1):",
            ])
        if headings.count > 1, let segue = lines.firstIndex(of: headings[0]), let xfade = lines.firstIndex(of: headings[1]) {
            #expect(lines[segue + 1].hasPrefix("  fade "))
            #expect(lines[(xfade + 1)...].contains { $0.hasPrefix("  wipeleft ") })
            #expect(!lines[(segue + 1)..<xfade].contains { $0.hasPrefix("  wipeleft ") })
        }
        let json = try segue(["list", "--json"])
        let parsed = try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]
        #expect(parsed?.count == EffectCatalog.builtIns.count)
        let families = Dictionary(grouping: parsed ?? [], by: { $0["family"] as? String ?? "none" }).mapValues(\.count)
        #expect(families == ["segue": 16, "xfade": 57])
        #expect(parsed?.filter { $0["kind"] as? String == "stitchable" }.count == 1)
        let xfadeInfo = try segue(["info", "wipeleft"])
        #expect(xfadeInfo.text.contains("source:   built-in (ffmpeg xfade equivalents)"))
        let info = try segue(["info", "doom-melt", "--json"])
        let obj = try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any]
        let params = obj?["parameters"] as? [[String: Any]]
        #expect(params?.map { $0["name"] as? String } == ["startSpeed", "meltSpeed", "spread"])
        #expect((params?.first?["default"] as? [Double]) == [2.7])
        #expect((params?.first?["range"] as? [Double]) == [0, 10])
        let cube = try JSONSerialization.jsonObject(with: try segue(["info", "cube", "--json"]).stdout) as? [String: Any]
        #expect(((cube?["parameters"] as? [[String: Any]])?.map { $0["range"] as? [Double] }) == [[0, 1], [1, 5]])
        #expect(obj?["duration"] as? Double == 2)
        let text = try segue(["info", "wipe"])
        #expect(text.text.contains("direction: vec2 = 1,0 in -1…1  — direction the edge travels"))
        #expect(try segue(["info", "jelly"]).text.contains("phase: float = 0 in 0…6.283  — phase φ in radians"))
    }

    @Test("devices lists lavapipe or a GPU with its Vulkan version")
    func devices() throws {
        let r = try segue(["devices"])
        #expect(r.status == 0)
        #expect(r.text.contains("Vulkan 1."))
    }

    @Test("frame: fade of black to white at progress 0.5 and, eased, at a time")
    func frame() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        let r = try segue([
            "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade", "--progress", "0.5", "-o", dir + "/mid.png",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let mid = try ImageFile.read(path: dir + "/mid.png")
        #expect(abs(Int(mid[3, 3].r) - 128) <= 1)
        for t in [0.2, 0.5, 0.8] {
            let e = try segue([
                "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade", "--time", String(t),
                "--duration", "1", "--timing", "ease-in-out", "-o", dir + "/eased.png",
            ])
            #expect(e.status == 0, "\(e.stderr)")
            let img = try ImageFile.read(path: dir + "/eased.png")
            let expected = 255 * TimingFunction.easeInEaseOut.value(at: t)
            #expect(abs(Double(img[3, 3].r) - expected) <= 1, "t=\(t): \(img[3, 3].r) vs \(expected)")
        }
    }

    @Test("render to a directory: round(D·fps)+1 frames, the last one the end state, nothing else left")
    func renderDirectory() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        let r = try segue([
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "wipe", "--duration", "0.5", "--fps", "10", "-o",
            dir + "/frames",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = listing(dir + "/frames")
        #expect(frames == (0...5).map { String(format: "frame-%05d.png", $0) })
        #expect(try ImageFile.read(path: dir + "/frames/frame-00005.png") == Image(width: 16, height: 8, fill: .white))
        #expect(try ImageFile.read(path: dir + "/frames/frame-00000.png") == Image(width: 16, height: 8, fill: .black))
        #expect(listing(dir) == ["frames", "from.png", "to.png"])
    }

    @Test("render to stdout: raw RGBA8 frames back to back")
    func renderRaw() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        let r = try segue([
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade", "--duration", "1", "--fps", "4", "-o", "-",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.count == 5 * 16 * 8 * 4)
        // Frame 2 is at t = 0.5: grey 128 ± 1.
        let frame2 = r.stdout[(2 * 512)..<(3 * 512)]
        #expect(abs(Int(frame2[frame2.startIndex]) - 128) <= 1)
    }

    @Test("render to mp4 through ffmpeg")
    func renderVideo() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 64, height: 48)
        let r = try segue([
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "circle", "--duration", "0.3", "--fps", "10", "-o",
            dir + "/out.mp4",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let probe = try ProgramRun(
            "ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames,width,height",
                "-of", "csv=p=0", dir + "/out.mp4",
            ])
        let text = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text == "64,48,4")
        #expect(listing(dir) == ["from.png", "out.mp4", "to.png"])
        // NTSC's rate as a ratio is that rate exactly: round(1 s · 30000/1001) + 1 = 31 frames.
        let ntsc = try segue([
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade", "--duration", "1", "--fps", "30000/1001",
            "--preset", "ultrafast", "-o", dir + "/ntsc.mp4",
        ])
        #expect(ntsc.status == 0, "\(ntsc.stderr)")
        let rate = try ProgramRun(
            "ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=r_frame_rate,nb_read_frames",
                "-of", "csv=p=0", dir + "/ntsc.mp4",
            ])
        #expect(rate.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "30000/1001,31")
    }

    @Test(
        "--preset and --crf reach the encoder: a higher CRF gives a smaller file; outputs whose codec takes none and bad values are refused"
    )
    func encoderOptions() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 64, height: 48, from: Pixel(200, 30, 90), to: Pixel(20, 180, 240))
        let base = [
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "doom-melt", "--duration", "0.5", "--fps", "20",
        ]
        var sizes: [Int] = []
        for crf in ["5", "45"] {
            let r = try segue(base + ["--preset", "ultrafast", "--crf", crf, "-o", dir + "/crf\(crf).mp4"])
            #expect(r.status == 0, "\(r.stderr)")
            sizes.append((try FileManager.default.attributesOfItem(atPath: dir + "/crf\(crf).mp4")[.size] as? Int) ?? 0)
        }
        #expect(sizes[0] > sizes[1] && sizes[1] > 0, "CRF 5 gives \(sizes[0]) bytes, CRF 45 \(sizes[1])")
        let png = try segue(base + ["--crf", "20", "-o", dir + "/frames"])
        #expect(
            png.status == 1 && png.stderr.hasPrefix("error: ")
                && png.stderr.contains("--preset and --crf apply to a video output (.mp4, .m4v, .mov, .mkv, .webm, .gif, .apng), not"),
            "\(png.stderr)")
        // Where the codec takes them, by the library's rule (as segue concat): VP9 has a CRF, GIF none.
        let webm = try segue(base + ["--crf", "40", "-o", dir + "/q.webm"])
        #expect(webm.status == 0, "\(webm.stderr)")
        let gif = try segue(base + ["--crf", "20", "-o", dir + "/q.gif"])
        #expect(gif.status == 1 && gif.stderr == "error: --crf does not apply to gif (see 'segue render --help')\n", "\(gif.stderr)")
        let bad = try segue(base + ["--preset", "warp", "-o", dir + "/bad.mp4"])
        #expect(
            bad.status == 1 && bad.stderr.hasPrefix("error: --preset 'warp' is unknown; use one of ultrafast, superfast,"), "\(bad.stderr)")
        let range = try segue(base + ["--crf", "99", "-o", dir + "/bad.mp4"])
        #expect(
            range.status == 1 && range.stderr == "error: --crf for h264 must be from 0 to 51, got 99 (see 'segue render --help')\n",
            "\(range.stderr)")
        #expect(listing(dir) == ["crf45.mp4", "crf5.mp4", "from.png", "q.webm", "to.png"])
    }

    // MARK: - Bad input

    func expectFailure(
        _ args: [String], _ message: String, environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let r = try segue(args, environment: environment)
        #expect(r.status == 1, "exit status \(r.status) for \(args)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("error: "), "stderr: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(message), "stderr: \(r.stderr)", sourceLocation: sourceLocation)
    }

    @Test("bad inputs give a clear error, exit 1, and leave no output")
    func badInputs() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        let f = dir + "/from.png", t = dir + "/to.png", out = dir + "/out.png"
        try expectFailure(
            ["frame", "--from", dir + "/missing.png", "--to", t, "--effect", "fade", "--progress", "0.5", "-o", out], "no such file")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]).write(to: URL(fileURLWithPath: dir + "/truncated.png"))
        try expectFailure(
            ["frame", "--from", dir + "/truncated.png", "--to", t, "--effect", "fade", "--progress", "0.5", "-o", out],
            "corrupt or truncated")
        try expectFailure(
            ["frame", "--from", f, "--to", t, "--effect", "doom-mlt", "--progress", "0.5", "-o", out], "did you mean 'doom-melt'")
        try expectFailure(
            ["frame", "--from", f, "--to", t, "--effect", "fade", "--param", "speed=2", "--progress", "0.5", "-o", out],
            "has no parameter 'speed'")
        try expectFailure(
            ["frame", "--from", f, "--to", t, "--effect", "doom-melt", "--param", "spread=fast", "--progress", "0.5", "-o", out],
            "not a valid float")
        try expectFailure(
            ["frame", "--from", f, "--to", t, "--effect", "doom-melt", "--param", "spread=nan", "--progress", "0.5", "-o", out], "finite")
        try expectFailure(
            ["frame", "--from", f, "--to", t, "--effect", "fade", "--progress", "0.5", "-o", dir + "/no/such/dir/out.png"], "cannot write")
        try expectFailure(["render", "--from", f, "--to", t, "--effect", "fade", "--duration", "inf", "-o", dir + "/frames"], "--duration")
        #expect(listing(dir) == ["from.png", "to.png", "truncated.png"])
    }

    @Test("a .glsl transition that does not compile reports its own line numbers")
    func compileError() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        let source = """
            // Author: test
            uniform float amount; // = 1.0

            vec4 transition(vec2 uv) {
                vec4 a = getFromColor(uv);
                return a * undefinedThing;
            }
            """
        try source.write(toFile: dir + "/broken.glsl", atomically: true, encoding: .utf8)
        try expectFailure(
            [
                "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", dir + "/broken.glsl", "--progress", "0.5", "-o",
                dir + "/o.png",
            ],
            "broken.glsl:6: error: 'undefinedThing'")
        // A working file runs, with its parameter.
        try "uniform float amount; // = 1.0\nvec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress * amount); }"
            .write(toFile: dir + "/ok.glsl", atomically: true, encoding: .utf8)
        let ok = try segue([
            "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", dir + "/ok.glsl", "--param", "amount=0.5",
            "--progress", "1", "-o", dir + "/o.png",
        ])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(abs(Int(try ImageFile.read(path: dir + "/o.png")[0, 0].r) - 128) <= 1)
    }

    @Test("no Vulkan driver names the Debian package")
    func noDriver() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        try expectFailure(
            ["frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade", "--progress", "0.5", "-o", dir + "/o.png"],
            "mesa-vulkan-drivers", environment: ["VK_DRIVER_FILES": "/nonexistent/icd.json", "VK_ICD_FILENAMES": "/nonexistent/icd.json"])
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
    }

    @Test("no ffmpeg for a video output: clear error, no file")
    func noFFmpeg() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        try expectFailure(
            [
                "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade", "--duration", "0.2", "-o",
                dir + "/o.mp4",
            ],
            "ffmpeg", environment: ["SEGUE_FFMPEG": "/nonexistent/ffmpeg"])
        #expect(listing(dir) == ["from.png", "to.png"])
    }

    @Test("an ffmpeg that exits 0 but writes nothing: clear error, no empty video")
    func silentFFmpeg() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        // A stand-in that reads its input and exits 0 without writing the output.
        let fake = try fakeFFmpeg(at: dir + "/fake-ffmpeg", "cat >/dev/null\nexit 0")
        let r = try segue(
            [
                "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade", "--duration", "0.2", "-o",
                dir + "/o.mp4",
            ],
            environment: ["SEGUE_FFMPEG": fake])
        #expect(r.status == 1)
        #expect(r.stderr == "error: \(dir)/o.mp4: MP4 encoding failed: ffmpeg exited with status 0 but wrote no MP4 data\n", "\(r.stderr)")
        #expect(listing(dir) == ["fake-ffmpeg", "from.png", "to.png"])
    }

    @Test(
        "SIGINT, SIGTERM or SIGHUP at any moment of a PNG-directory render leaves nothing behind",
        arguments: [(SIGINT, 1), (SIGINT, 8), (SIGINT, 30), (SIGTERM, 1), (SIGTERM, 8), (SIGTERM, 30), (SIGHUP, 1), (SIGHUP, 8)])
    func signalAtSeveralMoments(signal: Int32, afterFrames: Int) throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 320, height: 240)
        let p = try ChildProcess(
            executable: segueBinary,
            arguments: [
                "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade",
                "--duration", "60", "--fps", "30", "-o", dir + "/frames",
            ],
            // Only what finds the libraries and the driver is passed on (a packed test bundle on a GPU
            // machine puts its libraries on LD_LIBRARY_PATH).
            environment: ProcessInfo.processInfo.environment.filter { ["LD_LIBRARY_PATH", "VK_DRIVER_FILES"].contains($0.key) }
                .merging(["SEGUE_CACHE_DIR": dir + "/cache"]) { $1 },
            pipeInput: false, output: .discard, path: "segue")
        // Signal once at least `afterFrames` frames are in the temporary directory.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && !p.hasExited {
            if let tmp = listing(dir).first(where: { $0.contains("segue-tmp") }), listing(dir + "/" + tmp).count >= afterFrames { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(!p.hasExited, "the render ended before it was signalled")
        p.send(signal)
        #expect(p.wait().status == 128 + signal)
        // The workers may not leave anything once the process is gone.
        #expect(listing(dir).filter { $0 != "cache" } == ["from.png", "to.png"])
    }

    @Test("rendering into an earlier render's directory replaces it whole; a directory of other files is refused")
    func replaceWhole() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        let base = [
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade", "--fps", "10", "-o", dir + "/frames",
        ]
        #expect(try segue(base + ["--duration", "1"]).status == 0)
        #expect(listing(dir + "/frames").count == 11)
        #expect(try segue(base + ["--duration", "0.3"]).status == 0)
        #expect(listing(dir + "/frames") == (0...3).map { String(format: "frame-%05d.png", $0) }, "only the second render's frames")
        // The last frame of the second render is `to` (white), not a left-over of the first.
        #expect(try ImageFile.read(path: dir + "/frames/frame-00003.png")[0, 0] == Pixel(255, 255, 255, 255))

        try FileManager.default.createDirectory(atPath: dir + "/mine", withIntermediateDirectories: false)
        try "notes".write(toFile: dir + "/mine/notes.txt", atomically: true, encoding: .utf8)
        let r = try segue([
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade", "--duration", "0.2", "-o", dir + "/mine",
        ])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: \(dir)/mine: "), "\(r.stderr)")
        #expect(r.stderr.contains("'notes.txt', which is not a frame of an earlier render"), "\(r.stderr)")
        #expect(listing(dir + "/mine") == ["notes.txt"])
    }

    @Test("Ctrl-C during a render removes what it started")
    func interrupt() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 640, height: 480)
        let cache = try TemporaryDirectory("cli-cache")  // never ~/.cache
        let p = try ChildProcess(
            executable: segueBinary,
            arguments: [
                "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade",
                "--duration", "60", "--fps", "30", "-o", dir + "/frames",
            ],
            environment: ProcessInfo.processInfo.environment.merging(["SEGUE_CACHE_DIR": cache.path]) { $1 },
            pipeInput: false, output: .discard, path: "segue")
        // Wait until the temporary frame directory exists and has frames in it.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let tmp = listing(dir).first(where: { $0.contains("segue-tmp") }), !listing(dir + "/" + tmp).isEmpty { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(listing(dir).contains { $0.contains("segue-tmp") }, "the render never started")
        p.send(SIGINT)
        #expect(p.wait().status == 130)
        #expect(listing(dir) == ["from.png", "to.png"])
    }

    @Test(
        "Ctrl-C during a demo or a gallery takes away the folders it made for its output, parents too",
        arguments: [["demo", "-o", "new/deeper"], ["gallery", "-o", "new/deeper/site"]])
    func interruptRemovesMadeFolders(_ args: [String]) throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let cache = try TemporaryDirectory("cli-cache")  // never ~/.cache
        let p = try ChildProcess(
            executable: segueBinary, arguments: args,
            environment: ProcessInfo.processInfo.environment.merging(["SEGUE_CACHE_DIR": cache.path]) { $1 }, directory: dir,
            pipeInput: false, output: .discard, path: "segue")
        // Signal once the run has written a file under the folders it made.
        let deadline = Date().addingTimeInterval(120)
        func filesWritten() -> Int {
            (FileManager.default.subpaths(atPath: dir + "/new") ?? []).filter { $0.hasSuffix(".png") || $0.hasSuffix(".mp4") }.count
        }
        while Date() < deadline && !p.hasExited && filesWritten() == 0 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(!p.hasExited, "the run ended before it was signalled")
        p.send(SIGINT)
        #expect(p.wait().status == 130)
        // Before: `new` (and for the gallery `new/deeper`) stayed, with the demo's finished videos.
        #expect(listing(dir).isEmpty, "\(listing(dir))")
    }
}
