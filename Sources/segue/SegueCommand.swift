// The `segue` command line: thin commands that parse, call the library and print.
import ArgumentParser
import FoundationEssentials
import Segue
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct SegueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segue",
        abstract: "Render GPU view transitions between images with Vulkan.",
        discussion: """
            Effects are named built-ins (see 'segue list') or paths to .glsl transition files. \
            Inputs are PNG or JPEG; outputs are PNG frames, raw RGBA8 on stdout, or video via ffmpeg. \
            The Vulkan device is chosen with --device or SEGUE_DEVICE (an index or a name substring).
            """,
        version: SegueVersion.current,
        subcommands: [
            ListCommand.self, InfoCommand.self, DevicesCommand.self, FrameCommand.self,
            RenderCommand.self, MeshCommand.self, CheckCommand.self, ConcatCommand.self, DemoCommand.self, EffectCommand.self,
            GalleryCommand.self, NavigateCommand.self, PreviewCommand.self, BenchCommand.self, Frei0rCommand.self,
        ])

    /// Parses and runs the command. Every failure, from the command line or the library, prints
    /// one `error: …` line (lower case, then a pointer to `--help` for command-line mistakes) and
    /// exits with status 1; `--help` and `--version` print and exit 0.
    static func main() {
        holdStandardDescriptors()
        InterruptHandler.install()
        if let problem = argumentEncodingProblem() { fail(problem) }
        var command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            guard exitCode(for: error) != .success else { exit(withError: error) }  // --help, --version
            fail(commandLineMessage(for: error))
        }
        do {
            try command.run()
            try checkStandardOutput()
        } catch let error as SegueError {
            fail(FlagWording.message(for: error))
        } catch let error as ValidationError {
            fail(commandLineMessage(for: error))  // a usage mistake found while running
        } catch {
            guard exitCode(for: error) != .success else { exit(withError: error) }
            if error is ExitCode || error is CleanExit { exit(withError: error) }
            fail(foreignMessage(for: error))
        }
    }

    /// Gives a closed standard input, output or error a placeholder (`/dev/null`, read-only),
    /// so that no descriptor the command opens takes its number: the interrupt pipe read as
    /// descriptor 1 took printed text for a signal, and an output file there would receive
    /// what is printed. Writes to the placeholder fail with EBADF, as to the closed descriptor.
    static func holdStandardDescriptors() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let placeholder = open("/dev/null", O_RDONLY)  // the lowest free number: `fd`
            if placeholder >= 0, placeholder != fd {
                dup2(placeholder, fd)
                close(placeholder)
            }
        }
    }

    /// The refusal of the first argument that is not UTF-8 (a file named in Latin-1, say):
    /// Swift would read it with U+FFFD in place of the bytes, and the file would be "not found".
    static func argumentEncodingProblem() -> String? {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeRawBufferPointer(start: argument, count: strlen(argument))
            guard bytes.validUTF8PrefixCount < bytes.count else { continue }
            return "the argument '\(bytes.escapingInvalidUTF8)' is not UTF-8 text; segue reads its arguments, "
                + "file names too, as UTF-8: give the file a UTF-8 name (convmv renames files)"
        }
        return nil
    }

    /// An error that is neither Segue's nor a usage mistake (Foundation, POSIX): its own
    /// description, lower-cased, with no pointer to `--help`.
    static func foreignMessage(for error: Error) -> String {
        let text = String(describing: error).trimmingWhitespaceAndNewlines()
        return lowercasingFirstLetter(text.isEmpty ? "\(type(of: error))" : text)
    }

    /// The one-line message for a command-line error from ArgumentParser (unknown option,
    /// missing or invalid value, a `ValidationError`), with the subcommand's help pointer.
    static func commandLineMessage(for error: Error) -> String {
        var text = message(for: error).trimmingWhitespaceAndNewlines()
        for prefix in ["Error: ", "error: "] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        text = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? text
        return lowercasingFirstLetter(text) + helpHint
    }

    /// " (see 'segue SUBCOMMAND --help')" for the subcommand named on the command line.
    private static var helpHint: String {
        let names = Set(configuration.subcommands.map { $0._commandName })
        let sub = CommandLine.arguments.dropFirst().first { names.contains($0) }
        return " (see 'segue\(sub.map { " " + $0 } ?? "") --help')"
    }

    /// "Missing value…" → "missing value…"; leaves "--fps …" and acronyms ("PNG …") alone.
    static func lowercasingFirstLetter(_ text: String) -> String {
        guard let first = text.first, first.isUppercase else { return text }
        let second = text.dropFirst().first
        if let second, second.isUppercase { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// What the command printed reached standard output: a full disk or a closed descriptor is
    /// an error, not a quiet success (a scheduler reads the job numbers of `concat --plan` there).
    /// - Throws: `SystemError.writeFailed` naming standard output and the system's reason.
    static func checkStandardOutput() throws(SystemError) {
        // Every stream: `print` writes through C's standard output, whose buffer keeps what a
        // failed write could not deliver, so the last flush fails too.
        // A reader that stopped early (`segue list | head -1`) is no failure of the command.
        guard fflush(nil) == 0 || errno == EPIPE else {
            let code = errno
            throw .writeFailed(path: "standard output", reason: FileIO.writeFailure(code == 0 ? EIO : code))
        }
    }

    static func fail(_ message: String) -> Never {
        InterruptHandler.yieldToInterrupt()  // Ctrl-C made this failure: exit 130, not 1
        FileIO.writeStandardError("error: \(message)\n")
        Glibc.exit(1)
    }
}

/// A failure with a ready message.
struct CLIFailure: SegueError {
    let message: String
    var description: String { message }
}
