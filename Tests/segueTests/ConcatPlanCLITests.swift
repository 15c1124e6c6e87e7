// `segue concat --plan / --job / --join` end to end: every job a process of its own, in a shuffled
// order, joined, equals the one-process render (decoded frames, decoded sound, length); a job's
// piece is the same bytes when made again on another CPU; and every failure — a changed input, a
// missing, truncated, altered or unrecorded piece, a job out of range, a plan of another version
// or damaged, a full disk while joining — is one `error: …` line, exit 1, nothing half-written.
import Foundation
import Segue
import SegueTestSupport
import SegueTools
import Testing

@Suite("segue concat --plan, --job, --join")
struct ConcatPlanCLITests {
    /// a.mp4, b.mp4, c.mp4: 2 s of testsrc2 at 30 fps with a tone each. `mixed`: b is 128×96 and
    /// c 192×96 (so the edit is a full render); else all 160×120 H.264 with a keyframe every 15
    /// frames (so `--smart` copies).
    private func makeMedia(_ dir: String, mixed: Bool) throws {
        let sizes = mixed ? ["160x120", "128x96", "192x96"] : ["160x120", "160x120", "160x120"]
        for (k, name) in ["a", "b", "c"].enumerated() {
            _ = try ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=s=\(sizes[k]):r=30:d=2,hue=h=\(k * 120)", "-f", "lavfi",
                "-i", "sine=frequency=\(300 * (k + 1)):duration=2", "-c:v", "libx264", "-preset", "veryfast", "-g", "15",
                "-keyint_min", "15", "-sc_threshold", "0", "-pix_fmt", "yuv420p", "-c:a", "aac", dir + "/\(name).mp4",
            ])
        }
    }

    /// Per-frame MD5s of the decoded picture.
    private func frameHashes(_ path: String) throws -> [String] {
        String(decoding: try ffmpeg(["-i", path, "-map", "0:v:0", "-f", "framemd5", "pipe:1"]), as: UTF8.self)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
    }

    /// MD5 of the decoded sound as 16-bit PCM.
    private func soundHash(_ path: String) throws -> String {
        String(decoding: try ffmpeg(["-i", path, "-map", "0:a:0", "-c:a", "pcm_s16le", "-f", "md5", "pipe:1"]), as: UTF8.self)
    }

    private func plan(_ dir: String, _ name: String = "p.json") throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func jobs(_ plan: [String: Any]) -> [[String: Any]] { plan["jobs"] as? [[String: Any]] ?? [] }

    /// Plans `edit` in `dir`, runs every job as its own process in a shuffled order and joins.
    /// - Returns: the plan's jobs' kinds.
    @discardableResult
    private func planRunJoin(_ dir: String, _ edit: [String], output: String = "joined.mp4") throws -> [String] {
        let planned = try segue(["concat"] + edit + ["-o", "out.mp4", "--plan", "p.json", "--job-seconds", "1"], cwd: dir)
        #expect(planned.status == 0, "\(planned.stderr)")
        let p = try plan(dir)
        let count = jobs(p).count
        #expect(planned.text == (0..<count).map { "\($0)\n" }.joined(), "the job numbers, one per line")
        for n in (0..<count).shuffled() {
            let r = try segue(["concat", "--job", "p.json", String(n)], cwd: dir)
            #expect(r.status == 0 && r.stderr.isEmpty, "job \(n): \(r.stderr)")
        }
        let joined = try segue(["concat", "--join", "p.json", "-o", output], cwd: dir)
        #expect(joined.status == 0 && joined.stderr.isEmpty, "\(joined.stderr)")
        return jobs(p).compactMap { $0["kind"] as? String }
    }

    private func expectSame(_ joined: String, _ one: String, frames: Int, seconds: Double) throws {
        let a = try frameHashes(joined), b = try frameHashes(one)
        #expect(a.count == frames && a == b, "decoded frames: \(a.count) joined, \(b.count) in one process")
        #expect(try soundHash(joined) == soundHash(one), "decoded sound")
        let lengths = try streamLengths(joined), other = try streamLengths(one)
        #expect(lengths.frames == frames && abs(lengths.video - seconds) < 1e-6 && abs((lengths.audio ?? 0) - seconds) <= 1.0 / 30)
        #expect(lengths.frames == other.frames && lengths.video == other.video && lengths.audio == other.audio)
        let errors = try runTool("ffmpeg", ["-v", "error", "-i", joined, "-f", "null", "-"])
        #expect(errors.status == 0 && errors.stderr.isEmpty, "decoding the joined file: \(errors.stderr)")
    }

    @Test(
        "inputs of mixed sizes: segments of at most 1 s cut at the transitions and the sound, each a process, shuffled, joined = one process"
    )
    func mixedInputs() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir, mixed: true)
        let edit = [
            "a.mp4", "b.mp4", "c.mp4", "--size", "160x120", "--transition", "wipe:0.5", "--cut", "2=fade:0.5", "--preset", "veryfast",
        ]
        let kinds = try planRunJoin(dir, edit)
        // 5 s: [0, 45) clip a, [45, 60) the wipe, [60, 90) b, [90, 105) the fade, [105, 150) c; stretches over 30 frames in halves.
        let p = try plan(dir)
        #expect(
            jobs(p).compactMap { $0["frames"] as? [Int] } == [
                [0, 22], [22, 45], [45, 60], [60, 90], [90, 105], [105, 127], [127, 150],
            ])
        #expect(kinds == ["sound"] + Array(repeating: "segment", count: 7))
        #expect((p["version"] as? Int) == 1 && (p["segue"] as? String) == SegueVersion.current)
        let inputs = p["inputs"] as? [[String: Any]] ?? []
        #expect(inputs.compactMap { $0["path"] as? String } == ["a", "b", "c"].map { dir + "/\($0).mp4" })
        #expect(inputs.allSatisfy { ($0["hash"] as? String)?.count == 64 && ($0["size"] as? Int ?? 0) > 0 })
        let one = try segue(["concat"] + edit + ["-o", "one.mp4", "--job-seconds", "1"], cwd: dir)
        #expect(one.status == 0, "\(one.stderr)")
        try expectSame(dir + "/joined.mp4", dir + "/one.mp4", frames: 150, seconds: 5)
        // Each segment is a file of its own that starts with a keyframe.
        for job in jobs(p) where job["kind"] as? String == "segment" {
            let flags = String(
                decoding: try runTool(
                    "ffprobe",
                    [
                        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags",
                        "-of", "csv=p=0", dir + "/" + (job["piece"] as? String ?? ""),
                    ]
                ).stdout, as: UTF8.self)
            #expect(flags.hasPrefix("K"), "\(job["piece"] ?? ""): \(flags.prefix(20))")
        }
    }

    @Test("a smart edit: copy jobs, render jobs around the transitions and the sound, each a process, shuffled, joined = one process")
    func smartEdit() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir, mixed: false)
        let edit = ["a.mp4", "b.mp4", "c.mp4", "--smart", "--transition", "fade:0.5"]
        let kinds = try planRunJoin(dir, edit)
        // Keyframes every 15 frames: a's frames 0…45 copied, the fade [45, 60) rendered, b's 15…45 copied, the fade
        // [90, 105) rendered, c's from 15 on copied.
        #expect(kinds == ["sound", "copy", "render", "copy", "render", "copy"])
        #expect(jobs(try plan(dir)).compactMap { $0["frames"] as? [Int] } == [[0, 45], [45, 60], [60, 90], [90, 105], [105, 150]])
        let one = try segue(["concat"] + edit + ["-o", "one.mp4"], cwd: dir)
        #expect(one.status == 0 && one.stderr.isEmpty, "\(one.stderr)")
        try expectSame(dir + "/joined.mp4", dir + "/one.mp4", frames: 150, seconds: 5)
        // Copied frames are the sources' own.
        let joined = try frameHashes(dir + "/joined.mp4"), a = try frameHashes(dir + "/a.mp4")
        #expect(Array(joined[0..<45]) == Array(a[0..<45]))
    }

    @Test("a job's piece is the same bytes made again, on one CPU (taskset) or all")
    func deterministicPieces() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir, mixed: true)
        let planned = try segue(
            [
                "concat", "a.mp4", "b.mp4", "--size", "160x120", "--transition", "wipe:0.5", "--preset", "veryfast",
                "-o", "out.mp4", "--plan", "p.json", "--job-seconds", "1",
            ], cwd: dir)
        #expect(planned.status == 0, "\(planned.stderr)")
        let p = try plan(dir)
        for (n, job) in jobs(p).enumerated() where job["kind"] as? String != "segment" || (job["frames"] as? [Int])?.first == 45 {
            let piece = dir + "/" + (job["piece"] as? String ?? "")
            var made: [Data] = []
            for pinned in [false, true, false] {
                let r =
                    pinned
                    ? try runProduct("/usr/bin/taskset", ["-c", "0", segueBinary, "concat", "--job", "p.json", String(n)], cwd: dir)
                    : try segue(["concat", "--job", "p.json", String(n)], cwd: dir)
                #expect(r.status == 0, "\(r.stderr)")
                made.append(try Data(contentsOf: URL(fileURLWithPath: piece)))
            }
            #expect(made[0] == made[1] && made[1] == made[2], "job \(n) (\(job["kind"] ?? "")): \(made.map(\.count)) bytes")
        }
    }

    // MARK: - Failures

    /// A planned and fully run mixed edit in a fresh directory.
    private func doneEdit() throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory("cli")
        try makeMedia(scratch.path, mixed: true)
        _ = try planRunJoin(
            scratch.path, ["a.mp4", "b.mp4", "--size", "160x120", "--transition", "fade:0.5", "--preset", "ultrafast"],
            output: "first.mp4")
        return scratch
    }

    private func expectError(_ args: [String], in dir: String, _ message: String, environment: [String: String] = [:]) throws {
        let before = listing(dir)
        let r = try segue(args, environment: environment, cwd: dir)
        #expect(r.status == 1)
        #expect(r.stderr == "error: \(message)\n")
        #expect(listing(dir) == before, "nothing left behind")
    }

    @Test("a job out of range, a plan of another format or Segue version, a damaged plan: one error line each")
    func badPlansAndNumbers() throws {
        let edit = try doneEdit(), dir = edit.path
        let count = jobs(try plan(dir)).count
        try expectError(
            ["concat", "--job", "p.json", String(count)], in: dir, "there is no job \(count): the plan has jobs 0 to \(count - 1)")
        let text = try String(contentsOfFile: dir + "/p.json", encoding: .utf8)
        try text.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 2").write(
            toFile: dir + "/v2.json", atomically: true, encoding: .utf8)
        try expectError(
            ["concat", "--job", "v2.json", "0"], in: dir,
            "v2.json: the plan is in format 2; this Segue (\(SegueVersion.current)) reads format 1: plan again")
        try text.replacingOccurrences(of: "\"segue\" : \"\(SegueVersion.current)\"", with: "\"segue\" : \"0.0.1\"")
            .write(toFile: dir + "/old.json", atomically: true, encoding: .utf8)
        try expectError(
            ["concat", "--join", "old.json", "-o", "x.mp4"], in: dir,
            "old.json: the plan was made by Segue 0.0.1, this is Segue \(SegueVersion.current): plan again with this Segue, or run every job and the join with Segue 0.0.1"
        )
        let half = String(text.prefix(text.count / 2))
        try half.write(toFile: dir + "/cut.json", atomically: true, encoding: .utf8)
        // Cut inside its list of jobs, the plan ends where its text does: the line and column
        // after the last character (the plan's text is ASCII).
        let lines = half.split(separator: "\n", omittingEmptySubsequences: false)
        try expectError(
            ["concat", "--job", "cut.json", "0"], in: dir,
            "cut.json: the plan is not valid JSON at line \(lines.count), column \(lines.last!.count + 1): unexpected end of the text (cut short or damaged?); plan again"
        )
        try text.replacingOccurrences(of: "\"frames\" : 105", with: "\"frames\" : \"many\"")
            .write(toFile: dir + "/typed.json", atomically: true, encoding: .utf8)
        try expectError(
            ["concat", "--join", "typed.json", "-o", "x.mp4"], in: dir,
            #"typed.json: the plan is not valid: output.frames: expected a whole number, found the string "many""#)
        try expectError(["concat", "--job", "missing.json", "0"], in: dir, "missing.json: no such file; check the path")
    }

    @Test("an input changed since planning: the job names it and writes nothing")
    func changedInput() throws {
        let edit = try doneEdit(), dir = edit.path
        // Same size, one byte different in the last MiB.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/b.mp4")))
        bytes[bytes.count - 10] ^= 0xFF
        let date = try FileManager.default.attributesOfItem(atPath: dir + "/b.mp4")[.modificationDate] as? Date
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/b.mp4"))
        try FileManager.default.setAttributes([.modificationDate: try #require(date)], ofItemAtPath: dir + "/b.mp4")
        try FileManager.default.removeItem(atPath: dir + "/p.job-0000.mp4")
        try expectError(
            ["concat", "--job", "p.json", "0"], in: dir, "\(dir)/b.mp4 changed since planning (its content differs); plan again")
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/b.mp4"))
        try expectError(
            ["concat", "--job", "p.json", "1"], in: dir,
            "\(dir)/b.mp4 changed since planning (its size is 1 bytes, planned \(bytes.count)); plan again")
    }

    @Test("the join refuses a missing, truncated, altered or unrecorded (killed) piece, naming the job")
    func badPieces() throws {
        let edit = try doneEdit(), dir = edit.path
        let piece = { (n: Int) in dir + "/p.job-000\(n).mp4" }
        // Killed after publishing its piece, before its record.
        try FileManager.default.removeItem(atPath: dir + "/p.job-0001.json")
        try expectError(
            ["concat", "--join", "p.json", "-o", "out.mp4"], in: dir,
            "job 1 did not finish: \(piece(1)) has no record (stopped part-way?); run job 1 again")
        #expect(try segue(["concat", "--job", "p.json", "1"], cwd: dir).status == 0)
        // A record that is a named pipe is refused at once (it was read as a file and blocked).
        let record = try Data(contentsOf: URL(fileURLWithPath: dir + "/p.job-0001.json"))
        try FileManager.default.removeItem(atPath: dir + "/p.job-0001.json")
        #expect(mkfifo(dir + "/p.job-0001.json", 0o600) == 0)
        try expectError(
            ["concat", "--join", "p.json", "-o", "out.mp4"], in: dir, "job 1's record \(dir)/p.job-0001.json is damaged; run job 1 again")
        try FileManager.default.removeItem(atPath: dir + "/p.job-0001.json")
        try record.write(to: URL(fileURLWithPath: dir + "/p.job-0001.json"))
        // Missing, with the record.
        let saved = try Data(contentsOf: URL(fileURLWithPath: piece(2)))
        try FileManager.default.removeItem(atPath: piece(2))
        try expectError(["concat", "--join", "p.json", "-o", "out.mp4"], in: dir, "job 2's piece \(piece(2)) is missing; run job 2 again")
        // Truncated.
        try saved.prefix(saved.count / 2).write(to: URL(fileURLWithPath: piece(2)))
        try expectError(
            ["concat", "--join", "p.json", "-o", "out.mp4"], in: dir,
            "job 2's piece \(piece(2)) is \(saved.count / 2) bytes, but its record says \(saved.count) (cut short?); run job 2 again")
        // Altered, same size.
        var bytes = [UInt8](saved)
        bytes[bytes.count / 2] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: piece(2)))
        try expectError(
            ["concat", "--join", "p.json", "-o", "out.mp4"], in: dir,
            "job 2's piece \(piece(2)) does not match its record (SHA-256 differs); run job 2 again")
        // Never run, with another not ready either.
        try FileManager.default.removeItem(atPath: piece(2))
        try FileManager.default.removeItem(atPath: dir + "/p.job-0002.json")
        try FileManager.default.removeItem(atPath: dir + "/p.job-0000.json")
        try expectError(
            ["concat", "--join", "p.json", "-o", "out.mp4"], in: dir,
            "job 0 did not finish: \(piece(0)) has no record (stopped part-way?); run job 0 again (not ready either: job 2)")
    }

    @Test("a full disk while joining: one error line, the old output untouched, no temporary")
    func fullDiskWhileJoining() throws {
        let edit = try doneEdit(), dir = edit.path, toolsScratch = try TemporaryDirectory("cli-tools"), tools = toolsScratch.path
        try fullDiskFFmpeg(at: tools + "/ffmpeg", output: "film")
        try Data("yesterday's film".utf8).write(to: URL(fileURLWithPath: dir + "/film.mp4"))
        try expectError(
            ["concat", "--join", "p.json", "-o", "film.mp4"], in: dir,
            "film.mp4: the output could not be completed: no space left on device; nothing was written to film.mp4",
            environment: ["SEGUE_FFMPEG": tools + "/ffmpeg"])
        #expect(FileManager.default.contents(atPath: dir + "/film.mp4") == Data("yesterday's film".utf8))
    }

    @Test("--work-dir takes the pieces elsewhere; a .gif plan is one job whose piece the join publishes")
    func workDirectoryAndGIF() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir, mixed: true)
        let edit = ["concat", "a.mp4", "b.mp4", "--size", "80x60", "--transition", "fade:0.5", "-o", "out.gif"]
        let planned = try segue(edit + ["--plan", "g.json"], cwd: dir)
        #expect(planned.status == 0 && planned.text == "0\n", "\(planned.stderr)")
        let p = try plan(dir, "g.json")
        #expect(jobs(p).count == 1 && jobs(p)[0]["kind"] as? String == "render" && jobs(p)[0]["piece"] as? String == "g.job-0000.gif")
        #expect((p["join"] as? [String: Any])?["method"] as? String == "publish")
        #expect(try segue(["concat", "--job", "g.json", "0", "--work-dir", "pieces"], cwd: dir).status == 0)
        #expect(listing(dir + "/pieces") == ["g.job-0000.gif", "g.job-0000.json"])
        #expect(try segue(["concat", "--join", "g.json", "-o", "joined.gif", "--work-dir", "pieces"], cwd: dir).status == 0)
        #expect(try segue(edit + ["-o", "one.gif"], cwd: dir).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/joined.gif")) == Data(contentsOf: URL(fileURLWithPath: dir + "/one.gif")))
        // A --work-dir is made when missing, parents and all, in every mode: --plan too.
        let nested = try segue(edit + ["--plan", "n.json", "--work-dir", "new/pieces"], cwd: dir)
        #expect(nested.status == 0 && FileIO.isDirectory(dir + "/new/pieces"), "\(nested.stderr)")
        #expect(try segue(["concat", "--job", "n.json", "0"], cwd: dir).status == 0)
        #expect(listing(dir + "/new/pieces") == ["n.job-0000.gif", "n.job-0000.json"])
        // The directory a plan records must be there when a job runs (shared storage is mounted,
        // not made): a job without --work-dir names it.
        try FileManager.default.removeItem(atPath: dir + "/new")
        let gone = try segue(["concat", "--job", "n.json", "0"], cwd: dir)
        #expect(gone.status == 1 && gone.stderr.contains("the work directory \(dir)/new/pieces does not exist"), "\(gone.stderr)")
        // A file in the way of a --work-dir: one error line naming it.
        try Data().write(to: URL(fileURLWithPath: dir + "/blocked"))
        try expectError(
            edit + ["--plan", "b.json", "--work-dir", "blocked"], in: dir,
            "cannot create the work directory \(dir)/blocked: a file is in the way of the directory")
        // A plan's missing folder is named as such, not as the work directory --work-dir names,
        // and the refused plan makes no work directory.
        try expectError(
            edit + ["--plan", "nowhere/p.json", "--work-dir", "elsewhere"], in: dir,
            "the plan's folder \(dir)/nowhere does not exist; the plan is written there: create it first")
        #expect(!FileManager.default.fileExists(atPath: dir + "/elsewhere"))
        // Without --work-dir the join looks beside the plan, where nothing was made.
        try expectError(
            ["concat", "--join", "g.json", "-o", "x.gif"], in: dir,
            "job 0 has not been done: \(dir)/g.job-0000.gif is missing; run job 0 again")
    }

    @Test("options that belong to the plan are refused with --job and --join; --job needs its number")
    func usage() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        for (args, message) in [
            (["--job", "p.json"], "give the job's number after the plan: --job PLAN.json N (N from 0)"),
            (["--job", "p.json", "x"], "give the job's number after the plan: --job PLAN.json N (N from 0)"),
            (["--job", "p.json", "0", "--smart"], "--smart is part of the plan: give it with --plan, not with --job"),
            (["--join", "p.json", "-o", "o.mp4", "--crf", "20"], "--crf is part of the plan: give it with --plan, not with --join"),
            (["--join", "p.json"], "--join needs -o OUT, the movie to write"),
            (["--job", "p.json", "0", "-o", "o.mp4"], "a job writes its piece into the work directory; -o goes with --join"),
            (["--plan", "p.json", "--join", "p.json", "-o", "o.mp4"], "give one of --plan, --job and --join, not --plan and --join"),
            (
                ["a.mp4", "-o", "o.mp4", "--plan", "p.json", "--job-seconds", "0"],
                "--job-seconds must be a positive number of seconds, got 0"
            ),
        ] {
            let r = try segue(["concat"] + args, cwd: dir)
            #expect(r.status == 1)
            #expect(r.stderr == "error: \(message) (see 'segue concat --help')\n", "\(args)")
        }
        #expect(listing(dir).isEmpty)
    }

    @Test(
        "bench --concat --jobs 2 --job-seconds 4: one process against two workers, the predictions on 4, 16 and 64 machines shrink with the machines"
    )
    func bench() throws {
        for (args, message) in [
            (["--job-seconds", "4"], "--job-seconds goes with --concat --jobs"),
            (["--jobs", "2", "--job-seconds", "0"], "--job-seconds must be a positive number of seconds, got 0"),
        ] {
            let refused = try segue(["bench", "--concat"] + args)
            #expect(refused.status == 1 && refused.stderr == "error: \(message) (see 'segue bench --help')\n", "\(refused.stderr)")
        }
        let r = try segue(["bench", "--concat", "--jobs", "2", "--job-seconds", "4", "--size", "64x48", "--preset", "ultrafast"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.text.split(separator: "\n").map(String.init)
        func row(_ label: String) throws -> (seconds: Double, ratio: Double) {
            let line = try #require(lines.first { $0.hasPrefix(label) }, "no row '\(label)': \(r.text)")
            let numbers = line.dropFirst(label.count).split(separator: " ").compactMap { Double($0) }
            try #require(numbers.count == 2, "\(line)")
            return (numbers[0], numbers[1])
        }
        let one = try row("one process")
        #expect(one.ratio == 1)
        var previous = Double.infinity
        for label in [
            "2 local workers (plan+jobs+join)", "predicted on 4 machines", "predicted on 16 machines", "predicted on 64 machines",
        ] {
            let (seconds, ratio) = try row(label)
            #expect(abs(ratio - one.seconds / seconds) <= 0.01 + 0.01 * ratio, "\(label): \(ratio) against \(one.seconds / seconds)")
            if label.hasPrefix("predicted") {
                #expect(seconds <= previous + 1e-9, "\(label): \(seconds) after \(previous)")
                previous = seconds
            }
        }
        // 55 s: six stretches of one clip (two of 9 s, in three parts of at most 4 s; four of 8 s, in two parts) and five
        // transitions are the segments.
        #expect(lines.first?.contains("segments of at most 4 s;") == true, "\(r.text)")
        #expect(lines.contains { $0.contains("; 20 jobs (19 segments, 1 sound) of ") }, "\(r.text)")
    }

    @Test("the schedule: longest job first onto the machine free first")
    func schedule() {
        #expect(ConcatJobsBenchmark.schedule([3, 3, 2, 2, 2], machines: 2) == 7)
        #expect(ConcatJobsBenchmark.schedule([5, 1, 1, 1], machines: 4) == 5)
        #expect(ConcatJobsBenchmark.schedule([1, 2, 3], machines: 1) == 6)
        #expect(ConcatJobsBenchmark.schedule([], machines: 3) == 0)
    }
}
