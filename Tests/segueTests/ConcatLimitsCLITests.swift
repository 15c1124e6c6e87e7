// The media building blocks at the edges, seen from the command line: a full disk that ffmpeg
// reports with status 0, names with colons, FIFOs given as inputs, and a process short of file
// descriptors or memory. Each ends in one `error: …` line and exit 1 (or a good output), within
// a time bound, and never replaces an existing output with a broken one.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue concat, render and effect at the limits")
struct ConcatLimitsCLITests {
    /// a.mp4 and "take:2.mp4": 64×48 at 25 fps, 2 s, with sound; from.png and to.png.
    private func makeMedia(_ dir: String) throws {
        for (name, color) in [("a.mp4", "red"), ("b.mp4", "blue")] {
            try makeClip(dir + "/" + name, color: color, tone: 440, channels: 1)
        }
        try writeInputs(dir, width: 32, height: 24)
    }

    /// The absolute path of a tool on PATH.
    private func executable(_ name: String) throws -> String {
        guard let path = FileIO.findExecutable(name) else { throw CocoaError(.fileNoSuchFile) }
        return path
    }

    private static let oldFilm = Data("yesterday's film".utf8)

    // MARK: - A full disk

    static let fullDiskCases: [[String]] = [
        ["concat", "a.mp4", "a.mp4", "-o", "film.mp4"],
        ["concat", "a.mp4", "b.mp4", "-o", "film.mov"],
        ["concat", "a.mp4", "b.mp4", "-o", "film.mkv"],
        ["concat", "a.mp4", "b.mp4", "-o", "film.webm", "--preset", "ultrafast"],
        ["concat", "a.mp4", "b.mp4", "--smart", "--transition", "none", "-o", "film.mp4"],
        ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--duration", "0.5", "-o", "film.webm"],
        ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--duration", "0.5", "-o", "film.gif"],
        ["effect", "--input", "from.png", "--effect", "shift", "--duration", "0.5", "-o", "film.mp4"],
    ]

