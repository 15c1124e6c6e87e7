// A movie with sound encoded by one ffmpeg subprocess that reads raw RGBA frames on its stdin and
// raw Float32 samples from a named pipe (FIFO):
//
//   ffmpeg -y -f rawvideo -pix_fmt rgba -s WxH -r FPS -i pipe:0 \
//          -f f32le -ar RATE -ac CH -i DIR/audio.f32 -map 0:v:0 -map 1:a:0 <codec options> TEMPORARY
//
// Why a FIFO for the sound: ffmpeg must read two live streams, and Foundation's Process passes a
// child only stdin, stdout and stderr. A FIFO in a private temporary directory is a second pipe
// with a name. The picture and the sound are written by two threads, so neither can block the
// other: ffmpeg reads whichever it needs next and the other writer waits on its full pipe. (A
// temporary WAV written first would also work, but holds the whole mix on disk and delays the
// picture until the sound is done.) The FIFO is opened non-blocking in a retry loop, so a writer
// never hangs on an ffmpeg that died before opening it, and `cancel()` stops the loop.
//
// The output is written under a hidden temporary name next to the destination (registered with
// TemporaryFiles, as is the FIFO's directory) and renamed into place only by `commit()` after
// ffmpeg exits with status 0 and `finish()` found the file whole (`EncodedOutput`: readable, with
// its streams and length): a failure, a full disk, a cancel or Ctrl-C leaves no output behind.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sound stream of a movie: rate and interleaved channels of Float32 samples.
public struct AudioLayout: Sendable, Hashable {
    /// Samples per second.
    public var sampleRate: Int
    /// Channels, interleaved.
    public var channels: Int

    /// 48 kHz stereo.
    public static let standard = AudioLayout(sampleRate: 48_000, channels: 2)

    /// A layout.
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// Where a movie's picture comes from.
public enum MovieVideoInput: Sendable, Hashable {
    /// Raw RGBA frames appended with `append(frame:)`.
    case rawFrames
    /// Raw Y'CbCr 4:2:0 frames (BT.709, limited range; `YUV420`) appended with `append(frame:)`:
    /// the encoder takes them as they are, with no colour conversion.
    case rawYUV420

    /// An ffmpeg input (its arguments, ending with `-i SOURCE`, paths written with
    /// `FFmpeg.fileArgument`) whose first video stream is copied as it is (`-c:v copy`), e.g. a
    /// concat list of stretches.
    case copy(inputArguments: [String])
    /// No picture: a file of sound alone (encoded once, e.g. for a join that copies it).
    case soundOnly

    /// Whether frames are appended (rather than copied from an input or absent).
    var isRaw: Bool { self == .rawFrames || self == .rawYUV420 }
}

/// Encodes RGBA frames and Float32 sound into a movie through ffmpeg.
///
/// Feed frames from one thread with `append(frame:)`; write the sound from another through
/// `audioWriter()`; then `finish()` and `commit()`. Dropping the encoder before `commit()`
/// cancels it.
public final class MovieEncoder: @unchecked Sendable {
    /// The destination.
    public let path: String
    /// The container.
    public let format: MovieFormat
    /// Frame size in pixels.
    public let width: Int, height: Int
    /// Frames per second.
    public let fps: Double
    /// The sound stream, nil for a silent movie.
    public let audio: AudioLayout?
    /// Where the picture comes from.
    public let videoInput: MovieVideoInput
    /// The hidden file ffmpeg writes.
    public let temporaryPath: String
    /// Frames appended so far.
    public private(set) var frameCount = 0

    private var tool: ToolProcess?
    private let staged: StagedOutput
    /// The same process, for `abort()` from another thread.
    private let process: ToolProcess
    private let fifoDirectory: String?
    private let cancelled = Locked(false)
    private var checked = false
    private var committed = false
    /// The length the output should have when its picture is copied.
    private let copiedDuration: Double?
    /// Whether the sound is copied from a file.
    private let copiesSound: Bool
    /// Sample frames written through the sound writer.
    private let soundFrames = Locked(0)
    private let writeErrors = FFmpegWriteErrors()

