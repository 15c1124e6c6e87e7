import Segue
import Testing

@Suite("MessageCard")
struct MessageCardTests {
    @Test("text is drawn cell by cell in the block font: exactly 4 white pixels per lit cell at scale 1")
    func drawsGlyphs() {
        // "HI": H has 17 lit cells, I has 11 (the sample screens' shapes).
        let card = MessageCard.image("hi", width: 60, height: 30)
        var white = 0, background = 0
        for y in 0..<30 {
            for x in 0..<60 {
                let p = card[x, y]
                if p == Pixel(255, 255, 255, 255) { white += 1 } else if p == Pixel(120, 16, 24, 255) { background += 1 }
            }
        }
        #expect(white == (17 + 11) * 4)
        #expect(white + background == 60 * 30)
        // H's top-left cell is at the margin (8, 8); its top row is "#...#".
        #expect(card[8, 8] == Pixel(255, 255, 255, 255) && card[9, 9] == Pixel(255, 255, 255, 255))
        #expect(card[10, 8] == Pixel(120, 16, 24, 255))
        #expect(card[16, 8] == Pixel(255, 255, 255, 255))
    }

    @Test(
        "wrapping: at spaces, long words cut, newlines kept",
        arguments: [
            ("abc def ghi", 68.0, ["abc", "def", "ghi"]),
            ("abcdefgh", 68.0, ["abcd", "efgh"]),
            ("abcdefgh", 56.0, ["abc", "def", "gh"]),
            ("one two\nthree", 200.0, ["one two", "three"]),
        ])
    func wraps(text: String, width: Double, expected: [String]) {
        // 68 points hold ⌊(68 − 16 + 2) / 12⌋ = 4 characters a line, 56 points 3.
        #expect(MessageCard.wrap(text, width: width) == expected, "\(MessageCard.wrap(text, width: width))")
    }

    @Test("a card's height fits its lines")
    func height() {
        #expect(MessageCard.height(for: "one", width: 200) == 30)  // 16 + 20 − 6
        #expect(MessageCard.height(for: "one\ntwo", width: 200) == 50)
        #expect(MessageCard.height(for: "one", width: 200, scale: 2) == 60)
    }
}
