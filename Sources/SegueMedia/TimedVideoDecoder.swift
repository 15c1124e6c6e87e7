import Dispatch
import SegueCore
import SegueSystem

// Video frames with their presentation timestamps, fitted to an output size, from an ffmpeg
// subprocess:
//
//   ffmpeg -nostdin -loglevel error -xerror [-ss IN] -i FILE -map 0:V -an -sn -dn \
//     -vf "scale=SW:SH:flags=bicubic+full_chroma_int,crop|pad=W:H,setsar=1,settb=1/1000000,
//          metadata=mode=add:key=segue:value=1,metadata=mode=print:file='pipe\:2':direct=1" \
//     -fps_mode passthrough -f rawvideo -pix_fmt rgba pipe:1
//
// Timestamps: `-fps_mode passthrough` passes every decoded frame once, with its own timestamp
// (no duplication or dropping, so variable frame rates survive). The last filter prints each
// frame's `pts` on stderr (unbuffered, `direct=1`) in a time base of one microsecond (`settb`),
// while the frame is still in the filter graph — so by the time a frame's bytes have been read
// from stdout its timestamp line has been written, and the two streams pair up frame by frame.
// Integer microseconds keep full precision for long files (`pts_time` is printed with only six
// significant digits).
//
// Deep sources: `full_chroma_int` sends sources of more than 8 bits through the scaler's
// full-chroma output, which lands within a level of the exact BT.709 value (2 to 3 levels off
// without it; DeepSourceDecodingTests). 8-bit 4:2:0 at its own size keeps ffmpeg's unscaled
// converter, which ignores the flag (its nearest-neighbour chroma is what every reference decode
// in the tests uses; `accurate_rnd` would leave it, changing colour edges by tens of levels).
//
// Rotation: ffmpeg applies the display matrix (autorotate) before the filters, so frames are
// upright. Non-square pixels: the scale goes to a size computed from the display size, so it
// squares the pixels too. `-ss` before `-i` seeks accurately: frames before IN are dropped and
// timestamps count from IN. `-xerror` makes a decoding error (a file corrupt in the middle) stop
// ffmpeg with an error instead of being concealed.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes a video's frames, fitted to an output size, with their timestamps. Not thread-safe.
public final class TimedVideoDecoder {
    /// The file being read.
    public let path: String
    /// Output frame width in pixels.
    public let width: Int
    /// Output frame height in pixels.
    public let height: Int
    /// How frames are laid out: straight-alpha RGBA8, or Y'CbCr 4:2:0 (BT.709, limited range).
    public let pixelFormat: RawPixelFormat
    /// Bytes in one frame.
    public var frameByteCount: Int { pixelFormat.byteCount(width: width, height: height) }
    /// Frames read so far.
    public private(set) var framesRead = 0

    private var tool: ChildProcess?
    private let timestamps: TimestampQueue
    private var lastTimestamp: Double?
    private let frameInterval: Double
    /// Added to ffmpeg's timestamps so that they count from `start`.
    private let timestampShift: Double