    /// Starts ffmpeg.
    /// - Parameters:
    ///   - audio: the layout of the sound written through `audioWriter()`; nil (or a GIF) for none.
    ///   - copiedSound: a file whose first audio stream is the movie's sound as it is (`-c:a
    ///     copy`), instead of sound written through `audioWriter()` (`audio` is then ignored).
    ///   - duration: seconds the movie lasts when its picture is copied (`.copy`), checked by
    ///     `finish()`; appended frames and written sound give the length otherwise.
    /// - Throws: `.unknownOutputFormat`, `.encodingFailed` (settings that do not fit the
    ///   container), `.imageTooLarge`, `.ffmpegNotFound`, `.unwritable` — all before anything
    ///   is created at the destination.
    public init(path: String, width: Int, height: Int, fps: Double, format: MovieFormat? = nil,
                settings: MovieSettings = MovieSettings(), audio: AudioLayout? = .standard,
                videoInput: MovieVideoInput = .rawFrames, copiedSound: String? = nil, duration: Double? = nil) throws(MediaError) {
        precondition(fps.isFinite && fps > 0, "fps must be positive and finite")
        precondition(videoInput != .soundOnly || copiedSound == nil, "a sound-only movie encodes its sound")
        guard let format = format ?? MovieFormat(pathExtensionOf: path) else {
            throw .unknownOutputFormat(path: path, supported: MovieFormat.extensions)
        }
        try settings.validate(for: format, path: path)
        if let problem = MediaError.sizeProblem(width: width, height: height, path: path) { throw problem }
        let executable = try FFmpeg.ffmpegExecutable(for: path)
        let staged = try StagedOutput(file: path, suffix: "." + format.rawValue)
        let temporary = staged.temporaryPath
        let audio = format.hasAudio && copiedSound == nil ? audio : nil
        precondition(videoInput != .soundOnly || audio != nil, "a movie needs a picture or a sound")
        var fifoDirectory: String?
        if let audio {
            precondition(audio.sampleRate > 0 && (1...8).contains(audio.channels), "invalid audio layout")
            var template = Array((NSTemporaryDirectory() + "/segue-audio-XXXXXX").utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            let dir = made.map { String(cString: $0) }
            guard let dir, mkfifo(dir + "/audio.f32", 0o600) == 0 else {
                let code = errno
                if let dir { rmdir(dir) }
                staged.discard()
                throw .unwritable(path: path, reason: "cannot create a pipe for the sound in \(NSTemporaryDirectory()): \(FileIO.message(code))")
            }
            TemporaryFiles.register(dir)
            fifoDirectory = dir
        }
        self.path = path
        self.format = format
        self.width = width
        self.height = height
        self.fps = fps
        self.audio = audio
        self.videoInput = videoInput
        self.temporaryPath = temporary
        self.staged = staged
        self.fifoDirectory = fifoDirectory
        copiedDuration = duration
        copiesSound = copiedSound != nil
        var arguments = ["-hide_banner", "-loglevel", "error", "-y"]
        // Inputs: the picture (first, when there is one), then the sound.
        switch videoInput {
        case .rawFrames, .rawYUV420:
            let layout: RawPixelFormat = videoInput == .rawYUV420 ? .yuv420p : .rgba
            arguments += ["-f", "rawvideo", "-pix_fmt", layout.rawValue, "-s", "\(width)x\(height)", "-r", FFmpeg.rate(fps), "-i", "pipe:0"]
        case let .copy(inputArguments):
            arguments += ["-nostdin"] + inputArguments
        case .soundOnly:
            arguments += ["-nostdin"]
        }
        let soundInput = videoInput == .soundOnly ? 0 : 1
        if let audio, let fifoDirectory {
            arguments += ["-f", "f32le", "-ar", String(audio.sampleRate), "-ac", String(audio.channels), "-i", FFmpeg.fileArgument(fifoDirectory + "/audio.f32")]
        } else if let copiedSound {
            arguments += ["-i", FFmpeg.fileArgument(copiedSound)]
        }
        if videoInput != .soundOnly { arguments += ["-map", "0:v:0"] }
        if audio != nil || copiedSound != nil { arguments += ["-map", "\(soundInput):a:0"] }
        switch videoInput {
        case .copy: arguments += ["-c:v", "copy"]
        case .soundOnly: arguments += ["-vn"]
        case .rawFrames, .rawYUV420:
            arguments += settings.videoArguments(for: format, width: width, height: height, yuvInput: videoInput == .rawYUV420)
        }
        if copiedSound != nil {
            arguments += ["-c:a", "copy"]
        } else {
            arguments += audio == nil ? ["-an"] : settings.audioArguments(for: format)
        }
        if format == .mp4 || format == .mov { arguments += ["-movflags", "+faststart"] }
        arguments += ["-f", format.muxer, FFmpeg.fileArgument(temporary)]
        do {
            let watch = writeErrors
            process = try ToolProcess(executable: executable, arguments: arguments, pipeInput: videoInput.isRaw, pipeOutput: false, path: path,
                                      stderrLines: { watch.offer($0) })
            tool = process
        } catch {
            staged.discard()
            Self.remove(fifoDirectory: fifoDirectory)
            throw error
        }
    }

    deinit {
        cancel()
        planarFrame?.deallocate()
    }

    // MARK: - Picture

    /// Appends one frame of RGBA8, `width × height × 4` bytes, rows top to bottom (alpha is
    /// ignored: pass colours composited over black, i.e. premultiplied).
    /// - Throws: `.writeFailed` naming ffmpeg's last message when it stopped (the output is then removed).
    public func append(frame: UnsafeRawBufferPointer) throws(MediaError) {
        precondition(videoInput != .rawYUV420 || frame.count == YUV420.byteCount(width: width, height: height), "expected a \(width)x\(height) 4:2:0 frame")
        precondition(videoInput != .rawFrames || frame.count == width * height * 4, "expected a \(width)x\(height) RGBA frame")
        precondition(videoInput.isRaw, "frames are appended only to a movie made from raw frames")
        guard let tool else { preconditionFailure("MovieEncoder used after finish() or cancel()") }
        if let code = tool.write(frame) {
            self.tool = nil
            cancelled.withLock { $0 = true }
            let (status, stderr) = tool.wait()
            removeTemporaries()
            if let problem = writeErrors.problem { throw .incompleteOutput(path: path, reason: problem) }
            if status != 0 { throw Self.failure(path: path, status: status, stderr: stderr, temporary: temporaryPath) }
            throw .writeFailed(path: path, reason: "ffmpeg stopped reading frames (\(FileIO.message(code)))")
        }
        frameCount += 1
    }

    /// Appends one frame of premultiplied RGBA8 (colour over black), converted here to BT.709
    /// 4:2:0 when the movie takes 4:2:0 (`.rawYUV420`), as it is otherwise.
    /// - Throws: what `append(frame:)` throws.
    public func append(rgba frame: UnsafeRawBufferPointer) throws(MediaError) {
        guard videoInput == .rawYUV420 else { return try append(frame: frame) }
        precondition(frame.count == width * height * 4, "expected a \(width)x\(height) RGBA frame")
        let planar = planarFrame ?? .allocate(byteCount: YUV420.byteCount(width: width, height: height), alignment: 64)
        planarFrame = planar
        YUV420.fromRGBA(frame, width: width, height: height, into: planar)
        try append(frame: UnsafeRawBufferPointer(planar))
    }

    /// `append(rgba:)`'s converted frame, made at its first call and reused.
    private var planarFrame: UnsafeMutableRawBufferPointer?

    // MARK: - Sound

    /// A writer for the sound, to be used on one other thread; nil for a silent movie.
    public func audioWriter() -> MovieAudioWriter? {
        guard let audio, let fifoDirectory else { return nil }
        return MovieAudioWriter(fifo: fifoDirectory + "/audio.f32", channels: audio.channels, cancelled: cancelled, path: path,
                                written: soundFrames)
    }

    // MARK: - Ending

    /// Ends the picture, waits for ffmpeg to finish (the sound writer must close its stream
    /// too) and checks what it wrote (`EncodedOutput`). The output stays under its temporary
    /// name until `commit()`.
    /// - Throws: `.encodingFailed` without frames or when ffmpeg wrote nothing, `.writeFailed` when
    ///   ffmpeg fails, `.incompleteOutput` when the file is not whole (a full disk); the
    ///   temporary is then removed.
    public func finish() throws(MediaError) {
        guard let tool else { preconditionFailure("MovieEncoder used after finish() or cancel()") }
        guard frameCount > 0 || !videoInput.isRaw else {
            cancel()
            throw .encodingFailed(path: path, format: format.description, message: "no frames were appended")
        }
        self.tool = nil
        let (status, stderr) = tool.wait()
        guard status == 0 else {
            cancelled.withLock { $0 = true }
            removeTemporaries()
            if let problem = writeErrors.problem { throw .incompleteOutput(path: path, reason: problem) }
            throw Self.failure(path: path, status: status, stderr: stderr, temporary: temporaryPath)
        }
        // ffmpeg said it succeeded; the file must say so too (a full disk can end with status 0).
        let output = EncodedOutput(path: path, temporaryPath: temporaryPath, formatName: format.description,
                                   hasVideo: videoInput != .soundOnly, hasAudio: audio != nil || copiesSound,
                                   duration: expectedDuration)
        do {
            try output.verify(writeError: writeErrors.problem)
        } catch {
            cancelled.withLock { $0 = true }
            removeTemporaries()
            throw error
        }
        checked = true
    }

    /// ffmpeg's report of a failed write (a full disk) as the error to show, once ffmpeg has ended
    /// (after `finish()` or `cancel()`), nil when it reported none. When ffmpeg stops on a full
    /// disk, the picture and the sound writers only see a closed pipe; this is the cause.
    public var writeFailure: MediaError? { writeErrors.problem.map { .incompleteOutput(path: path, reason: $0) } }

    /// Seconds the finished movie should last: the frames appended, the sound written, or the
    /// length given for a copied picture; nil when unknown.
    private var expectedDuration: Double? {
        let picture = videoInput.isRaw ? Double(frameCount) / fps : copiedDuration
        let sound = audio.map { Double(soundFrames.withLock { $0 }) / Double($0.sampleRate) }
        switch (picture, sound) {
        case let (p?, s?): return max(p, s)
        case let (p, s): return p ?? s
        }
    }

    /// Renames the finished movie onto `path`.
    /// - Throws: `.unwritable`; the temporary is then removed.
    public func commit() throws(MediaError) {
        precondition(checked, "commit() needs a successful finish()")
        checked = false
        do {
            try staged.publish()
        } catch {
            removeTemporaries()
            throw error
        }
        committed = true
        removeFIFO()
    }

    /// Stops ffmpeg and the sound writer, and removes the partial output. Thread-safe with
    /// respect to the sound writer; does nothing after `commit()`.
    public func cancel() {
        cancelled.withLock { $0 = true }
        if let tool {
            self.tool = nil
            tool.kill()
            _ = tool.wait()
        }
        checked = false
        if !committed { removeTemporaries() }
    }

    /// ffmpeg's failure in one line: its last line of stderr (a full disk reads "No space left on device").
    private static func failure(path: String, status: Int32, stderr: String, temporary: String) -> MediaError {
        let line = MediaProbe.lastLine(stderr, dropping: temporary).map { ": " + $0 } ?? ""
        return .writeFailed(path: path, reason: "ffmpeg exited with status \(status)\(line)")
    }

    /// Kills ffmpeg and stops the sound writer, from any thread; the thread feeding frames then
    /// sees a failure and calls `cancel()`, which removes the output.
    public func abort() {
        cancelled.withLock { $0 = true }
        process.kill()
    }

    private func removeTemporaries() {
        staged.discard()
        removeFIFO()
    }

    private func removeFIFO() {
        Self.remove(fifoDirectory: fifoDirectory)
    }

    private static func remove(fifoDirectory: String?) {
        if let fifoDirectory {
            unlink(fifoDirectory + "/audio.f32")
            rmdir(fifoDirectory)
            TemporaryFiles.unregister(fifoDirectory)
        }
    }
}

/// Writes a movie's sound into ffmpeg's FIFO. Use it from one thread; `MovieEncoder.cancel()`
/// (from any thread) makes a waiting `open` or `write` give up.
public final class MovieAudioWriter: @unchecked Sendable {
    /// Channels per sample frame.
    public let channels: Int
    private let fifo: String
    private let cancelled: Locked<Bool>
    private let path: String
    private let written: Locked<Int>
    private var fd: Int32 = -1
    private var finished = false

