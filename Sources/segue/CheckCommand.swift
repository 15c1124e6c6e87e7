// `segue check`: validates a transition file as gl-transitions contributors do.
import ArgumentParser
import FoundationEssentials
import Segue

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check a transition file: header, compiles, exact at 0 and 1, no unused parameters.",
        discussion: "Exits with status 1 when a check fails. Progress 0 must give from and 1 must give to within 1/255.")

    @Argument(help: "The transition file (.glsl).")
    var file: String

    @Flag(help: "Print the findings as JSON.")
    var json = false

    @OptionGroup var deviceOptions: DeviceOptions

    func run() throws {
        let effect = try EffectCatalog.load(path: file)
        let context = try deviceOptions.context()
        let check = TransitionCheck(effect: effect, context: context)
        if json {
            // The text JSONSerialization wrote (pretty, sorted keys, escaped slashes), from JSONEncoder.
            struct Finding: Encodable { let rule: String; let passed: Bool; let detail: String }
            struct Report: Encodable { let file: String; let passed: Bool; let findings: [Finding] }
            print(
                try jsonString(
                    Report(
                        file: file, passed: check.passed,
                        findings: check.findings.map { Finding(rule: $0.rule, passed: $0.passed, detail: $0.detail) })))
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
