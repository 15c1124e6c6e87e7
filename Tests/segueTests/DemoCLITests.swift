// `segue demo`, the README's main job: every Segue transition as a video, the contact sheet and
// the mesh sheet, at a small scale.
import Foundation
import Segue
import SegueTestSupport
import SegueTools
import Testing

@Suite("segue demo")
struct DemoCLITests {
    @Test("writes a video per transition, the samples, a contact sheet and the mesh sheet")
    func demo() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let out = dir + "/demo"
        let r = try segue(["demo", "--scale", "0.25", "--fps", "4", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let names = Demo.transitions.map(\.name)
        #expect(
            listing(out) == (["contact-sheet.png", "meshes.png", "sample-from.png", "sample-to.png"] + names.map { $0 + ".mp4" }).sorted())
        for name in names { #expect(r.text.contains("  \(name)"), "\(name) not reported") }
        // The sample screens are 390×844 points; the sheet holds a third-size tile per progress.
        let from = try ImageFile.read(path: out + "/sample-from.png")
        #expect(from.width == 98 && from.height == 211)
        let sheet = try ImageFile.read(path: out + "/contact-sheet.png")
        let (w, h) = (from.width / 3, from.height / 3), gap = 8
        #expect(sheet.width == 5 * w + 6 * gap && sheet.height == names.count * h + (names.count + 1) * gap)
        // Top-left tile: progress 0 of the first transition is the from screen, made small.
        let small = try TransitionRenderer(
            effect: EffectCatalog.builtIn(named: names[0])!, from: from,
            to: try ImageFile.read(path: out + "/sample-to.png"), width: w, height: h, context: try TestGPU.context(), framesInFlight: 1)
        let tile = try small.frame(progress: 0, time: 0, duration: 1)
        for (x, y) in [(0, 0), (w / 2, h / 2), (w - 1, h - 1)] { #expect(sheet[gap + x, gap + y] == tile[x, y]) }
    }

    @Test("a file where the output folder goes: one error line in the words every command uses, the file untouched")
    func fileInTheWay() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try "x".write(toFile: dir + "/taken", atomically: true, encoding: .utf8)
        let r = try segue(["demo", "-o", dir + "/taken"])
        #expect(r.status == 1)
        #expect(r.stderr.hasSuffix("error: \(dir)/taken: cannot write the output: a file is in the way of the directory\n"), "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/taken", encoding: .utf8) == "x")
    }

    @Test("a demo that fails part-way (its files limited to 8 KiB) takes the folder it made away again; one that was there keeps its files")
    func failurePartWay() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        func limited(_ out: String) throws -> ToolResult {
            try runProduct("/bin/bash", ["-c", "ulimit -f 8 && exec \"$0\" \"$@\"", segueBinary, "demo", "--scale", "0.1", "-o", out])
        }
        let made = try limited(dir + "/new")
        #expect(made.status == 1 && made.stderr.hasPrefix("error: \(dir)/new/"), "\(made.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/new"), "\(listing(dir + "/new"))")
        // A folder an earlier demo wrote (its mesh sheet, written last, stands for it here).
        try FileManager.default.createDirectory(atPath: dir + "/earlier", withIntermediateDirectories: true)
        try "sheet".write(toFile: dir + "/earlier/meshes.png", atomically: true, encoding: .utf8)
        #expect(try limited(dir + "/earlier").status == 1)
        #expect(try String(contentsOfFile: dir + "/earlier/meshes.png", encoding: .utf8) == "sheet")
        #expect(!listing(dir + "/earlier").contains { $0.contains("segue-tmp") }, "\(listing(dir + "/earlier"))")
    }

    @Test("a folder holding anything the demo does not write is refused before any work (the demo replaced same-named files in it)")
    func foreignFolder() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try FileManager.default.createDirectory(atPath: dir + "/mine", withIntermediateDirectories: true)
        try "notes".write(toFile: dir + "/mine/notes.txt", atomically: true, encoding: .utf8)
        try "my sheet".write(toFile: dir + "/mine/contact-sheet.png", atomically: true, encoding: .utf8)
        let noDevice = ["VK_DRIVER_FILES": "/nonexistent/icd.json", "VK_ICD_FILENAMES": "/nonexistent/icd.json"]
        let r = try segue(["demo", "-o", dir + "/mine"], environment: noDevice)
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "error: \(dir)/mine: cannot write the output: the folder holds 'notes.txt', which the demo does not write, and the demo "
                + "replaces its files by name: give a new or empty folder, or one an earlier demo wrote\n")
        #expect(listing(dir + "/mine") == ["contact-sheet.png", "notes.txt"])
        #expect(try String(contentsOfFile: dir + "/mine/contact-sheet.png", encoding: .utf8) == "my sheet")
        let empty = try segue(["demo", "-o", ""], environment: noDevice)
        #expect(empty.status == 1 && empty.stderr == "error: '': cannot write the output: the path is empty\n", "\(empty.stderr)")
    }

    @Test("bad settings: one error line, exit 1, found before a device is opened (there is none here)")
    func badSettings() throws {
        // Checked up front like every command's flags, so with the --help pointer of a usage mistake.
        let noDevice = ["VK_DRIVER_FILES": "/nonexistent/icd.json", "VK_ICD_FILENAMES": "/nonexistent/icd.json"]
        let cases: [([String], String)] = [
            (["--scale", "9"], "--scale must be in [0.1, 4], got 9"),
            (["--scale", "0"], "--scale must be in [0.1, 4], got 0"),
            (["--scale", "nan"], "--scale must be in [0.1, 4], got NaN"),
            // (At 0.001 the sample screens rounded to no pixels, and the demo stopped on a precondition.)
            (["--scale", "0.001"], "--scale must be in [0.1, 4], got 0.001"),
            (["--fps", "0.5"], "--fps must be a number from 1 to 1000, got 0.5"),
        ]
        for (flags, message) in cases {
            let r = try segue(["demo"] + flags + ["-o", "/nonexistent/x"], environment: noDevice)
            #expect(r.status == 1 && r.stderr == "error: \(message) (see 'segue demo --help')\n", "\(flags): \(r.stderr)")
        }
    }
}