    /// Starts decoding `path` from `start` seconds (counted from the container's start).
    /// - Parameters:
    ///   - stream: the probed video stream (its index, display size and rate are used).
    ///   - frameLimit: stop after this many frames (1 for a still image).
    ///   - pixelFormat: `.yuv420p` needs an even size; the frames are converted to BT.709 from the
    ///     stream's own matrix only when ffmpeg can (use it for streams tagged BT.709).
    ///   - startsAtKeyframe: `start` is a keyframe's timestamp: decoding begins at that keyframe
    ///     (ffmpeg seeks to the keyframe at or before a quarter frame later, without decoding and
    ///     dropping the frames before `start`, which an accurate seek from the previous keyframe
    ///     does). Were it not a keyframe, the frames from the keyframe before come first, with
    ///     negative times. Timestamps still count from `start`.
    ///   - cancellation: its `cancel()` kills the decoder (the next read then ends early).
    /// - Throws: `.ffmpegNotFound`, `.imageTooLarge`, `.cancelled`.
    public init(
        path: String, stream: VideoStreamInfo, start: Double = 0, width: Int, height: Int, resize: ResizeMode,
        frameLimit: Int? = nil, pixelFormat: RawPixelFormat = .rgba, startsAtKeyframe: Bool = false,
        cancellation: Cancellation? = nil
    ) throws(MediaError) {
        precondition(start.isFinite && start >= 0, "start must be ≥ 0")
        precondition(pixelFormat == .rgba || (width % 2 == 0 && height % 2 == 0), "4:2:0 frames need an even size")
        if let problem = MediaError.sizeProblem(width: width, height: height, path: path) { throw problem }
        let ffmpeg = try FFmpeg.ffmpegExecutable(for: path)
        self.path = path
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        frameInterval = stream.fps > 0 ? 1 / stream.fps : 1.0 / 30
        let display = stream.displaySize
        let chain = Self.filterChain(
            imageWidth: display.width, imageHeight: display.height, width: width, height: height, resize: resize,
            pixelFormat: pixelFormat)
        var arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-xerror"]
        var shift = 0.0
        if start > 0 && startsAtKeyframe {
            // A quarter frame later, on a tick of the stream's time base: ffmpeg shifts the
            // timestamps by the seek point rounded to a tick, so a point between two ticks moved
            // them by up to half a tick (17 µs at 1/30000) and showed a frame's predecessor.
            var seek = start + frameInterval / 4
            if let tick = MediaProbe.rate(stream.timeBase) { seek = (seek / tick).rounded() * tick }
            shift = seek - start
            arguments += ["-noaccurate_seek", "-ss", FFmpeg.seconds(seek)]
        } else if start > 0 {
            arguments += ["-ss", FFmpeg.seconds(start)]
        }
        timestampShift = shift
        arguments += [
            "-i", FFmpeg.fileArgument(path), "-map", "0:\(stream.index)", "-an", "-sn", "-dn", "-vf", chain, "-fps_mode", "passthrough",
        ]
        if let frameLimit { arguments += ["-frames:v", String(frameLimit)] }
        arguments += ["-f", "rawvideo", "-pix_fmt", pixelFormat.rawValue, "pipe:1"]
        let queue = TimestampQueue()
        timestamps = queue
        tool = try MediaError.converting { () throws(SystemError) in
            try ChildProcess(
                executable: ffmpeg, arguments: arguments, pipeInput: false, output: .pipe, path: path,
                stderrLines: { line in queue.offer(line) }, cancellation: cancellation)
        }
    }

    /// Probes `path` and decodes its first video stream at its display size, as straight-alpha
    /// RGBA8 (see `nextImage()`).
    /// - Throws: what `MediaProbe.probe` throws, `.invalidVideo` for a file without a video
    ///   stream, `.imageTooLarge`.
    public convenience init(path: String, frameLimit: Int? = nil) throws(MediaError) {
        guard let stream = try MediaProbe.probe(path: path).video else { throw .invalidVideo(path: path, reason: "it has no video stream") }
        let size = stream.displaySize
        try self.init(path: path, stream: stream, width: size.width, height: size.height, resize: .stretch, frameLimit: frameLimit)
    }

    deinit { close() }

    /// The `-vf` chain fitting an image of `imageWidth`×`imageHeight` display pixels into
    /// `width`×`height` (in `pixelFormat`), then printing timestamps.
    public static func filterChain(
        imageWidth: Int, imageHeight: Int, width: Int, height: Int, resize: ResizeMode,
        pixelFormat: RawPixelFormat = .rgba
    ) -> String {
        let fitted = resize.fittedSize(imageWidth: imageWidth, imageHeight: imageHeight, outputWidth: width, outputHeight: height)
        var filters = [
            "scale=\(fitted.width):\(fitted.height)" + (pixelFormat == .yuv420p ? ":out_color_matrix=bt709:out_range=tv" : "")
                + ":flags=bicubic+full_chroma_int"
        ]
        if fitted.width != width || fitted.height != height {
            switch resize {
            case .cover: filters.append("crop=\(width):\(height)")
            // Transparent bars, as the GPU's `contain` leaves them (black once 4:2:0 drops alpha).
            case .contain: filters.append("pad=\(width):\(height):(ow-iw)/2:(oh-ih)/2:color=black@0")
            case .stretch: break
            }
        }
        if pixelFormat == .yuv420p { filters.append("format=yuv420p") }
        filters += [
            "setsar=1", "settb=1/1000000", "metadata=mode=add:key=segue:value=1",
            "metadata=mode=print:file='pipe\\:2':direct=1",
        ]
        return filters.joined(separator: ",")
    }

