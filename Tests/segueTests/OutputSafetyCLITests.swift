// Nothing a command reads is lost to what it writes: an output that is an input (the same path,
// `dir/../name`, a hard link or a symbolic link), a directory output holding an input, a plan
// path that is an input or not a plan, a join onto the plan's own piece — each refused before any
// work with one `error:` line naming both, exit 1, every file as it was (frei0r install's case is in
// SegueFrei0rTests). And a job killed with
// SIGKILL leaves temporaries that its rerun and the join remove.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("Outputs never destroy inputs")
struct OutputSafetyCLITests {
    /// Two 1 s clips and the from/to stills in a new directory.
    private func media() throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory("cli")
        try makeClip(scratch.file("a.mp4"), color: "red", seconds: 1)
        try makeClip(scratch.file("b.mp4"), color: "blue", seconds: 1, tone: 440)
        try writeInputs(scratch.path)
        return scratch
    }

    /// Every regular file under `dir` (hidden ones too) and its bytes.
    private func snapshot(_ dir: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (FileManager.default.subpaths(atPath: dir) ?? []) {
            let path = dir + "/" + name
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }

    /// Runs `args` in `dir`, expecting a refusal whose message contains every one of `words`, and
    /// every file in `dir` left as it was.
    private func expectRefused(
        _ args: [String], in dir: String, naming words: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = snapshot(dir)
        let r = try segue(args, cwd: dir)
        #expect(r.status == 1, "\(args): exit \(r.status)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && r.stderr.hasPrefix("error: "), "\(args): \(r.stderr)", sourceLocation: sourceLocation)
        for word in words { #expect(r.stderr.contains(word), "\(args): '\(word)' not in \(r.stderr)", sourceLocation: sourceLocation) }
        #expect(snapshot(dir) == before, "\(args) changed files", sourceLocation: sourceLocation)
    }

    @Test("concat: an output that is a clip, by path, dir/.., hard link or symbolic link, or the soundtrack, is refused naming both")
    func concatOutputIsInput() throws {
        let files = try media(), dir = files.path
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try FileManager.default.linkItem(atPath: dir + "/b.mp4", toPath: dir + "/hard.mp4")
        try FileManager.default.createSymbolicLink(atPath: dir + "/soft.mp4", withDestinationPath: "a.mp4")
        let edit = ["concat", "a.mp4", "b.mp4", "--preset", "ultrafast"]
        try expectRefused(edit + ["-o", "a.mp4"], in: dir, naming: ["a.mp4:", "clip 1", "a.mp4)"])
        try expectRefused(edit + ["-o", "sub/../b.mp4"], in: dir, naming: ["sub/../b.mp4", "clip 2"])
        try expectRefused(edit + ["-o", "hard.mp4"], in: dir, naming: ["hard.mp4", "clip 2", "hard link"])
        try expectRefused(edit + ["-o", "soft.mp4"], in: dir, naming: ["soft.mp4", "clip 1", "symbolic link"])
        try expectRefused(edit + ["--audio", "b.mp4", "-o", "hard.mp4"], in: dir, naming: ["hard.mp4", "b.mp4"])
        try expectRefused(edit + ["-o", "x.mp4", "--plan", "a.mp4"], in: dir, naming: ["a.mp4", ".json"])
    }

    @Test("render, frame, effect and mesh refuse an output that is an input; a frame directory holding an input is refused")
    func renderOutputIsInput() throws {
        let files = try media(), dir = files.path
        try FileManager.default.createDirectory(atPath: dir + "/frames", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dir + "/from.png", toPath: dir + "/frames/from.png")
        try expectRefused(
            ["frame", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--progress", "0.5", "-o", "./to.png"],
            in: dir, naming: ["./to.png", "the to image"])
        try expectRefused(
            ["render", "--from", "frames/from.png", "--to", "to.png", "--effect", "fade", "-o", "frames"],
            in: dir, naming: ["frames", "the from image", "replaces the whole directory"])
        try expectRefused(
            ["effect", "--input", "from.png", "--effect", "shift", "--time", "0", "-o", "from.png"],
            in: dir, naming: ["the input image"])
        try expectRefused(["mesh", "from.png", "--mesh", "curtain", "-o", "from.png"], in: dir, naming: ["the input image"])
        try expectRefused(
            ["mesh", "frames/from.png", "--mesh", "curtain", "--to-mesh", "curtain", "-o", "frames"],
            in: dir, naming: ["frames", "the input image", "replaces the whole directory"])
    }

    @Test(
        "a frame directory given as '', '.', 'missing/..' or the current directory by name is refused: it replaced the current directory whole"
    )
    func directoryOutputNamed() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        let render = ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--duration", "0.1", "-o"]
        try expectRefused(render + [""], in: dir, naming: ["error: '': cannot write the output: the path is empty"])
        try expectRefused(
            ["frame", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--progress", "1", "-o", ""], in: dir,
            naming: ["error: '': cannot write the output: the path is empty"])
        try expectRefused(
            ["mesh", "from.png", "--mesh", "curtain", "-o", ""], in: dir, naming: ["error: '': cannot write the output: the path is empty"])
        try expectRefused(
            ["effect", "--input", "from.png", "--effect", "shift", "--duration", "0.1", "-o", ""], in: dir,
            naming: ["error: '': cannot write the output: the path is empty"])
        for path in [".", "./", "missing/..", "from.png/.."] {
            let name = path.hasSuffix("..") ? ".." : "."
            try expectRefused(
                render + [path], in: dir,
                naming: [
                    "error: \(path): cannot write the output: a directory output replaces the directory whole, so it must be named, not given as '\(name)'"
                ])
        }
        // Run from inside a frame directory, which it names: the frames would replace the directory
        // the shell stands in.
        let frames = dir + "/frames"
        #expect(try segue(render + [frames], cwd: dir).status == 0)
        let inside = try segue(
            ["render", "--from", "../from.png", "--to", "../to.png", "--effect", "fade", "--duration", "0.1", "-o", "../frames"],
            cwd: frames)
        #expect(inside.status == 1)
        #expect(
            inside.stderr
                == "error: ../frames: cannot write the output: it is the current directory, which replacing the directory whole would pull away: give another directory\n"
        )
        #expect(try String(contentsOfFile: dir + "/notes.txt", encoding: .utf8) == "precious\n")
    }

    @Test("a pipe or a device as the output is refused before any work; through a symbolic link the file it names is written")
    func specialOutputs() throws {
        let files = try media(), dir = files.path
        let elsewhere = try TemporaryDirectory("special")  // not in `dir`: reading a pipe there would wait
        let pipe = elsewhere.file("out.png")
        #expect(mkfifo(pipe, 0o600) == 0)
        let frame = ["frame", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--progress", "0.5", "-o"]
        let reason = "which writing the output would replace with a file: give a file's path"
        for (output, kind) in [(pipe, "a pipe (FIFO)"), ("/dev/null", "a device")] {
            let refused = try segue(frame + [output], cwd: dir)
            #expect(refused.status == 1 && refused.stderr == "error: \(output): cannot write the output: it is \(kind), \(reason)\n")
        }
        var info = stat()
        #expect(lstat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe is still a pipe")
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        try Data("old".utf8).write(to: URL(fileURLWithPath: dir + "/real.png"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.png", withDestinationPath: "real.png")
        let linked = try segue(frame + ["link.png"], cwd: dir)
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.png") == "real.png")
        let written = try ImageFile.read(path: dir + "/real.png")
        #expect(written.width == 16 && written.height == 8)
        #expect(!listing(dir).contains { $0.contains("segue-tmp") }, "\(listing(dir))")
    }

    @Test("what a command prints must reach standard output: a full disk or a closed descriptor is an error, a reader that stops is not")
    func standardOutput() throws {
        for (redirect, reason) in [("> /dev/full", "no space left on device"), (">&-", "Bad file descriptor")] {
            let run = try runProgram("/bin/bash", ["-c", "exec \"$0\" list \(redirect)", segueBinary])
            #expect(run.status == 1 && run.stderr == "error: standard output: writing failed: \(reason)\n", "\(redirect): \(run.stderr)")
        }
        // With standard input closed too, the interrupt pipe must not take descriptor 1 (it did,
        // and the listing's first byte, 'f' = 102, was read as a signal: exit 230); nor may the
        // output file of a command take it. A timeout's error, with standard error closed, exits 1.
        let closedBoth = try runProgram("/bin/bash", ["-c", "exec \"$0\" list <&- >&-", segueBinary])
        #expect(
            closedBoth.status == 1 && closedBoth.stderr == "error: standard output: writing failed: Bad file descriptor\n",
            "\(closedBoth.status): \(closedBoth.stderr)")
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        let quiet = try runProgram(
            "/bin/bash",
            ["-c", "cd \"$1\" && exec \"$0\" frame --from from.png --to to.png -e fade --progress 1 -o out.png <&- >&-", segueBinary, dir],
            environment: ["SEGUE_CACHE_DIR": dir + "/cache"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(try ImageFile.read(path: dir + "/out.png")[0, 0] == .white)
        let timedOut = try runProgram(
            "/bin/bash",
            [
                "-c", "cd \"$1\" && exec \"$0\" frame --from from.png --to to.png -e fade --progress 1 -o late.png <&- 2>&-", segueBinary,
                dir,
            ],
            environment: ["SEGUE_GPU_TIMEOUT": "1e-9", "SEGUE_CACHE_DIR": dir + "/cache"])
        #expect(timedOut.status == 1, "exit \(timedOut.status)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/late.png"))
        // Whether the reader's end closes before or after the last write, nothing is said.
        let stopped = try runProgram("/bin/bash", ["-c", "\"$0\" list | head -c 1 > /dev/null", segueBinary])
        #expect(stopped.status == 0 && stopped.stderr.isEmpty, "\(stopped.stderr)")
    }

    @Test(
        "--plan: not .json, an input, a file that is not a plan, a work directory a file is in the way of are refused; a plan is replaced")
    func planPaths() throws {
        let files = try media(), dir = files.path
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: dir + "/notes.json"))
        let edit = ["concat", "a.mp4", "b.mp4", "-o", "out.mp4"]
        // The flag given first by mistake takes the first clip as the plan.
        try expectRefused(["concat", "--plan", "a.mp4", "b.mp4", "-o", "out.mp4"], in: dir, naming: ["a.mp4", ".json"])
        try expectRefused(edit + ["--plan", "notes.json"], in: dir, naming: ["notes.json", "not a Segue plan"])
        try expectRefused(
            edit + ["--plan", "p.json", "--work-dir", "notes.json"], in: dir,
            naming: ["work directory", "notes.json", "a file is in the way"])
        // A missing --work-dir is made (as --job and --join make theirs), but not for a plan
        // path that is refused.
        try expectRefused(edit + ["--plan", "notes.json", "--work-dir", "unmade"], in: dir, naming: ["notes.json", "not a Segue plan"])
        // A missing --work-dir is made (as --job and --join make theirs).
        let made = try segue(edit + ["--plan", "m.json", "--work-dir", "made"], cwd: dir)
        #expect(made.status == 0 && FileIO.isDirectory(dir + "/made"), "\(made.stderr)")
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.json", withDestinationPath: "a.mp4")
        try expectRefused(edit + ["--plan", "link.json"], in: dir, naming: ["link.json", "clip 1"])
        // A plan's piece named like an input: x.job-0001.mp4 is what plan x.json's job 1 writes.
        try FileManager.default.copyItem(atPath: dir + "/a.mp4", toPath: dir + "/x.job-0001.mp4")
        try expectRefused(
            ["concat", "x.job-0001.mp4", "b.mp4", "-o", "out.mp4", "--plan", "x.json"], in: dir, naming: ["x.job-0001", "clip 1"])
        // An earlier plan is replaced (atomically: no temporary is left).
        #expect(try segue(edit + ["--plan", "p.json"], cwd: dir).status == 0)
        let first = try Data(contentsOf: URL(fileURLWithPath: dir + "/p.json"))
        let again = try segue(edit + ["--transition", "wipe:0.5", "--plan", "p.json"], cwd: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/p.json")) != first)
        #expect(!listing(dir).contains { $0.contains("segue-tmp") }, "\(listing(dir))")
    }

    @Test("--join onto a clip, the plan, or a piece (made or not yet made) is refused before any piece is read")
    func joinOutputs() throws {
        let files = try media(), dir = files.path
        #expect(
            try segue(["concat", "a.mp4", "b.mp4", "-o", "out.mp4", "--plan", "p.json", "--preset", "ultrafast"], cwd: dir).status == 0)
        try expectRefused(["concat", "--join", "p.json", "-o", "b.mp4"], in: dir, naming: ["b.mp4", "clip 2"])
        try expectRefused(["concat", "--join", "p.json", "-o", "p.job-0001.mp4"], in: dir, naming: ["job 1's piece"])
        #expect(try segue(["concat", "--job", "p.json", "1"], cwd: dir).status == 0)
        try expectRefused(["concat", "--join", "p.json", "-o", "p.job-0001.mp4"], in: dir, naming: ["job 1's piece"])
    }

    @Test("a job killed with SIGKILL leaves a temporary; its rerun removes it, and the join removes the rest")
    func killedJobTemporaries() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        for (name, color) in [("a", "red"), ("b", "blue")] {
            try makeClip(dir + "/\(name).mp4", color: color, width: 640, height: 480, seconds: 4)
        }
        let planned = try segue(["concat", "a.mp4", "b.mp4", "-o", "out.mp4", "--plan", "p.json", "--preset", "veryslow"], cwd: dir)
        #expect(planned.status == 0, "\(planned.stderr)")
        // Job 1 starts; as soon as its piece's temporary exists it is killed.
        let script = """
            '\(segueBinary)' concat --job p.json 1 2>/dev/null & pid=$!
            for i in $(seq 1 600); do ls -a | grep -q '^\\.p\\.job-0001\\.mp4\\.segue-tmp-' && break; sleep 0.01; done
            kill -9 $pid; wait $pid; exit 0
            """
        let killed = try runProgram("/bin/bash", ["-c", "cd '\(dir)' || exit 1\n" + script], timeout: 120)
        #expect(killed.status == 0, "\(killed.stderr)")
        let temporaries = { listing(dir).filter { $0.contains(".segue-tmp-") } }
        #expect(temporaries().contains { $0.hasPrefix(".p.job-0001.mp4.") }, "the killed job's temporary: \(listing(dir))")
        // A temporary of another job whose process is gone stays until the join.
        try Data().write(to: URL(fileURLWithPath: dir + "/.p.job-0002.mp4.segue-tmp-999999999-0000000000000000.mp4"))
        let rerun = try segue(["concat", "--job", "p.json", "1"], cwd: dir)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(!temporaries().contains { $0.hasPrefix(".p.job-0001.") }, "after the rerun: \(temporaries())")
        #expect(temporaries().contains { $0.hasPrefix(".p.job-0002.") })
        let plan = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/p.json"))) as? [String: Any]
        let count = (plan?["jobs"] as? [Any])?.count ?? 0
        #expect(count >= 3)
        for n in 0..<count where n != 1 { #expect(try segue(["concat", "--job", "p.json", String(n)], cwd: dir).status == 0) }
        let joined = try segue(["concat", "--join", "p.json", "-o", "out.mp4"], cwd: dir)
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(temporaries().isEmpty, "after the join: \(temporaries())")
    }

    @Test(
        "an output that outgrows `ulimit -f` (8 KiB): one error naming it as given (not a hidden staging folder, not ffmpeg's status), nothing left",
        arguments: [
            ["render", "--duration", "0.2", "-o", "frames"], ["render", "--duration", "0.2", "-o", "out.mp4"],
            ["frame", "--progress", "0.5", "-o", "out.png"],
        ])
    func outgrowsFileSizeLimit(_ args: [String]) throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 256, height: 256)
        // Dissolve's noise keeps each 256×256 frame, and the video, far above 8 KiB.
        let command = args + ["--from", "from.png", "--to", "to.png", "--effect", "dissolve"]
        let r = try runProduct("/bin/bash", ["-c", "cd '\(dir)' && ulimit -f 8 && exec \"$0\" \"$@\"", segueBinary] + command)
        // Before: SIGXFSZ ended segue (leaving the staging folder) or ffmpeg ("exited with status 153").
        let output = args.last ?? ""
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "error: \(output): the output could not be completed: the file is too large for the file system or the `ulimit -f` limit; nothing was written to \(output)\n",
            "\(r.stderr)")
        #expect(listing(dir) == ["from.png", "to.png"], "\(listing(dir))")
    }
}
