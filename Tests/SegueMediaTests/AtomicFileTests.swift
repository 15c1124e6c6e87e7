import Foundation
import Testing
@testable import SegueMedia

#if canImport(Glibc)
import Glibc
#endif

@Suite("Atomic output and temporary files")
struct AtomicFileTests {
    private let dir = TemporaryDirectory()

    @Test func writesAndReplaces() throws {
        let path = dir.file("data.bin")
        try AtomicFile.write([1, 2, 3], to: path)
        #expect(readFixture(path) == [1, 2, 3])
        try AtomicFile.write(Array(repeating: 9, count: 100_000), to: path)
        #expect(readFixture(path) == Array(repeating: 9, count: 100_000))
        #expect(dir.contents == ["data.bin"])
    }

    @Test func temporaryIsHiddenNextToTheDestinationAndRegistered() throws {
        let path = dir.file("frame.png")
        let token = Cancellation()
        let file = try AtomicFile(path: path, cancellation: token)
        let name = FileIO.lastComponent(of: file.temporaryPath)
        #expect(FileIO.directory(of: file.temporaryPath) == dir.path)
        #expect(name.hasPrefix(".frame.png.segue-tmp-\(getpid())-"))
        #expect(token.registeredPaths == [file.temporaryPath])
        try file.write([42])
        #expect(dir.contents == [name])
        try file.commit()
        #expect(token.registeredPaths.isEmpty)
        #expect(dir.contents == ["frame.png"])
    }

    @Test func failingWriteLeavesTheDestinationUntouched() throws {
        let path = dir.file("keep.txt")
        writeFixture(Array("original".utf8), to: path)
        var temporary = ""
        let token = Cancellation()
        let error = mediaError { () throws(MediaError) in
            try AtomicFile.write(to: path, cancellation: token) { (file) throws(MediaError) in
                temporary = file.temporaryPath
                try file.write(Array("half of the new cont".utf8))
                throw MediaError.writeFailed(path: path, reason: "simulated disk full")
            }
        }
        #expect(error == .writeFailed(path: path, reason: "simulated disk full"))
        #expect(readFixture(path) == Array("original".utf8))
        #expect(dir.contents == ["keep.txt"], "no temporary left behind")
        #expect(!temporary.isEmpty && token.registeredPaths.isEmpty)
    }

    @Test func droppedWithoutCommitIsDiscarded() throws {
        let token = Cancellation()
        do {
            let file = try AtomicFile(path: dir.file("never.bin"), cancellation: token)
            #expect(token.registeredPaths == [file.temporaryPath])
            try file.write([1, 2, 3])
        }
        #expect(dir.contents.isEmpty)
        #expect(token.registeredPaths.isEmpty)
    }

    @Test func failingRenameLeavesNoTemporary() throws {
        // A non-empty directory appears at the destination after the temporary was opened.
        let path = dir.file("late")
        let file = try AtomicFile(path: path)
        try file.write([1])
        try FileManager.default.createDirectory(atPath: path + "/inner", withIntermediateDirectories: true)
        let error = mediaError { () throws(MediaError) in try file.commit() }
        guard case .unwritable(path, let reason)? = error else {
            Issue.record("expected .unwritable, got \(String(describing: error))"); return
        }
        #expect(reason.contains("directory"))
        #expect(dir.contents == ["late"])
    }

    @Test func missingDirectory() {
        let path = dir.file("no/such/dir/file.bin")
        let error = mediaError { () throws(MediaError) in try AtomicFile.write([1], to: path) }
        #expect(error == .unwritable(path: path, reason: "the directory \(dir.file("no/such/dir")) does not exist"))
    }

    @Test func registryIsThreadSafe() async {
        let token = Cancellation()
        let paths = (0..<400).map { "/nonexistent/segue-registry-test-\($0)" }
        await withTaskGroup(of: Void.self) { group in
            for chunk in stride(from: 0, to: paths.count, by: 50) {
                group.addTask {
                    for path in paths[chunk..<chunk + 50] { token.register(path) }
                    for path in paths[chunk..<chunk + 50] where path.hasSuffix("0") { token.unregister(path) }
                }
            }
        }
        #expect(token.registeredPaths == paths.filter { !$0.hasSuffix("0") }.sorted())
    }

    // MARK: - Cancelling one token

