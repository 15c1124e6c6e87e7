import SegueCore
import SegueMath
import SegueMedia
import SegueShaders
import SegueSystem
import SegueVulkan

// Where rendered frames go: a directory of PNGs, raw RGBA8 on standard output, or a video file
// encoded by ffmpeg. Every file output is written under a temporary name and renamed when
// complete; a failed or interrupted render leaves nothing behind.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The destination of a multi-frame render.
public enum RenderOutput: Sendable, Equatable {
    /// PNG frames `frame-00000.png`, … in a directory.
    case directory(String)
    /// Raw RGBA8 frames (straight alpha), back to back, on standard output.
    case standardOutput
    /// A video file encoded through an ffmpeg subprocess.
    case video(String, VideoFormat)

    /// Interprets `-o`: `-` is standard output; a path ending in one of `VideoFormat.extensions`
    /// is a video; anything else without an extension is a directory.
    /// - Throws: `RenderError.invalidValue` for an image or unknown extension.
    public init(path: String) throws {
        if path == "-" { self = .standardOutput; return }
        if let format = VideoFormat(pathExtensionOf: path) { self = .video(path, format); return }
        if FileIO.pathExtension(of: path).isEmpty || FileIO.isDirectory(path) { self = .directory(path); return }
        let videos = VideoFormat.extensions.map { "." + $0 }
        throw RenderError.invalidValue(
            "cannot tell what to write to '\(path)': use a directory, '-' for raw frames on stdout, or a "
                + videos.dropLast().joined(separator: ", ") + " or \(videos.last ?? "") file")
    }
}

/// Receives frames in order; `finish` publishes the result, `cancel` removes what was started.
public protocol FrameSink: AnyObject {
    /// Frame `index`'s premultiplied RGBA8 pixels (valid during the call only).
    func write(frame index: Int, pixels: UnsafeRawBufferPointer) throws
    /// Completes the output (renames temporary files into place).
    func finish() throws
    /// Abandons the output, removing temporary files.
    func cancel()
}

/// Opens the sink for an output.
/// - Parameters:
///   - settings: the video's codec, preset and quality (default: the container's codec at its
///     default quality, x264's medium 23 for an MP4).
///   - cancellation: its `cancel()` stops the output (ffmpeg killed, temporaries removed); the
///     sink's next call then throws `MediaError.cancelled` and nothing is published.
public func makeFrameSink(
    _ output: RenderOutput, width: Int, height: Int, fps: Double,
    settings: VideoSettings = VideoSettings(), cancellation: Cancellation? = nil
) throws -> FrameSink {
    switch output {
    case let .directory(path): return try DirectorySink(path: path, width: width, height: height, cancellation: cancellation)
    case .standardOutput: return RawSink(fd: STDOUT_FILENO, width: width, height: height)
    case let .video(path, format):
        return try VideoSink(
            path: path, width: width, height: height, fps: fps, format: format, settings: settings, cancellation: cancellation)
    }
}

/// A sink writing raw RGBA8 frames (straight alpha) to an open file descriptor (a pipe, a file).
public func rawFrameSink(fileDescriptor: Int32, width: Int, height: Int) -> FrameSink {
    RawSink(fd: fileDescriptor, width: width, height: height)
}

/// Frames as PNG files, written into a staged directory beside the destination and published
/// over it at the end (an earlier render there is replaced whole).
final class DirectorySink: FrameSink {
    /// The directory as the caller named it (what messages say).
    let path: String
    let width: Int, height: Int
    private let staged: StagedOutput
    private let writer: FrameDirectoryWriter
    private let straight: StraightAlphaBuffer

    init(path: String, width: Int, height: Int, cancellation: Cancellation?) throws {
        if FileIO.exists(path) && !FileIO.isDirectory(path) {
            throw MediaError.unwritable(path: path, reason: "it exists and is not a directory")
        }
        // An existing directory is replaced whole at the end (never a mix of two renders), so it
        // may only hold frames of an earlier render.
        if FileIO.isDirectory(path),
            let other = FileIO.directoryEntries(path)?.first(where: { !FrameDirectoryWriter.isFrameName($0) })
        {
            throw MediaError.unwritable(
                path: path,
                reason: "the directory holds '\(other)', which is not a frame of an earlier render; give a new or empty directory")
        }
        self.path = path
        self.width = width
        self.height = height
        straight = StraightAlphaBuffer(byteCount: width * height * 4)
        staged = try MediaError.converting { () throws(SystemError) in try StagedOutput(directory: path, cancellation: cancellation)
        }
        writer = try FrameDirectoryWriter(directory: staged.temporaryPath)
    }

