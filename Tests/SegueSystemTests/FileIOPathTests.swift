// The one reading of a path's folder (the plan's, the spec's, the library's, the executable's,
// mkdir -p's parents and the folder an atomic publish syncs).
import Foundation
import SegueSystem
import SegueTestSupport
import Testing

@Suite("FileIO paths")
struct FileIOPathTests {
    @Test("the folder a path is in: '.' for a bare name, '/' in the root, trailing and doubled slashes ignored")
    func directory() {
        let cases: [(String, String)] = [
            ("plan.json", "."), ("./plan.json", "."), ("a/plan.json", "a"), ("/a/b/plan.json", "/a/b"), ("/plan.json", "/"),
            ("a/b/", "a"), ("a//b", "a"), ("/a/", "/"), ("/", "/"), ("//", "/"), ("a/", "."), ("../x", ".."), ("", "."),
        ]
        for (path, folder) in cases { #expect(FileIO.directory(of: path) == folder, "\(path)") }
    }

    @Test("mkdir -p says which folder it could not make: the leaf, or the parent a file is in the way of")
    func directoryCreation() throws {
        let scratch = try TemporaryDirectory("paths"), dir = scratch.path
        try "x".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
        #expect(FileIO.directoryCreationProblem(dir + "/a/b/c") == nil)
        #expect(FileIO.isDirectory(dir + "/a/b/c"))
        #expect(FileIO.directoryCreationProblem(dir + "/a/b/c") == nil, "an existing folder is no problem")
        #expect(FileIO.directoryCreationProblem(dir + "/file") == "a file is in the way of the directory")
        #expect(FileIO.directoryCreationProblem(dir + "/file/sub/leaf") == "a file is in the way of the directory \(dir)/file")
    }

    @Test(
        "a run's folders: those it made go when it throws or is cancelled; one that was there keeps its files; after success the token forgets them"
    )
    func runsOwnFolders() throws {
        struct Stop: Error {}
        let scratch = try TemporaryDirectory("paths"), dir = scratch.path
        // Made for the run, which fails: the outermost folder it made goes, with what the run wrote.
        #expect(throws: Stop.self) {
            try FileIO.withDirectories(dir + "/a/b/c", cancellation: nil) {
                writeFixture([1], to: dir + "/a/b/c/partial.png")
                throw Stop()
            }
        }
        #expect(listing(dir).isEmpty)
        // A folder that was there keeps its files, and a new leaf under it is the run's.
        try FileManager.default.createDirectory(atPath: dir + "/mine", withIntermediateDirectories: true)
        writeFixture([2], to: dir + "/mine/notes.txt")
        #expect(throws: Stop.self) { try FileIO.withDirectories(dir + "/mine/out", cancellation: nil) { throw Stop() } }
        #expect(listing(dir + "/mine") == ["notes.txt"])
        // Cancelled while it runs (Ctrl-C): the token removes the folders the run made.
        let token = Cancellation()
        try FileIO.withDirectories(dir + "/x/y", cancellation: token) {
            writeFixture([3], to: dir + "/x/y/frame.png")
            token.cancel()
        }
        #expect(listing(dir) == ["mine"])
        // Succeeded: the folders stay, and a later cancel of the token leaves them.
        let later = Cancellation()
        #expect(try FileIO.withDirectories(dir + "/done/sub", cancellation: later) { 7 } == 7)
        later.cancel()
        #expect(FileIO.isDirectory(dir + "/done/sub"))
        // A folder that cannot be made: the error says why; nothing of it is left.
        writeFixture([4], to: dir + "/file")
        #expect(throws: SystemError.unwritable(path: dir + "/file/q", reason: "a file is in the way of the directory \(dir)/file")) {
            try FileIO.withDirectories(dir + "/file/q", cancellation: nil) {}
        }
        #expect(listing(dir) == ["done", "file", "mine"])
        #expect(try FileIO.createDirectories(dir + "/n1/n2") == dir + "/n1", "the outermost folder made")
        #expect(try FileIO.createDirectories(dir + "/n1/n2") == nil, "nothing made")
    }
}
