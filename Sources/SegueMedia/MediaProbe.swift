import SegueCore
import SegueSystem

// What a media file holds, as ffprobe reports it: the container's start and duration, the first
// video stream (stored size, display rotation, pixel aspect, rate, time base, codec parameters)
// and the first audio stream (codec, rate, channels).
//
//   ffprobe -v error -show_format -show_streams -of json FILE
//
// `rotation` is ffprobe's: the display matrix's counter-clockwise rotation in degrees. ffmpeg
// applies it when decoding (autorotate), so frames come out at the display size.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The first video stream of a file.
public struct VideoStreamInfo: Sendable, Hashable {
    /// The stream's index in the file (for `-map 0:INDEX`).
    public var index: Int
    /// Stored width in pixels.
    public var width: Int
    /// Stored height in pixels.
    public var height: Int
    /// Counter-clockwise display rotation in degrees (0, 90, 180, 270; ffprobe's sign).
    public var rotation: Int
    /// Pixel aspect ratio (sample aspect ratio) as a number; 1 for square pixels.
    public var pixelAspect: Double
    /// Frames per second: the average rate, else the base rate.
    public var fps: Double
    /// The rate as ffprobe wrote it ("30000/1001").
    public var rateText: String
    /// The stream's time base ("1/15360").
    public var timeBase: String
    /// ffmpeg's codec name ("h264").
    public var codec: String
    /// The codec profile ("High"), empty when unknown.
    public var profile: String
    /// The codec level, 0 when unknown.
    public var level: Int
    /// The pixel format ("yuv420p"), empty when unknown.
    public var pixelFormat: String
    /// Colour space, range, primaries and transfer as ffprobe names them (empty when unknown).
    public var colorSpace: String, colorRange: String, colorPrimaries: String, colorTransfer: String
    /// Seconds from the container's start to the stream's first timestamp.
    public var startOffset: Double
    /// The stream's duration in seconds, when known.
    public var duration: Double?
    /// Frames the container records, when it does.
    public var frameCount: Int?
    /// How many frames the decoder holds back to reorder B-frames (ffprobe's `has_b_frames`).
    public var reorderDelay: Int = 0
    /// The base rate ffprobe reports (`r_frame_rate`); equal to `rateText` for a constant rate.
    public var baseRateText: String = ""
    /// The packets ffprobe counted by reading the whole stream, when asked to (`countingPackets`).
    public var countedPackets: Int? = nil

    /// The stream of a still image of `width`×`height` (one frame, square pixels, upright).
    public static func image(width: Int, height: Int) -> VideoStreamInfo {
        VideoStreamInfo(
            index: 0, width: width, height: height, rotation: 0, pixelAspect: 1, fps: 0, rateText: "", timeBase: "",
            codec: "image", profile: "", level: 0, pixelFormat: "rgba", colorSpace: "", colorRange: "",
            colorPrimaries: "", colorTransfer: "", startOffset: 0, duration: nil, frameCount: 1, reorderDelay: 0, baseRateText: "")
    }

    /// The size a player shows: rotated by `rotation`, non-square pixels made square.
    public var displaySize: (width: Int, height: Int) {
        let w = max(1, Int((Double(width) * (pixelAspect > 0 ? pixelAspect : 1)).rounded()))
        return rotation % 180 == 0 ? (w, height) : (height, w)
    }
}

/// The first audio stream of a file.
public struct AudioStreamInfo: Sendable, Hashable {
    /// The stream's index in the file (for `-map 0:INDEX`).
    public var index: Int
    /// ffmpeg's codec name ("aac").
    public var codec: String
    /// The codec profile ("LC"), empty when unknown.
    public var profile: String
    /// Samples per second.
    public var sampleRate: Int
    /// Channels.
    public var channels: Int
    /// The channel layout ("stereo"), empty when unknown.
    public var channelLayout: String
    /// Seconds from the container's start to the stream's first timestamp.
    public var startOffset: Double
    /// The stream's duration in seconds, when known.
    public var duration: Double?
}

/// What ffprobe says about a media file.
public struct MediaInfo: Sendable, Hashable {
    /// The file.
    public var path: String
    /// The container ("mov,mp4,m4a,3gp,3g2,mj2").
    public var formatName: String
    /// The container's duration in seconds, when known.
    public var duration: Double?
    /// The first video stream, if any.
    public var video: VideoStreamInfo?
    /// The first audio stream, if any.
    public var audio: AudioStreamInfo?

    /// A description.
    public init(path: String, formatName: String, duration: Double?, video: VideoStreamInfo?, audio: AudioStreamInfo?) {
        self.path = path
        self.formatName = formatName
        self.duration = duration
        self.video = video
        self.audio = audio
    }