    func write(frame index: Int, pixels: UnsafeRawBufferPointer) throws {
        do {
            try straight.withStraightAlpha(pixels) { raw in
                _ = try writer.append(straightRGBA: raw, width: width, height: height)
            }
        } catch {
            throw MediaError.naming(path, insteadOf: staged.temporaryPath, error)
        }
    }

    func finish() throws { try MediaError.converting { () throws(SystemError) in try staged.publish() } }

    func cancel() { staged.discard() }
}

/// Raw RGBA8 frames (straight alpha) to a file descriptor.
final class RawSink: FrameSink {
    private let writer: RawFrameWriter
    private let straight: StraightAlphaBuffer

    init(fd: Int32, width: Int, height: Int) {
        writer = RawFrameWriter(fileDescriptor: fd, name: fd == STDOUT_FILENO ? "standard output" : "fd \(fd)")
        straight = StraightAlphaBuffer(byteCount: width * height * 4)
    }

    func write(frame index: Int, pixels: UnsafeRawBufferPointer) throws {
        try straight.withStraightAlpha(pixels) { raw in try writer.write(frame: raw) }
    }

    func finish() throws {}
    func cancel() {}
}

/// A video through `VideoEncoder`. A codec without alpha that codes 4:2:0 (H.264, H.265) takes
/// frames of an even size as BT.709 4:2:0 converted by the encoder (while the device draws the
/// next frames), so the pipe carries 1.5 bytes a pixel instead of 4 and ffmpeg converts nothing;
/// other frames go as RGBA (odd sizes padded by ffmpeg), with their alpha where the codec keeps it.
final class VideoSink: FrameSink {
    let encoder: VideoEncoder

    init(path: String, width: Int, height: Int, fps: Double, format: VideoFormat, settings: VideoSettings, cancellation: Cancellation?)
        throws
    {
        let codec = settings.codec(for: format)
        let yuv = width % 2 == 0 && height % 2 == 0 && !codec.keepsAlpha && codec.pixelFormat == "yuv420p"
        encoder = try VideoEncoder(
            path: path, width: width, height: height, fps: fps, format: format, settings: settings, input: yuv ? .yuv420 : .rgba,
            cancellation: cancellation)
    }

    func write(frame index: Int, pixels: UnsafeRawBufferPointer) throws {
        try encoder.append(premultiplied: pixels)
    }

    func finish() throws { try encoder.finish() }
    func cancel() { encoder.cancel() }
}

/// Runs `render` with a consumer that writes each frame into `sink` and reports progress, then
/// finishes the sink; on any error the sink is cancelled (its temporary files removed) and the
/// error rethrown.
func writeFrames(
    into sink: FrameSink, progress: (Int) -> Void,
    _ render: ((Int, UnsafeRawBufferPointer) throws -> Void) throws -> Void
) throws {
    try withoutActuallyEscaping(progress) { progress in try writeFrames(into: sink, escapingProgress: progress, render) }
}

private func writeFrames(
    into sink: FrameSink, escapingProgress progress: @escaping (Int) -> Void,
    _ render: ((Int, UnsafeRawBufferPointer) throws -> Void) throws -> Void
) throws {
    do {
        try render { i, pixels in
            try sink.write(frame: i, pixels: pixels)
            progress(i + 1)
        }
        try sink.finish()
    } catch {
        sink.cancel()
        throw error
    }
}

extension TransitionRenderer {
    /// Renders every frame of `timeline` into `sink`, calling `progress(framesDone)` after each;
    /// on any error the sink is cancelled (its temporary files removed) and the error rethrown.
    public func render(_ timeline: Timeline, to sink: FrameSink, progress: (Int) -> Void = { _ in }) throws {
        try writeFrames(into: sink, progress: progress) { consume in try render(timeline, consume: consume) }
    }
}
