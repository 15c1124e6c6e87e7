// Video output through an ffmpeg subprocess fed raw RGBA frames on a pipe (no frame files):
//
//   ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba -s WxH -r FPS -i - \
//          <per-format options> TEMPORARY
//
// ffmpeg writes to a hidden temporary next to the destination (registered with TemporaryFiles);
// `finish()` renames it into place only when ffmpeg exits with status 0 and the file passes
// `EncodedOutput`'s check (readable, whole), so a failed, cancelled, interrupted or cut-short
// encode (a full disk) never leaves a partial video at the destination.

import SegueCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes a stream of RGBA8 frames to MP4, WebM, GIF or APNG with `ffmpeg`.
///
/// ```swift
/// let video = try VideoEncoder(path: "out.mp4", width: 390, height: 844, fps: 60)
/// for frame in frames { try video.append(frame) }
/// try video.finish()
/// ```
/// Any error from `append` or `finish` has already stopped ffmpeg and removed the partial
/// output. Dropping an encoder before `finish()` cancels it. Not thread-safe: feed it from
/// one thread at a time.
public final class VideoEncoder {
    /// The destination path.
    public let path: String
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// Frames per second.
    public let fps: Double
    /// The output format.
    public let format: VideoFormat
    /// The hidden file ffmpeg writes, renamed onto `path` by `finish()`.
    public let temporaryPath: String
    /// Frames appended so far.
    public private(set) var frameCount = 0

    private var tool: ToolProcess?
    private let staged: StagedOutput
    private let writeErrors = FFmpegWriteErrors()

    /// Starts ffmpeg for a video of `width`x`height` pixels at `fps` frames per second.
    /// - Parameter format: The format, or nil to take it from `path`'s extension.
    /// - Throws: `.unknownOutputFormat`, `.imageTooLarge`, `.ffmpegNotFound` (checked before
    ///   anything is created), `.unwritable`.
    public init(path: String, width: Int, height: Int, fps: Double, format: VideoFormat? = nil) throws(MediaError) {
        precondition(fps.isFinite && fps > 0, "fps must be positive and finite")
        guard let format = format ?? VideoFormat(pathExtensionOf: path) else {
            throw .unknownOutputFormat(path: path, supported: VideoFormat.extensions)
        }
        if let problem = MediaError.sizeProblem(width: width, height: height, path: path) { throw problem }
        let executable = try FFmpeg.ffmpegExecutable(for: path)
        let staged = try StagedOutput(file: path, suffix: "." + format.fileExtension)
        let temporary = staged.temporaryPath

        self.path = path
        self.width = width
        self.height = height
        self.fps = fps
        self.format = format
        self.temporaryPath = temporary
        self.staged = staged
        let arguments = VideoEncoder.arguments(width: width, height: height, fps: fps, format: format, output: temporary)
        do {
            let watch = writeErrors
            tool = try ToolProcess(executable: executable, arguments: arguments, pipeInput: true, pipeOutput: false, path: path,
                                   stderrLines: { watch.offer($0) })
        } catch {
            removeTemporary()
            throw error
        }
    }

    deinit { cancel() }

    /// The ffmpeg command-line arguments (without the executable).
    static func arguments(width: Int, height: Int, fps: Double, format: VideoFormat, output: String) -> [String] {
        var arguments = ["-hide_banner", "-loglevel", "error", "-y",
                         "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-r", FFmpeg.rate(fps), "-i", "-"]
        switch format {
        case .mp4:
            // The same H.264 as `MovieEncoder`'s: BT.709 limited range, tagged, odd sizes padded.
            arguments += MovieSettings().videoArguments(for: .mp4, width: width, height: height) + ["-movflags", "+faststart", "-f", "mp4"]
        case .webm:
            arguments += ["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-b:v", "0", "-crf", "32", "-row-mt", "1", "-f", "webm"]
        case .gif:
            arguments += ["-filter_complex", "split[a][b];[a]palettegen[p];[b][p]paletteuse", "-loop", "0", "-f", "gif"]
        case .apng:
            arguments += ["-c:v", "apng", "-plays", "0", "-f", "apng"]
        }
        return arguments + [FFmpeg.fileArgument(output)]
    }

    // MARK: - Frames

