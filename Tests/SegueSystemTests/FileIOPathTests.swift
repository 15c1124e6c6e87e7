// The one reading of a path's folder (the plan's, the spec's, the library's, the executable's,
// mkdir -p's parents and the folder an atomic publish syncs).
import SegueSystem
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
}