    @Test(
        "a full disk that ffmpeg reports with status 0: exit 1 naming it; the old output untouched; no temporary",
        arguments: 0..<fullDiskCases.count)
    func fullDisk(index: Int) throws {
        let args = Self.fullDiskCases[index]
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path, toolsScratch = try TemporaryDirectory("cli-tools"),
            tools = toolsScratch.path
        try makeMedia(dir)
        let output = args[args.firstIndex(of: "-o")! + 1]
        try Self.oldFilm.write(to: URL(fileURLWithPath: dir + "/" + output))
        let before = listing(dir)
        let r = try segue(args, environment: ["SEGUE_FFMPEG": try fullDiskFFmpeg(at: tools + "/ffmpeg", output: "film")], cwd: dir)
        #expect(r.status == 1)
        #expect(
            r.stderr == "error: \(output): the output could not be completed: no space left on device; nothing was written to \(output)\n")
        #expect(FileManager.default.contents(atPath: dir + "/" + output) == Self.oldFilm)
        #expect(listing(dir) == before)
    }

    // MARK: - Names with colons

    @Test("relative names with colons are files, not protocols: inputs, outputs, --audio, --smart, render")
    func colons() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir)
        try FileManager.default.copyItem(atPath: dir + "/a.mp4", toPath: dir + "/take:2.mp4")
        for (args, output) in [
            (["concat", "take:2.mp4", "b.mp4", "-o", "12:30.mp4"], "12:30.mp4"),
            (["concat", "take:2.mp4", "take:2.mp4", "--smart", "-o", "12:31.mov"], "12:31.mov"),
            (["concat", "a.mp4", "b.mp4", "--audio", "take:2.mp4", "-o", "t:1.mkv"], "t:1.mkv"),
            (["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--duration", "0.4", "-o", "f:1.gif"], "f:1.gif"),
        ] {
            let r = try segue(args, cwd: dir)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(args): \(r.stderr)")
            let probe = try runProduct(
                try executable("ffprobe"),
                ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", "file:" + dir + "/" + output])
            let seconds = Double(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(abs(seconds - (args[0] == "render" ? 0.4 : 3)) < 0.15, "\(output) lasts \(seconds) s")
        }
        #expect(listing(dir) == ["12:30.mp4", "12:31.mov", "a.mp4", "b.mp4", "f:1.gif", "from.png", "t:1.mkv", "take:2.mp4", "to.png"])
    }

    // MARK: - FIFOs

    @Test("a FIFO as a clip or as --audio is refused at once, without opening it")
    func fifos() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir)
        #expect(mkfifo(dir + "/pipe.mp4", 0o600) == 0)
        let before = listing(dir)
        for args in [
            ["concat", "pipe.mp4", "a.mp4", "-o", "out.mp4"], ["concat", "a.mp4", "b.mp4", "--audio", "pipe.mp4", "-o", "out.mp4"],
        ] {
            let started = Date()
            let r = try runProduct(segueBinary, args, cwd: dir, timeout: 60)
            #expect(Date().timeIntervalSince(started) < 30)
            #expect(r.status == 1)
            #expect(
                r.stderr
                    == "error: pipe.mp4: cannot read the file: it is a pipe (FIFO), not a regular file; save the stream to a file first\n")
            #expect(listing(dir) == before)
        }
    }

    // MARK: - Few descriptors, little memory

    /// Runs segue under `limit` (a bash `ulimit` option and value) with a bounded wait.
    private func segueLimited(_ limit: String, _ args: [String], cwd: String) throws -> ToolResult {
        try runProduct("/bin/bash", ["-c", "ulimit \(limit) && exec \"$0\" \"$@\"", segueBinary] + args, cwd: cwd, timeout: 150)
    }

    @Test(
        "short of file descriptors: an error saying so, or a good output; never a trap, a false 'not installed' or a hang",
        arguments: [12, 16, 20, 24, 64])
    func fewDescriptors(limit: Int) throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir)
        let before = listing(dir)
        for args in [
            ["concat", "a.mp4", "b.mp4", "a.mp4", "-o", "out.mp4"], ["concat", "a.mp4", "b.mp4", "a.mp4", "--smart", "-o", "out.mp4"],
        ] {
            let r = try segueLimited("-n \(limit)", args, cwd: dir)
            #expect(r.status == 0 || r.status == 1, "ulimit -n \(limit) \(args): status \(r.status): \(r.stderr)")
            if r.status == 1 {
                #expect(
                    r.stderr.hasPrefix("error: ")
                        && r.stderr.contains("too many open files (this process may have \(limit) open; raise the limit with `ulimit -n`"),
                    "ulimit -n \(limit): \(r.stderr)")
                #expect(r.stderr.filter { $0 == "\n" }.count == 1)
                #expect(listing(dir) == before)
            } else if r.status == 0 {
                #expect(Set(listing(dir)) == Set(before + ["out.mp4"]))
                try FileManager.default.removeItem(atPath: dir + "/out.mp4")
            }
            // Far too few to probe anything: always the error.
            if limit == 12 { #expect(r.status == 1) }
        }
    }

    @Test(
        "under a memory limit: done, or an error; never a wait for a thread that did not start", arguments: [1_000_000, 800_000, 700_000])
    func littleMemory(kilobytes: Int) throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try makeMedia(dir)
        let r = try segueLimited("-v \(kilobytes)", ["concat", "a.mp4", "b.mp4", "a.mp4", "-o", "out.mp4"], cwd: dir)
        #expect(
            r.status == 0 || (r.status == 1 && r.stderr.hasPrefix("error: ")), "ulimit -v \(kilobytes): status \(r.status): \(r.stderr)")
        if r.status == 1 { #expect(!listing(dir).contains("out.mp4")) }
    }
}