    #if os(Linux)
    @Test("cancel() kills its children, removes its temporaries and refuses its later writes; another token's work and the signal handlers are untouched")
    func cancelCleansUpItsOwnWork() throws {
        func handler(_ signalNumber: Int32) -> UInt {
            var action = sigaction()
            sigaction(signalNumber, nil, &action)
            return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
        }
        let before = [SIGINT, SIGTERM, SIGHUP, SIGPIPE].map(handler)
        let token = Cancellation(), other = Cancellation()
        writeFixture(Array("kept".utf8), to: dir.file("keep.txt"))
        let file = try AtomicFile(path: dir.file("keep.txt"), cancellation: token)
        try file.write(Array("partial".utf8))
        let otherFile = try AtomicFile(path: dir.file("other.txt"), cancellation: other)
        try otherFile.write(Array("other's".utf8))
        let tmpDir = dir.file(".frames.segue-tmp-dir")
        try FileManager.default.createDirectory(atPath: tmpDir + "/sub", withIntermediateDirectories: true)
        writeFixture([1, 2, 3], to: tmpDir + "/sub/frame-00000.png")
        token.register(tmpDir)
        func sleeper(_ owner: Cancellation) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sleep")
            process.arguments = ["60"]
            let started = owner.launch { Result { () throws -> Int32 in try process.run(); return process.processIdentifier } }
            _ = try #require(started).get()
            return process
        }
        let mine = try sleeper(token), theirs = try sleeper(other)
        defer { for p in [mine, theirs] where p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() } }

        token.cancel()
        #expect(token.isCancelled && !other.isCancelled)
        #expect(!isRunning(mine.processIdentifier), "the token's child process was killed")
        #expect(isRunning(theirs.processIdentifier), "another token's child runs on")
        // The kept file is the user's; the token's temporaries (a partial file, a frame directory)
        // are gone; the other token's temporary is still there.
        #expect(readFixture(dir.file("keep.txt")) == Array("kept".utf8))
        #expect(Set(dir.contents) == ["keep.txt", FileIO.lastComponent(of: otherFile.temporaryPath)])
        let late = mediaError { () throws(MediaError) in try AtomicFile.write(Array("late".utf8), to: dir.file("late.txt"), cancellation: token) }
        #expect(late == .cancelled(path: dir.file("late.txt")))
        #expect(!FileManager.default.fileExists(atPath: dir.file("late.txt")))
        // Work under another token (or none) goes on.
        try otherFile.commit()
        try AtomicFile.write(Array("free".utf8), to: dir.file("free.txt"))
        #expect(readFixture(dir.file("other.txt")) == Array("other's".utf8) && readFixture(dir.file("free.txt")) == Array("free".utf8))
        #expect([SIGINT, SIGTERM, SIGHUP, SIGPIPE].map(handler) == before, "the library installs no signal handler")
        withExtendedLifetime(file) {}
    }

    @Test("a child token: its parent's cancel() stops it too; its own cancel() leaves its parent and siblings alone; one made after the parent's cancel() starts cancelled")
    func childTokens() throws {
        let parent = Cancellation()
        let child = parent.child(), sibling = parent.child()
        let childFile = try AtomicFile(path: dir.file("child.txt"), cancellation: child)
        let parentFile = try AtomicFile(path: dir.file("parent.txt"), cancellation: parent)
        let siblingFile = try AtomicFile(path: dir.file("sibling.txt"), cancellation: sibling)
        for file in [childFile, parentFile, siblingFile] { try file.write([7]) }
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["60"]
        _ = try #require(sibling.launch { Result { () throws -> Int32 in try sleeper.run(); return sleeper.processIdentifier } }).get()
        defer { if sleeper.isRunning { kill(sleeper.processIdentifier, SIGKILL); sleeper.waitUntilExit() } }
        let temporaries = { Set(self.dir.contents) }
        let all = Set([childFile, parentFile, siblingFile].map { FileIO.lastComponent(of: $0.temporaryPath) })
        #expect(temporaries() == all)

        child.cancel()
        #expect(child.isCancelled && !parent.isCancelled && !sibling.isCancelled)
        #expect(temporaries() == all.subtracting([FileIO.lastComponent(of: childFile.temporaryPath)]), "only the child's temporary is gone")
        #expect(isRunning(sleeper.processIdentifier), "the sibling's process runs on")
        try parentFile.commit()
        #expect(readFixture(dir.file("parent.txt")) == [7], "the parent's work goes on")

        parent.cancel()
        #expect(sibling.isCancelled, "the parent's cancel() reaches its children")
        #expect(!isRunning(sleeper.processIdentifier), "the sibling's process was killed")
        #expect(dir.contents == ["parent.txt"], "the sibling's temporary is gone; the published file is the caller's")
        #expect(parent.child().isCancelled, "a child of a cancelled token starts cancelled")
        withExtendedLifetime(childFile) {}
        withExtendedLifetime(siblingFile) {}
    }

    private func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !stat.contains(") Z")
    }
    #endif
}
