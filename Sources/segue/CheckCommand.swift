// `segue check`: validates a transition file as gl-transitions contributors do, and each stitchable
// function of a .metal file as a transition or on one image.
import ArgumentParser
import FoundationEssentials
import Segue

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Check an effect file: a .glsl transition (header, compiles, exact at 0 and 1, no unused parameters) or a .metal file's stitchable functions.",
        discussion: """
            Exits with status 1 when a check fails. Progress 0 must give from and 1 must give to within 1/255. \
            A stitchable function with a float to animate is checked as a transition with the default --insertion 1:0 \
            and --removal 0:-1; one without (or a fill) must compile and draw one image.
            """)

    @Argument(help: "The effect file: FILE.glsl, FILE.metal (every stitchable function) or FILE.metal:NAME.")
    var file: String

    @Flag(help: "Print the findings as JSON.")
    var json = false

    @OptionGroup var deviceOptions: DeviceOptions

    func run() throws {
        let checks = try TransitionCheck.checks(file: file, context: deviceOptions.context)
        let several = EffectCatalog.stitchablePath(file) != nil
        if json {
            // The text JSONSerialization wrote (pretty, sorted keys, escaped slashes), from JSONEncoder.
            // `function` only for a .metal file's findings.
            struct Finding: Encodable { let function: String?; let rule: String; let passed: Bool; let detail: String }
            struct Report: Encodable { let file: String; let passed: Bool; let findings: [Finding] }
            let findings = checks.flatMap { c in
                c.findings.map { Finding(function: several ? c.subject : nil, rule: $0.rule, passed: $0.passed, detail: $0.detail) }
            }
            print(try jsonString(Report(file: file, passed: checks.allSatisfy(\.passed), findings: findings)))
        } else {
            for check in checks {
                print("\(file): \(check.subject)")
                for f in check.findings { print("  \(f.passed ? "ok  " : "FAIL") \(f.rule): \(f.detail)") }
            }
        }
        let all = checks.flatMap(\.findings), failed = all.filter { !$0.passed }.count
        if failed > 0 {
            throw CLIFailure(message: "\(file) fails \(failed) of \(all.count) checks")
        }
    }
}
