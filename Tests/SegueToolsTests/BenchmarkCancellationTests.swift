// Every child process and scratch folder of the benchmarks goes through their cancellation token:
// cancelling it while ffmpeg runs kills ffmpeg and removes the scratch folder it ran in (the frame
// account's colour conversion; the jobs benchmark's clips); a token cancelled before starts nothing
// in any step; and the one program helper fails with the program's standard error. The running
// child is found by its command line, which names the scratch folder the token holds (/proc).
import Foundation
import Segue
import SegueTestSupport
import Testing

@testable import SegueTools

#if canImport(Glibc)
import Glibc
#endif

@Suite("Benchmark cancellation")
struct BenchmarkCancellationTests {
    @Test(
        "the program helper: the run, or the program's status and last lines of stderr; a timed-out run is returned; a cancelled token starts nothing"
    )
    func programHelper() throws {
        let ok = try TransitionBenchmark.runProgram("/bin/sh", ["-c", "echo out; echo err >&2"], what: "sh", cancellation: nil)
        #expect(ok.status == 0 && ok.stderr == "err\n" && ok.seconds >= 0 && !ok.timedOut)
        #expect(throws: RenderError.invalidValue("the test program failed with status 3: one / two / three")) {
            try TransitionBenchmark.runProgram(
                "/bin/sh", ["-c", "echo zero >&2; echo one >&2; echo >&2; echo '  two ' >&2; echo three >&2; exit 3"],
                what: "the test program", cancellation: nil)
        }
        #expect(throws: RenderError.invalidValue("quiet failed with status 1: no message")) {
            try TransitionBenchmark.runProgram("/bin/sh", ["-c", "exit 1"], what: "quiet", cancellation: nil)
        }
        let slow = try TransitionBenchmark.runProgram("/bin/sh", ["-c", "exec sleep 30"], what: "sleep", timeout: 0.1, cancellation: nil)
        #expect(slow.timedOut)
        let cancelled = Cancellation()
        cancelled.cancel()
        #expect(throws: SystemError.cancelled(path: "/bin/sh")) {
            try TransitionBenchmark.runProgram("/bin/sh", ["-c", "exit 0"], what: "sh", cancellation: cancelled)
        }
    }

    @Test("one xfade filter graph for the raw and the MP4 peer, as they were written")
    func xfadeGraph() throws {
        let bench = try TransitionBenchmark(width: 16, height: 8, frames: 4, runs: 1, context: try TestGPU.context())
        #expect(
            bench.xfadeGraph("wipeleft", converting: "gbrp", output: "rgba")
                == "[0:v]format=gbrp,loop=loop=-1:size=1,fps=30[a];[1:v]format=gbrp,loop=loop=-1:size=1,fps=30[b];"
                + "[a][b]xfade=transition=wipeleft:duration=0.1:offset=0,format=rgba")
        #expect(
            bench.xfadeGraph("fade", converting: "yuv420p")
                == "[0:v]format=yuv420p,loop=loop=-1:size=1,fps=30[a];[1:v]format=yuv420p,loop=loop=-1:size=1,fps=30[b];"
                + "[a][b]xfade=transition=fade:duration=0.1:offset=0")
    }

    @Test("a token cancelled before: every step of every benchmark throws .cancelled and runs nothing")
    func cancelledBefore() throws {
        let token = Cancellation()
        token.cancel()
        let bench = try TransitionBenchmark(width: 16, height: 8, frames: 3, runs: 1, context: try TestGPU.context(), cancellation: token)
        let fade = try #require(EffectCatalog.builtIn(named: "fade"))
        let settings = VideoSettings(preset: "ultrafast", crf: 23)
        let host = try HostBenchmark(
            from: bench.from, to: bench.to, runs: 1, segue: "/nonexistent/segue", template: "/nonexistent/template.so",
            library: "/nonexistent/libsegue.so", cancellation: token)
        var steps: [(String, () throws -> Void)] = [
            ("xfade", { _ = try bench.xfadeFramesPerSecond("fade") }),
            ("xfade MP4", { _ = try bench.xfadeMP4Seconds("fade", settings: settings) }),
            ("segue MP4", { _ = try bench.mp4Seconds(fade, settings: settings) }),
            ("x264 alone", { _ = try bench.x264AloneSeconds(fade, settings: settings) }),
            ("colour conversion", { _ = try bench.encoderColourConversion() }),
            ("hosts", { _ = try host.run() }),
            (
                "concat",
                {
                    _ = try ConcatBenchmark(width: 16, height: 16, context: { try TestGPU.context() }, cancellation: token).run()
                }
            ),
            (
                "concat jobs",
                {
                    _ = try ConcatJobsBenchmark(
                        width: 16, height: 16, executable: "/nonexistent/segue", context: { try TestGPU.context() }, cancellation: token
                    ).run(workers: 1)
                }
            ),
        ]
        if ModernGLPeer.python() != nil { steps.append(("moderngl", { _ = try bench.modernGLFadeFramesPerSecond() })) }
        for (name, step) in steps {
            do {
                try step()
                Issue.record("\(name) ran under a cancelled token")
            } catch let error as SystemError {
                guard case .cancelled = error else { Issue.record("\(name): \(error)"); continue }
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
        #expect(token.registeredPaths.isEmpty)
    }

    @Test("cancelled while ffmpeg converts the frame account's frames: ffmpeg is killed, the scratch folder removed", .enabled(if: hasProc))
    func colourConversion() throws {
        let token = Cancellation()
        // 100,000 frames: seconds of ffmpeg, long past the moment it is found and cancelled.
        let bench = try TransitionBenchmark(
            width: 64, height: 32, frames: 100_000, runs: 1, context: try TestGPU.context(), cancellation: token)
        try Self.cancelWhileRunning(token, prefix: "segue-bench-", file: "/frame.rgba") { _ = try bench.encoderColourConversion() }
    }

    @Test("cancelled while the jobs benchmark makes its first clip: ffmpeg is killed, the scratch folder removed", .enabled(if: hasProc))
    func jobsClips() throws {
        let token = Cancellation()
        // An hour-long clip: ffmpeg runs long past the moment it is found and cancelled.
        let bench = try ConcatJobsBenchmark(
            width: 64, height: 48, clipSeconds: 3600, preset: "ultrafast", executable: "/nonexistent/segue",
            context: { try TestGPU.context() }, cancellation: token)
        try Self.cancelWhileRunning(token, prefix: "segue-jobs-bench-", file: "/clip1.mp4") { _ = try bench.run(workers: 1) }
    }

    // MARK: - Helpers

    static let hasProc = FileManager.default.fileExists(atPath: "/proc/self/cmdline")

    /// Runs `work` on another thread until a child whose command line names `file` in the scratch
    /// folder (`prefix`…) that `token` holds is running; cancels the token; expects the work to
    /// fail at once, the child to be gone and the folder removed.
    private static func cancelWhileRunning(_ token: Cancellation, prefix: String, file: String, _ work: @escaping () throws -> Void) throws
    {
        // The benchmark is used on that thread alone, until `done`.
        final class Work: @unchecked Sendable {
            let run: () throws -> Void
            init(_ run: @escaping () throws -> Void) { self.run = run }
        }
        let outcome = Locked<(any Error)??>(nil)
        let done = DispatchSemaphore(value: 0)
        let box = Work(work)
        Thread.detachNewThread {
            do {
                try box.run()
                outcome.withLock { $0 = .some(nil) }
            } catch {
                outcome.withLock { $0 = .some(error) }
            }
            done.signal()
        }
        var found: (dir: String, pid: Int32)?
        let deadline = Date().addingTimeInterval(60)
        while found == nil, Date() < deadline, outcome.withLock({ $0 }) == nil {
            if let dir = token.registeredPaths.first(where: { FileIO.lastComponent(of: $0).hasPrefix(prefix) }),
                let pid = process(mentioning: dir + file)
            {
                found = (dir, pid)
            } else {
                usleep(2_000)
            }
        }
        token.cancel()
        guard let (dir, pid) = found else {
            Issue.record("no child named \(file) in a scratch folder the token holds (\(token.registeredPaths))")
            done.wait()
            return
        }
        let gone = !isAlive(pid)
        #expect(gone, "the child \(pid) outlived cancel()")
        if !gone { kill(-pid, SIGKILL) }  // not left behind by a failing test
        #expect(done.wait(timeout: .now() + 30) == .success, "the benchmark went on after cancel()")
        #expect(outcome.withLock { $0 }.flatMap { $0 } != nil, "the benchmark succeeded after cancel()")
        #expect(!FileManager.default.fileExists(atPath: dir), "\(dir) was left behind")
    }

    /// A process whose command line holds `text` (its arguments joined by NULs), if any.
    private static func process(mentioning text: String) -> Int32? {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let bytes = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else { continue }
            if String(decoding: bytes, as: UTF8.self).contains(text) { return pid }
        }
        return nil
    }

    /// Whether `pid` is a process that has not exited (a zombie has).
    private static func isAlive(_ pid: Int32) -> Bool {
        guard let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return false }
        let stat = String(decoding: bytes, as: UTF8.self)
        guard let close = stat.lastIndex(of: ")") else { return false }
        return stat[close...].dropFirst(2).first != "Z"
    }
}
