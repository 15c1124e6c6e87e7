import Foundation
import SegueMath
import Testing

@testable import SegueCore

/// The one reader of JSON text (`JSONSyntax`), checked against Foundation's `JSONSerialization`
/// as an independent reader, and the wording every JSON reader's messages share.
@Suite("JSON values")
struct JSONValueTests {
    /// Foundation's reading of `text` as a `JSONValue`; nil when it refuses the text.
    private func foundation(_ bytes: [UInt8]) -> JSONValue? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else { return nil }
        return JSONValue(any: object)
    }

    private func segue(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONSyntax.parse(bytes)
    }

    @Test("valid text reads as Foundation reads it: nesting, escapes, surrogate pairs, exponents")
    func agreesOnValidText() {
        let documents = [
            #"{"a": [1, -2.5, 3e2, 4E-2, 0, -0.0], "b": {"c": null, "d": true, "e": false}}"#,
            #"["\u00e9\n\t\"\\\/", "\ud83c\udf89", "plain", ""]"#,
            "  [ [], {}, [[[]]], {\"x\": {\"y\": {}}} ]  ",
            "12345678901234567890",
            #""just a string""#,
            "null",
            "\n{\"k\":\"v\"}\r\n",
            #"{"dup": 1, "dup": 2}"#,
            "\u{FEFF}{\"written by\": \"an editor with a byte order mark\"}",
        ]
        for text in documents {
            let bytes = Array(text.utf8)
            let ours = segue(bytes)
            #expect(ours != nil, "\(text)")
            #expect(ours == foundation(bytes), "\(text)")
        }
    }

    @Test("invalid text is refused (RFC 8259): Foundation too, where it is as strict")
    func refusesInvalidText() {
        let documents = [
            "", " ", "{", "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[+1]", "['a']", "[NaN]", "[Infinity]",
            "{a: 1}", "[1 2]", "\"unterminated", "[\"tab\there\"]", "[\"\\x\"]", "[\"\\u12\"]", "[tru]", "nul",
            "[1] [2]", "{\"a\" 1}", "[1e]", "[-]", "[1e999]", "[\"\\ud800\"]", "[\"\\udc00 \\ud800\\u0041\"]",
        ]
        // Foundation reads a trailing comma in a list or an object; the RFC does not.
        let foundationTakes: Set = ["[1,]", "{\"a\":1,}"]
        for text in documents {
            let bytes = Array(text.utf8)
            #expect(segue(bytes) == nil, "\(text.debugDescription)")
            #expect((foundation(bytes) == nil) != foundationTakes.contains(text), "Foundation: \(text.debugDescription)")
        }
    }

    @Test("damaged documents: what this reader accepts, Foundation reads as the same values")
    func agreesOnDamage() {
        let base = Array(
            #"{"clips": [{"path": "a.mp4", "in": 1.5, "out": -2e1}, {"path": "b\u00e9.png"}], "fps": 30, "on": [true, false, null]}"#
                .utf8)
        let alphabet = Array(#"{}[],:"\0123456789.eE+-truefalsn ux"#.utf8)
        var random = SplitMix64(seed: 7)
        var accepted = 0
        for _ in 0..<3000 {
            var damaged = base
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<damaged.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: damaged[at] = alphabet.randomElement(using: &random)!
                case 1: damaged.remove(at: at)
                default: damaged.insert(alphabet.randomElement(using: &random)!, at: at)
                }
            }
            // What this reader takes, Foundation takes with the same values (Foundation also
            // takes some text the RFC does not: see above).
            guard let ours = segue(damaged) else { continue }
            accepted += 1
            #expect(ours == foundation(damaged), "\(String(decoding: damaged, as: UTF8.self))")
        }
        #expect(accepted > 100, "some damage keeps the text valid: \(accepted) of 3000")
    }

    @Test("a syntax error's place: line and column, columns counting characters")
    func located() throws {
        let text = Array("{\n  \"naïve\": [1,\n   ]\n}".utf8)
        do throws(JSONSyntax.Problem) {
            _ = try JSONSyntax.parse(text)
            Issue.record("read invalid JSON")
        } catch {
            #expect(error.located(in: text) == "at line 3, column 4: unexpected character ']'")
        }
        let accented = Array("[\"é\" x]".utf8)
        #expect(JSONSyntax.firstProblem(in: accented)?.located(in: accented) == "at line 1, column 6: unexpected character 'x'")
        let marked = Array("\u{FEFF}[1 2]".utf8)  // the byte order mark is no column
        #expect(JSONSyntax.firstProblem(in: marked)?.located(in: marked) == "at line 1, column 4: unexpected character '2'")
        let latin1 = Array("{\"path\": \"caf".utf8) + [0xE9] + Array(".png\"}".utf8)  // é in Latin-1
        #expect(segue(latin1) == nil && foundation(latin1) == nil)
        #expect(JSONSyntax.firstProblem(in: latin1)?.located(in: latin1) == "at line 1, column 14: text that is not UTF-8")
        let half = Array(#"["ok", "\uD83D"]"#.utf8)
        #expect(
            JSONSyntax.firstProblem(in: half)?.located(in: half)
                == #"at line 1, column 9: \uD83D is half of a UTF-16 surrogate pair, without the other half"#)
        let huge = Array("[1e400]".utf8)
        #expect(
            JSONSyntax.firstProblem(in: huge)?.located(in: huge)
                == "at line 1, column 2: the number 1e400 is out of range (at most about 1.8e308)")
        let short = Array("[1,".utf8)
        #expect(JSONSyntax.firstProblem(in: short)?.located(in: short) == "at line 1, column 4: unexpected end of the text")
    }

    @Test("values in words, for 'expected …, found …'")
    func described() {
        #expect(JSONValue.null.described == "null")
        #expect(JSONValue.bool(true).described == "true")
        #expect(JSONValue.bool(false).described == "false")
        #expect(JSONValue.number(3).described == "the number 3")
        #expect(JSONValue.number(-0.25).described == "the number -0.25")
        #expect(JSONValue.string("up").described == #"the string "up""#)
        #expect(
            JSONValue.string(String(repeating: "x", count: 100)).described == #"the string ""# + String(repeating: "x", count: 80)
                + #"… (100 characters)""#)
        #expect(JSONValue.array([]).described == "a list of 0 items")
        #expect(JSONValue.array([.null]).described == "a list of 1 item")
        #expect(JSONValue.array([.null, .null]).described == "a list of 2 items")
        #expect(JSONValue.object([:]).described == "an object")
    }

    @Test("a key nothing reads: the first in sorted order, with the closest known key or the list")
    func unknownKey() {
        let known = ["clips", "cuts", "transition"]
        #expect(JSONValue.unknownKey(in: ["clips": .null, "cuts": .null], place: "the spec", known: known) == nil)
        #expect(
            JSONValue.unknownKey(in: ["transtion": .null, "zzz": .null, "clips": .null], place: "the spec", known: known)
                == "unknown key 'transtion' in the spec; did you mean 'transition'?")
        #expect(
            JSONValue.unknownKey(in: ["qqqqqqqq": .null], place: "clips[2]", known: known)
                == "unknown key 'qqqqqqqq' in clips[2]; the keys are clips, cuts, transition")
    }
}
