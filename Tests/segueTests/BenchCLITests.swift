// `segue bench --account`: the per-stage table (one row per effect, nine columns, stages that add
// up to the printed sum), a gl-transitions file among the effects, and one error line for an
// unknown effect. (Speed itself is never asserted.)
import Foundation
import Testing

@Suite("segue bench --account")
struct BenchCLITests {
    private static let glsl = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gallery/tint.glsl").path

    @Test("a row per effect; the stages add up to the sum")
    func account() throws {
        let r = try segue(["bench", "--account", "--size", "32x16", "--frames", "3", "--runs", "1", "--no-ffmpeg",
                           "--effect", "fade", "--effect", "cube", "--effect", Self.glsl])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(r.stdoutText)")
        #expect(lines[0].hasPrefix("Segue frame account: 32x16, 3 frames, median of 1 runs"))
        #expect(lines[1].split(separator: " ") == ["effect", "shading", "readback", "straight", "pipe", "sum", "end-to-end", "fps", "translucent"])
        for (line, name) in zip(lines[2...], ["fade", "cube", "tint"]) {
            let cells = line.split(separator: " ").map(String.init)
            try #require(cells.count == 9, "\(line)")
            #expect(cells[0] == name)
            let numbers = cells[1...7].compactMap(Double.init)
            try #require(numbers.count == 7, "\(line)")
            #expect(numbers.allSatisfy { $0 >= 0 })
            #expect(abs(numbers[0] + numbers[1] + numbers[2] + numbers[3] - numbers[4]) <= 0.021, "\(line)")
            #expect(cells[8].hasSuffix("/3"))
        }
    }

    @Test("an unknown effect is one error line")
    func unknownEffect() throws {
        let r = try segue(["bench", "--account", "--size", "32x16", "--frames", "2", "--runs", "1", "--no-ffmpeg", "--effect", "no-such-effect"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stdoutText.isEmpty)
    }
}
