// Every video Segue writes goes through one ffmpeg subprocess that reads raw frames on its stdin
// (or copies a stream) and, for a video with sound, raw Float32 samples from a named pipe (FIFO):
//
//   ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba|rgb0|yuv420p -s WxH -r FPS -i pipe:0 \
//          [-f f32le -ar RATE -ac CH -i file:DIR/audio.f32] -map 0:v:0 [-map 1:a:0] \
//          <codec options (VideoSettings)> -f MUXER file:TEMPORARY
//
// Why a FIFO for the sound: ffmpeg must read two live streams, and a child gets only stdin,
// stdout and stderr. A FIFO in a private temporary directory is a second pipe with a name. The
// picture and the sound are written by two threads, so neither can block the other: ffmpeg reads
// whichever it needs next and the other writer waits on its full pipe. (A temporary WAV written
// first would hold the whole mix on disk and delay the picture until the sound is done.)
//
// Alpha, one rule for every output: frames are appended premultiplied; a codec with alpha (VP9,
// ProRes 4444, GIF, APNG) gets them straight, with their alpha, when the input is `.rgba`; every
// other output shows the premultiplied colour, which is the frame composited over black.
//
// ffmpeg writes a staged temporary beside the destination (`StagedOutput`, registered for Ctrl-C);
// `finish()` publishes it only when ffmpeg exits with status 0 and the file passes
// `EncodedOutput`'s check (readable, with its streams and length), so a failed, cancelled,
// interrupted or cut-short encode (a full disk) never leaves a partial video at the destination.
import SegueCore
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes frames, and sound, to MP4, QuickTime, Matroska, WebM, GIF or APNG with `ffmpeg`.
///
/// ```swift
/// let video = try VideoEncoder(path: "out.mp4", width: 390, height: 844, fps: 60)
/// for frame in frames { try video.append(frame) }
/// try video.finish()
/// ```
/// Feed frames from one thread (the encoder is not `Sendable`); write the sound from another
/// through `audioWriter()`, handed over to it, and stop the encoder from there with `stopper`.
/// Any error from `append` or `finish` has already stopped ffmpeg and removed the partial output.
/// Dropping an encoder before `finish()` cancels it.
public final class VideoEncoder {
    /// Stops an encoder from any thread (see `abort()`): what another thread is given instead of
    /// the encoder, which belongs to the thread feeding it.
    public struct Stopper: Sendable {
        fileprivate let process: ChildProcess.Control
        fileprivate let cancelled: Locked<Bool>

        /// Kills ffmpeg and stops the sound writer; the thread feeding frames then sees a failure.
        public func abort() {
            cancelled.withLock { $0 = true }
            process.kill()
        }
    }

    /// Where the picture comes from.
    public enum Input: Sendable, Hashable {
        /// Premultiplied RGBA8 frames whose alpha the video keeps where its codec has alpha
        /// (rendered frames).
        case rgba
        /// RGBA8 frames whose alpha is ignored: opaque pictures, colour over black (a movie made of clips).
        case opaqueRGBA
        /// Y'CbCr 4:2:0 frames (BT.709, limited range; `YUV420`), taken as they are with no colour conversion.
        case yuv420
        /// An ffmpeg input (its arguments, ending with `-i SOURCE`, paths written with
        /// `FFmpeg.fileArgument`) whose first video stream is copied as it is (`-c:v copy`).
        case copy(inputArguments: [String])
        /// No picture: a file of sound alone (encoded once, e.g. for a join that copies it).
        case soundOnly

        /// Whether frames are appended (rather than copied from an input or absent).
        var isRaw: Bool { self == .rgba || self == .opaqueRGBA || self == .yuv420 }
    }

