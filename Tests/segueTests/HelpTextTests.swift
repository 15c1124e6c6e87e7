// `--help` texts are written as paragraphs and wrapped by ArgumentParser to the terminal's
// width: no line of a command's discussion may end early because the source broke it by hand.
import Foundation
import Testing

@Suite("Help texts")
struct HelpTextTests {
    static let commands = [[String](), ["render"], ["concat"], ["effect"], ["gallery"], ["navigate"], ["preview"], ["mesh"]]

    @Test("every discussion wraps as whole paragraphs at any width", arguments: commands)
    func paragraphsWrap(command: [String]) throws {
        for width in [60, 100] {
            let r = try segue(command + ["--help"], environment: ["COLUMNS": String(width)])
            #expect(r.status == 0)
            // The discussion: the lines between the overview and the usage.
            let lines = r.text.components(separatedBy: "\n")
            guard let overview = lines.firstIndex(where: { $0.hasPrefix("OVERVIEW:") }),
                let usage = lines.firstIndex(where: { $0.hasPrefix("USAGE:") })
            else {
                Issue.record("no OVERVIEW/USAGE in \(command) --help"); continue
            }
            let paragraphs = lines[(overview + 1)..<usage].split(whereSeparator: { $0.isEmpty })
            for paragraph in paragraphs {
                for line in paragraph.dropLast() {
                    // A wrapped line ends at most one word short of the width.
                    #expect(line.count > width - 20, "'segue \(command.joined()) --help' at \(width) columns breaks early: '\(line)'")
                }
            }
        }
    }
}
