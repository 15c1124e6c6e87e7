// `OutputGuard`: an output is compared with the inputs by identity — the same path spelled
// otherwise, a hard link, a symbolic link either way — and a directory output that holds an input
// is refused; outputs that are new, standard output and missing inputs pass.
import Foundation
import SegueSystem
import SegueTestSupport
import Testing

@testable import SegueMedia

@Suite("Outputs that are inputs")
struct OutputGuardTests {
    /// A new directory holding `in.png` (and `sub/`).
    private func directory() throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory("guard")
        try FileManager.default.createDirectory(atPath: scratch.file("sub"), withIntermediateDirectories: true)
        try Data("input".utf8).write(to: URL(fileURLWithPath: scratch.file("in.png")))
        return scratch
    }

    private func refusal(_ output: String, _ inputs: [OutputGuard.Input], directory: Bool = false) -> String? {
        do {
            try OutputGuard.check(output: output, inputs: inputs, replacesDirectory: directory)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("the same file by another spelling, a hard link, a symbolic link to it or from it: refused naming output and input")
    func identities() throws {
        let scratch = try directory(), dir = scratch.path
        let input = [OutputGuard.Input("the from image", dir + "/in.png")]
        try FileManager.default.linkItem(atPath: dir + "/in.png", toPath: dir + "/hard.png")
        try FileManager.default.createSymbolicLink(atPath: dir + "/soft.png", withDestinationPath: "in.png")
        #expect(
            refusal(dir + "/in.png", input)
                == "\(dir)/in.png: cannot write the output: it is the from image (\(dir)/in.png); writing it would destroy that input: choose another output"
        )
        #expect(refusal(dir + "/sub/../in.png", input)?.contains("it is the from image") == true)
        #expect(refusal(dir + "/hard.png", input)?.contains(", as a hard link;") == true)
        #expect(refusal(dir + "/soft.png", input)?.contains(", through a symbolic link;") == true)
        // The input given as the link, the output as the file.
        #expect(refusal(dir + "/in.png", [OutputGuard.Input("the to image", dir + "/soft.png")])?.contains("the to image") == true)
        // Not an input: a new file, another file, standard output; a missing input is skipped.
        try Data("other".utf8).write(to: URL(fileURLWithPath: dir + "/other.png"))
        for output in [dir + "/new.png", dir + "/other.png", "-"] { #expect(refusal(output, input) == nil, "\(output)") }
        #expect(refusal(dir + "/new.png", [OutputGuard.Input("clip 1", dir + "/missing.mp4")]) == nil)
    }

    @Test("a pipe, a device or a link to one is never an output: refused before anything is written")
    func specialFiles() throws {
        let scratch = try directory(), dir = scratch.path
        #expect(mkfifo(dir + "/pipe.png", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/to-pipe.png", withDestinationPath: "pipe.png")
        let reason = "which writing the output would replace with a file: give a file's path"
        #expect(refusal(dir + "/pipe.png", []) == "\(dir)/pipe.png: cannot write the output: it is a pipe (FIFO), \(reason)")
        #expect(refusal(dir + "/to-pipe.png", []) == "\(dir)/to-pipe.png: cannot write the output: it is a pipe (FIFO), \(reason)")
        #expect(refusal("/dev/null", []) == "/dev/null: cannot write the output: it is a device, \(reason)")
        #expect(refusal(dir + "/pipe.png", [], directory: true)?.contains("it is a pipe (FIFO)") == true)
    }

    @Test("an input not made yet is compared by its path; a directory output holding an input is refused only when replaced whole")
    func pathsAndDirectories() throws {
        let scratch = try directory(), dir = scratch.path
        let piece = [OutputGuard.Input("job 1's piece", dir + "/p.job-0001.mp4")]
        #expect(refusal(dir + "/sub/../p.job-0001.mp4", piece)?.contains("it is job 1's piece") == true)
        #expect(refusal(dir + "/p.job-0002.mp4", piece) == nil)
        let nested = [OutputGuard.Input("the from image", dir + "/sub/../in.png")]
        #expect(refusal(dir, nested, directory: true)?.contains("the directory holds the from image") == true)
        #expect(refusal(dir + "/sub", nested, directory: true) == nil)
        #expect(refusal(dir, nested, directory: false) == nil)
    }

    @Test("many outputs at once: the first output that is an input is refused, naming the first input it is")
    func manyOutputs() throws {
        let scratch = try directory(), dir = scratch.path
        try FileManager.default.linkItem(atPath: dir + "/in.png", toPath: dir + "/hard.png")
        let inputs = [
            OutputGuard.Input("clip 1", dir + "/sub/../in.png"), OutputGuard.Input("clip 2", dir + "/hard.png"),
            OutputGuard.Input("job 3's piece", dir + "/p.job-0003.mp4"), OutputGuard.Input("", ""),
        ]
        func refusal(_ outputs: [String]) -> String? {
            do {
                try OutputGuard.check(outputs: outputs, inputs: inputs)
                return nil
            } catch {
                return error.message
            }
        }
        let pieces = (0..<2000).map { dir + "/p.job-\($0 + 4).mp4" }
        #expect(refusal(pieces + ["-", ""]) == nil)
        // Both clips are the same file: the first named. Outputs are taken in their order.
        #expect(
            refusal(pieces + [dir + "/hard.png", dir + "/sub/../p.job-0003.mp4"])
                == "\(dir)/hard.png: cannot write the output: it is clip 1 (\(dir)/sub/../in.png), as a hard link; writing it would destroy that input: choose another output"
        )
        #expect(
            refusal([dir + "/./p.job-0003.mp4", dir + "/in.png"])
                == "\(dir)/./p.job-0003.mp4: cannot write the output: it is job 3's piece (\(dir)/p.job-0003.mp4): choose another output")
        // Each output alone gives what `check(output:)` gives.
        for output in [dir + "/in.png", dir + "/hard.png", dir + "/p.job-0003.mp4", dir + "/new.png"] {
            #expect(refusal([output]) == self.refusal(output, inputs), "\(output)")
        }
    }

    @Test("resolved paths: absolute, links followed, . and .. removed, the missing part by its text")
    func resolved() throws {
        let scratch = try TemporaryDirectory("resolved"), raw = scratch.path
        do {
            let dir = FileIO.resolvedPath(raw)
            try FileManager.default.createDirectory(atPath: dir + "/real/sub", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: "real/sub")
            #expect(FileIO.resolvedPath(dir + "/link") == dir + "/real/sub")
            #expect(FileIO.resolvedPath(dir + "/link/") == dir + "/real/sub")
            #expect(FileIO.resolvedPath(dir + "//real/./sub/..") == dir + "/real")
            #expect(FileIO.resolvedPath(dir + "/link/../x/./y/") == dir + "/real/x/y")
            #expect(FileIO.resolvedPath(dir + "/new/../other") == dir + "/other")
            #expect(FileIO.resolvedPath("/") == "/")
            #expect(FileIO.resolvedPath(".") == FileIO.resolvedPath(FileManager.default.currentDirectoryPath))
        }
    }
}