    /// The destination.
    public let path: String
    /// The container.
    public let format: VideoFormat
    /// Frame size in pixels.
    public let width: Int, height: Int
    /// Frames per second.
    public let fps: Double
    /// Where the picture comes from.
    public let input: Input
    /// The sound stream written through `audioWriter()`, nil for none.
    public let audio: AudioLayout?
    /// Whether the video keeps the frames' alpha (an `.rgba` input and a codec with alpha).
    public let keepsAlpha: Bool
    /// The hidden file ffmpeg writes, published onto `path` by `finish()`.
    public var temporaryPath: String { staged.temporaryPath }
    /// Frames appended so far.
    public private(set) var frameCount = 0

    private var tool: ChildProcess?
    /// The same process, for `abort()` from another thread.
    private let process: ChildProcess.Control
    private let staged: StagedOutput
    /// The sound's FIFO's directory, until it is removed.
    private var fifoDirectory: String?
    /// The token the output and ffmpeg are registered with.
    private let cancellation: Cancellation?
    private let cancelled = Locked(false)
    /// The length the output should have when its picture is copied.
    private let copiedDuration: Double?
    /// The video frames a copied picture must have (see `init`).
    private let copiedFrames: Int?
    /// Whether the sound is copied from a file.
    private let copiesSound: Bool
    /// Sample frames written through the sound writer.
    private let soundFrames = Locked(0)
    private let writeErrors = FFmpegWriteErrors()

    /// Starts ffmpeg.
    /// - Parameters:
    ///   - format: the container, or nil to take it from `path`'s extension.
    ///   - audio: the layout of the sound written through `audioWriter()`; nil (or a format
    ///     without sound) for none.
    ///   - copiedSound: a file whose first audio stream is the video's sound as it is (`-c:a
    ///     copy`), instead of sound written through `audioWriter()`.
    ///   - duration: seconds the video lasts when its picture is copied (`.copy`), checked by
    ///     `finish()`; appended frames and written sound give the length otherwise.
    ///   - frames: the video frames a copied picture must have; `finish()` then counts them and
    ///     checks the video stream's length to a frame (a join of pieces).
    ///   - cancellation: its `cancel()` kills ffmpeg and removes the temporaries; the encoder's
    ///     next call then throws and nothing is published.
    /// - Throws: `.unknownOutputFormat`, `.invalidSettings` (settings that do not fit the
    ///   container), `.imageTooLarge`, `.ffmpegNotFound`, `.unwritable`, `.cancelled` — all
    ///   before anything is created at the destination.
    public init(
        path: String, width: Int, height: Int, fps: Double, format: VideoFormat? = nil, settings: VideoSettings = VideoSettings(),
        input: Input = .rgba, audio: AudioLayout? = nil, copiedSound: String? = nil, duration: Double? = nil,
        frames: Int? = nil, cancellation: Cancellation? = nil
    ) throws(MediaError) {
        precondition(fps.isFinite && fps > 0, "fps must be positive and finite")
        precondition(input != .soundOnly || copiedSound == nil, "a sound-only file encodes its sound")
        guard let format = format ?? VideoFormat(pathExtensionOf: path) else {
            throw .unknownOutputFormat(path: path, supported: VideoFormat.extensions)
        }
        try settings.validate(for: format, output: path)
        if let problem = MediaError.sizeProblem(width: width, height: height, path: path) { throw problem }
        let executable = try FFmpeg.ffmpegExecutable(for: path)
        let audio = format.hasAudio && copiedSound == nil ? audio : nil
        precondition(input != .soundOnly || audio != nil, "a video needs a picture or a sound")
        let staged = try MediaError.converting { () throws(SystemError) in
            try StagedOutput(file: path, suffix: "." + format.fileExtension, cancellation: cancellation)
        }
        var fifoDirectory: String?
        if let audio {
            precondition(audio.sampleRate > 0 && (1...8).contains(audio.channels), "invalid audio layout")
            let dir: String
            do {
                dir = try FileIO.makeScratchDirectory(prefix: "segue-audio", cancellation: cancellation)
            } catch {
                if case .cancelled = error { throw .cancelled(path: path) }
                throw .unwritable(path: path, reason: "cannot create a pipe for the sound in \(FileIO.temporaryDirectory): \(error)")
            }
            guard mkfifo(dir + "/audio.f32", 0o600) == 0 else {
                let code = errno
                FileIO.removeScratchDirectory(dir, cancellation: cancellation)
                throw .unwritable(
                    path: path, reason: "cannot create a pipe for the sound in \(FileIO.temporaryDirectory): \(FileIO.message(code))")
            }
            fifoDirectory = dir
        }
        self.path = path
        self.format = format
        self.width = width
        self.height = height
        self.fps = fps
        self.input = input
        self.audio = audio
        self.staged = staged
        self.fifoDirectory = fifoDirectory
        self.cancellation = cancellation
        keepsAlpha = input == .rgba && settings.codec(for: format).keepsAlpha
        copiedDuration = duration
        copiedFrames = frames
        copiesSound = copiedSound != nil
        let arguments = Self.arguments(
            format: format, settings: settings, input: input, alpha: keepsAlpha, width: width, height: height, fps: fps,
            sound: audio.map { ($0, fifoDirectory.map { $0 + "/audio.f32" } ?? "") }, copiedSound: copiedSound,
            output: staged.temporaryPath)
        do {
            let watch = writeErrors
            let child = try ChildProcess(
                executable: executable, arguments: arguments, pipeInput: input.isRaw, output: .discard, path: path,
                stderrLines: { watch.offer($0) }, cancellation: cancellation)
            process = child.control
            tool = child
        } catch {
            staged.discard()
            Self.remove(fifoDirectory: fifoDirectory, cancellation: cancellation)
            throw MediaError(error)
        }
    }

