// Helpers of the frei0r tests: the build directory, programs run as subprocesses with their own
// environment (never this process's: FREI0R_PATH, GST_REGISTRY, HOME and the shader cache are set
// per child, so nothing touches the real ~/.frei0r-1, ~/.cache or GStreamer registry), an
// installation made by scripts/install.sh into a temporary prefix, test frames, the C host
// fixture, and frame comparisons.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// The repository's root directory.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A fixture of this target, or a path under the repository.
func fixture(_ name: String) -> String { repositoryRoot + "/Tests/SegueFrei0rTests/Fixtures/" + name }



/// A fresh temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init(_ label: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("segue-frei0r-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A step of the set-up failed.
struct SetupFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Segue installed by scripts/install.sh from the test build into `DIR/prefix`, with the hosts'
/// private state (plugin path, GStreamer registry, home, shader cache) under `DIR`.
struct Installation {
    let directory: TemporaryDirectory
    var prefix: String { directory.path + "/prefix" }
    var segue: String { prefix + "/bin/segue" }
    var plugins: String { prefix + "/lib/frei0r-1" }
    var library: String { prefix + "/lib/libsegue.so" }
    var template: String { prefix + "/lib/segue/segue-frei0r.so" }

    /// Installs the debug build with `--no-build`.
    init(_ directory: TemporaryDirectory) throws {
        self.directory = directory
        let run = try runProgram(repositoryRoot + "/scripts/install.sh", ["--prefix", directory.path + "/prefix", "--build-dir", buildDirectory, "--no-build"])
        guard run.status == 0 else { throw SetupFailure("install.sh exited \(run.status): \(run.stderr)\(run.stdout)") }
        try FileManager.default.createDirectory(atPath: directory.path + "/home/.cache", withIntermediateDirectories: true)
    }

    /// The environment of a host: plugins from `pluginPath` (default: the installed ones and
    /// `extra`), its own GStreamer registry, home and shader cache.
    func hostEnvironment(pluginPath: String? = nil) -> [String: String] {
        ["FREI0R_PATH": pluginPath ?? plugins, "GST_REGISTRY": directory.path + "/gst-registry.bin", "HOME": directory.path + "/home",
         "SEGUE_CACHE_DIR": directory.path + "/cache", "XDG_CACHE_HOME": directory.path + "/home/.cache", "GST_DEBUG_NO_COLOR": "1"]
    }

    /// Runs the installed `segue`.
    func runSegue(_ arguments: [String], environment: [String: String] = [:]) throws -> ProgramResult {
        try runProgram(segue, arguments, environment: hostEnvironment().merging(environment) { $1 })
    }

    /// Installs `files` as plugins into `directory` (created), returning the run.
    func installFiles(_ files: [String], into directory: String, extra: [String] = []) throws -> ProgramResult {
        try runSegue(["frei0r", "install", "--dir", directory] + extra + files)
    }

    /// Builds the C host fixture; returns its path.
    func buildHost() throws -> String {
        let program = directory.path + "/frei0r_host"
        let cc = try runProgram("cc", ["-Wall", "-Wextra", "-Werror", fixture("frei0r_host.c"), "-o", program, "-ldl", "-lpthread"])
        guard cc.status == 0 else { throw SetupFailure("cc frei0r_host.c: \(cc.stderr)") }
        return program
    }
}