    /// Reads the next frame into `buffer` (`frameByteCount` bytes) and returns its timestamp in
    /// seconds from the start point, or nil after the last frame.
    /// - Throws: `.corrupt` when ffmpeg stops on a decoding error (naming ffmpeg's reason) or a
    ///   frame is cut short; `.invalidVideo` when ffmpeg gives a frame without its timestamp;
    ///   `.cancelled` when the cancellation killed ffmpeg.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Double? {
        precondition(buffer.count == frameByteCount, "expected a \(frameByteCount)-byte buffer")
        guard let tool else { return nil }
        let got = tool.read(into: buffer)
        if got == frameByteCount {
            // The frame's timestamp line precedes its bytes; wait boundedly in case it is malformed.
            // An ffmpeg that stopped on a decoding error may have sent the frame without its line.
            var stamp: Int64??
            for _ in 0..<600 {
                stamp = timestamps.next(timeout: 0.1)
                if stamp != nil || tool.hasExited { break }
            }
            if stamp == nil { stamp = timestamps.next(timeout: 0.5) }
            guard let stamp else {
                self.tool = nil
                tool.kill()
                let (status, stderr) = tool.wait()
                if tool.wasCancelled { throw .cancelled(path: path) }
                if status != 0, status != 128 + SIGKILL, let reason = MediaProbe.lastLine(stderr, dropping: path) {
                    throw .corrupt(path: path, format: "video", message: "decoding stopped after \(framesRead) frames: \(reason)")
                }
                throw .invalidVideo(path: path, reason: "ffmpeg gave frame \(framesRead + 1) without a timestamp")
            }
            framesRead += 1
            let seconds = stamp.map { Double($0) / 1_000_000 + timestampShift } ?? (lastTimestamp.map { $0 + frameInterval } ?? 0)
            lastTimestamp = seconds
            return seconds
        }
        self.tool = nil
        let (status, stderr) = tool.wait()
        if tool.wasCancelled { throw .cancelled(path: path) }
        if status != 0 {
            let reason = MediaProbe.lastLine(stderr, dropping: path) ?? "ffmpeg exited with status \(status)"
            throw .corrupt(path: path, format: "video", message: "decoding stopped after \(framesRead) frames: \(reason)")
        }
        if got != 0 {
            throw .corrupt(path: path, format: "video", message: "the last frame is incomplete (\(got) of \(frameByteCount) bytes)")
        }
        return nil
    }

    /// The next frame as an image with its timestamp (seconds from the start point), or nil
    /// after the last frame. For RGBA decoders.
    /// - Throws: what `read(into:)` throws.
    public func nextImage(scale: Double = 1) throws(MediaError) -> (image: Image, time: Double)? {
        precondition(pixelFormat == .rgba, "images are read from an RGBA decoder")
        var bytes = [UInt8](repeating: 0, count: frameByteCount)
        let read = bytes.withUnsafeMutableBytes { raw in Result { () throws(MediaError) in try self.read(into: raw) } }
        guard let time = try read.get() else { return nil }
        return (Image(width: width, height: height, scale: scale, straightRGBA: bytes), time)
    }

    /// Stops decoding (kills ffmpeg). Called on deinit.
    public func close() {
        guard let tool else { return }
        self.tool = nil
        tool.kill()
        _ = tool.wait()
    }
}

/// Timestamp lines from ffmpeg's `metadata=mode=print` filter, handed over between the stderr
/// thread and the reader.
final class TimestampQueue: Sendable {
    private let stamps = Locked((values: [Int64?](), head: 0))
    private let available = DispatchSemaphore(value: 0)

    /// Consumes `frame:N pts:P pts_time:T` and `segue=1` lines; leaves others for error messages.
    func offer(_ line: Substring) -> Bool {
        if line == "segue=1" { return true }
        guard line.hasPrefix("frame:"), let range = line.firstRange(of: " pts:") else { return false }
        let value = line[range.upperBound...].drop(while: { $0 == " " }).prefix(while: { !$0.isWhitespace })
        stamps.withLock { $0.values.append(Int64(value)) }
        available.signal()
        return true
    }

    /// The next timestamp (nil inside when ffmpeg printed none, e.g. NOPTS), or nil after
    /// `timeout` seconds without one.
    func next(timeout: Double) -> Int64?? {
        guard available.wait(timeout: .now() + timeout) == .success else { return nil }
        return stamps.withLock { state in
            let value = state.values[state.head]
            state.head += 1
            if state.head > 1024 { state.values.removeFirst(state.head); state.head = 0 }
            return .some(value)
        }
    }
}
