// Helpers of the C API tests: the build directory holding `segue` and libSegueC.so, running
// programs as subprocesses (never changing this process's environment, directory or signals),
// an installation made by scripts/install.sh into a temporary prefix, and the C fixture built
// against it with the system compiler and pkg-config.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// The repository's root directory.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A fixture of this target.
func fixture(_ name: String) -> String { repositoryRoot + "/Tests/SegueCTests/Fixtures/" + name }



/// Runs a shell command line with `sh -c` (for `$(pkg-config …)` as users write it).
func shell(_ command: String, environment: [String: String] = [:]) throws -> ProgramResult {
    try runProgram("/bin/sh", ["-c", command], environment: environment)
}

/// A fresh temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init(_ label: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("segue-capi-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Segue installed by scripts/install.sh from the test build into `prefix`.
struct Installation {
    let prefix: String

    /// The environment that lets pkg-config find this installation (for child processes).
    var pkgConfigEnvironment: [String: String] { ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"] }

    /// Installs the debug build's products with `--no-build` into `prefix`.
    init(prefix: String) throws {
        self.prefix = prefix
        let result = try runProgram(repositoryRoot + "/scripts/install.sh", ["--prefix", prefix, "--build-dir", buildDirectory, "--no-build"])
        guard result.status == 0 else {
            throw InstallationFailure("install.sh exited \(result.status): \(result.stderr)\(result.stdout)")
        }
    }

    /// Builds Fixtures/api_test.c as a user would, `cc api_test.c $(pkg-config --cflags --libs segue)`;
    /// returns the program's path.
    func buildAPITest(in directory: String) throws -> String {
        let program = directory + "/api_test"
        let result = try shell("cc -Wall -Wextra '\(fixture("api_test.c"))' $(pkg-config --cflags --libs segue) -lpthread -lm -o '\(program)'",
                               environment: pkgConfigEnvironment)
        guard result.status == 0 else { throw InstallationFailure("cc failed: \(result.stderr)") }
        return program
    }
}

/// A step of the set-up failed.
struct InstallationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Straight-alpha RGBA8 test frames: `from` an opaque gradient with a half-transparent square,
/// `to` stripes whose alpha falls off along a band; both depend on x and y so any misplaced row
/// or column shows.
enum TestFrames {
    /// The sizes the C program reads.
    static let sizes = [(64, 40), (37, 23)]

    static func from(width: Int, height: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let inSquare = (width / 4..<width / 2).contains(x) && (height / 4..<height / 2).contains(y)
                bytes[i] = UInt8(x * 255 / max(width - 1, 1))
                bytes[i + 1] = UInt8(y * 255 / max(height - 1, 1))
                bytes[i + 2] = UInt8((x * 7 + y * 13) % 256)
                bytes[i + 3] = inSquare ? 128 : 255
            }
        }
        return bytes
    }

    static func to(width: Int, height: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let stripe = (x / 4 + y / 3) % 2 == 0
                bytes[i] = stripe ? 230 : 20
                bytes[i + 1] = UInt8((y * 255 / max(height - 1, 1)) ^ 0x55)
                bytes[i + 2] = stripe ? 40 : 210
                bytes[i + 3] = y < height / 3 ? UInt8(255 - x * 200 / max(width - 1, 1)) : 255
            }
        }
        return bytes
    }

    /// Writes from-WxH / to-WxH as .rgba (raw) and .png (the same straight bytes) into `directory`.
    static func write(into directory: String) throws {
        for (w, h) in sizes {
            for (name, bytes) in [("from", from(width: w, height: h)), ("to", to(width: w, height: h))] {
                let base = "\(directory)/\(name)-\(w)x\(h)"
                try Data(bytes).write(to: URL(fileURLWithPath: base + ".rgba"))
                let png = try bytes.withUnsafeBytes { try ImageFile.encodePNG(straightRGBA: $0, width: w, height: h) }
                try Data(png).write(to: URL(fileURLWithPath: base + ".png"))
            }
        }
    }
}

/// The largest difference of any premultiplied channel between straight-alpha RGBA8 `straight`
/// (what the C API returns) and `reference` (a PNG read by ImageFile, premultiplied as
/// `segue frame` renders), with the first pixel where it occurs.
func largestDifference(straight: [UInt8], reference: Image) -> (difference: Int, x: Int, y: Int) {
    let ours = Image(width: reference.width, height: reference.height, straightRGBA: straight).pixels
    var worst = (0, 0, 0)
    for i in 0..<min(ours.count, reference.pixels.count) {
        let d = abs(Int(ours[i]) - Int(reference.pixels[i]))
        if d > worst.0 { worst = (d, (i / 4) % reference.width, (i / 4) / reference.width) }
    }
    return worst
}