/// Straight-alpha RGBA8 test frames: `from` an opaque gradient, `to` opaque stripes, both varying
/// with x and y so that any misplaced row or column shows; `translucent` gives `from` a
/// half-transparent square and `to` a band whose alpha falls off.
enum TestFrames {
    static func from(width: Int, height: Int, translucent: Bool = false) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let inSquare = (width / 4..<width / 2).contains(x) && (height / 4..<height / 2).contains(y)
                bytes[i] = UInt8(x * 255 / max(width - 1, 1))
                bytes[i + 1] = UInt8(y * 255 / max(height - 1, 1))
                bytes[i + 2] = UInt8((x * 7 + y * 13) % 256)
                bytes[i + 3] = translucent && inSquare ? 128 : 255
            }
        }
        return bytes
    }

    static func to(width: Int, height: Int, translucent: Bool = false) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let stripe = (x / 4 + y / 3) % 2 == 0
                bytes[i] = stripe ? 230 : 20
                bytes[i + 1] = UInt8((y * 255 / max(height - 1, 1)) ^ 0x55)
                bytes[i + 2] = stripe ? 40 : 210
                bytes[i + 3] = translucent && y < height / 3 ? UInt8(255 - x * 200 / max(width - 1, 1)) : 255
            }
        }
        return bytes
    }

    /// Writes NAME.rgba (raw) and NAME.png (the same straight bytes) into `directory`.
    static func write(_ bytes: [UInt8], width: Int, height: Int, name: String, into directory: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(name).rgba"))
        let png = try bytes.withUnsafeBytes { try ImageFile.encodePNG(straightRGBA: $0, width: width, height: height) }
        try Data(png).write(to: URL(fileURLWithPath: "\(directory)/\(name).png"))
    }

    /// Writes from.png/.rgba and to.png/.rgba of `width`×`height` into `directory`.
    static func writePair(width: Int, height: Int, translucent: Bool = false, into directory: String) throws {
        try write(from(width: width, height: height, translucent: translucent), width: width, height: height, name: "from", into: directory)
        try write(to(width: width, height: height, translucent: translucent), width: width, height: height, name: "to", into: directory)
    }
}

/// The largest difference of any premultiplied channel between two images, and where.
func largestDifference(_ a: Image, _ b: Image) -> (difference: Int, x: Int, y: Int) {
    guard a.width == b.width, a.height == b.height else { return (255, -1, -1) }
    var worst = (0, 0, 0)
    for i in 0..<min(a.pixels.count, b.pixels.count) {
        let d = abs(Int(a.pixels[i]) - Int(b.pixels[i]))
        if d > worst.0 { worst = (d, (i / 4) % a.width, (i / 4) / a.width) }
    }
    return worst
}

/// A straight-alpha raw frame as an image (premultiplied as Segue reads PNG files).
func image(rawStraight path: String, width: Int, height: Int) throws -> Image {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    guard bytes.count == width * height * 4 else { throw SetupFailure("\(path): \(bytes.count) bytes, not \(width)x\(height) RGBA") }
    return Image(width: width, height: height, straightRGBA: bytes)
}

/// Plugins of two effect files that go bad after installation, in `DIR/bad`: segue_broken (its
/// .glsl edited into a shader that does not compile) and segue_gone (its file removed).
struct BrokenEffects {
    let plugins: String
    let brokenMessage: String
    let goneMessage: String

    init(_ dir: TemporaryDirectory, _ installation: Installation) throws {
        let effects = dir.file("effects")
        try FileManager.default.createDirectory(atPath: effects, withIntermediateDirectories: true)
        let tint = repositoryRoot + "/Tests/segueTests/Fixtures/gallery/tint.glsl"
        for name in ["broken", "gone"] { try FileManager.default.copyItem(atPath: tint, toPath: "\(effects)/\(name).glsl") }
        plugins = dir.file("bad")
        let added = try installation.installFiles(["\(effects)/broken.glsl", "\(effects)/gone.glsl"], into: plugins)
        guard added.status == 0 else { throw SetupFailure("segue frei0r install: \(added.stderr)") }
        try FileManager.default.removeItem(atPath: "\(effects)/broken.glsl")
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Tests/Fixtures/gl-transitions/syntax-error.glsl", toPath: "\(effects)/broken.glsl")
        try FileManager.default.removeItem(atPath: "\(effects)/gone.glsl")
        brokenMessage = "segue_broken (segue frei0r plugin): shader '\(effects)/broken.glsl' does not compile"
        goneMessage = "segue_gone (segue frei0r plugin): cannot read the effect file '\(effects)/gone.glsl': No such file or directory"
    }
}
