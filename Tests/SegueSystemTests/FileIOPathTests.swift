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
}
