import FoundationEssentials
import SegueMedia
import SegueShaders
import SegueSystem
import SegueVulkan

// `segue frei0r install`: writes one frei0r plugin per built-in effect and per effect file into a
// directory MLT and GStreamer search (~/.frei0r-1/lib by default, or PREFIX/lib/frei0r-1), and
// optionally Kdenlive's descriptions of them. Everything is checked before anything is written:
// the template, the library, every file's effect and shader (compiled), and every name (a name
// two effects would share is an error naming both, as is a plugin already in the directory that
// belongs to another effect). Each file is written atomically (a host listing the directory meanwhile sees the old
// plugin or the new one, never part of one).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes frei0r plugins (and Kdenlive descriptions).
public struct Frei0rInstaller: Sendable {
    /// Where the plugins go.
    public let directory: String
    /// Kdenlive's data directory (`~/.local/share/kdenlive`): descriptions go in its
    /// `transitions/` and `effects/`; nil for none.
    public let kdenliveDirectory: String?
    /// The libsegue the plugins load (an absolute path is written into each).
    public let library: String
    /// The compiled plugin template.
    public let template: String
    /// Effect files to add (`.glsl`, `FILE.metal:FUNCTION`).
    public let files: [String]
    /// Opens the GPU that compiles the files' shaders before their plugins are written (called
    /// only when there are files); nil skips the check.
    public let compiler: (@Sendable () throws -> GPUContext)?
    /// Stops the installation from outside: a plugin being written is then removed, never half there.
    public let cancellation: Cancellation?

    /// An installation of the built-ins and `files`.
    public init(
        directory: String, kdenliveDirectory: String? = nil, library: String, template: String, files: [String] = [],
        compiler: (@Sendable () throws -> GPUContext)? = nil, cancellation: Cancellation? = nil
    ) {
        self.directory = directory
        self.kdenliveDirectory = kdenliveDirectory
        self.library = library
        self.template = template
        self.files = files
        self.compiler = compiler
        self.cancellation = cancellation
    }

