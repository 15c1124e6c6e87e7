// The shared wording of numbers, durations and "did you mean" in messages.
import SegueMath
import Testing

@Suite("Message text")
struct MessageTextTests {
    @Test("suggestions: a name one edit away comes before one merely contained in the name")
    func suggestionOrder() {
        #expect(MessageText.suggestions(for: "circleopn", among: ["circle", "circleopen", "fade"]) == ["circleopen", "circle"])
        #expect(MessageText.didYouMean("circleopn", among: ["circle", "circleopen"]) == "did you mean 'circleopen' or 'circle'?")
    }

    @Test("a value just outside a range never reads as the range's end: all its digits then, else the short form")
    func outsideRange() {
        #expect(MessageText.number(1000.0001, outside: 1, 1000) == "1000.0001")
        #expect(MessageText.number(0.9999999, outside: 1, 1000) == "0.9999999")
        #expect(MessageText.number(2.0000001, outside: 0.1, 2) == "2.0000001")
        #expect(MessageText.number(0.0999999, outside: 0.1, 2) == "0.0999999")
        #expect(MessageText.number(1001.25, outside: 1, 1000) == "1001.25")
        #expect(MessageText.number(0, outside: 1, 1000) == "0")
        #expect(MessageText.number(.nan, outside: 0, 1) == "NaN")
        #expect(MessageText.number(.infinity, outside: 0, .infinity) == "infinity")
    }

    @Test("durations: at most three decimals, whole numbers in full, the tiny and the huge in scientific notation, never 'inf s'")
    func seconds() {
        #expect(MessageText.seconds(1.6482708333333334) == "1.648 s")
        #expect(MessageText.seconds(2) == "2 s")
        #expect(MessageText.seconds(0.5) == "0.5 s")
        #expect(MessageText.seconds(1.25) == "1.25 s")
        #expect(MessageText.seconds(1.0001) == "1 s")
        #expect(MessageText.seconds(0.0004) == "0.0004 s")
        #expect(MessageText.seconds(-3) == "-3 s")
        #expect(MessageText.seconds(1e9) == "1000000000 s")
        #expect(MessageText.seconds(1e300) == "1e+300 s")
        #expect(MessageText.seconds(1e308) == "1e+308 s")
        #expect(MessageText.seconds(.infinity) == "infinity")
        #expect(MessageText.seconds(.nan) == "NaN")
        #expect(MessageText.number(-.infinity) == "-infinity")
        #expect(MessageText.number(30_000_000_001) == "30000000001")
        #expect(MessageText.number(-0.0001) == "-0.0001")
        #expect(
            MessageText.number(-0.0) == "-0" && MessageText.number(0.0) == "0",
            "a negative zero, refused where a duration must be > 0, is shown as given")
        #expect(MessageText.number(3e301) == "3e+301")
        #expect(MessageText.number(29.97002997002997) == "29.97")
    }

    @Test("did you mean: the closest name within a few edits, case ignored; nothing when none is close")
    func closest() {
        let keys = ["clips", "cuts", "transition", "imageDuration", "fps"]
        #expect(MessageText.closest(to: "transtion", among: keys) == "transition")
        #expect(MessageText.closest(to: "Clips", among: keys) == "clips")
        #expect(MessageText.closest(to: "imageduraton", among: keys) == "imageDuration")
        #expect(MessageText.closest(to: "zzzzzzzz", among: keys) == nil)
        #expect(MessageText.closest(to: "x", among: []) == nil)
        #expect(MessageText.editDistance("kitten", "sitting") == 3)
        // A start or a part of a name counts as one edit: "dur" is "duration" cut short.
        #expect(MessageText.closest(to: "dur", among: ["duration", "fps"]) == "duration")
        #expect(MessageText.closest(to: "", among: keys) == nil)
        #expect(MessageText.suggestions(for: "cut", among: keys + ["cutter", "cute"]) == ["cute", "cuts", "cutter"])
        #expect(MessageText.suggestions(for: "cut", among: keys + ["cutter", "cute"], limit: 1) == ["cute"])
        // One wording for every caller (effects, meshes, parameters, JSON keys).
        #expect(MessageText.didYouMean(["cute", "cuts"]) == "did you mean 'cute' or 'cuts'?")
        #expect(MessageText.didYouMean(["transition"]) == "did you mean 'transition'?")
        #expect(MessageText.didYouMean([]) == nil)
        #expect(MessageText.didYouMean("cut", among: keys + ["cutter", "cute"], limit: 2) == "did you mean 'cute' or 'cuts'?")
        #expect(MessageText.didYouMean("zzzzzzzz", among: keys) == nil)
    }

    @Test("a user's text is quoted whole up to 80 characters, else its start and its length")
    func excerpts() {
        #expect(MessageText.excerpt("short") == "short")
        #expect(MessageText.excerpt(String(repeating: "a", count: 80)) == String(repeating: "a", count: 80))
        #expect(MessageText.excerpt(String(repeating: "é", count: 81)) == String(repeating: "é", count: 80) + "… (81 characters)")
        #expect(MessageText.excerpt("abcdef", limit: 3) == "abc… (6 characters)")
    }
}
