// Helpers of the frei0r tests: an installation made by scripts/install.sh into a temporary prefix
// (`installSegue`) with the hosts' private state, programs run as subprocesses with their own
// environment (never this process's: FREI0R_PATH, GST_REGISTRY, HOME and the shader cache are set
// per child, so nothing touches the real ~/.frei0r-1, ~/.cache or GStreamer registry), the C
// host fixture, and plugins that go bad. Test frames and comparisons are SegueTestSupport's.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// A fixture of this target, or a path under the repository.
func fixture(_ name: String) -> String { repositoryRoot + "/Tests/SegueFrei0rTests/Fixtures/" + name }

/// Segue installed by scripts/install.sh from the test build into `DIR/prefix`, with the hosts'
/// private state (plugin path, GStreamer registry, home, shader cache) under `DIR`.
/// TestFrames' `from.png` and `to.png` of `width`×`height` in `dir/in`; returns that folder.
func writeInputs(_ dir: TemporaryDirectory, width: Int = 64, height: Int = 48, translucent: Bool = false) throws -> String {
    let inputs = dir.file("in")
    try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
    try TestFrames.writePair(width: width, height: height, translucent: translucent, into: inputs)
    return inputs
}

/// The .glsl files `Installation.pluginPathWithFiles` installs as plugins.
enum EffectFiles {
    /// A filter with a colour parameter, `tint`.
    static let tint = repositoryRoot + "/Tests/segueTests/Fixtures/gallery/tint.glsl"
    /// A transition with a texture parameter, `luma`.
    static let luma = repositoryRoot + "/Tests/Fixtures/gl-transitions/luma-mask.glsl"
}

struct Installation {
    let directory: TemporaryDirectory
    var prefix: String { directory.path + "/prefix" }
    var segue: String { prefix + "/bin/segue" }
    var plugins: String { prefix + "/lib/frei0r-1" }
    var library: String { prefix + "/lib/libsegue.so.0" }
    var template: String { prefix + "/lib/segue/segue-frei0r.so" }

    /// Installs the debug build with `--no-build`.
    init(_ directory: TemporaryDirectory) throws {
        self.directory = directory
        try installSegue(into: directory.path + "/prefix")
        try FileManager.default.createDirectory(atPath: directory.path + "/home/.cache", withIntermediateDirectories: true)
    }

    /// The environment of a host: plugins from `pluginPath` (default: the installed ones and
    /// `extra`), its own GStreamer registry, home and shader cache.
    func hostEnvironment(pluginPath: String? = nil) -> [String: String] {
        [
            "FREI0R_PATH": pluginPath ?? plugins, "GST_REGISTRY": directory.path + "/gst-registry.bin", "HOME": directory.path + "/home",
            "SEGUE_CACHE_DIR": directory.path + "/cache", "XDG_CACHE_HOME": directory.path + "/home/.cache", "GST_DEBUG_NO_COLOR": "1",
        ]
    }

    /// Runs the installed `segue`.
    func runSegue(_ arguments: [String], environment: [String: String] = [:]) throws -> ProgramResult {
        try runProgram(segue, arguments, environment: hostEnvironment().merging(environment) { $1 })
    }

    /// Installs `files` as plugins into `directory` (created), returning the run.
    func installFiles(_ files: [String], into directory: String, extra: [String] = []) throws -> ProgramResult {
        try runSegue(["frei0r", "install", "--dir", directory] + extra + files)
    }

    /// Installs the plugins of two .glsl files, tint (a colour parameter) and luma-mask (a
    /// texture), into `extra/` beside the prefix; returns the plugin path with both folders.
    func pluginPathWithFiles() throws -> String {
        let added = try installFiles([EffectFiles.tint, EffectFiles.luma], into: directory.file("extra"))
        guard added.status == 0 else { throw SetupFailure("segue frei0r install failed: \(added.stderr)") }
        return plugins + ":" + directory.file("extra")
    }

    /// Builds the C host fixture; returns its path.
    func buildHost() throws -> String {
        let program = directory.path + "/frei0r_host"
        let cc = try runProgram("cc", ["-Wall", "-Wextra", "-Werror", fixture("frei0r_host.c"), "-o", program, "-ldl", "-lpthread"])
        guard cc.status == 0 else { throw SetupFailure("cc frei0r_host.c: \(cc.stderr)") }
        return program
    }
}

/// Plugins of two effect files that go bad after installation, in `DIR/bad`: segue_broken (its
/// .glsl edited into a shader that does not compile) and segue_gone (its file removed).
struct BrokenEffects {
    let plugins: String
    let brokenMessage: String
    let goneMessage: String
    let pipedMessage: String

    init(_ dir: TemporaryDirectory, _ installation: Installation) throws {
        let effects = dir.file("effects")
        try FileManager.default.createDirectory(atPath: effects, withIntermediateDirectories: true)
        let tint = repositoryRoot + "/Tests/segueTests/Fixtures/gallery/tint.glsl"
        for name in ["broken", "gone", "piped"] { try FileManager.default.copyItem(atPath: tint, toPath: "\(effects)/\(name).glsl") }
        plugins = dir.file("bad")
        let added = try installation.installFiles(
            ["\(effects)/broken.glsl", "\(effects)/gone.glsl", "\(effects)/piped.glsl"], into: plugins)
        guard added.status == 0 else { throw SetupFailure("segue frei0r install: \(added.stderr)") }
        try FileManager.default.removeItem(atPath: "\(effects)/broken.glsl")
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/Tests/Fixtures/gl-transitions/syntax-error.glsl", toPath: "\(effects)/broken.glsl")
        try FileManager.default.removeItem(atPath: "\(effects)/gone.glsl")
        // A named pipe in the file's place: opening it to check it blocked until a writer came.
        try FileManager.default.removeItem(atPath: "\(effects)/piped.glsl")
        guard mkfifo("\(effects)/piped.glsl", 0o600) == 0 else { throw SetupFailure("mkfifo failed") }
        brokenMessage = "segue_broken (segue frei0r plugin): shader '\(effects)/broken.glsl' does not compile"
        goneMessage = "segue_gone (segue frei0r plugin): cannot read the effect file '\(effects)/gone.glsl': No such file or directory"
        pipedMessage =
            "segue_piped (segue frei0r plugin): cannot read the effect file '\(effects)/piped.glsl': it is not a regular file (a pipe or a device?)"
    }
}