    /// Seconds of picture: from the container's start to the end of the video stream (the
    /// container's duration when the stream gives none).
    public var videoDuration: Double? {
        guard let video else { return nil }
        if let d = video.duration { return video.startOffset + d }
        return duration
    }
}

/// Probing media files with ffprobe.
public enum MediaProbe {
    /// Describes `path`.
    /// - Throws: `.fileNotFound`, `.unreadable`, `.ffmpegNotFound`, `.invalidVideo` (ffprobe
    ///   cannot read it; the reason is ffprobe's last line).
    public static func probe(path: String) throws(MediaError) -> MediaInfo {
        try checkReadable(path)
        let result = try ffprobe(["-show_format", "-show_streams", "-of", "json"], file: path, path: path)
        guard result.status == 0 else {
            throw .invalidVideo(
                path: path, reason: lastLine(result.stderr, dropping: path) ?? "ffprobe exited with status \(result.status)")
        }
        return try parse(json: [UInt8](result.output), path: path)
    }

    /// Runs ffprobe (`-v error`, then `arguments`) on `file`.
    /// - Parameters:
    ///   - path: the file named in errors (the destination of a temporary `file`).
    ///   - cancellation: its `cancel()` kills ffprobe.
    /// - Throws: `.ffmpegNotFound`, `.systemLimit`, `.cancelled`.
    static func ffprobe(_ arguments: [String], file: String, path: String, cancellation: Cancellation? = nil) throws(MediaError)
        -> ProgramRun
    {
        let ffprobe = try FFmpeg.ffprobeExecutable(for: path)
        return try MediaError.converting { () throws(SystemError) in
            try ProgramRun(
                ffprobe, ["-v", "error"] + arguments + [FFmpeg.fileArgument(file)], timeout: nil,
                errorLimit: OutputCollector.tailLimit, path: path, cancellation: cancellation)
        }
    }

