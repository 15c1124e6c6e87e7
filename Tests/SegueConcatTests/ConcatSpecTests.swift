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
        #expect(throws: CompositionError("'fade:-1': the duration must be from 0 to 3600 s, got -1")) {
            try CutSpec(parsing: "fade:-1")
        }
        #expect(throws: CompositionError("'fade:1e308': the duration must be from 0 to 3600 s, got 1e+308")) {
            try CutSpec(parsing: "fade:1e308")
        }
        #expect(try CutSpec(parsing: "fade:3600") == CutSpec(effect: "fade", duration: 3600))
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
        #expect(
            spec.cut(after: 0)
                == CutSpec(
                    effect: "doom-melt", duration: 1.5,
                    params: ["meltSpeed": "1.2", "direction": "0,1", "pop": "true"],
                    timing: "ease-in-out", keyframes: ["spread=0@0,0.5@1"]))
        #expect(spec.cut(after: 1) == CutSpec(effect: "wipe", duration: 0.5))
        #expect(spec.fps == 25 && spec.audioCurve == .linear && spec.imageDuration == 3 && spec.size == nil)
        let minimal = try ConcatSpec(json: Data(#"{"clips": [{"path": "x.png"}]}"#.utf8))
        #expect(minimal.transition == CutSpec(effect: "fade", duration: 1) && minimal.audioCurve == .equalPower)
        // A spec saved by an editor that writes a byte order mark reads the same.
        #expect(try ConcatSpec(json: Data([0xEF, 0xBB, 0xBF] + Array(#"{"clips": [{"path": "x.png"}]}"#.utf8))) == minimal)
    }

    @Test("errors name the place in the file or the clip and the numbers")
    func errors() {
        func message(_ json: String) -> String? {
            do { _ = try ConcatSpec(json: Data(json.utf8)); return nil } catch { return error.message }
        }
        #expect(message("{") == "the spec is not valid JSON at line 1, column 2: unexpected end of the text")
        #expect(message("{\n  \"clips\": [,]\n}") == "the spec is not valid JSON at line 2, column 13: unexpected character ','")
        #expect(message("{}") == "the spec is not valid: clips: missing")
        #expect(
            message(#"{"clips": [{"path": "a.mp4", "in": "two"}]}"#)
                == #"the spec is not valid: clips[0].in: expected a number, found the string "two""#)
        #expect(message(#"{"clips": []}"#) == "give at least one clip")
        #expect(message(#"{"clips": [{"path": "a.mp4", "in": 5, "out": 2}]}"#) == "clip 1 (a.mp4): 'out' (2 s) must be after 'in' (5 s)")
        #expect(
            message(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4"}], "cuts": ["fade", "wipe"]}"#)
                == "2 clips have 1 cuts, but 2 are given")
        #expect(
            message(#"{"clips": [{"path": "a"}, {"path": "b"}], "cuts": ["fade:-2"]}"#)
                == "the spec is not valid: cuts[0]: 'fade:-2': the duration must be from 0 to 3600 s, got -2")
        #expect(message(#"{"clips": [{"path": "a"}], "fps": 0}"#) == "fps must be a number from 1 to 1000, got 0")
        #expect(message(#"{"clips": [{"path": "a"}], "fps": 0.5}"#) == "fps must be a number from 1 to 1000, got 0.5")
        #expect(message(#"{"clips": [{"path": "a"}], "fps": 1e9}"#) == "fps must be a number from 1 to 1000, got 1000000000")
        // A rate may be a ratio as text, NTSC's exactly; it is checked as a number is.
        #expect(message(#"{"clips": [{"path": "a"}], "fps": "0/1"}"#) == "fps must be a number from 1 to 1000, got 0")
        #expect((try? ConcatSpec(json: Data(#"{"clips": [{"path": "a"}], "fps": "30000/1001"}"#.utf8)))?.fps == 30000.0 / 1001)
        #expect(
            message(#"{"clips": [{"path": "a"}], "imageDuration": -1}"#)
                == "the image duration must be a positive number of seconds, got -1")
        #expect(
            message(#"{"clips": [{"path": "a"}, {"path": "b"}], "cuts": [{"effect": "fade", "duration": 1e308}]}"#)
                == "cut 1: the duration must be from 0 to 3600 s, got 1e+308")
        // One rule and one wording for a cut's duration wherever it is written; the default
        // transition is checked even where every cut is given.
        #expect(
            message(#"{"clips": [{"path": "a"}, {"path": "b"}], "cuts": ["fade"], "transition": {"effect": "wipe", "duration": 5000}}"#)
                == "the transition: the duration must be from 0 to 3600 s, got 5000")
        #expect(
            message(#"{"clips": [{"path": "a"}], "transition": {"effect": "wipe", "duration": -1}}"#)
                == "the transition: the duration must be from 0 to 3600 s, got -1")
        #expect(
            message(#"{"clips": [{"path": "a"}, {"path": "b"}], "cuts": [{"effect": "fade", "duration": -0.5}]}"#)
                == "cut 1: the duration must be from 0 to 3600 s, got -0.5")
        // Size and resize are checked with the other fields, before any clip is probed.
        #expect(message(#"{"clips": [{"path": "a"}], "resize": "fit"}"#) == "resize must be cover, contain or stretch, got 'fit'")
        #expect(message(#"{"clips": [{"path": "a"}], "size": "64xx48"}"#) == "the size must look like 1920x1080, got '64xx48'")
        // A still's duration: one rule (positive), one wording, 0 and negative alike.
        for bad in ["0", "-1"] {
            #expect(
                message(#"{"clips": [{"path": "p.png", "duration": \#(bad)}]}"#)
                    == "clip 1 (p.png): 'duration' must be a positive number of seconds, got \(bad)")
        }
        let huge = Data(repeating: 0x20, count: ConcatSpec.maximumFileSize + 1)
        #expect(
            message(String(decoding: huge, as: UTF8.self))
                == "the spec is \(ConcatSpec.maximumFileSize + 1) bytes; the limit is \(ConcatSpec.maximumFileSize)")
    }

    @Test("a value of the wrong type names its key path, the JSON type expected and the one found")
    func typeErrors() {
        func message(_ json: String) -> String? {
            do { _ = try ConcatSpec(json: Data(json.utf8)); return nil } catch { return error.message }
        }
        let cases: [(json: String, message: String)] = [
            (#"{"clips": [{"path": "a"}, {"path": "b", "in": "2"}]}"#, #"clips[1].in: expected a number, found the string "2""#),
            (#"{"clips": [{"path": 3}]}"#, "clips[0].path: expected a string, found the number 3"),
            (#"{"clips": [{"path": null}]}"#, "clips[0].path: expected a string, found null"),
            (#"{"clips": {"path": "a"}}"#, "clips: expected a list, found an object"),
            (#"{"clips": ["a.mp4"]}"#, #"clips[0]: expected an object, found the string "a.mp4""#),
            (#"{"clips": [{"path": "a", "out": true}]}"#, "clips[0].out: expected a number, found true"),
            (
                #"{"clips": [{"path": "a"}], "fps": "thirty"}"#,
                #"fps: expected a number or a ratio such as "30000/1001", found the string "thirty""#
            ),
            (#"{"clips": [{"path": "a"}], "fps": true}"#, #"fps: expected a number or a ratio such as "30000/1001", found true"#),
            (
                #"{"clips": [{"path": "a"}, {"path": "b"}], "cuts": [5]}"#,
                "cuts[0]: expected a transition as text (EFFECT[:SECONDS]) or an object, found the number 5"
            ),
            (
                #"{"clips": [{"path": "a"}], "transition": [1]}"#,
                "transition: expected a transition as text (EFFECT[:SECONDS]) or an object, found a list of 1 item"
            ),
            (
                #"{"clips": [{"path": "a"}, {"path": "b"}], "cuts": [{"effect": "fade", "duration": "1"}]}"#,
                #"cuts[0].duration: expected a number, found the string "1""#
            ),
            (
                #"{"clips": [{"path": "a"}, {"path": "b"}], "cuts": [{"effect": "fade", "params": {"x": {"y": 1}}}]}"#,
                "cuts[0].params.x: expected a string, a number, true or false, or a list of numbers, found an object"
            ),
            (
                #"{"clips": [{"path": "a"}], "audioCurve": "log"}"#,
                #"audioCurve: expected 'equal-power' or 'linear', found the string "log""#
            ),
            (#"[1, 2]"#, "expected an object, found a list of 2 items"),
        ]
        for c in cases {
            #expect(message(c.json) == "the spec is not valid: " + c.message, "\(c.json)")
        }
    }

    @Test("a key the spec does not read is an error naming it and the closest known key, never ignored")
    func unknownKeys() {
        func message(_ json: String) -> String? {
            do { _ = try ConcatSpec(json: Data(json.utf8)); return nil } catch { return error.message }
        }
        #expect(
            message(#"{"clips": [{"path": "a"}], "transtion": "fade:2"}"#)
                == "unknown key 'transtion' in the spec; did you mean 'transition'?")
        #expect(message(#"{"clips": [{"path": "a", "inn": 2}]}"#) == "unknown key 'inn' in clips[0]; did you mean 'in'?")
        #expect(
            message(#"{"clips": [{"path": "a"}, {"path": "b"}], "cuts": [null, {"effect": "fade", "durtion": 1}]}"#)
                == "unknown key 'durtion' in cuts[1]; did you mean 'duration'?")
        #expect(
            message(#"{"clips": [{"path": "a"}], "transition": {"effect": "fade", "Timing": "linear"}}"#)
                == "unknown key 'Timing' in transition; did you mean 'timing'?")
        #expect(
            message(#"{"clips": [{"path": "a"}], "zzzzzzzz": 1}"#)
                == "unknown key 'zzzzzzzz' in the spec; the keys are clips, cuts, transition, imageDuration, size, fps, resize, audioCurve, audio"
        )
        // Parameter names are the effect's own: any key is read there.
        #expect(message(#"{"clips": [{"path": "a"}, {"path": "b"}], "cuts": [{"effect": "fade", "params": {"anything": 1}}]}"#) == nil)
    }
}
