// `segue frei0r install`: frei0r plugins of every effect for MLT (Shotcut, Kdenlive, melt) and
// GStreamer, and optionally Kdenlive's descriptions of them.
import ArgumentParser
import FoundationEssentials
import Segue
import SegueFrei0r

struct Frei0rCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frei0r", abstract: "Install Segue's effects as frei0r plugins for MLT (Shotcut, Kdenlive) and GStreamer.",
        subcommands: [Frei0rInstallCommand.self])
}

struct Frei0rInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install", abstract: "Write a frei0r plugin for every built-in effect and for each FILE.",
        discussion: """
            Transitions become mixer plugins (MLT: frei0r.segue_NAME; GStreamer: frei0r-mixer-segue-NAME), effects on one image filter plugins, with `progress` (0…1, to animate) and the effect's parameters (Docs/Frei0r.md).

            FILE is a .glsl file or FILE.metal:FUNCTION, installed as segue_ and its name lowercased (other characters than a-z and 0-9 as _), after its shader is compiled (on --device).

            The plugins load libsegue when they first render: from the path written now, else $SEGUE_LIBRARY.
            """)

    @Argument(help: ArgumentHelp("Effect files to add as plugins of their own.", valueName: "FILE"))
    var files: [String] = []

    @Option(help: ArgumentHelp("Where the plugins go (default ~/.frei0r-1/lib, which MLT and GStreamer search).", valueName: "DIR"))
    var dir: String?

    @Option(
        help: ArgumentHelp(
            "Also write Kdenlive's descriptions into DIR/transitions and DIR/effects (Kdenlive's data folder: ~/.local/share/kdenlive).",
            valueName: "DIR"))
    var kdenlive: String?

    @Option(help: ArgumentHelp("The libsegue the plugins load (default: the one installed with this segue).", valueName: "PATH"))
    var library: String?

    @Option(help: ArgumentHelp("The compiled plugin template (default: the one installed with this segue).", valueName: "PATH"))
    var template: String?

    @OptionGroup var deviceOptions: DeviceOptions

    func run() throws {
        let home =
            ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        let installer = Frei0rInstaller(
            directory: dir ?? Frei0rInstaller.defaultDirectory(home: home), kdenliveDirectory: kdenlive,
            library: library ?? Frei0rInstaller.installedLibrary(besideExecutableIn: Executable.directory),
            template: template ?? Frei0rInstaller.installedTemplate(besideExecutableIn: Executable.directory), files: files,
            compiler: { [deviceOptions] in try deviceOptions.context() }, cancellation: InterruptHandler.cancellation)
        let plugins = try installer.install()
        let mixers = plugins.filter { $0.type == .mixer2 }.count, sources = plugins.filter { $0.type == .source }.count
        let fills = sources == 0 ? "" : ", \(sources) fill\(sources == 1 ? "" : "s") (sources)"
        print(
            "\(installer.directory): \(plugins.count) frei0r plugins (\(mixers) transitions, \(plugins.count - mixers - sources) effects on one image\(fills))"
        )
        for plugin in plugins.suffix(files.count) {
            print("  \(plugin.name): MLT \(plugin.mltService), GStreamer \(plugin.gstreamerElement)")
        }
        if let kdenlive { print("\(kdenlive): Kdenlive descriptions in transitions/ and effects/") }
    }
}
