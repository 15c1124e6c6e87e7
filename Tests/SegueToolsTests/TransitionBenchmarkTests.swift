// The benchmark harness runs every mode and the ffmpeg peer, and refuses absurd settings (one
// frames rule, one runs rule, the x264 settings; the animation benchmark's too). (Speed itself is
// measured by `segue bench`, never asserted in tests.)
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

    @Test("one frames rule and one runs rule for every benchmark, and the x264 settings checked against an MP4, without a GPU")
    func checks() throws {
        for frames in [-1, 0, 1, 1_000_001, .min, .max] {
            #expect(throws: RenderError.outOfRange(setting: "frames", allowed: "from 2 to 1000000", value: "\(frames)")) {
                try TransitionBenchmark.checkFrames(frames)
            }
        }
        for runs in [-1, 0, 101] {
            #expect(throws: RenderError.outOfRange(setting: "runs", allowed: "from 1 to 100", value: "\(runs)")) {
                try TransitionBenchmark.checkRuns(runs)
            }
        }
        try TransitionBenchmark.checkFrames(2)
        try TransitionBenchmark.checkFrames(1_000_000)
        try TransitionBenchmark.checkRuns(1)
        try TransitionBenchmark.checkRuns(100)
        #expect(
            throws: VideoSettingsError(.crf, "for h264 must be from 0 to 51, got 52")
        ) {
            try TransitionBenchmark.encoderSettings(preset: "veryfast", crf: 52)
        }
        #expect(throws: VideoSettingsError.self) { try TransitionBenchmark.encoderSettings(preset: "slowish", crf: 23) }
        #expect(try TransitionBenchmark.encoderSettings(preset: "ultrafast", crf: 0) == VideoSettings(preset: "ultrafast", crf: 0))
    }

    @Test("the animation benchmark takes the frames rule (no trap at -1, no NaN at 0) and measures every count")
    func animations() throws {
        for frames in [-1, 0, 1] {
            #expect(throws: RenderError.outOfRange(setting: "frames", allowed: "from 2 to 1000000", value: "\(frames)")) {
                try AnimationBenchmark(counts: [10], frames: frames)
            }
        }
        #expect(throws: RenderError.self) { try AnimationBenchmark(counts: [10, 0], frames: 2) }
        let rows = try AnimationBenchmark(counts: [3, 150], frames: 2).measure()
        #expect(rows.map(\.count) == [3, 150])
        #expect(rows.allSatisfy { $0.secondsPerFrame.isFinite && $0.secondsPerFrame > 0 })
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
