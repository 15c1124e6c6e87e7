// Runs the built `segue` executable and captures its exit status and output.
import Foundation
import Segue
import SegueTestSupport
import SegueTools

/// The package's executable `name` next to the test bundle (SwiftPM builds it with the tests).
func productBinary(_ name: String) -> String {
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = testBinary.deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/\(name)").path
}

/// The `segue` binary.
let segueBinary = productBinary("segue")

/// Runs `segue` with `args`.
@discardableResult
func segue(_ args: [String], environment: [String: String] = [:], cwd: String? = nil) throws -> ToolResult {
    try runProduct(segueBinary, args, environment: environment, cwd: cwd)
}

/// Runs a built executable, capturing its status and output. A run that outlives `timeout`
/// seconds is killed (SIGKILL) and reported as status 137 with a note on stderr, so no test can
/// wait for ever.
func runProduct(
    _ binary: String, _ args: [String], environment: [String: String] = [:], cwd: String? = nil,
    timeout: Double = 300
) throws -> ToolResult {
    // Each run caches shaders in its own directory, never in ~/.cache.
    let scratch = try TemporaryDirectory("cli-cache"), cacheDir = scratch.path
    let run = try ProgramRun(
        binary, args, environment: ["SEGUE_CACHE_DIR": cacheDir].merging(environment) { $1 }, directory: cwd, timeout: timeout)
    return ToolResult(
        status: run.status, stdout: Data(run.output),
        stderr: run.stderr + (run.timedOut ? "\n[test harness: killed after \(timeout) s]\n" : ""))
}

/// Writes solid-colour PNGs `from.png` (black) and `to.png` (white) of a size into `dir`.
func writeInputs(_ dir: String, width: Int = 16, height: Int = 8, from: Pixel = .black, to: Pixel = .white) throws {
    try ImageFile.write(Image(width: width, height: height, fill: from), to: dir + "/from.png")
    try ImageFile.write(Image(width: width, height: height, fill: to), to: dir + "/to.png")
}
