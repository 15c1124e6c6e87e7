import Foundation
import Segue
import SegueTestSupport
import SegueTools
import Testing

// The moderngl peer of `segue bench`: its timing line is parsed strictly, and (where moderngl is
// installed) the script renders the same fade as Segue: its frames are compared with Segue's
// within one level.
@testable import SegueTools

@Suite("moderngl peer")
struct ModernGLPeerTests {
    @Test("the timing line")
    func timing() {
        #expect(ModernGLPeer.parseTiming("moderngl: llvmpipe\nframes=120 seconds=2.500000\n")! == (120, 2.5))
        #expect(ModernGLPeer.parseTiming("moderngl: llvmpipe\n") == nil)
        #expect(ModernGLPeer.parseTiming("frames=120 seconds=0\n") == nil)
        #expect(ModernGLPeer.parseTiming("frames=x seconds=1\n") == nil)
    }

    @Test("renders the fade Segue renders (within one level) and reports a rate", .enabled(if: ModernGLPeer.isAvailable()))
    func sameFade() throws {
        let python = try #require(ModernGLPeer.python())
        let scratch = try TemporaryDirectory("moderngl-test"), dir = scratch.path
        let (w, h, frames) = (16, 8, 5)
        let from = Image(width: w, height: h) { x, y in Pixel(UInt8(15 * x), UInt8(30 * y), 200) }
        let to = Image(width: w, height: h) { x, y in Pixel(250, UInt8(10 * x), UInt8(20 * y)) }
        try #require(FileManager.default.createFile(atPath: dir + "/from.rgba", contents: Data(from.pixels)))
        try #require(FileManager.default.createFile(atPath: dir + "/to.rgba", contents: Data(to.pixels)))
        let script = dir + "/moderngl_fade.py"
        try ModernGLPeer.script.write(toFile: script, atomically: true, encoding: .utf8)
        // An explicit environment: what finds python3 and its packages, nothing else.
        let environment = ProcessInfo.processInfo.environment.filter {
            ["PATH", "HOME"].contains($0.key) || $0.key.hasPrefix("PYENV") || $0.key.hasPrefix("PYTHON")
        }
        let run = try ProgramRun(
            python, [script, dir + "/from.rgba", dir + "/to.rgba", String(w), String(h), String(frames)],
            environment: environment, inheriting: false)
        let bytes = [UInt8](run.output)
        #expect(run.status == 0)
        try #require(bytes.count == w * h * 4 * frames)
        let renderer = try TransitionRenderer(
            effect: #require(EffectCatalog.builtIn(named: "fade")), from: from, to: to, context: try TestGPU.context(), framesInFlight: 1)
        for i in 0..<frames {
            let p = Double(i) / Double(frames - 1)
            let segue = try renderer.frame(progress: p, time: p, duration: 1).pixels
            let peer = bytes[(i * w * h * 4)..<((i + 1) * w * h * 4)]
            let worst = zip(segue, peer).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "frame \(i): differs by up to \(worst) levels")
        }
        let bench = try TransitionBenchmark(width: 32, height: 16, frames: 3, runs: 1, context: try TestGPU.context())
        let fps = try bench.modernGLFadeFramesPerSecond()
        #expect(fps.isFinite && fps > 0)
    }
}
