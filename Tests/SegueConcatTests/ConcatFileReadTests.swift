// Spec and plan files are read through FileIO.readAll: a named pipe, a folder or a missing file
// is an error at once (never a wait for a writer), and a file over the limit names its size.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("Concat spec and plan files")
struct ConcatFileReadTests {
    @Test("a named pipe, a folder and a missing file are refused at once, naming the file")
    func notFiles() throws {
        let dir = try TemporaryDirectory("concat-read")
        let fifo = dir.file("spec.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, dir.path, dir.file("none.json")] {
            #expect(throws: MediaError.self) { _ = try Concatenation.readSpec(path: path) }
            #expect(throws: MediaError.self) { _ = try ConcatPlan.read(path: path) }
        }
        do {
            _ = try Concatenation.readSpec(path: fifo)
        } catch {
            #expect("\(error)".hasPrefix(fifo + ": ") && "\(error)".contains("pipe"), "\(error)")
        }
    }

    @Test("a file over the limit names its size and the limit")
    func tooLarge() throws {
        let dir = try TemporaryDirectory("concat-read")
        let path = dir.file("big.json")
        try Data(repeating: 0x20, count: ConcatSpec.maximumFileSize + 1).write(to: URL(fileURLWithPath: path))
        #expect(
            throws: CompositionError(
                "\(path): the spec is \(ConcatSpec.maximumFileSize + 1) bytes; the limit is \(ConcatSpec.maximumFileSize)")
        ) {
            _ = try Concatenation.readSpec(path: path)
        }
    }
}