    /// The default plugin directory: `$HOME/.frei0r-1/lib`, which MLT and GStreamer search.
    public static func defaultDirectory(home: String) -> String {
        (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.frei0r-1/lib"
    }

    /// The plugins: every built-in, then one per file.
    /// - Throws: a file's problem, or `Frei0rError.clash` when two would share a name.
    public static func plugins(files: [String]) throws -> [Frei0rPlugin] {
        var plugins: [Frei0rPlugin] = []
        var owners: [String: String] = [:]
        func add(_ plugin: Frei0rPlugin, owner: String) throws {
            if let first = owners[plugin.name] { throw Frei0rError.clash(name: plugin.name, first: first, second: owner) }
            owners[plugin.name] = owner
            plugins.append(plugin)
        }
        for effect in EffectCatalog.builtIns { try add(try Frei0rPlugin.builtIn(effect), owner: "the built-in '\(effect.name)'") }
        for file in files { try add(try Frei0rPlugin.file(file), owner: "'\(file)'") }
        return plugins
    }

    /// Writes the plugins (and descriptions); returns them.
    /// - Throws: `Frei0rError`, a file's problem, `MediaError` for a failed write.
    @discardableResult
    public func install() throws -> [Frei0rPlugin] {
        let template = try Frei0rTemplate(path: self.template)
        // The directory made absolute, the name kept: the SONAME link (libsegue.so.0) still names
        // the library after an upgrade replaces the file it points to.
        let library = FileIO.resolvedPath(FileIO.directory(of: self.library)) + "/" + FileIO.lastComponent(of: self.library)
        guard access(library, R_OK) == 0 else { throw Frei0rError.library(path: library) }
        let plugins = try Self.plugins(files: files)
        // A plugin's configuration is lines of tab-separated fields: a path holding a line break
        // or a tab would be read back as another file, and the plugin would never find its own.
        for path in [library] + plugins.map(\.effect)
        where path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw Frei0rError.controlCharacter(path: path)
        }
        for plugin in plugins {
            if plugin.targets.count > Frei0rTemplate.maximumTargets {
                throw Frei0rError.tooManyTargets(effect: plugin.effect, count: plugin.targets.count, limit: Frei0rTemplate.maximumTargets)
            }
            if plugin.parameters.count > Frei0rTemplate.maximumParameters {
                throw Frei0rError.tooManyParameters(
                    effect: plugin.effect, count: plugin.parameters.count, limit: Frei0rTemplate.maximumParameters)
            }
        }
        if !files.isEmpty, let compiler {
            let context = try compiler()
            for plugin in plugins.suffix(files.count) { try plugin.checkCompiles(context: context) }
        }
        let images = try plugins.map { try template.plugin(configuration: $0.configuration(library: library)) }
        // No plugin may be written over what the install reads: the library, the template, an effect file.
        let inputs =
            [OutputGuard.Input("the library", library), OutputGuard.Input("the plugin template", self.template)]
            + files.compactMap { EffectCatalog.file(ofEffect: $0).map { OutputGuard.Input("the effect file", $0) } }
        try OutputGuard.check(outputs: plugins.map(pluginPath), inputs: inputs)
        // All or nothing: every file is written under a temporary name first, and published only
        // when all are there; a failure (a full disk) removes them and the folders this run made.
        // (The folders this run made are registered with the cancellation until it ends: a
        // Ctrl-C takes them away.)
        var made = try makeDirectory(directory).map { [$0] } ?? []
        defer { for folder in made { cancellation?.unregister(folder) } }
        var staged: [StagedOutput] = []
        do {
            for plugin in plugins {
                let path = pluginPath(plugin)
                if let existing = Frei0rTemplate.configuration(ofPlugin: path),
                    let effect = Frei0rTemplate.field("effect", in: existing), effect != plugin.effect
                {
                    throw Frei0rError.occupied(path: path, effect: "'\(effect)'", newEffect: "'\(plugin.effect)'")
                }
            }
            if let kdenliveDirectory {
                for folder in ["transitions", "effects"] {
                    if let outermost = try makeDirectory(kdenliveDirectory + "/" + folder) { made.append(outermost) }
                }
            }
            /// Writes `bytes` to a temporary for `path`, with `mode`.
            func stage(_ bytes: [UInt8], for path: String, mode: mode_t) throws(MediaError) {
                try MediaError.converting { () throws(SystemError) in
                    let file = try StagedOutput(file: path, cancellation: cancellation)
                    staged.append(file)
                    try file.write(bytes)
                    file.closeDescriptor()  // flushed when published; a few hundred files stay within the limit
                    chmod(file.temporaryPath, mode)
                }
            }
            for (plugin, bytes) in zip(plugins, images) {
                // A shared object, as hosts expect it: readable by everyone, executable.
                try stage(bytes, for: pluginPath(plugin), mode: 0o755)
                // Kdenlive lists frei0r transitions and effects; a source is a producer it does not describe.
                if let kdenliveDirectory, plugin.type != .source {
                    let path =
                        "\(kdenliveDirectory)/\(KdenliveDescription.folder(for: plugin))/\(KdenliveDescription.fileName(for: plugin))"
                    try stage(Array(KdenliveDescription.xml(for: plugin).utf8), for: path, mode: 0o644)
                }
            }
            for file in staged { try MediaError.converting { () throws(SystemError) in try file.publish() } }
        } catch {
            for file in staged { file.discard() }
            for folder in made { FileIO.removeTree(folder) }  // what this run made holds only its own files
            throw error
        }
        return plugins
    }

    /// Where `plugin` is written: `DIRECTORY/NAME.so`.
    public func pluginPath(_ plugin: Frei0rPlugin) -> String {
        (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/" + plugin.name + ".so"
    }

    /// Makes `path` and its missing parents; returns the outermost folder it made (what a failed
    /// install takes away again).
    private func makeDirectory(_ path: String) throws(Frei0rError) -> String? {
        do {
            return try FileIO.createDirectories(path, cancellation: cancellation)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
    }
}