    deinit {
        cancel()
        planarFrame?.deallocate()
    }

    /// The ffmpeg command-line arguments (without the executable).
    /// - Parameter sound: the layout of the sound and the FIFO it comes through.
    static func arguments(
        format: VideoFormat, settings: VideoSettings, input: Input, alpha: Bool, width: Int, height: Int, fps: Double,
        sound: (layout: AudioLayout, fifo: String)?, copiedSound: String?, output: String
    ) -> [String] {
        var arguments = ["-hide_banner", "-loglevel", "error", "-y"]
        // Inputs: the picture (first, when there is one), then the sound.
        switch input {
        case .rgba, .opaqueRGBA, .yuv420:
            let layout = input == .yuv420 ? "yuv420p" : input == .rgba ? "rgba" : "rgb0"
            arguments += ["-f", "rawvideo", "-pix_fmt", layout, "-s", "\(width)x\(height)", "-r", FFmpeg.rate(fps), "-i", "pipe:0"]
        case let .copy(inputArguments):
            arguments += ["-nostdin"] + inputArguments
        case .soundOnly:
            arguments += ["-nostdin"]
        }
        if let sound {
            arguments += [
                "-f", "f32le", "-ar", String(sound.layout.sampleRate), "-ac", String(sound.layout.channels), "-i",
                FFmpeg.fileArgument(sound.fifo),
            ]
        } else if let copiedSound {
            arguments += ["-i", FFmpeg.fileArgument(copiedSound)]
        }
        if input != .soundOnly { arguments += ["-map", "0:v:0"] }
        if sound != nil || copiedSound != nil { arguments += ["-map", "\(input == .soundOnly ? 0 : 1):a:0"] }
        switch input {
        case .copy: arguments += ["-c:v", "copy"]
        case .soundOnly: arguments += ["-vn"]
        case .rgba, .opaqueRGBA, .yuv420:
            arguments += settings.videoArguments(for: format, width: width, height: height, yuvInput: input == .yuv420, alpha: alpha)
        }
        if copiedSound != nil {
            arguments += ["-c:a", "copy"]
        } else {
            arguments += sound == nil ? ["-an"] : settings.audioArguments(for: format)
        }
        if format == .mp4 || format == .mov { arguments += ["-movflags", "+faststart"] }
        arguments += settings.reproducibleArguments()
        return arguments + ["-f", format.muxer, FFmpeg.fileArgument(output)]
    }

    // MARK: - Picture