    /// Appends one frame of straight-alpha RGBA8, `width * height * 4` bytes, rows top to bottom.
    /// For MP4 the alpha byte is ignored: pass colours already composited if it matters.
    /// - Throws: `.ffmpegFailed` (with ffmpeg's stderr) if ffmpeg stopped; the partial output is removed.
    public func append(frame: UnsafeRawBufferPointer) throws(MediaError) {
        precondition(frame.count == width * height * 4, "expected a \(width)x\(height) RGBA frame (\(width * height * 4) bytes), got \(frame.count)")
        guard let tool else { preconditionFailure("VideoEncoder used after finish(), cancel() or a failure") }
        if let code = tool.write(frame) {
            throw fail(tool, reason: FileIO.message(code))
        }
        frameCount += 1
    }

    /// Appends one frame of straight-alpha RGBA8 bytes.
    public func append(frame: [UInt8]) throws(MediaError) {
        try frame.withBytes { (raw) throws(MediaError) in try append(frame: raw) }
    }

    /// Appends an image of the encoder's size (see ``append(premultiplied:)``).
    public func append(_ image: Image) throws(MediaError) {
        precondition(image.width == width && image.height == height, "frame is \(image.width)x\(image.height), video is \(width)x\(height)")
        try image.pixels.withBytes { (raw) throws(MediaError) in try append(premultiplied: raw) }
    }

    /// Appends premultiplied RGBA8 bytes, the one rule for alpha in videos: formats with alpha
    /// get straight alpha; the others (MP4) get the premultiplied colours, which is the frame
    /// composited over black, what a player shows.
    public func append(premultiplied frame: UnsafeRawBufferPointer) throws(MediaError) {
        guard format.supportsAlpha else { return try append(frame: frame) }
        try straight.withStraightAlpha(frame) { (raw) throws(MediaError) in try append(frame: raw) }
    }

    private lazy var straight = StraightAlphaBuffer(byteCount: width * height * 4)

    // MARK: - Ending

    /// Ends the input, waits for ffmpeg, checks what it wrote (`EncodedOutput`) and renames the
    /// finished video onto `path`.
    /// - Throws: `.encodingFailed` when no frame was appended or ffmpeg wrote nothing,
    ///   `.ffmpegFailed`, `.incompleteOutput` (a full disk, a file cut short), `.unwritable`;
    ///   in every case the temporary is removed and `path` untouched.
    public func finish() throws(MediaError) {
        guard let tool else { preconditionFailure("VideoEncoder used after finish(), cancel() or a failure") }
        guard frameCount > 0 else {
            cancel()
            throw .encodingFailed(path: path, format: format.description, message: "no frames were appended")
        }
        let (status, stderr) = tool.wait()
        self.tool = nil
        guard status == 0 else {
            removeTemporary()
            if let problem = writeErrors.problem { throw .incompleteOutput(path: path, reason: problem) }
            throw .ffmpegFailed(path: path, status: status, stderr: stderr)
        }
        // ffmpeg said it succeeded; the file must say so too (a full disk can end with status 0).
        let output = EncodedOutput(path: path, temporaryPath: temporaryPath, formatName: format.description, hasVideo: true, hasAudio: false,
                                   duration: format == .apng ? nil : Double(frameCount) / fps)
        do {
            try output.verify(writeError: writeErrors.problem)
        } catch {
            removeTemporary()
            throw error
        }
        try staged.publish()
    }

    /// Stops ffmpeg and removes the partial output. Does nothing after `finish()`.
    public func cancel() {
        guard let tool else { return }
        self.tool = nil
        tool.kill()
        _ = tool.wait()
        removeTemporary()
    }

    /// After a failed write: collect ffmpeg's status and stderr, clean up, describe.
    private func fail(_ tool: ToolProcess, reason: String) -> MediaError {
        self.tool = nil
        let (status, stderr) = tool.wait()
        removeTemporary()
        if let problem = writeErrors.problem { return .incompleteOutput(path: path, reason: problem) }
        if status != 0 { return .ffmpegFailed(path: path, status: status, stderr: stderr) }
        return .writeFailed(path: path, reason: "ffmpeg stopped reading frames (\(reason))")
    }

    private func removeTemporary() { staged.discard() }
}
