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
        let file = try AtomicFile(path: path)
        let name = FileIO.lastComponent(of: file.temporaryPath)
        #expect(FileIO.directory(of: file.temporaryPath) == dir.path)
        #expect(name.hasPrefix(".frame.png.segue-tmp-\(getpid())-"))
        #expect(TemporaryFiles.registeredPaths.contains(file.temporaryPath))
        try file.write([42])
        #expect(dir.contents == [name])
        try file.commit()
        #expect(!TemporaryFiles.registeredPaths.contains(file.temporaryPath))
        #expect(dir.contents == ["frame.png"])
    }

    @Test func failingWriteLeavesTheDestinationUntouched() throws {
        let path = dir.file("keep.txt")
        writeFixture(Array("original".utf8), to: path)
        var temporary = ""
        let error = mediaError { () throws(MediaError) in
            try AtomicFile.write(to: path) { (file) throws(MediaError) in
                temporary = file.temporaryPath
                try file.write(Array("half of the new cont".utf8))
                throw MediaError.writeFailed(path: path, reason: "simulated disk full")
            }
        }
        #expect(error == .writeFailed(path: path, reason: "simulated disk full"))
        #expect(readFixture(path) == Array("original".utf8))
        #expect(dir.contents == ["keep.txt"], "no temporary left behind")
        #expect(!TemporaryFiles.registeredPaths.contains(temporary))
    }

    @Test func droppedWithoutCommitIsDiscarded() throws {
        var temporary = ""
        do {
            let file = try AtomicFile(path: dir.file("never.bin"))
            temporary = file.temporaryPath
            try file.write([1, 2, 3])
        }
        #expect(dir.contents.isEmpty)
        #expect(!TemporaryFiles.registeredPaths.contains(temporary))
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
        let paths = (0..<400).map { "/nonexistent/segue-registry-test-\($0)" }
        await withTaskGroup(of: Void.self) { group in
            for chunk in stride(from: 0, to: paths.count, by: 50) {
                group.addTask {
                    for path in paths[chunk..<chunk + 50] { TemporaryFiles.register(path) }
                    for path in paths[chunk..<chunk + 50] { TemporaryFiles.unregister(path) }
                }
            }
        }
        #expect(TemporaryFiles.registeredPaths.allSatisfy { !$0.hasPrefix("/nonexistent/segue-registry-test-") })
    }

    // MARK: - Stopping everything (in a child copy of this test process: it is irreversible)

    #if os(Linux)
    @Test("cancelAll kills the registered children, removes the temporaries, refuses later writes, and installs no signal handler")
    func cancelAllCleansUp() throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--testing-library", "swift-testing", "--filter", "cancelAllChild"]
        process.environment = ProcessInfo.processInfo.environment.merging(["SEGUE_CANCEL_CHILD": dir.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) }; process.waitUntilExit() }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: dir.file("done")) && process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        try #require(FileManager.default.fileExists(atPath: dir.file("done")), "the child never finished cancelling")
        // The kept file is the user's; the temporaries (a partial file and a frame directory) are gone.
        #expect(dir.contents == ["done", "keep.txt", "late-write", "signals", "sleep.pid"])
        #expect(readFixture(dir.file("keep.txt")) == Array("kept".utf8))
        let sleeper = Int32(String(decoding: readFixture(dir.file("sleep.pid")), as: UTF8.self)) ?? 0
        #expect(sleeper > 0 && !isRunning(sleeper), "the registered child process was killed")
        #expect(String(decoding: readFixture(dir.file("late-write")), as: UTF8.self) == "\(dir.file("late.txt")): not written: the work was stopped")
        #expect(String(decoding: readFixture(dir.file("signals")), as: UTF8.self) == "unchanged", "the library installs no signal handler")
    }

    private func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !stat.contains(") Z")
    }
    #endif
}

/// The child half of `cancelAllCleansUp`, in its own suite so that running it creates no
/// temporary directory of its own.
@Suite("Cancel-all child")
struct CancelAllChild {
    /// Runs only as the child of `cancelAllCleansUp`: registers temporaries and a child process,
    /// cancels everything, records what a later write and the signal dispositions say, and waits.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SEGUE_CANCEL_CHILD"] != nil))
    func cancelAllChild() throws {
        let dir = ProcessInfo.processInfo.environment["SEGUE_CANCEL_CHILD"]!
        func handler(_ signalNumber: Int32) -> UInt {
            var action = sigaction()
            sigaction(signalNumber, nil, &action)
            return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
        }
        let before = [SIGINT, SIGTERM, SIGHUP, SIGPIPE].map(handler)
        writeFixture(Array("kept".utf8), to: dir + "/keep.txt")
        let file = try AtomicFile(path: dir + "/keep.txt")
        try file.write(Array("partial".utf8))
        let tmpDir = dir + "/.frames.segue-tmp-dir"
        try FileManager.default.createDirectory(atPath: tmpDir + "/sub", withIntermediateDirectories: true)
        writeFixture([1, 2, 3], to: tmpDir + "/sub/frame-00000.png")
        TemporaryFiles.register(tmpDir)
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["60"]
        try sleeper.run()
        TemporaryFiles.register(process: sleeper.processIdentifier)
        writeFixture(Array(String(sleeper.processIdentifier).utf8), to: dir + "/sleep.pid")
        TemporaryFiles.cancelAll()
        let late = mediaError { () throws(MediaError) in try AtomicFile.write(Array("late".utf8), to: dir + "/late.txt") }
        writeFixture(Array((late?.description ?? "written").utf8), to: dir + "/late-write")
        let after = [SIGINT, SIGTERM, SIGHUP, SIGPIPE].map(handler)
        writeFixture(Array((before == after ? "unchanged" : "changed").utf8), to: dir + "/signals")
        writeFixture([], to: dir + "/done")
        Thread.sleep(forTimeInterval: 20)
        withExtendedLifetime(file) {}
    }
}
