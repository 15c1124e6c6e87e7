// Helpers of the C API tests: an installation made by scripts/install.sh into a temporary prefix
// (`installSegue`), the C fixture built against it with the system compiler and pkg-config, and
// the frames the fixture reads. Programs run as subprocesses (`runProgram`), never changing this
// process's environment, directory or signals.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// A fixture of this target.
func fixture(_ name: String) -> String { repositoryRoot + "/Tests/SegueCTests/Fixtures/" + name }

/// Runs a shell command line with `sh -c` (for `$(pkg-config …)` as users write it).
func shell(_ command: String, environment: [String: String] = [:]) throws -> ProgramResult {
    try runProgram("/bin/sh", ["-c", command], environment: environment)
}

/// Segue installed by scripts/install.sh from the test build into `prefix`.
struct Installation {
    let prefix: String

    /// The environment that lets pkg-config find this installation (for child processes).
    var pkgConfigEnvironment: [String: String] { ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"] }

    /// Installs the debug build's products with `--no-build` into `prefix`.
    init(prefix: String) throws {
        self.prefix = prefix
        try installSegue(into: prefix)
    }

    /// Builds Fixtures/api_test*.c as a user would, `cc api_test*.c $(pkg-config --cflags --libs segue)`;
    /// returns the program's path.
    func buildAPITest(in directory: String) throws -> String {
        let program = directory + "/api_test"
        let result = try shell(
            "cc -Wall -Wextra -Werror '\(fixture(""))'api_test*.c $(pkg-config --cflags --libs segue) -lpthread -lm -o '\(program)'",
            environment: pkgConfigEnvironment)
        guard result.status == 0 else { throw SetupFailure("cc failed: \(result.stderr)") }
        return program
    }
}

/// The C program's inputs: for each of its sizes, translucent from-WxH and to-WxH as .rgba (raw)
/// and .png (the same straight bytes).
enum CAPIFrames {
    /// The sizes the C program reads.
    static let sizes = [(64, 40), (37, 23)]

    /// Writes them into `directory`.
    static func write(into directory: String) throws {
        for (w, h) in sizes { try TestFrames.writePair(width: w, height: h, translucent: true, suffix: "-\(w)x\(h)", into: directory) }
    }
}
