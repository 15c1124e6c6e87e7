// `segue check`: validates a transition file as gl-transitions contributors do.
import ArgumentParser
import Foundation
import Segue

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check a transition file: header, compiles, exact at 0 and 1, no unused parameters.",
        discussion: "Exits with status 1 when a check fails. Progress 0 must give from and 1 must give to within 1/255.")

    @Argument(help: "The transition file (.glsl).")
    var file: String

    @Flag(help: "Print the findings as JSON.")
    var json = false

    @Option(help: "Vulkan device: an index or a name substring.")
    var device: String?

    func run() throws {
        let effect = try EffectCatalog.load(path: file)
        let context = try GPUContext(configuration: .init(environment: ProcessInfo.processInfo.environment, deviceSelector: device))
        let check = TransitionCheck(effect: effect, context: context)
        if json {
            let object: [String: Any] = [
                "file": file, "passed": check.passed,
                "findings": check.findings.map { ["rule": $0.rule, "passed": $0.passed, "detail": $0.detail] },
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("\(file): \(effect.name)")
            for f in check.findings { print("  \(f.passed ? "ok  " : "FAIL") \(f.rule): \(f.detail)") }
        }
        if !check.passed {
            let failed = check.findings.filter { !$0.passed }.count
            throw CLIFailure(message: "\(file) fails \(failed) of \(check.findings.count) checks")
        }
    }
}