    /// Appends one frame as ffmpeg takes it: `width × height × 4` bytes of RGBA8 (straight alpha
    /// when the video keeps alpha), or 4:2:0 planes for `.yuv420`; rows top to bottom.
    /// - Throws: `.ffmpegFailed` (with ffmpeg's stderr) if ffmpeg stopped, `.incompleteOutput`
    ///   for a write error it reported, `.cancelled` after the cancellation's `cancel()`; the
    ///   partial output is then removed.
    public func append(frame: UnsafeRawBufferPointer) throws(MediaError) {
        precondition(input.isRaw, "frames are appended only to a video made from raw frames")
        precondition(
            frame.count == (input == .yuv420 ? YUV420.byteCount(width: width, height: height) : width * height * 4),
            "expected one \(width)x\(height) frame, got \(frame.count) bytes")
        guard let tool else { preconditionFailure("VideoEncoder used after finish(), cancel() or a failure") }
        if let code = tool.write(frame) {
            self.tool = nil
            cancelled.withLock { $0 = true }
            let (status, stderr) = tool.wait()
            removeTemporaries()
            if tool.wasCancelled { throw .cancelled(path: path) }
            if status != 0 || writeErrors.problem != nil {
                throw FFmpeg.failure(of: tool, status: status, stderr: stderr, writeError: writeErrors.problem, path: path)
            }
            throw .writeFailed(path: path, reason: "ffmpeg stopped reading frames (\(FileIO.message(code)))")
        }
        frameCount += 1
    }

    /// Appends one frame of premultiplied RGBA8: made straight when the video keeps alpha,
    /// converted to BT.709 4:2:0 for `.yuv420`, as it is otherwise (colour over black).
    /// - Throws: what `append(frame:)` throws.
    public func append(premultiplied frame: UnsafeRawBufferPointer) throws(MediaError) {
        precondition(
            frame.count == width * height * 4, "expected a \(width)x\(height) RGBA frame (\(width * height * 4) bytes), got \(frame.count)")
        if input == .yuv420 {
            let planar = planarFrame ?? .allocate(byteCount: YUV420.byteCount(width: width, height: height), alignment: 64)
            planarFrame = planar
            YUV420.fromRGBA(frame, width: width, height: height, into: planar)
            return try append(frame: UnsafeRawBufferPointer(planar))
        }
        guard keepsAlpha else { return try append(frame: frame) }
        try straight.withStraightAlpha(frame) { (raw) throws(MediaError) in try append(frame: raw) }
    }

    /// `append(premultiplied:)`'s 4:2:0 frame, made at its first call and reused.
    private var planarFrame: UnsafeMutableRawBufferPointer?
    /// `append(premultiplied:)`'s straight-alpha frames.
    private lazy var straight = StraightAlphaBuffer(byteCount: width * height * 4)

    /// Appends an image of the encoder's size (see `append(premultiplied:)`).
    public func append(_ image: Image) throws(MediaError) {
        precondition(image.width == width && image.height == height, "frame is \(image.width)x\(image.height), video is \(width)x\(height)")
        try image.pixels.withBytes { (raw) throws(MediaError) in try append(premultiplied: raw) }
    }

    // MARK: - Sound

    /// A writer for the sound, to be handed to one other thread; nil without written sound.
    public func audioWriter() -> sending AudioWriter? {
        guard let audio, let fifoDirectory else { return nil }
        return AudioWriter(
            fifo: fifoDirectory + "/audio.f32", channels: audio.channels, cancelled: cancelled, path: path, written: soundFrames)
    }

    // MARK: - Ending