    /// The packets of the first video stream, in file (decode) order: timestamps in the stream's
    /// time base, whether each is a keyframe, and where it lies in the file. Reads the container
    /// only (no decoding).
    /// - Parameter cancellation: its `cancel()` kills ffprobe.
    /// - Throws: `.invalidVideo` when ffprobe cannot read the file, `.cancelled`.
    public static func videoPackets(path: String, cancellation: Cancellation? = nil) throws(MediaError) -> VideoPackets {
        try checkReadable(path)
        let result = try ffprobe(
            ["-select_streams", "v:0", "-show_entries", "stream=time_base:packet=pts,dts,size,pos,flags", "-of", "csv=p=0"],
            file: path, path: path, cancellation: cancellation)
        guard result.status == 0 else {
            throw .invalidVideo(
                path: path, reason: lastLine(result.stderr, dropping: path) ?? "ffprobe exited with status \(result.status)")
        }
        var packets: [VideoPackets.Packet] = []
        var timeBase: (Int64, Int64)?
        for line in result.stdout.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if fields.count == 1, fields[0].contains("/") {
                let parts = fields[0].split(separator: "/")
                if parts.count == 2, let n = Int64(parts[0]), let d = Int64(parts[1]), n > 0, d > 0 { timeBase = (n, d) }
            } else if fields.count >= 5 {
                // ffprobe's own order: pts, dts, size, pos, flags.
                packets.append(
                    VideoPackets.Packet(
                        pts: Int64(fields[0]), dts: Int64(fields[1]), isKeyframe: fields[4].hasPrefix("K"),
                        size: Int(fields[2]), position: Int64(fields[3])))
            }
        }
        guard let timeBase else { throw .invalidVideo(path: path, reason: "ffprobe gave no time base") }
        return VideoPackets(timeBaseNumerator: timeBase.0, timeBaseDenominator: timeBase.1, packets: packets)
    }

    /// Checks that `path` is a readable regular file before a tool opens it (a FIFO would make
    /// ffprobe or ffmpeg wait for a writer for ever; a device may never end).
    /// - Throws: `.fileNotFound`, `.unreadable` naming the kind of file.
    public static func checkReadable(_ path: String) throws(MediaError) {
        try MediaError.converting { () throws(SystemError) in try FileIO.requireRegularFile(path, noun: "stream") }
    }

    /// "30000/1001" or "30" as a positive rate, nil for "0/0" and nonsense.
    static func rate(_ text: String?) -> Double? {
        guard let value = text.flatMap(FrameRate.parse), value.isFinite, value > 0 else { return nil }
        return value
    }

    /// Parses ffprobe's JSON (`-show_format -show_streams -of json`, with `-count_packets`
    /// the counted packets too). The one reader of ffprobe's answers about streams.
    /// - Throws: `.invalidVideo` when it is not ffprobe's JSON.
    static func parse(json: [UInt8], path: String) throws(MediaError) -> MediaInfo {
        guard let root = try? JSONSyntax.parse(json), case .object = root else {
            throw .invalidVideo(path: path, reason: "ffprobe's answer could not be read")
        }
        let format = root["format"]
        let containerStart = format?["start_time"]?.number ?? 0
        var info = MediaInfo(
            path: path, formatName: format?["format_name"]?.string ?? "",
            duration: format?["duration"]?.number, video: nil, audio: nil)
        for stream in root["streams"]?.items ?? [] {
            let start = (stream["start_time"]?.number ?? containerStart) - containerStart
            let text = { (key: String) in stream[key]?.string ?? "" }
            switch stream["codec_type"]?.string {
            case "video" where info.video == nil:
                if stream["disposition"]?["attached_pic"]?.integer == 1 { continue }  // cover art
                guard let w = stream["width"]?.integer, let h = stream["height"]?.integer, w > 0, h > 0 else { continue }
                let rateText = stream["avg_frame_rate"]?.string.flatMap { rate($0) != nil ? $0 : nil } ?? text("r_frame_rate")
                info.video = VideoStreamInfo(
                    index: stream["index"]?.integer ?? 0, width: w, height: h, rotation: rotation(of: stream),
                    pixelAspect: ratio(stream["sample_aspect_ratio"]?.string) ?? 1,
                    fps: rate(rateText) ?? 0, rateText: rateText, timeBase: text("time_base"),
                    codec: stream["codec_name"]?.string ?? "unknown", profile: text("profile"),
                    level: stream["level"]?.integer ?? 0, pixelFormat: text("pix_fmt"),
                    colorSpace: text("color_space"), colorRange: text("color_range"),
                    colorPrimaries: text("color_primaries"), colorTransfer: text("color_transfer"),
                    startOffset: start, duration: stream["duration"]?.number, frameCount: stream["nb_frames"]?.integer,
                    reorderDelay: stream["has_b_frames"]?.integer ?? 0, baseRateText: text("r_frame_rate"),
                    countedPackets: stream["nb_read_packets"]?.integer)
            case "audio" where info.audio == nil:
                guard let rate = stream["sample_rate"]?.integer, rate > 0, let channels = stream["channels"]?.integer, channels > 0 else {
                    continue
                }
                info.audio = AudioStreamInfo(
                    index: stream["index"]?.integer ?? 0, codec: stream["codec_name"]?.string ?? "unknown", profile: text("profile"),
                    sampleRate: rate, channels: channels, channelLayout: text("channel_layout"),
                    startOffset: start, duration: stream["duration"]?.number)
            default:
                continue
            }
        }
        return info
    }

    /// The display rotation normalised to 0, 90, 180 or 270: from the display-matrix side
    /// data, else a `rotate` tag.
    private static func rotation(of stream: JSONValue) -> Int {
        let degrees =
            stream["side_data_list"]?.items.first { $0["rotation"] != nil }?["rotation"]?.number
            ?? stream["tags"]?["rotate"]?.number ?? 0
        guard abs(degrees) < 1e9 else { return 0 }
        let quarter = Int((degrees / 90).rounded()) % 4
        return (quarter + 4) % 4 * 90
    }

    /// "16:11" as 16/11; nil for "0:1", "N/A" and nonsense.
    private static func ratio(_ text: String?) -> Double? {
        guard let text else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a > 0, b > 0 else { return nil }
        return a / b
    }

    /// The last non-empty line of a tool's stderr, without a leading "PATH: ".
    public static func lastLine(_ stderr: String, dropping path: String) -> String? {
        guard var line = stderr.split(whereSeparator: \.isNewline).last.map(String.init) else { return nil }
        for prefix in [FFmpeg.fileArgument(path) + ": ", path + ": "] where line.hasPrefix(prefix) {
            line.removeFirst(prefix.count)
            break
        }
        // "[h264 @ 0x55bc81fdafc0] Error …": the codec's name without the address.
        if line.hasPrefix("["), let at = line.firstRange(of: " @ 0x"), let close = line[at.upperBound...].firstRange(of: "] ") {
            line = String(line[line.index(after: line.startIndex)..<at.lowerBound]) + ": " + line[close.upperBound...]
        }
        line = line.trimmingWhitespace()
        return line.isEmpty ? nil : line
    }
}
