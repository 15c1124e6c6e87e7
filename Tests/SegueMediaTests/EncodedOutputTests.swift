// An encoder publishes only what ffmpeg wrote whole. ffmpeg 5.1 can print "No space left on
// device" and still exit with status 0, leaving an MP4 without its moov atom; stand-ins for ffmpeg
// (shell scripts) reproduce that and the other ways a file can be wrong after a status of 0: not
// a movie at all, too short, without the stream that was encoded. Every one must fail with the
// reason, leave the existing output byte for byte, and remove the temporary.
import Foundation
import SegueCore
import SegueSystem
import SegueTestSupport
import Testing

@testable import SegueMedia

@Suite("Encoders check what ffmpeg wrote before replacing anything")
struct EncodedOutputTests {
    @Test("a full disk reads the same from a file Segue writes and from one ffmpeg writes")
    func writeFailureWords() {
        #expect(FileIO.writeFailure(ENOSPC) == "no space left on device")
        let seen = FFmpegWriteErrors()
        _ = seen.offer("[mp4 @ 0x1] Error writing trailer: \(FileIO.message(EDQUOT))")
        #expect(seen.problem == FileIO.writeFailure(EDQUOT))
        for (code, reason) in FileIO.writeFailures {
            let watcher = FFmpegWriteErrors()
            _ = watcher.offer("av_interleaved_write_frame(): \(FileIO.message(code))")
            #expect(watcher.problem == reason)
        }
    }

