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

    // MARK: - Interrupt handler (in a child copy of this test process)

    #if os(Linux)
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func interruptRemovesTemporariesAndExits(signalNumber: Int32, status: Int32) throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--testing-library", "swift-testing", "--filter", "interruptHandlerChild"]
        process.environment = ProcessInfo.processInfo.environment.merging(["SEGUE_INTERRUPT_CHILD": dir.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: dir.file("ready")) && process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        try #require(FileManager.default.fileExists(atPath: dir.file("ready")), "child never got ready")
        #expect(dir.contents.contains { $0.contains(".segue-tmp-") })
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        #expect(dir.contents == ["keep.txt", "ready", "sleep.pid"])
        let sleeper = Int32(String(decoding: readFixture(dir.file("sleep.pid")), as: UTF8.self)) ?? 0
        #expect(sleeper > 0 && !isRunning(sleeper), "registered child process was killed")
    }

    private func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !stat.contains(") Z")
    }
    #endif
}

/// The child half of the interrupt test, in its own suite so that running it creates no
/// temporary directory (the child exits through the handler, so no deinit would remove one).
@Suite("Interrupt handler child")
struct InterruptHandlerChild {
    /// Runs only as the child of `interruptRemovesTemporariesAndExits`: registers temporaries and
    /// a child process, installs the handler, and waits to be interrupted.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SEGUE_INTERRUPT_CHILD"] != nil))
    func interruptHandlerChild() throws {
        let dir = ProcessInfo.processInfo.environment["SEGUE_INTERRUPT_CHILD"]!
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
        TemporaryFiles.installInterruptHandler()
        TemporaryFiles.installInterruptHandler()  // idempotent
        writeFixture([], to: dir + "/ready")
        Thread.sleep(forTimeInterval: 20)
        Issue.record("the interrupt never came")
        withExtendedLifetime(file) {}
    }
}
