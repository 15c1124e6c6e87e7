// The last step of every encoder: what ffmpeg wrote under a temporary name is checked before it
// is published (`StagedOutput`).
//
// Why check a file ffmpeg said it finished: ffmpeg 5.1 can report a failed write ("No space left
// on device", "Error writing trailer") and still exit with status 0, leaving an MP4 or QuickTime
// file without its index (the moov atom: nothing can play it), or a Matroska/WebM file without its
// length. So before anything is replaced, one ffprobe of the temporary file must read it and find
// the streams that were encoded and about the length that was encoded (within half a second or a
// tenth); and a write error ffmpeg printed fails the output even when the file looks whole. On any
// failure the caller removes the temporary and the destination is left as it was.
//
//   ffprobe -v error [-count_packets] -show_format -show_streams -of json file:TEMPORARY  (MediaProbe)

import SegueMath
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file an encoder's ffmpeg wrote under a temporary name, and what it must hold.
struct EncodedOutput {
    /// The destination, named in errors.
    let path: String
    /// The file ffmpeg wrote.
    let temporaryPath: String
    /// The container's name for messages ("MP4").
    let formatName: String
    /// Whether a video stream and a sound stream were encoded.
    let hasVideo: Bool, hasAudio: Bool
    /// Seconds the output lasts, nil when unknown or when the container records none (APNG).
    let duration: Double?
    /// The video frames it must have, nil when not counted; with them, the video stream's length
    /// must be `frames / fps` to a frame.
    var frames: Int? = nil
    /// Frames per second of the video.
    var fps: Double = 30

    /// How far the recorded length may be from `duration`: half a second, or a tenth of it for
    /// long outputs (a GIF's delays are whole hundredths of a second; sound ends on whole packets).
    static func tolerance(for duration: Double) -> Double { max(0.5, duration / 10) }

    /// Checks the file: not empty, no write error reported by ffmpeg, readable by ffprobe with the
    /// expected streams and length.
    /// - Parameters:
    ///   - writeError: a write error ffmpeg printed (`FFmpegWriteErrors`), if any.
    ///   - probing: false to skip ffprobe (the file's reader checks it; `VideoEncoder.finish`).
    ///   - cancellation: the encoder's, which ffprobe is registered with.
    /// - Throws: `.encodingFailed` for an empty file, `.incompleteOutput` naming the problem,
    ///   `.ffmpegNotFound` without ffprobe. The caller then removes the temporary.
    func verify(writeError: String?, probing: Bool = true, cancellation: Cancellation? = nil) throws(MediaError) {
        var info = stat()
        guard stat(temporaryPath, &info) == 0, info.st_size > 0 else {
            // Some of ffmpeg's muxers (GIF, APNG, WebM, Matroska) exit 0 when the disk refused
            // their first write: a full file system is then the reason, as for the others.
            if let writeError { throw .incompleteOutput(path: path, reason: writeError) }
            var space = statvfs()
            if statvfs(FileIO.directory(of: temporaryPath), &space) == 0, space.f_bavail == 0 {
                throw .incompleteOutput(path: path, reason: FileIO.writeFailure(ENOSPC))
            }
            throw .encodingFailed(path: path, format: formatName, message: "ffmpeg exited with status 0 but wrote no \(formatName) data")
        }
        if let writeError { throw .incompleteOutput(path: path, reason: writeError) }
        guard probing else { return }
        // Counting frames reads every packet (a demux, no decoding): only when asked.
        let result = try MediaProbe.ffprobe(
            (frames == nil ? [] : ["-count_packets"]) + ["-show_format", "-show_streams", "-of", "json"],
            file: temporaryPath, path: path, cancellation: cancellation)
        guard result.status == 0 else {
            let why = MediaProbe.lastLine(result.stderr, dropping: temporaryPath).map { " (\($0))" } ?? ""
            throw .incompleteOutput(path: path, reason: "the \(formatName) file ffmpeg wrote cannot be read\(why)")
        }
        let probed =
            (try? MediaProbe.parse(json: [UInt8](result.output), path: path))
            ?? MediaInfo(path: path, formatName: "", duration: nil, video: nil, audio: nil)
        if hasVideo, probed.video == nil { throw .incompleteOutput(path: path, reason: "the file ffmpeg wrote has no video stream") }
        if hasAudio, probed.audio == nil { throw .incompleteOutput(path: path, reason: "the file ffmpeg wrote has no sound stream") }
        if let frames, let video = probed.video {
            try checkFrames(frames, of: video)
        }
        guard let expected = duration else { return }
        guard let recorded = probed.duration else {
            throw .incompleteOutput(path: path, reason: "the file ffmpeg wrote records no length (its end is missing)")
        }
        guard abs(recorded - expected) <= Self.tolerance(for: expected) else {
            throw .incompleteOutput(
                path: path, reason: "the file ffmpeg wrote lasts \(MessageText.seconds(recorded)), not \(MessageText.seconds(expected))")
        }
    }

    /// Checks the counted frames of the video stream and its length (to a frame) against the
    /// expected `frames` at `fps`: a join that lost pieces' frames, or stretched their timestamps,
    /// is refused even when the file's overall length looks right.
    private func checkFrames(_ frames: Int, of video: VideoStreamInfo) throws(MediaError) {
        guard let counted = video.countedPackets else {
            throw .incompleteOutput(path: path, reason: "the frames of the video ffmpeg wrote cannot be counted")
        }
        guard counted == frames else {
            throw .incompleteOutput(path: path, reason: "the video ffmpeg wrote has \(counted) frames, not the \(frames) planned")
        }
        let expected = Double(frames) / fps
        if let recorded = video.duration, abs(recorded - expected) > 1.5 / fps {
            throw .incompleteOutput(
                path: path,
                reason:
                    "the video ffmpeg wrote lasts \(MessageText.seconds(recorded)), not the \(MessageText.seconds(expected)) planned (its timestamps are not the planned ones)"
            )
        }
    }

}

/// Watches an encoder's ffmpeg stderr for a failed write, which ffmpeg may report and still exit
/// with status 0. Thread-safe: lines arrive on the stderr thread.
final class FFmpegWriteErrors: Sendable {
    private let first = Locked<String?>(nil)

    /// What ffmpeg says (the `strerror` text), and how Segue says it.
    private static let known = FileIO.writeFailures.map { (FileIO.message($0.code).lowercased(), $0.reason) }

    /// Notes a write error in `line`; never consumes it (it stays in the stderr tail).
    func offer(_ line: Substring) -> Bool {
        let lower = line.lowercased()
        if let (_, reason) = Self.known.first(where: { lower.contains($0.0) }) {
            first.withLock { if $0 == nil { $0 = reason } }
        } else if lower.hasPrefix("error writing trailer") || lower.hasPrefix("error closing file")
            || lower.hasPrefix("av_interleaved_write_frame()")
        {
            let text = line.trimmingWhitespace()
            first.withLock { if $0 == nil { $0 = "ffmpeg reported: \(text)" } }
        }
        return false
    }

    /// The first write error seen, in Segue's words.
    var problem: String? { first.withLock { $0 } }
}
