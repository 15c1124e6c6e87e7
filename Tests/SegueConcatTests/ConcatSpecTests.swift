// Concatenation specs: `EFFECT[:SECONDS]` cuts, the JSON file with its defaults, and errors that
// name the place in the file.
import Foundation
import Segue
import Testing

@Suite("Concat specs")
struct ConcatSpecTests {
    @Test("EFFECT[:SECONDS]: a trailing number is the duration, other colons stay in the name")
    func cutText() throws {
        #expect(try CutSpec(parsing: "fade:1") == CutSpec(effect: "fade", duration: 1))
        #expect(try CutSpec(parsing: "doom-melt") == CutSpec(effect: "doom-melt"))
        #expect(try CutSpec(parsing: "waves.metal:wave") == CutSpec(effect: "waves.metal:wave"))
        #expect(try CutSpec(parsing: "waves.metal:wave:0.5") == CutSpec(effect: "waves.metal:wave", duration: 0.5))
        #expect(try CutSpec(parsing: "none").isHardCut)
        #expect(try CutSpec(parsing: "fade:0").isHardCut)
        #expect(throws: CompositionError("a transition's duration must be a number of seconds ≥ 0, got '-1' in 'fade:-1'")) {
            try CutSpec(parsing: "fade:-1")
        }
        #expect(throws: CompositionError("a transition is written EFFECT[:SECONDS] (e.g. fade:1), got ':2'")) {
            try CutSpec(parsing: ":2")
        }
    }

    @Test("a complete file, with defaults for what it leaves out")
    func decode() throws {
        let json = """
        {"clips": [{"path": "a.mp4", "in": 2, "out": 7.5}, {"path": "p.jpg", "duration": 4}, {"path": "b.mov"}],
         "cuts": [{"effect": "doom-melt", "duration": 1.5, "params": {"meltSpeed": 1.2, "direction": [0, 1], "pop": true},
                   "timing": "ease-in-out", "keyframes": ["spread=0@0,0.5@1"]}],
         "transition": "wipe:0.5", "fps": 25, "audioCurve": "linear"}
        """
        let spec = try ConcatSpec(json: Data(json.utf8))
        #expect(spec.clips == [ClipSpec(path: "a.mp4", in: 2, out: 7.5), ClipSpec(path: "p.jpg", duration: 4), ClipSpec(path: "b.mov")])
        #expect(spec.cut(after: 0) == CutSpec(effect: "doom-melt", duration: 1.5,
                                             params: ["meltSpeed": "1.2", "direction": "0,1", "pop": "true"],
                                             timing: "ease-in-out", keyframes: ["spread=0@0,0.5@1"]))
        #expect(spec.cut(after: 1) == CutSpec(effect: "wipe", duration: 0.5))
        #expect(spec.fps == 25 && spec.audioCurve == .linear && spec.imageDuration == 3 && spec.size == nil)
        let minimal = try ConcatSpec(json: Data(#"{"clips": [{"path": "x.png"}]}"#.utf8))
        #expect(minimal.transition == CutSpec(effect: "fade", duration: 1) && minimal.audioCurve == .equalPower)
    }

    @Test("errors name the place in the file or the clip and the numbers")
    func errors() {
        func message(_ json: String) -> String? {
            do { _ = try ConcatSpec(json: Data(json.utf8)); return nil } catch { return error.message }
        }
        #expect(message("{") == "the spec is not valid: not valid JSON")
        #expect(message("{}") == "the spec is not valid: clips: missing")
        #expect(message(#"{"clips": [{"path": "a.mp4", "in": "two"}]}"#) == "the spec is not valid: clips[0].in: expected a number")
        #expect(message(#"{"clips": []}"#) == "give at least one clip")
        #expect(message(#"{"clips": [{"path": "a.mp4", "in": 5, "out": 2}]}"#) == "clip 1 (a.mp4): 'out' (2.0 s) must be after 'in' (5.0 s)")
        #expect(message(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4"}], "cuts": ["fade", "wipe"]}"#)
                == "2 clips have 1 cuts, but 2 are given")
        #expect(message(#"{"clips": [{"path": "a"}, {"path": "b"}], "cuts": ["fade:-2"]}"#)
                == "the spec is not valid: cuts[0]: a transition's duration must be a number of seconds ≥ 0, got '-2' in 'fade:-2'")
        #expect(message(#"{"clips": [{"path": "a"}], "fps": 0}"#) == "fps must be a number in (0, 1000], got 0.0")
        #expect(message(#"{"clips": [{"path": "a"}], "imageDuration": -1}"#) == "the image duration must be a positive number of seconds, got -1.0")
        let huge = Data(repeating: 0x20, count: ConcatSpec.maximumFileSize + 1)
        #expect(message(String(decoding: huge, as: UTF8.self)) == "the spec is \(ConcatSpec.maximumFileSize + 1) bytes; the limit is \(ConcatSpec.maximumFileSize)")
    }
}
