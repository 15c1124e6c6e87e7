// The one atomic publish (`StagedOutput`, its steps in `AtomicPublish`): files and directories
// are made beside their destination, registered with a `Cancellation` while they are made, and
// moved onto it whole; a failure, a cancellation, or a crash after any step leaves the destination
// as it was or as the new one, never part of either. And the tokens themselves: cancel() kills
// its children and removes its temporaries, never another token's.
import FoundationEssentials
import SegueSystem
import SegueTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Staged outputs: one atomic publish for files and directories")
struct StagedOutputTests {
    private let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory("system") }

    @Test func writesAndReplaces() throws {
        let path = dir.file("data.bin")
        try StagedOutput.write([1, 2, 3], to: path)
        #expect(readFixture(path) == [1, 2, 3])
        try StagedOutput.write(Array(repeating: 9, count: 100_000), to: path)
        #expect(readFixture(path) == Array(repeating: 9, count: 100_000))
        #expect(dir.contents == ["data.bin"])
    }

    @Test func temporaryIsHiddenNextToTheDestinationAndRegistered() throws {
        let path = dir.file("frame.png")
        let token = Cancellation()
        let file = try StagedOutput(file: path, cancellation: token)
        let name = FileIO.lastComponent(of: file.temporaryPath)
        #expect(FileIO.directory(of: file.temporaryPath) == dir.path)
        #expect(name.hasPrefix(".frame.png.segue-tmp-\(getpid())-"))
        #expect(token.registeredPaths == [file.temporaryPath])
        try file.write([42])
        #expect(dir.contents == [name])
        try file.publish()
        #expect(token.registeredPaths.isEmpty)
        #expect(dir.contents == ["frame.png"])
    }

    @Test func failingWriteLeavesTheDestinationUntouched() throws {
        let path = dir.file("keep.txt")
        writeFixture(Array("original".utf8), to: path)
        var temporary = ""
        let token = Cancellation()
        let error = systemError { () throws(SystemError) in
            try StagedOutput.write(to: path, cancellation: token) { (file) throws(SystemError) in
                temporary = file.temporaryPath
                try file.write(Array("half of the new cont".utf8))
                throw SystemError.writeFailed(path: path, reason: "simulated disk full")
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
            let file = try StagedOutput(file: dir.file("never.bin"), cancellation: token)
            #expect(token.registeredPaths == [file.temporaryPath])
            try file.write([1, 2, 3])
        }
        #expect(dir.contents.isEmpty)
        #expect(token.registeredPaths.isEmpty)
    }

    @Test func failingRenameLeavesNoTemporary() throws {
        // A non-empty directory appears at the destination after the temporary was opened.
        let path = dir.file("late")
        let file = try StagedOutput(file: path)
        try file.write([1])
        try FileManager.default.createDirectory(atPath: path + "/inner", withIntermediateDirectories: true)
        let error = systemError { () throws(SystemError) in try file.publish() }
        guard case .unwritable(path, let reason)? = error else {
            Issue.record("expected .unwritable, got \(String(describing: error))"); return
        }
        #expect(reason.contains("directory"))
        #expect(dir.contents == ["late"])
    }

    @Test func missingDirectory() {
        let path = dir.file("no/such/dir/file.bin")
        let error = systemError { () throws(SystemError) in try StagedOutput.write([1], to: path) }
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
    @Test(
        "cancel() kills its children, removes its temporaries and refuses its later writes; another token's work and the signal handlers are untouched"
    )
    func cancelCleansUpItsOwnWork() throws {
        func handler(_ signalNumber: Int32) -> UInt {
            var action = sigaction()
            sigaction(signalNumber, nil, &action)
            return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
        }
        let before = [SIGINT, SIGTERM, SIGHUP, SIGPIPE].map(handler)
        let token = Cancellation(), other = Cancellation()
        writeFixture(Array("kept".utf8), to: dir.file("keep.txt"))
        let file = try StagedOutput(file: dir.file("keep.txt"), cancellation: token)
        try file.write(Array("partial".utf8))
        let otherFile = try StagedOutput(file: dir.file("other.txt"), cancellation: other)
        try otherFile.write(Array("other's".utf8))
        let tmpDir = dir.file(".frames.segue-tmp-dir")
        try FileManager.default.createDirectory(atPath: tmpDir + "/sub", withIntermediateDirectories: true)
        writeFixture([1, 2, 3], to: tmpDir + "/sub/frame-00000.png")
        token.register(tmpDir)
        func sleeper(_ owner: Cancellation) throws -> ChildProcess {
            try ChildProcess(
                executable: "/bin/sleep", arguments: ["60"], pipeInput: false, output: .discard, path: "sleep", cancellation: owner)
        }
        let mine = try sleeper(token), theirs = try sleeper(other)
        defer { for p in [mine, theirs] { p.kill(); p.wait() } }

        token.cancel()
        #expect(token.isCancelled && !other.isCancelled)
        #expect(!isRunning(mine.pid), "the token's child process was killed")
        #expect(isRunning(theirs.pid), "another token's child runs on")
        // The kept file is the user's; the token's temporaries (a partial file, a frame directory)
        // are gone; the other token's temporary is still there.
        #expect(readFixture(dir.file("keep.txt")) == Array("kept".utf8))
        #expect(Set(dir.contents) == ["keep.txt", FileIO.lastComponent(of: otherFile.temporaryPath)])
        let late = systemError { () throws(SystemError) in
            try StagedOutput.write(Array("late".utf8), to: dir.file("late.txt"), cancellation: token)
        }
        #expect(late == .cancelled(path: dir.file("late.txt")))
        #expect(!FileManager.default.fileExists(atPath: dir.file("late.txt")))
        // Work under another token (or none) goes on.
        try otherFile.publish()
        try StagedOutput.write(Array("free".utf8), to: dir.file("free.txt"))
        #expect(readFixture(dir.file("other.txt")) == Array("other's".utf8) && readFixture(dir.file("free.txt")) == Array("free".utf8))
        #expect([SIGINT, SIGTERM, SIGHUP, SIGPIPE].map(handler) == before, "the library installs no signal handler")
        withExtendedLifetime(file) {}
    }

    @Test(
        "a child token: its parent's cancel() stops it too; its own cancel() leaves its parent and siblings alone; one made after the parent's cancel() starts cancelled"
    )
    func childTokens() throws {
        let parent = Cancellation()
        let child = parent.child(), sibling = parent.child()
        let childFile = try StagedOutput(file: dir.file("child.txt"), cancellation: child)
        let parentFile = try StagedOutput(file: dir.file("parent.txt"), cancellation: parent)
        let siblingFile = try StagedOutput(file: dir.file("sibling.txt"), cancellation: sibling)
        for file in [childFile, parentFile, siblingFile] { try file.write([7]) }
        let sleeper = try ChildProcess(
            executable: "/bin/sleep", arguments: ["60"], pipeInput: false, output: .discard, path: "sleep", cancellation: sibling)
        defer { sleeper.kill(); sleeper.wait() }
        let temporaries = { Set(self.dir.contents) }
        let all = Set([childFile, parentFile, siblingFile].map { FileIO.lastComponent(of: $0.temporaryPath) })
        #expect(temporaries() == all)

        child.cancel()
        #expect(child.isCancelled && !parent.isCancelled && !sibling.isCancelled)
        #expect(
            temporaries() == all.subtracting([FileIO.lastComponent(of: childFile.temporaryPath)]), "only the child's temporary is gone")
        #expect(isRunning(sleeper.pid), "the sibling's process runs on")
        try parentFile.publish()
        #expect(readFixture(dir.file("parent.txt")) == [7], "the parent's work goes on")

        parent.cancel()
        #expect(sibling.isCancelled, "the parent's cancel() reaches its children")
        #expect(!isRunning(sleeper.pid), "the sibling's process was killed")
        #expect(dir.contents == ["parent.txt"], "the sibling's temporary is gone; the published file is the caller's")
        #expect(parent.child().isCancelled, "a child of a cancelled token starts cancelled")
        withExtendedLifetime(childFile) {}
        withExtendedLifetime(siblingFile) {}
    }
    #endif

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
        try StagedOutput.write([2], to: staged.temporaryPath + "/frame-00001.png")
        #expect(readFixture(path + "/frame-00000.png") == [1], "the old directory until publish")
        try staged.publish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["frame-00001.png"])
        #expect(readFixture(path + "/frame-00001.png") == [2])
        #expect(dir.contents == ["frames"])
        #expect(token.registeredPaths.isEmpty)
    }

    @Test("through a symbolic link: the file or directory it names is replaced, beside itself, and the link stays")
    func throughALink() throws {
        try FileManager.default.createDirectory(atPath: dir.file("real/frames"), withIntermediateDirectories: true)
        writeFixture([1], to: dir.file("real/out.bin"))
        writeFixture([1], to: dir.file("real/frames/old.png"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.bin"), withDestinationPath: "real/out.bin")
        try FileManager.default.createSymbolicLink(atPath: dir.file("frames"), withDestinationPath: "real/frames")
        let staged = try StagedOutput(file: dir.file("link.bin"))
        #expect(FileIO.directory(of: staged.temporaryPath) == FileIO.resolvedPath(dir.file("real")))
        #expect([UInt8]([4, 2]).withUnsafeBytes { FileIO.writeAll(staged.descriptor, $0) } == nil)
        try staged.publish()
        #expect(readFixture(dir.file("real/out.bin")) == [4, 2])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.file("link.bin")) == "real/out.bin")
        let frames = try StagedOutput(directory: dir.file("frames"))
        try StagedOutput.write([3], to: frames.temporaryPath + "/new.png")
        try frames.publish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("real/frames")) == ["new.png"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.file("frames")) == "real/frames")
        #expect(dir.contents == ["frames", "link.bin", "real"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("real")).sorted() == ["frames", "out.bin"])
        // A dangling link is replaced by the file.
        try FileManager.default.createSymbolicLink(atPath: dir.file("dangling.bin"), withDestinationPath: "missing/x.bin")
        try StagedOutput.write([5], to: dir.file("dangling.bin"))
        #expect(readFixture(dir.file("dangling.bin")) == [5])
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dir.file("dangling.bin"))) == nil)
    }

    @Test("a directory onto a file: refused naming the file, which stays; the staged directory is removed")
    func directoryOntoAFile() throws {
        let path = dir.file("site")
        let token = Cancellation()
        let staged = try StagedOutput(directory: path, cancellation: token)
        writeFixture([5], to: path)  // appears while the directory is being made
        writeFixture([1], to: staged.temporaryPath + "/index.html")
        let error = systemError { () throws(SystemError) in try staged.publish() }
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
    func missingDirectoryStaged() {
        let path = dir.file("no/such/out")
        #expect(
            systemError { () throws(SystemError) in try StagedOutput(directory: path) }
                == .unwritable(path: path, reason: "the directory \(dir.file("no/such")) does not exist"))
        #expect(
            systemError { () throws(SystemError) in try StagedOutput(file: path) }
                == .unwritable(path: path, reason: "the directory \(dir.file("no/such")) does not exist"))
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

    // MARK: - A crash after each step

    /// The destination after a publish stopped (the process "crashed") once `steps` steps had run.
    @Test(
        "a file: a crash after each step of the publish leaves the old file or the whole new one",
        arguments: 0...AtomicPublish.FileStep.allCases.count)
    func fileCrash(steps: Int) throws {
        let path = dir.file("out.bin")
        writeFixture(Array("old".utf8), to: path)
        let temporary = AtomicPublish.temporaryPath(for: path)
        let descriptor = try AtomicPublish.createFile(temporary)
        #expect(Array("the new contents".utf8).withUnsafeBytes { FileIO.writeAll(descriptor, $0) } == nil)
        for step in AtomicPublish.FileStep.allCases.prefix(steps) {
            try AtomicPublish.perform(step, temporary, descriptor: descriptor, to: path)
        }
        // What a reader (or the next run after a crash) finds at the destination.
        let found = String(decoding: readFixture(path), as: UTF8.self)
        let renamed = AtomicPublish.FileStep.allCases.prefix(steps).contains(.rename)
        #expect(found == (renamed ? "the new contents" : "old"), "after \(steps) steps")
        if steps == 0 { close(descriptor) }  // the flush closes it
        AtomicPublish.remove(temporary)
        #expect(dir.contents == ["out.bin"])
    }

    @Test(
        "a directory: a crash after each step of the publish leaves the old directory or the whole new one",
        arguments: 0...AtomicPublish.DirectoryStep.allCases.count)
    func directoryCrash(steps: Int) throws {
        let path = dir.file("frames")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        for name in ["frame-00000.png", "frame-00001.png"] { writeFixture(Array("old".utf8), to: path + "/" + name) }
        let temporary = AtomicPublish.temporaryPath(for: path)
        try AtomicPublish.createDirectory(temporary)
        writeFixture(Array("new".utf8), to: temporary + "/frame-00000.png")
        for step in AtomicPublish.DirectoryStep.allCases.prefix(steps) {
            try AtomicPublish.perform(step, temporary, to: path)
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        let contents = names.map { String(decoding: readFixture(path + "/" + $0), as: UTF8.self) }
        let moved = AtomicPublish.DirectoryStep.allCases.prefix(steps).contains(.moveIn)
        if moved {
            #expect(names == ["frame-00000.png"] && contents == ["new"], "after \(steps) steps: the new directory whole")
        } else {
            #expect(
                names == ["frame-00000.png", "frame-00001.png"] && contents == ["old", "old"],
                "after \(steps) steps: the old directory whole")
        }
        AtomicPublish.remove(temporary)
        #expect(dir.contents == ["frames"], "what a crash left beside it is a temporary, removed above")
    }
}
