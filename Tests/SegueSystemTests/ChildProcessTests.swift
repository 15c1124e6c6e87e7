// The one program runner (`ChildProcess`, and `ProgramRun` on it): exit codes and signals, large
// standard output and error together (no pipe deadlock), time limits, cancellation that kills a
// whole process group (a wrapper whose child ignores SIGTERM), spawn failures as errors, and
// what a child inherits (three descriptors, its own process group, no blocked signal, the
// environment and directory it is given).
import FoundationEssentials
import SegueSystem
import SegueTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("The program runner")
struct ChildProcessTests {
    private let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory("system") }

    // MARK: - Ending

    @Test("exit codes come back as they are; a signal as 128 + its number, with the signal named")
    func exitCodesAndSignals() throws {
        let ok = try ProgramRun("/bin/sh", ["-c", "echo out; echo err >&2"])
        #expect(ok.status == 0 && ok.signal == nil && !ok.timedOut)
        #expect(ok.stdout == "out\n" && ok.stderr == "err\n")
        let three = try ProgramRun("/bin/sh", ["-c", "exit 3"])
        #expect(three.status == 3 && three.signal == nil)
        let own = try ProgramRun("/bin/sh", ["-c", "exit 130"])
        #expect(own.status == 130 && own.signal == nil, "an exit status above 128 is not a signal")
        let terminated = try ProgramRun("/bin/sh", ["-c", "kill -TERM $$; sleep 5"])
        #expect(terminated.status == 128 + SIGTERM && terminated.signal == SIGTERM)
        let crashed = try ProgramRun("/bin/sh", ["-c", "kill -SEGV $$; sleep 5"])
        #expect(crashed.status == 128 + SIGSEGV && crashed.signal == SIGSEGV)
    }

    @Test("megabytes on stdout and stderr at once, and on stdin, cross without a deadlock")
    func largeOutputs() throws {
        // 200 alternating blocks of 16 KiB on each stream: a runner that read one pipe to its end
        // before the other would block with the child on the full second pipe.
        let script = "for i in $(seq 200); do head -c 16384 /dev/zero | tr '\\0' a; head -c 16384 /dev/zero | tr '\\0' b >&2; done"
        let run = try ProgramRun("/bin/sh", ["-c", script], timeout: 120)
        #expect(run.status == 0 && !run.timedOut)
        #expect(run.output.count == 200 * 16384 && run.output.allSatisfy { $0 == UInt8(ascii: "a") })
        #expect(run.stderr.utf8.count == 200 * 16384 && run.stderr.utf8.allSatisfy { $0 == UInt8(ascii: "b") })
        // stdin written while stdout is read: cat echoes 4 MiB.
        let input = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let echoed = try ProgramRun("/bin/cat", [], input: input, timeout: 120)
        #expect(echoed.status == 0 && [UInt8](echoed.output) == input)
        // The tail a failing ffmpeg leaves in a message: the last lines only, trimmed.
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "seq 40000 >&2; echo '  last  ' >&2; exit 1"],
            pipeInput: false, output: .discard, path: "x")
        let (status, tail) = child.wait()
        #expect(status == 1)
        #expect(tail.split(separator: "\n").count == 12 && tail.hasSuffix("39999\n40000\nlast"))
    }

    // MARK: - Limits and cancellation

    /// A wrapper script whose child ignores SIGTERM and writes its pid, then waits for it.
    private func stubbornWrapper() -> (script: String, pidFile: String) {
        let pidFile = dir.file("child.pid")
        let script = dir.file("wrapper.sh")
        writeFixture(
            Array(
                "#!/bin/sh\nsh -c 'trap \"\" TERM; echo $$ > \(pidFile).part && mv \(pidFile).part \(pidFile); exec sleep 60' &\nwait\n"
                    .utf8), to: script)
        chmod(script, 0o755)
        return (script, pidFile)
    }

    private func childPid(_ pidFile: String) -> Int32? {
        Int32(String(decoding: readFixture(pidFile), as: UTF8.self).trimmingWhitespace().split(separator: "\n").first ?? "")
    }

    @Test("a run that outlives its time is killed with its whole process group")
    func timeout() throws {
        let (script, pidFile) = stubbornWrapper()
        let run = try ProgramRun(script, [], timeout: 1)
        #expect(run.timedOut && run.signal == SIGKILL && run.status == 128 + SIGKILL)
        #expect(run.seconds >= 1 && run.seconds < 30)
        let pid = try #require(childPid(pidFile), "the wrapper's child started")
        #expect(eventually { !isRunning(pid) }, "the child that ignores SIGTERM died with its group")
    }

    @Test("cancel() kills the run's whole process group; the run throws .cancelled; a cancelled token starts nothing")
    func cancellation() throws {
        let (script, pidFile) = stubbornWrapper()
        let token = Cancellation()
        // A failure of the program's own, before any cancel(), is its exit status.
        #expect(try ProgramRun("/bin/sh", ["-c", "exit 3"], cancellation: token).status == 3)
        let outcome = Locked<SystemError??>(nil)
        try WorkerThread.start(for: "test") {
            let error = systemError { () throws(SystemError) in try ProgramRun(script, [], timeout: 120, cancellation: token) }
            outcome.withLock { $0 = .some(error) }
        }
        #expect(eventually(30) { childPid(pidFile) != nil }, "the wrapper's child started")
        let pid = try #require(childPid(pidFile))
        #expect(isRunning(pid))
        token.cancel()
        #expect(outcome.wait(seconds: 30) { $0 != nil }, "the run ended")
        #expect(outcome.withLock { $0 } == .some(.cancelled(path: script)))
        #expect(eventually { !isRunning(pid) }, "the child that ignores SIGTERM was killed with its group")
        #expect(
            systemError { () throws(SystemError) in try ProgramRun("/bin/true", [], cancellation: token) } == .cancelled(path: "/bin/true"))
    }

    @Test("a child that exited on its own before cancel() keeps its status: it was not cancelled")
    func exitedBeforeCancel() throws {
        let token = Cancellation()
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "exit 3"], pipeInput: false, output: .discard, path: "sh", cancellation: token)
        #expect(eventually { child.hasExited }, "the child exited")
        token.cancel()
        #expect(child.wait().status == 3)
        #expect(!child.wasCancelled)
        // One the cancellation kills was.
        let sleeper = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "exec sleep 30"], pipeInput: false, output: .discard, path: "sh",
            cancellation: Cancellation())
        sleeper.kill()
        #expect(sleeper.wait().status == 128 + SIGKILL && !sleeper.wasCancelled, "killed, but not by a cancellation")
    }

    // MARK: - Starting

    @Test("spawn failures are errors that say why: a missing path, a name not on PATH, a file that is not a program")
    func spawnFailures() throws {
        #expect(
            systemError { () throws(SystemError) in
                try ChildProcess(executable: "/nonexistent/ffprobe", arguments: [], pipeInput: false, output: .pipe, path: "clip.mp4")
            } == .cannotStart(path: "clip.mp4", program: "/nonexistent/ffprobe", reason: "No such file or directory"))
        #expect(
            systemError { () throws(SystemError) in try ProgramRun("/nonexistent/tool", []) }
                == .cannotStart(path: "/nonexistent/tool", program: "/nonexistent/tool", reason: "No such file or directory"))
        #expect(
            systemError { () throws(SystemError) in
                try ProgramRun("segue-no-such-tool", [], environment: ["PATH": "/usr/bin:/bin"], inheriting: false)
            }
                == .cannotStart(
                    path: "segue-no-such-tool", program: "segue-no-such-tool", reason: "no `segue-no-such-tool` on PATH=/usr/bin:/bin"))
        let text = dir.file("not-a-program")
        writeFixture(Array("plain text\n".utf8), to: text)
        #expect(
            systemError { () throws(SystemError) in try ProgramRun(text, []) }
                == .cannotStart(path: text, program: text, reason: "Permission denied"))
        chmod(text, 0o755)
        #expect(
            systemError { () throws(SystemError) in try ProgramRun(text, []) }
                == .cannotStart(path: text, program: text, reason: "Exec format error"))
        #expect(
            systemError { () throws(SystemError) in
                try ChildProcess(executable: dir.path, arguments: [], pipeInput: false, output: .discard, path: "d")
            } == .cannotStart(path: "d", program: dir.path, reason: "Permission denied"))
    }

    @Test("a child has no descriptor but its three standard ones, its own process group and no blocked signal")
    func childEnvironment() throws {
        // An open descriptor of ours without close-on-exec must not reach the child either. The
        // shell reads its own mask with builtins only: while it forks a command (grep) it blocks
        // every signal for a moment, which a command reading /proc/PPID/status could catch.
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked) }
        let result = try ProgramRun(
            "/bin/sh",
            [
                "-c",
                """
                for n in $(seq 3 4096); do [ -e /proc/$$/fd/$n ] && printf '%s ' $n; done; echo "fds \(leaked)"
                echo "$$ $(cut -d' ' -f5 /proc/$$/stat)"
                while read -r key value; do if [ "$key" = SigBlk: ]; then printf 'SigBlk:\t%s\n' "$value"; fi; done < /proc/$$/status
                """,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "fds \(leaked)", "no descriptor above 2: \(lines)")
        let ids = lines.count > 1 ? lines[1].split(separator: " ") : []
        #expect(ids.count == 2 && ids[0] == ids[1], "the child leads its own process group: \(lines)")
        #expect(lines.last == "SigBlk:\t0000000000000000")
    }

    @Test("the environment and directory given are the child's; added entries keep this process's")
    func environmentAndDirectory() throws {
        let only = try ProgramRun("/usr/bin/env", [], environment: ["SEGUE_ONLY": "1"], inheriting: false, directory: dir.path)
        #expect(only.stdout == "SEGUE_ONLY=1\n")
        let added = try ProgramRun(
            "/bin/sh", ["-c", "echo \"$SEGUE_ADDED $PATH\"; pwd"], environment: ["SEGUE_ADDED": "yes"], directory: dir.path)
        let lines = added.stdout.split(separator: "\n")
        #expect(lines.first == "yes \(FileIO.searchPath())")
        #expect(lines.last.map(String.init) == dir.path)
    }

    @Test("a live child: stdout and stderr collected while it runs, a signal to it alone, its status")
    func liveChild() throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "echo ready >&2; echo data; exec sleep 60"],
            pipeInput: false, output: .collect, path: "live", errorLimit: .max)
        #expect(eventually { child.collectedErrors == "ready\n" && child.collectedOutput == Array("data\n".utf8) })
        #expect(!child.hasExited)
        child.send(SIGINT)
        #expect(child.wait().status == 128 + SIGINT && child.terminatingSignal == SIGINT)
        #expect(child.hasExited)
    }

    @Test("a child that exits before reading its input gives EPIPE to the writer, not a signal")
    func childThatStopsReading() throws {
        func disposition() -> UInt {
            var action = sigaction()
            sigaction(SIGPIPE, nil, &action)
            return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
        }
        let before = disposition()
        let child = try ChildProcess(executable: "/bin/true", arguments: [], pipeInput: true, output: .discard, path: "true")
        let frame = [UInt8](repeating: 1, count: 1 << 20)
        var code: Int32?
        for _ in 0..<200 where code == nil {  // the pipe's buffer takes the first writes
            code = frame.withUnsafeBytes { child.write($0) }
        }
        child.wait()
        #expect(code == EPIPE)
        #expect(disposition() == before)
    }

    @Test("PATH: the first executable file of that name, never a directory; a path with a slash as it is")
    func pathLookup() throws {
        try FileManager.default.createDirectory(atPath: dir.file("a/tool"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.file("b"), withIntermediateDirectories: true)
        writeFixture(Array("#!/bin/sh\n".utf8), to: dir.file("b/tool"))
        #expect(FileIO.findExecutable("tool", searchPath: dir.file("a") + ":" + dir.file("b")) == nil, "b/tool is not executable")
        chmod(dir.file("b/tool"), 0o755)
        #expect(FileIO.findExecutable("tool", searchPath: dir.file("a") + "::" + dir.file("b")) == dir.file("b/tool"))
        #expect(FileIO.findExecutable(dir.file("b/tool"), searchPath: "") == dir.file("b/tool"))
        #expect(FileIO.findExecutable("sh", searchPath: "/nonexistent") == nil)
    }
}
