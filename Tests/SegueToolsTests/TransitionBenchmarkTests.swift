// The benchmark harness runs every mode and the ffmpeg peer, and refuses absurd settings. (Speed
// itself is measured by `segue bench`, never asserted in tests.)
import Foundation
import Segue
import SegueTestSupport
import SegueTools
import Testing

@Suite("Transition benchmark harness")
struct TransitionBenchmarkTests {
    @Test("settings are checked")
    func settings() throws {
        let context = try TestGPU.context()
        #expect(throws: RenderError.outOfRange(setting: "frames", allowed: "from 2 to 1000000", value: "1")) {
            try TransitionBenchmark(width: 16, height: 8, frames: 1, runs: 1, context: context)
        }
        #expect(throws: RenderError.outOfRange(setting: "runs", allowed: "from 1 to 1000", value: "0")) {
            try TransitionBenchmark(width: 16, height: 8, frames: 3, runs: 0, context: context)
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
}
