// FileIO.readPrefix: a file's first bytes, and a pipe read as its writer writes, never waited on
// for ever.
import Foundation
import SegueSystem
import SegueTestSupport
import Testing

@Suite("FileIO reads")
struct FileIOReadTests {
    @Test("the first bytes of a regular file, or all of a shorter one")
    func regularFile() throws {
        let scratch = try TemporaryDirectory("reads"), path = scratch.path + "/data"
        try Data("abcdef".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try FileIO.readPrefix(path: path, count: 4) == Array("abcd".utf8))
        #expect(try FileIO.readPrefix(path: path, count: 100) == Array("abcdef".utf8))
        #expect(throws: SystemError.fileNotFound(path: path + ".missing")) { try FileIO.readPrefix(path: path + ".missing", count: 4) }
    }

    @Test("a FIFO nothing writes to is an error after the timeout (it blocked in open for ever)")
    func fifoWithoutWriter() throws {
        let scratch = try TemporaryDirectory("reads"), path = scratch.path + "/pipe"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(
            throws: SystemError.unreadable(path: path, reason: "no data came through the pipe in 0.2 s (a FIFO that nothing writes to?)")
        ) {
            try FileIO.readPrefix(path: path, count: 16, timeout: 0.2)
        }
    }

    @Test("a FIFO whose writer comes later and writes in pieces is read whole, up to its end")
    func fifoWithLateWriter() throws {
        let scratch = try TemporaryDirectory("reads"), path = scratch.path + "/pipe"
        #expect(mkfifo(path, 0o600) == 0)
        let writer = Thread {
            usleep(100_000)
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { return }
            for piece in ["one ", "two ", "three"] {
                _ = piece.withCString { write(fd, $0, strlen($0)) }
                usleep(20_000)
            }
            close(fd)
        }
        writer.start()
        #expect(try FileIO.readPrefix(path: path, count: 64, timeout: 30) == Array("one two three".utf8))
    }
}
