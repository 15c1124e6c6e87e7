// The benchmark harness runs every mode and the ffmpeg peer, and refuses absurd settings. (Speed
// itself is measured by `segue bench`, never asserted in tests.)
import Foundation
import Segue
import SegueTestSupport
import Testing

@testable import SegueTools

@Suite("Transition benchmark harness")
struct TransitionBenchmarkTests {
    @Test("settings are checked")
    func settings() throws {
        let context = try TestGPU.context()
        #expect(throws: RenderError.outOfRange(setting: "frames", allowed: "from 2 to 1000000", value: "1")) {
            try TransitionBenchmark(width: 16, height: 8, frames: 1, runs: 1, context: context)
        }
        for runs in [0, 101] {
            #expect(throws: RenderError.outOfRange(setting: "runs", allowed: "from 1 to 100", value: "\(runs)")) {
                try TransitionBenchmark(width: 16, height: 8, frames: 3, runs: runs, context: context)
            }
        }
    }

    @Test("every mode and the xfade peer produce a rate")
    func modes() throws {
        let bench = try TransitionBenchmark(width: 16, height: 8, frames: 3, runs: 1, context: try TestGPU.context())
        #expect(bench.from.width == 16 && bench.to.height == 8)
        let fade = try #require(EffectCatalog.builtIn(named: "fade"))
        for mode in TransitionBenchmark.Mode.allCases {
            let fps = try bench.framesPerSecond(fade, mode: mode)
            #expect(fps.isFinite && fps > 0, "\(mode)")
        }
        let xfade = try bench.xfadeFramesPerSecond("fade")
        #expect(xfade.isFinite && xfade > 0)
        #expect(throws: RenderError.self) { try bench.xfadeFramesPerSecond("no-such-transition") }
    }

    @Test("the pipe's ends are close-on-exec and drained while written; a drainer that cannot start is an error, not a hang")
    func pipeDrainer() throws {
        let written = Locked<(closeOnExec: Bool, failure: Int32?)?>(nil)
        let seconds = try TransitionBenchmark.timeIntoPipe { fd in
            // Several times what a pipe holds: only a reader on another thread lets this finish.
            let bytes = [UInt8](repeating: 7, count: 8 << 20)
            let failure = bytes.withUnsafeBytes { FileIO.writeAll(fd, $0) }
            written.withLock { $0 = (fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, failure) }
        }
        #expect(seconds >= 0 && seconds.isFinite)
        let result = try #require(written.withLock { $0 })
        #expect(result.closeOnExec)
        #expect(result.failure == nil)

        let ran = Locked(false)
        do {
            // 1 PiB of stack: more than a process's address space, so the thread cannot start.
            _ = try TransitionBenchmark.timeIntoPipe(drainerStack: 1 << 50) { _ in ran.withLock { $0 = true } }
            Issue.record("a drainer with a 1 PiB stack started")
        } catch let error as SystemError {
            guard case let .systemLimit(path, reason) = error else { Issue.record("\(error)"); return }
            #expect(path == "the benchmark's pipe")
            #expect(reason.hasPrefix("could not start a thread ("), "\(reason)")
        }
        #expect(!ran.withLock { $0 }, "nothing is written into a pipe that nobody drains")
    }
}
