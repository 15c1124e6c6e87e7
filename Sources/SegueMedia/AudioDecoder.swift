import SegueMath
import SegueSystem

// An audio stream decoded and resampled by an ffmpeg subprocess into interleaved 32-bit float
// samples on a pipe:
//
//   ffmpeg -nostdin -loglevel error -xerror [-ss IN] -i FILE -map 0:A -vn -sn -dn \
//     -af aresample=async=1:first_pts=0 -ar RATE -ac CHANNELS -f f32le pipe:1
//
// A mono stream is copied to every output channel at full level (`pan`), as editors play a mono
// track on both speakers. `aresample=async=1:first_pts=0` makes the samples follow the stream's timestamps from 0 (the
// start point): a stream that starts late is preceded by silence and gaps are filled, so sample
// n is at n / RATE seconds after the start point, as the picture's timestamps are.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes one audio stream to interleaved Float32 samples at a chosen rate and channel count.
/// Not thread-safe.
public final class AudioDecoder {
    /// The file being read.
    public let path: String
    /// Output samples per second.
    public let sampleRate: Int
    /// Output channels (interleaved).
    public let channels: Int
    /// Sample frames (one value per channel) read so far.
    public private(set) var framesRead = 0

    private var tool: ChildProcess?

    /// Starts decoding the audio stream `stream` of `path` from `start` seconds.
    /// - Parameter cancellation: its `cancel()` kills the decoder (the next read then ends early).
    /// - Throws: `.ffmpegNotFound`, `.cancelled`.
    public init(
        path: String, stream: AudioStreamInfo, start: Double = 0, sampleRate: Int, channels: Int,
        cancellation: Cancellation? = nil
    ) throws(MediaError) {
        precondition(start.isFinite && start >= 0 && sampleRate > 0 && (1...8).contains(channels))
        let ffmpeg = try FFmpeg.ffmpegExecutable(for: path)
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        var arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-xerror"]
        if start > 0 { arguments += ["-ss", FFmpeg.seconds(start)] }
        // A mono stream plays on every channel at full level (ffmpeg's own upmix puts a mono
        // channel, taken as front centre, 3 dB down on left and right).
        var filters = "aresample=async=1:first_pts=0"
        if stream.channels == 1, channels > 1 {
            filters += ",pan=\(channels)c|" + (0..<channels).map { "c\($0)=c0" }.joined(separator: "|")
        }
        arguments += [
            "-i", FFmpeg.fileArgument(path), "-map", "0:\(stream.index)", "-vn", "-sn", "-dn", "-af", filters,
            "-ar", String(sampleRate), "-ac", String(channels), "-f", "f32le", "pipe:1",
        ]
        tool = try MediaError.converting { () throws(SystemError) in
            try ChildProcess(
                executable: ffmpeg, arguments: arguments, pipeInput: false, output: .pipe, path: path, cancellation: cancellation)
        }
    }

    deinit { close() }

    /// Reads up to `buffer.count / channels` sample frames; fewer only at the end of the stream.
    /// - Returns: the number of sample frames read (0 at the end).
    /// - Throws: `.corrupt` when ffmpeg stops on a decoding error, `.cancelled` when the
    ///   cancellation killed it.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(MediaError) -> Int {
        precondition(buffer.count % channels == 0, "the buffer must hold whole sample frames")
        guard let tool else { return 0 }
        let bytes = tool.read(into: UnsafeMutableRawBufferPointer(buffer))
        let frames = bytes / (4 * channels)
        framesRead += frames
        if bytes < buffer.count * 4 {
            self.tool = nil
            let (status, stderr) = tool.wait()
            if tool.wasCancelled { throw .cancelled(path: path) }
            if status != 0 {
                let reason = MediaProbe.lastLine(stderr, dropping: path) ?? "ffmpeg exited with status \(status)"
                throw .corrupt(
                    path: path, format: "audio",
                    message: "decoding stopped after \(MessageText.seconds(Double(framesRead) / Double(sampleRate))): \(reason)")
            }
        }
        return frames
    }

    /// Stops decoding (kills ffmpeg). Called on deinit.
    public func close() {
        guard let tool else { return }
        self.tool = nil
        tool.kill()
        _ = tool.wait()
    }
}
