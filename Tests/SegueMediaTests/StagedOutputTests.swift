// The one atomic publish (`AtomicPublish` in SegueCore, registered with a `Cancellation` by
// `StagedOutput`): files and directories are made beside their destination, registered while
// they are made, and moved onto it whole; a failure leaves the destination as it was.
import Foundation
import SegueCore
import Testing
@testable import SegueMedia

#if canImport(Glibc)
import Glibc
#endif

@Suite("Staged outputs: one atomic publish for files and directories")
struct StagedOutputTests {
    private let dir = TemporaryDirectory()

    @Test("a file: hidden beside its destination and registered until published over the old file")
    func file() throws {
        let path = dir.file("out.bin")
        writeFixture([1, 2, 3], to: path)
        let token = Cancellation()
        let staged = try StagedOutput(file: path, suffix: ".mp4", cancellation: token)
        #expect(FileIO.directory(of: staged.temporaryPath) == dir.path)
        #expect(FileIO.lastComponent(of: staged.temporaryPath).hasPrefix(".out.bin.segue-tmp-\(getpid())-"))
        #expect(staged.temporaryPath.hasSuffix(".mp4"))
        #expect(token.registeredPaths == [staged.temporaryPath])
        #expect([UInt8](repeating: 7, count: 5).withUnsafeBytes { FileIO.writeAll(staged.descriptor, $0) } == nil)
        #expect(readFixture(path) == [1, 2, 3], "the old file until publish")
        try staged.publish()
        #expect(readFixture(path) == [7, 7, 7, 7, 7])
        #expect(dir.contents == ["out.bin"])
        #expect(token.registeredPaths.isEmpty)
    }

    @Test("a file written by another process (the descriptor closed) is published the same way")
    func fileWrittenElsewhere() throws {
        let path = dir.file("movie.mp4")
        let staged = try StagedOutput(file: path)
        staged.closeDescriptor()
        writeFixture([9, 9], to: staged.temporaryPath)
        try staged.publish()
        #expect(readFixture(path) == [9, 9])
        #expect(dir.contents == ["movie.mp4"])
    }

    @Test("a directory replaces the old one whole: none of its files survive, nothing is left aside")
    func directoryReplacesTheOldOne() throws {
        let path = dir.file("frames")
        try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
        writeFixture([1], to: path + "/frame-00000.png")
        writeFixture([1], to: path + "/sub/old")
        let token = Cancellation()
        let staged = try StagedOutput(directory: path, cancellation: token)
        #expect(token.registeredPaths == [staged.temporaryPath])
        try AtomicFile.write([2], to: staged.temporaryPath + "/frame-00001.png")
        #expect(readFixture(path + "/frame-00000.png") == [1], "the old directory until publish")
        try staged.publish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["frame-00001.png"])
        #expect(readFixture(path + "/frame-00001.png") == [2])
        #expect(dir.contents == ["frames"])
        #expect(token.registeredPaths.isEmpty)
    }

    @Test("a directory onto a file: refused naming the file, which stays; the staged directory is removed")
    func directoryOntoAFile() throws {
        let path = dir.file("site")
        let token = Cancellation()
        let staged = try StagedOutput(directory: path, cancellation: token)
        writeFixture([5], to: path)  // appears while the directory is being made
        writeFixture([1], to: staged.temporaryPath + "/index.html")
        let error = mediaError { () throws(MediaError) in try staged.publish() }
        #expect(error == .unwritable(path: path, reason: "a file is in the way"))
        #expect(readFixture(path) == [5])
        #expect(dir.contents == ["site"])
        #expect(token.registeredPaths.isEmpty)
    }

    @Test("discarded or dropped unpublished: nothing is left and nothing stays registered")
    func discarded() throws {
        let token = Cancellation()
        let file = try StagedOutput(file: dir.file("a.bin"), cancellation: token)
        let directory = try StagedOutput(directory: dir.file("d"), cancellation: token)
        writeFixture([1], to: directory.temporaryPath + "/x")
        #expect(token.registeredPaths == [file.temporaryPath, directory.temporaryPath].sorted())
        file.discard()
        file.discard()
        directory.discard()
        do { _ = try StagedOutput(directory: dir.file("e"), cancellation: token) }  // dropped at once
        #expect(dir.contents.isEmpty)
        #expect(token.registeredPaths.isEmpty)
    }

    @Test("a missing directory is named")
    func missingDirectory() {
        let path = dir.file("no/such/out")
        #expect(mediaError { () throws(MediaError) in try StagedOutput(directory: path) }
            == .unwritable(path: path, reason: "the directory \(dir.file("no/such")) does not exist"))
        #expect(mediaError { () throws(MediaError) in try StagedOutput(file: path) }
            == .unwritable(path: path, reason: "the directory \(dir.file("no/such")) does not exist"))
    }

    @Test("a full disk reads the same from a file Segue writes and from one ffmpeg writes")
    func writeFailureWords() {
        #expect(FileIO.writeFailure(ENOSPC) == "no space left on device")
        let seen = FFmpegWriteErrors()
        _ = seen.offer("[mp4 @ 0x1] Error writing trailer: \(FileIO.message(EDQUOT))")
        #expect(seen.problem == FileIO.writeFailure(EDQUOT))
        for (code, reason) in FileIO.writeFailures {
            let watcher = FFmpegWriteErrors()
            _ = watcher.offer("av_interleaved_write_frame(): \(FileIO.message(code))")
            #expect(watcher.problem == reason)
        }
    }

    @Test("the shared write loop and publish in SegueCore: a whole file, no temporary")
    func corePublish() throws {
        let path = dir.file("entry.spv")
        try AtomicPublish.write([1, 2, 3, 4], to: path)
        try AtomicPublish.write([5], to: path)
        #expect(readFixture(path) == [5])
        #expect(dir.contents == ["entry.spv"])
        #expect(throws: AtomicPublish.Failure(step: .create, code: ENOENT)) { try AtomicPublish.write([1], to: dir.file("none/x")) }
    }

    @Test("leftovers: a gone process's temporaries of the named files are removed; this process's, a live one's and other files' stay")
    func leftovers() throws {
        let path = dir.file("p.job-0001.mp4")
        let mine = try StagedOutput(file: path, suffix: ".mp4")
        let dead = dir.file(".p.job-0001.mp4.segue-tmp-999999999-00000000000000ab.mp4")
        let live = dir.file(".p.job-0001.mp4.segue-tmp-1-00000000000000ab.mp4")  // init never ends
        let other = dir.file(".p.job-0002.mp4.segue-tmp-999999999-00000000000000ab.mp4")
        let lookalike = dir.file(".p.job-0001.mp4.segue-tmp-x-1")
        for file in [dead, live, other, lookalike] { writeFixture([1], to: file) }
        #expect(AtomicPublish.owner(ofTemporary: FileIO.lastComponent(of: dead), among: ["p.job-0001.mp4"]) == 999_999_999)
        #expect(AtomicPublish.owner(ofTemporary: FileIO.lastComponent(of: lookalike), among: ["p.job-0001.mp4"]) == nil)
        AtomicPublish.removeTemporaries(of: ["p.job-0001.mp4"], in: dir.path, onlyOrphans: true)
        let name = FileIO.lastComponent
        #expect(dir.contents == [name(live), name(mine.temporaryPath), name(lookalike), name(other)].sorted())
        // After a join every temporary of the named files goes, whoever made it.
        AtomicPublish.removeTemporaries(of: ["p.job-0001.mp4", "p.job-0002.mp4"], in: dir.path, onlyOrphans: false)
        #expect(dir.contents == [name(lookalike)])
        mine.discard()
    }
}