    @Test("a program that cannot be started reads as before: ffmpeg not found, with why")
    func missingExecutable() {
        let error = mediaError { () throws(MediaError) in
            try MediaError.converting { () throws(SystemError) in
                try ChildProcess(executable: "/nonexistent/ffprobe", arguments: [], pipeInput: false, output: .pipe, path: "clip.mp4")
            }
        }
        #expect(
            error == .ffmpegNotFound(path: "clip.mp4", searched: "/nonexistent/ffprobe could not be started: No such file or directory"))
    }

    @Test("videos need ffmpeg and ffprobe: an ffmpeg alone is not enough (the demo then writes PNG directories)")
    func videoTools() throws {
        let tools = try TemporaryDirectory("media")
        let ffmpeg = try fakeFFmpeg(tools, "exit 0")
        var environment = ProcessInfo.processInfo.environment
        environment[FFmpeg.ffmpegVariable] = ffmpeg
        environment[FFmpeg.ffprobeVariable] = tools.file("ffprobe")  // not there
        let problem = FFmpeg.$environment.withValue(environment) { FFmpeg.videoToolsProblem(for: "out.mp4") }
        #expect(problem == .ffmpegNotFound(path: "out.mp4", searched: "SEGUE_FFPROBE=\(tools.file("ffprobe")) is not an executable file"))
        writeFixture(Array("#!/bin/sh\nexit 0\n".utf8), to: tools.file("ffprobe"))
        chmod(tools.file("ffprobe"), 0o755)
        #expect(FFmpeg.$environment.withValue(environment) { FFmpeg.videoToolsProblem(for: "out.mp4") } == nil)
    }

    /// A stand-in for ffmpeg in `tools` (`fakeFFmpeg(at:_:)`): reads all its input, then runs
    /// `body`, and exits with `body`'s status.
    private func fakeFFmpeg(_ tools: TemporaryDirectory, _ body: String) throws -> String {
        try SegueTestSupport.fakeFFmpeg(at: tools.file("ffmpeg"), "cat >/dev/null\n" + body)
    }

    private static let oldBytes = Array("the film from yesterday".utf8)

    /// Encodes `frames` grey frames of 32×24 at 25 fps to `path` (RGBA, or opaque RGBA as a movie of clips).
    private func encode(_ path: String, frames: Int = 50, input: VideoEncoder.Input = .rgba, cancellation: Cancellation? = nil)
        -> MediaError?
    {
        let frame = [UInt8](repeating: 128, count: 32 * 24 * 4)
        return mediaError { () throws(MediaError) in
            let encoder = try VideoEncoder(path: path, width: 32, height: 24, fps: 25, input: input, cancellation: cancellation)
            for _ in 0..<frames { try frame.withBytes { (raw) throws(MediaError) in try encoder.append(frame: raw) } }
            try encoder.finish()
        }
    }

    @Test(
        "a full disk ffmpeg reports with status 0: the error says so; the old file stays; no temporary",
        arguments: [("film.mp4", VideoEncoder.Input.rgba), ("film.mp4", .opaqueRGBA), ("film.mkv", .opaqueRGBA), ("film.webm", .rgba)])
    func fullDisk(name: String, input: VideoEncoder.Input) throws {
        let dir = try TemporaryDirectory("media"), tools = try TemporaryDirectory("media")
        let fake = try fakeFFmpeg(
            tools,
            """
            printf 'ftyp and some mdat but no moov' > "$out"
            echo "av_interleaved_write_frame(): No space left on device" >&2
            echo "Error writing trailer of $last: No space left on device" >&2
            exit 0
            """)
        let path = dir.file(name)
        writeFixture(Self.oldBytes, to: path)
        let token = Cancellation()
        let error = withFFmpeg(fake) { encode(path, input: input, cancellation: token) }
        #expect(error == .incompleteOutput(path: path, reason: "no space left on device"))
        #expect(error?.description == "\(path): the output could not be completed: no space left on device; nothing was written to \(path)")
        #expect(readFixture(path) == Self.oldBytes)
        #expect(dir.contents == [name])
        #expect(token.registeredPaths.isEmpty)
    }

    @Test(
        "status 0 and a file that is not a movie, without a word from ffmpeg: refused after one ffprobe",
        arguments: [VideoEncoder.Input.rgba, .opaqueRGBA])
    func unreadable(input: VideoEncoder.Input) throws {
        let dir = try TemporaryDirectory("media"), tools = try TemporaryDirectory("media")
        let fake = try fakeFFmpeg(tools, "printf 'garbage, not a movie' > \"$out\"\nexit 0")
        let path = dir.file("film.mp4")
        writeFixture(Self.oldBytes, to: path)
        let error = withFFmpeg(fake) { encode(path, input: input) }
        guard case let .incompleteOutput(errorPath, reason)? = error else {
            Issue.record("expected .incompleteOutput, got \(String(describing: error))"); return
        }
        #expect(errorPath == path)
        #expect(reason == "the MP4 file ffmpeg wrote cannot be read (Invalid data found when processing input)")
        #expect(readFixture(path) == Self.oldBytes)
        #expect(dir.contents == ["film.mp4"])
    }

    @Test("status 0 and a real movie of the wrong length or without the picture: refused, naming what is wrong")
    func wrongContents() throws {
        let dir = try TemporaryDirectory("media"), tools = try TemporaryDirectory("media")
        // A 0.2 s video and a sound-only file, made by the real ffmpeg, for the stand-ins to copy.
        let short = tools.file("short.mp4"), sound = tools.file("sound.mp4")
        for (arguments, output) in [
            (["-f", "lavfi", "-i", "color=c=gray:s=32x24:r=25:d=0.2", "-c:v", "libx264", "-pix_fmt", "yuv420p"], short),
            (["-f", "lavfi", "-i", "sine=d=2", "-c:a", "aac"], sound),
        ] {
            let r = try runTool("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments + [output])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let path = dir.file("film.mp4")
        writeFixture(Self.oldBytes, to: path)
        let tooShort = withFFmpeg(try fakeFFmpeg(tools, "cp '\(short)' \"$out\"\nexit 0")) { encode(path, input: .opaqueRGBA) }
        #expect(tooShort == .incompleteOutput(path: path, reason: "the file ffmpeg wrote lasts 0.2 s, not 2 s"))
        let noPicture = withFFmpeg(try fakeFFmpeg(tools, "cp '\(sound)' \"$out\"\nexit 0")) { encode(path) }
        #expect(noPicture == .incompleteOutput(path: path, reason: "the file ffmpeg wrote has no video stream"))
        #expect(readFixture(path) == Self.oldBytes)
        #expect(dir.contents == ["film.mp4"])
    }

    @Test("ffmpeg failing with a full disk (status 1) says so too")
    func fullDiskWithStatus() throws {
        let dir = try TemporaryDirectory("media"), tools = try TemporaryDirectory("media")
        let fake = try fakeFFmpeg(
            tools, "printf 'partial' > \"$out\"\necho \"Error closing file $last: No space left on device\" >&2\nexit 1")
        let path = dir.file("film.mov")
        let error = withFFmpeg(fake) { encode(path) }
        #expect(error == .incompleteOutput(path: path, reason: "no space left on device"))
        #expect(dir.contents.isEmpty)
    }

    @Test(
        "real encodes of every container pass the check with their length",
        arguments: ["a.mp4", "a.mov", "a.mkv", "a.webm", "a.gif", "a.apng"])
    func realEncodesPass(name: String) throws {
        let dir = try TemporaryDirectory("media")
        let path = dir.file(name)
        #expect(encode(path, frames: 3, input: .opaqueRGBA) == nil)
        #expect(dir.contents == [name])
        let info = try MediaProbe.probe(path: path)
        #expect(info.video?.width == 32 && info.video?.height == 24)
        if name != "a.apng" { #expect(abs((info.duration ?? 0) - 0.12) < 0.1, "\(String(describing: info.duration))") }
    }

    @Test("paths reach ffmpeg as files: a name with a colon is not a protocol")
    func fileArguments() {
        #expect(FFmpeg.fileArgument("12:30.mp4") == "file:12:30.mp4")
        #expect(
            VideoEncoder.arguments(
                format: .gif, settings: VideoSettings(), input: .rgba, alpha: true, width: 8, height: 8, fps: 30,
                sound: nil, copiedSound: nil, output: ".12:30.gif.tmp"
            ).last == "file:.12:30.gif.tmp")
        #expect(FFmpeg.concatListEntry("/tmp/it's:1.mp4") == "file 'file:/tmp/it'\\''s:1.mp4'")
    }
}
