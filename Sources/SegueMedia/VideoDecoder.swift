// Video input through ffprobe (stream size and rate) and an ffmpeg subprocess that writes raw
// straight-alpha RGBA frames to a pipe:
//
//   ffprobe -v error -select_streams v:0 -show_entries stream=... -of default=noprint_wrappers=1 FILE
//   ffmpeg -hide_banner -loglevel error -nostdin -noautorotate -i FILE -map 0:v:0 -f rawvideo -pix_fmt rgba -
//
// Frames come out in stored orientation (-noautorotate), so they match the probed size.

import SegueCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `VideoFile.probe` learns about a video's first video stream.
public struct VideoInfo: Sendable, Equatable {
    /// Frame width in pixels.
    public var width: Int
    /// Frame height in pixels.
    public var height: Int
    /// Frames per second (the average rate when the container gives one).
    public var fps: Double
    /// The number of frames, when the container records it or `countFrames` was asked for.
    public var frameCount: Int?
    /// The duration in seconds, when known.
    public var duration: Double?
    /// ffmpeg's codec name ("h264", "vp9", "gif", "apng", …).
    public var codec: String

    /// Creates stream information.
    public init(width: Int, height: Int, fps: Double, frameCount: Int?, duration: Double?, codec: String) {
        self.width = width
        self.height = height
        self.fps = fps
        self.frameCount = frameCount
        self.duration = duration
        self.codec = codec
    }
}

/// Reading videos (anything ffmpeg reads, GIF and APNG included).
public enum VideoFile {
    /// Describes the first video stream of `path` with `ffprobe`.
    /// - Parameter countFrames: Decode the whole stream to count its frames exactly (slow for
    ///   long videos); otherwise `frameCount` is what the container records, if anything.
    /// - Throws: `.fileNotFound`, `.unreadable`, `.ffmpegNotFound`, `.ffmpegFailed`, `.invalidVideo`.
    public static func probe(path: String, countFrames: Bool = false) throws(MediaError) -> VideoInfo {
        try checkReadable(path)
        let ffprobe = try FFmpeg.ffprobeExecutable(for: path)
        let entries = "stream=codec_name,width,height,r_frame_rate,avg_frame_rate,nb_frames"
            + (countFrames ? ",nb_read_frames" : "") + ":format=duration"
        let arguments = ["-v", "error", "-select_streams", "v:0"] + (countFrames ? ["-count_frames"] : [])
            + ["-show_entries", entries, "-of", "default=noprint_wrappers=1", FFmpeg.fileArgument(path)]
        let result = try ToolProcess.run(executable: ffprobe, arguments: arguments, path: path)
        guard result.status == 0 else { throw .ffmpegFailed(path: path, status: result.status, stderr: result.stderr) }
        var fields = [String: String]()
        for line in String(decoding: result.stdout, as: UTF8.self).split(whereSeparator: \.isNewline) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            if fields[key] == nil { fields[key] = String(line[line.index(after: equals)...]) }
        }
        guard let width = fields["width"].flatMap({ Int($0) }), let height = fields["height"].flatMap({ Int($0) }) else {
            throw .invalidVideo(path: path, reason: "it has no video stream")
        }
        let fps = rate(fields["avg_frame_rate"]) ?? rate(fields["r_frame_rate"])
        guard let fps else { throw .invalidVideo(path: path, reason: "its frame rate is unknown") }
        let frames = (countFrames ? fields["nb_read_frames"] : nil).flatMap { Int($0) } ?? fields["nb_frames"].flatMap { Int($0) }
        return VideoInfo(width: width, height: height, fps: fps, frameCount: frames,
                         duration: fields["duration"].flatMap { Double($0) }, codec: fields["codec_name"] ?? "unknown")
    }

    /// Decodes every frame of `path` (at most `limit`), for short clips and tests.
    public static func readFrames(path: String, scale: Double = 1, limit: Int = .max) throws(MediaError) -> [Image] {
        let decoder = try VideoDecoder(path: path, scale: scale)
        defer { decoder.close() }
        var frames = [Image]()
        while frames.count < limit, let frame = try decoder.nextFrame() { frames.append(frame) }
        return frames
    }

    /// "30000/1001" or "30" as a positive rate, nil for "0/0" and nonsense.
    static func rate(_ text: String?) -> Double? {
        guard let text else { return nil }
        let parts = text.split(separator: "/")
        let value: Double?
        if parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), d != 0 {
            value = n / d
        } else {
            value = Double(text)
        }
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }

    /// Checks that `path` is a readable regular file before a tool opens it (a FIFO would make
    /// ffprobe or ffmpeg wait for a writer for ever; a device may never end).
    /// - Throws: `.fileNotFound`, `.unreadable` naming the kind of file.
    public static func checkReadable(_ path: String) throws(MediaError) {
        try FileIO.requireRegularFile(path, noun: "stream")
    }
}

/// Decodes a video frame by frame through ffmpeg. Not thread-safe.
///
/// ```swift
/// let video = try VideoDecoder(path: "clip.mp4")
/// while let frame = try video.nextFrame() { … }
/// ```
public final class VideoDecoder {
    /// The video's stream information.
    public let info: VideoInfo
    /// The file being read.
    public let path: String
    /// The scale given to each frame.
    public let scale: Double

    private var tool: ToolProcess?

    /// Probes `path` and starts decoding it.
    /// - Throws: what `VideoFile.probe` throws, and `.imageTooLarge` for frames Segue refuses.
    public init(path: String, scale: Double = 1) throws(MediaError) {
        precondition(scale.isFinite && scale > 0, "scale must be positive and finite")
        let info = try VideoFile.probe(path: path)
        if let problem = MediaError.sizeProblem(width: info.width, height: info.height, path: path) { throw problem }
        let ffmpeg = try FFmpeg.ffmpegExecutable(for: path)
        self.info = info
        self.path = path
        self.scale = scale
        tool = try ToolProcess(executable: ffmpeg, arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-noautorotate", "-i", FFmpeg.fileArgument(path),
            "-map", "0:v:0", "-f", "rawvideo", "-pix_fmt", "rgba", "-",
        ], pipeInput: false, pipeOutput: true, path: path)
    }

    deinit { close() }

    /// The next frame, or nil after the last one.
    /// - Throws: `.ffmpegFailed` when ffmpeg stops with an error, `.corrupt` for a partial frame.
    public func nextFrame() throws(MediaError) -> Image? {
        guard let tool else { return nil }
        let count = info.width * info.height * 4
        var got = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            got = tool.read(into: UnsafeMutableRawBufferPointer(buffer))
            initialized = got
        }
        if got == count {
            return Image(width: info.width, height: info.height, scale: scale, straightRGBA: bytes)
        }
        self.tool = nil
        let (status, stderr) = tool.wait()
        if status != 0 { throw .ffmpegFailed(path: path, status: status, stderr: stderr) }
        if got != 0 {
            throw .corrupt(path: path, format: "video", message: "the last frame is incomplete (\(got) of \(count) bytes)")
        }
        return nil
    }

    /// Stops decoding early (kills ffmpeg). Called on deinit.
    public func close() {
        guard let tool else { return }
        self.tool = nil
        tool.kill()
        _ = tool.wait()
    }
}
