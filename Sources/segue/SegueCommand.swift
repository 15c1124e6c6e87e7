// The `segue` command line: thin commands that parse, call the library and print.
import ArgumentParser
import Foundation
import Segue

@main
struct SegueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segue",
        abstract: "Render GPU view transitions between images with Vulkan.",
        discussion: """
        Effects are named built-ins (see 'segue list') or paths to .glsl transition files.
        Inputs are PNG or JPEG; outputs are PNG frames, raw RGBA8 on stdout, or video via ffmpeg.
        The Vulkan device is chosen with --device or SEGUE_DEVICE (an index or a name substring).
        """,
        version: "0.1.0",
        subcommands: [ListCommand.self, InfoCommand.self, DevicesCommand.self, FrameCommand.self,
                      RenderCommand.self, MeshCommand.self, CheckCommand.self, DemoCommand.self, BenchCommand.self])

    /// Runs the command; library errors print as `error: …` and exit 1.
    static func main() {
        TemporaryFiles.installInterruptHandler()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as SegueError {
            fail(error.message)
        } catch {
            exit(withError: error)
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        Foundation.exit(1)
    }
}

/// A failure with a ready message.
struct CLIFailure: SegueError {
    let message: String
    var description: String { message }
}
