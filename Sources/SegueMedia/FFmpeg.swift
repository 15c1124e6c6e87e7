import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding the `ffmpeg` and `ffprobe` executables.
///
/// `SEGUE_FFMPEG` (and `SEGUE_FFPROBE`), when set, name the executables to use; otherwise they
/// are looked up on `PATH`. When only `SEGUE_FFMPEG` is set, `ffprobe` is looked for next to it
/// first. Nothing is started to find them, so a missing tool is reported before any work begins.
public enum FFmpeg {
    /// The environment variable that overrides the `ffmpeg` executable.
    public static let ffmpegVariable = "SEGUE_FFMPEG"
    /// The environment variable that overrides the `ffprobe` executable.
    public static let ffprobeVariable = "SEGUE_FFPROBE"

    /// The environment the executables are looked up in, for the current task: nil (the
    /// default) is the process's own. Bind it with `FFmpeg.$environment.withValue(…)` to choose
    /// the tools for one piece of work without changing the process (tests run in parallel).
    @TaskLocal public static var environment: [String: String]?

    private static var currentEnvironment: [String: String] { environment ?? FileIO.processEnvironment }

    /// The `ffmpeg` executable to run.
    /// - Parameter path: The media file the tool is wanted for, named in the error.
    /// - Throws: `.ffmpegNotFound`, saying where Segue looked.
    public static func ffmpegExecutable(for path: String) throws(MediaError) -> String {
        try locate("ffmpeg", variable: ffmpegVariable, near: nil, for: path)
    }

    /// The `ffprobe` executable to run (part of the same Debian package as ffmpeg).
    public static func ffprobeExecutable(for path: String) throws(MediaError) -> String {
        let sibling = currentEnvironment[ffmpegVariable].map { FileIO.directory(of: $0) + "/ffprobe" }
        return try locate("ffprobe", variable: ffprobeVariable, near: sibling, for: path)
    }

    /// Whether videos can be written: the encoder runs `ffmpeg` and checks what it wrote with
    /// `ffprobe`, so both must be found; the error of the first that is not.
    public static func videoToolsProblem(for path: String) -> MediaError? {
        do {
            _ = try ffmpegExecutable(for: path)
            _ = try ffprobeExecutable(for: path)
            return nil
        } catch { return error }
    }

    private static func locate(_ name: String, variable: String, near sibling: String?, for path: String) throws(MediaError) -> String {
        let environment = currentEnvironment
        if let override = environment[variable], !override.isEmpty {
            guard FileIO.isExecutableFile(override) else {
                throw .ffmpegNotFound(path: path, searched: "\(variable)=\(override) is not an executable file")
            }
            return override
        }
        if let sibling, FileIO.isExecutableFile(sibling) { return sibling }
        let searchPath = FileIO.searchPath(in: environment)
        if let found = FileIO.findExecutable(name, searchPath: searchPath) { return found }
        throw .ffmpegNotFound(path: path, searched: "no `\(name)` on PATH=\(searchPath)")
    }

    // MARK: - Arguments

    /// `path` as ffmpeg and ffprobe must be given a file, input or output: `file:PATH`. Given as
    /// it is, a name with a colon is taken for a protocol (`12:30.mp4`, `take:2.mp4`); the
    /// `file:` protocol reads and writes the path as written (relative ones from the current
    /// directory), for every demuxer and muxer (seekable, so MP4's fast start works) and inside a
    /// concat list. The one place that decides how a path reaches ffmpeg.
    public static func fileArgument(_ path: String) -> String { "file:" + path }

    /// A `file` line of an ffconcat list naming `path` (quoted; the list must be read with `-safe 0`).
    public static func concatListEntry(_ path: String) -> String {
        "file '" + fileArgument(path).replacingAll("'", with: "'\\''") + "'"
    }

    /// `fps` as ffmpeg expects it on the command line ("30", "29.97").
    static func rate(_ fps: Double) -> String { String(exactNumber: fps) }

    /// Seconds as ffmpeg takes them in `-ss` and concat scripts, to the microsecond ("8.966667").
    package static func seconds(_ value: Double) -> String { String(cFormat: "%.6f", value) }

    /// Seconds rounded up to the microsecond, so a seek lands on or after the exact time.
    package static func secondsRoundedUp(_ value: Double) -> String { seconds((value * 1e6 - 1e-3).rounded(.up) / 1e6) }

    // MARK: - Running

    /// Runs ffmpeg to completion with `arguments` (after `-hide_banner -loglevel error -nostdin
    /// -y`), with no pipes but its stderr: stream copies, remuxes, generated clips. Paths in the
    /// arguments go through `fileArgument(_:)`. The child is registered with `cancellation`.
    /// - Parameter path: the file the work is about, named in errors.
    /// - Throws: `.ffmpegNotFound`, `.systemLimit`, `.ffmpegFailed` with ffmpeg's stderr,
    ///   `.cancelled`.
    public static func run(_ arguments: [String], for path: String, cancellation: Cancellation? = nil) throws(MediaError) {
        let executable = try ffmpegExecutable(for: path)
        let tool = try MediaError.converting { () throws(SystemError) in
            try ChildProcess(
                executable: executable, arguments: ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments,
                pipeInput: false, output: .discard, path: path, cancellation: cancellation)
        }
        let (status, stderr) = tool.wait()
        guard status == 0 else {
            if tool.wasCancelled { throw .cancelled(path: path) }
            throw failure(of: tool, status: status, stderr: stderr, writeError: nil, path: path)
        }
    }

    /// Why an ffmpeg that ended with `status` (not 0) failed to make `path`: a write error it
    /// printed (`writeError`), or the file size limit that ended it (SIGXFSZ, `ulimit -f`), as an
    /// output that could not be completed; otherwise its status and stderr.
    static func failure(of tool: ChildProcess, status: Int32, stderr: String, writeError: String?, path: String) -> MediaError {
        if let writeError { return .incompleteOutput(path: path, reason: writeError) }
        if tool.terminatingSignal == SIGXFSZ { return .incompleteOutput(path: path, reason: FileIO.writeFailure(EFBIG)) }
        return .ffmpegFailed(path: path, status: status, stderr: stderr)
    }
}