    /// Ends the input, waits for ffmpeg (the sound writer must close its stream too), checks what
    /// it wrote (`EncodedOutput`) and publishes the video onto `path`. After `abort()` nothing is
    /// published, however ffmpeg ended.
    /// - Parameter probed: read the file back with ffprobe (its streams and length) before
    ///   publishing it. False only for an intermediate file that its reader checks at once: a
    ///   render's own pieces, which its join reads in full and whose joined output is probed
    ///   (one ffprobe is about 50 ms of CPU, mostly loading its libraries). ffmpeg's status and
    ///   any write error it reported are checked either way.
    /// - Throws: `.encodingFailed` when no frame was appended or ffmpeg wrote nothing,
    ///   `.ffmpegFailed`, `.incompleteOutput` (a full disk, a file cut short), `.writeFailed`
    ///   after `abort()`, `.unwritable`; in every case the temporary is removed and `path` untouched.
    public func finish(probed: Bool = true) throws(MediaError) {
        guard let tool else { preconditionFailure("VideoEncoder used after finish(), cancel() or a failure") }
        guard frameCount > 0 || !input.isRaw else {
            cancel()
            throw .encodingFailed(path: path, format: format.description, message: "no frames were appended")
        }
        self.tool = nil
        let (status, stderr) = tool.wait()
        do throws(MediaError) {
            guard status == 0 else {
                throw FFmpeg.failure(of: tool, status: status, stderr: stderr, writeError: writeErrors.problem, path: path)
            }
            guard !cancelled.withLock({ $0 }) else { throw .writeFailed(path: path, reason: "the encoder was stopped") }
            // ffmpeg said it succeeded; the file must say so too (a full disk can end with status 0).
            try EncodedOutput(
                path: path, temporaryPath: temporaryPath, formatName: format.description, hasVideo: input != .soundOnly,
                hasAudio: audio != nil || copiesSound, duration: expectedDuration,
                frames: copiedFrames, fps: fps
            )
            .verify(writeError: writeErrors.problem, probing: probed, cancellation: cancellation)
            try MediaError.converting { () throws(SystemError) in try staged.publish() }
        } catch {
            cancelled.withLock { $0 = true }
            removeTemporaries()
            throw cancellation?.isCancelled == true ? .cancelled(path: path) : error
        }
        removeTemporaries()
    }

    /// ffmpeg's report of a failed write (a full disk) as the error to show, once ffmpeg has ended
    /// (after `finish()` or `cancel()`), nil when it reported none. When ffmpeg stops on a full
    /// disk, the picture and the sound writers only see a closed pipe; this is the cause.
    public var writeFailure: MediaError? { writeErrors.problem.map { .incompleteOutput(path: path, reason: $0) } }

    /// Seconds the finished video should last: the frames appended, the sound written, or the
    /// length given for a copied picture; nil when unknown or unrecorded (APNG).
    private var expectedDuration: Double? {
        guard format != .apng else { return nil }
        let picture = input.isRaw ? Double(frameCount) / fps : copiedDuration
        let sound = audio.map { Double(soundFrames.withLock { $0 }) / Double($0.sampleRate) }
        switch (picture, sound) {
        case let (p?, s?): return max(p, s)
        case let (p, s): return p ?? s
        }
    }

    /// Stops ffmpeg and the sound writer, and removes the partial output. Does nothing after
    /// `finish()`.
    public func cancel() {
        cancelled.withLock { $0 = true }
        if let tool {
            self.tool = nil
            tool.kill()
            _ = tool.wait()
        }
        removeTemporaries()
    }

    /// Kills ffmpeg and stops the sound writer, from any thread (the sound's producer, when it
    /// fails); the thread feeding frames then sees a failure and calls `cancel()`, which removes
    /// the output, and `finish()` publishes nothing.
    public func abort() { stopper.abort() }

    /// What stops the encoder from another thread.
    public var stopper: Stopper { Stopper(process: process, cancelled: cancelled) }

    /// Removes what is left: the unpublished output and the sound's FIFO.
    private func removeTemporaries() {
        staged.discard()
        Self.remove(fifoDirectory: fifoDirectory, cancellation: cancellation)
        fifoDirectory = nil
    }

    private static func remove(fifoDirectory: String?, cancellation: Cancellation?) {
        guard let fifoDirectory else { return }
        FileIO.removeScratchDirectory(fifoDirectory, cancellation: cancellation)
    }
}
