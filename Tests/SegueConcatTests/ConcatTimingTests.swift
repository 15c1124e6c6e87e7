// A cut is timed as `segue render` and the C API time a transition: without a duration a spring
// lasts until it settles and a curve the effect's own duration; a given duration wins; keyframes
// are read by the one parser, which refuses a parameter keyframed twice.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("Concat cut timing")
struct ConcatTimingTests {
    /// The cut of an edit of two 3-second stills joined by `cut`.
    private func resolved(_ cut: CutSpec) throws -> ConcatCut {
        let dir = try TemporaryDirectory("concat-timing")
        try ImageFile.write(Image(width: 8, height: 8, fill: .black), to: dir.file("a.png"))
        try ImageFile.write(Image(width: 8, height: 8, fill: .white), to: dir.file("b.png"))
        let spec = ConcatSpec(
            clips: [ClipSpec(path: "a.png", duration: 3), ClipSpec(path: "b.png", duration: 3)], transition: cut)
        return try Concatenation(spec: spec, directory: dir.path).cuts[0]
    }

    @Test("a spring without a duration lasts until it settles; with one, the duration given")
    func spring() throws {
        let settles = try Spring(response: 0.5, dampingFraction: 1).settlingDuration
        let free = try resolved(CutSpec(effect: "wipe", timing: "spring(response=0.5,damping-fraction=1)"))
        #expect(free.duration == settles && free.timing?.duration == settles)
        #expect(settles > 0.5 && settles < 2)
        let given = try resolved(CutSpec(effect: "wipe", duration: 0.4, timing: "spring(response=0.5,damping-fraction=1)"))
        #expect(given.duration == 0.4 && given.timing?.duration == 0.4)
    }

    @Test("a curve without a duration lasts the effect's own duration")
    func curve() throws {
        let cut = try resolved(CutSpec(effect: "wipe", timing: "ease-in"))
        #expect(cut.duration == EffectCatalog.builtIn(named: "wipe")!.defaultDuration)
    }

    @Test("a parameter keyframed twice is refused, naming the cut and the parameter")
    func keyframedTwice() throws {
        let cut = CutSpec(effect: "wipe", duration: 0.5, keyframes: ["smoothness=0@0,1@1", "smoothness=1@0,0@1"])
        #expect {
            _ = try resolved(cut)
        } throws: { error in
            "\(error)".hasSuffix(": parameter 'smoothness' is keyframed twice")
        }
    }
}