    fileprivate init(fifo: String, channels: Int, cancelled: Locked<Bool>, path: String, written: Locked<Int>) {
        self.fifo = fifo
        self.channels = channels
        self.cancelled = cancelled
        self.path = path
        self.written = written
    }

    deinit { if fd >= 0 { closeDescriptor(fd) } }

    /// Writes interleaved samples (whole sample frames).
    /// - Throws: `.writeFailed` when the encoder was cancelled or ffmpeg stopped reading.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(MediaError) {
        precondition(samples.count % channels == 0 && !finished, "whole sample frames, before close()")
        if fd < 0 { try openFIFO() }
        var base = UnsafeRawPointer(samples.baseAddress)
        var remaining = samples.count * 4
        while remaining > 0, let pointer = base {
            if cancelled.withLock({ $0 }) { throw .writeFailed(path: path, reason: "the encoder was stopped") }
            let n = writeDescriptor(fd, pointer, remaining)
            if n > 0 {
                remaining -= n
                base = pointer + n
            } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&poller, 1, 100)
            } else {
                throw .writeFailed(path: path, reason: "ffmpeg stopped reading the sound (\(FileIO.message(errno)))")
            }
        }
        written.withLock { $0 += samples.count / channels }
    }

    /// Ends the sound stream (ffmpeg sees its end).
    /// - Throws: `.writeFailed` when ffmpeg never opened the stream before a cancel.
    public func close() throws(MediaError) {
        guard !finished else { return }
        if fd < 0 { try openFIFO() }
        finished = true
        closeDescriptor(fd)
        fd = -1
    }

    /// Opens the FIFO once ffmpeg has opened it for reading (non-blocking retries every 5 ms).
    private func openFIFO() throws(MediaError) {
        while true {
            if cancelled.withLock({ $0 }) { throw .writeFailed(path: path, reason: "the encoder was stopped") }
            let opened = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if opened >= 0 { fd = opened; FileIO.enlargePipeBuffer(opened); return }
            guard errno == ENXIO || errno == EINTR else {
                throw .writeFailed(path: path, reason: "cannot open the sound pipe: \(FileIO.message(errno))")
            }
            usleep(5_000)
        }
    }
}

/// `close(2)`, named apart from the types' own `close()` methods.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }

/// `write(2)` without SIGPIPE, named apart from the writer's own `write` method.
private func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    FileIO.withoutSIGPIPE { write(fd, bytes, count) }
}
