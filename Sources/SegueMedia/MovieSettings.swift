// Output containers and codec settings of a movie with sound (`segue concat`): which ffmpeg
// encoders a container takes, their presets and quality scales, checked before anything starts.

/// A movie container Segue writes with sound (GIF without).
public enum MovieFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// MP4 (H.264 + AAC by default; fast start).
    case mp4
    /// QuickTime (H.264 + AAC by default).
    case mov
    /// Matroska (H.264 + AAC by default).
    case mkv
    /// WebM (VP9 + Opus).
    case webm
    /// Animated GIF (palette from all frames, no sound).
    case gif

    /// The format named by `path`'s extension (`.mp4`/`.m4v`, `.mov`, `.mkv`, `.webm`, `.gif`).
    public init?(pathExtensionOf path: String) {
        switch FileIO.pathExtension(of: path) {
        case "mp4", "m4v": self = .mp4
        case "mov": self = .mov
        case "mkv": self = .mkv
        case "webm": self = .webm
        case "gif": self = .gif
        default: return nil
        }
    }

    /// The extensions recognised, without dots.
    public static let extensions = ["mp4", "m4v", "mov", "mkv", "webm", "gif"]

    /// Whether the format carries sound.
    public var hasAudio: Bool { self != .gif }

    /// ffmpeg's muxer name.
    var muxer: String {
        switch self {
        case .mp4: "mp4"
        case .mov: "mov"
        case .mkv: "matroska"
        case .webm: "webm"
        case .gif: "gif"
        }
    }

    /// The video codec used when none is asked for.
    public var defaultCodec: MovieCodec {
        switch self {
        case .mp4, .mov, .mkv: .h264
        case .webm: .vp9
        case .gif: .gif
        }
    }

    /// The codecs this container takes.
    public var codecs: [MovieCodec] {
        switch self {
        case .mp4: [.h264, .hevc, .vp9]
        case .mov: [.h264, .hevc, .prores]
        case .mkv: [.h264, .hevc, .vp9, .prores]
        case .webm: [.vp9]
        case .gif: [.gif]
        }
    }

    public var description: String {
        switch self {
        case .mp4: "MP4"
        case .mov: "QuickTime"
        case .mkv: "Matroska"
        case .webm: "WebM"
        case .gif: "GIF"
        }
    }
}

/// A video codec Segue encodes with.
public enum MovieCodec: String, Sendable, CaseIterable {
    /// H.264 through libx264 (yuv420p).
    case h264
    /// H.265 through libx265 (yuv420p).
    case hevc
    /// VP9 through libvpx-vp9 (yuv420p, constant quality).
    case vp9
    /// Apple ProRes 422 HQ through prores_ks (yuv422p10le); no --crf.
    case prores
    /// GIF with a generated palette.
    case gif

    /// Parses a codec name; `h265` and `x264`/`x265`/`libx264`… are accepted too.
    public init?(name: String) {
        switch name.lowercased() {
        case "h264", "avc", "x264", "libx264": self = .h264
        case "hevc", "h265", "x265", "libx265": self = .hevc
        case "vp9", "libvpx-vp9": self = .vp9
        case "prores", "prores_ks": self = .prores
        case "gif": self = .gif
        default: return nil
        }
    }

    /// The quality scale `--crf` takes, nil when the codec has none.
    public var crfRange: ClosedRange<Int>? {
        switch self {
        case .h264, .hevc: 0...51
        case .vp9: 0...63
        case .prores, .gif: nil
        }
    }

    /// The quality used when none is given.
    public var defaultCRF: Int? {
        switch self {
        case .h264: 23
        case .hevc: 28
        case .vp9: 32
        case .prores, .gif: nil
        }
    }

    /// Whether `--preset` applies (x264/x265 names; VP9 maps them onto its speed).
    public var takesPreset: Bool { self == .h264 || self == .hevc || self == .vp9 }

    /// The pixel format the codec encodes ("yuv420p", "pal8", …).
    public var pixelFormat: String {
        switch self {
        case .h264, .hevc, .vp9: "yuv420p"
        case .prores: "yuv422p10le"
        case .gif: "pal8"
        }
    }
}

/// How a movie is encoded: codec, speed preset and quality.
public struct MovieSettings: Sendable, Hashable {
    /// The x264/x265 speed presets, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    /// The video codec; nil takes the container's default.
    public var codec: MovieCodec?
    /// An x264 preset name; nil is `medium`.
    public var preset: String?
    /// Constant-rate-factor quality; nil takes the codec's default.
    public var crf: Int?
    /// Audio bit rate in kbit/s.
    public var audioBitrate: Int
    /// H.264 parameters to copy from a source stream (smart rendering); nil encodes with the
    /// codec's defaults.
    public var matching: MatchedVideo?

    /// Settings; every field optional.
    public init(codec: MovieCodec? = nil, preset: String? = nil, crf: Int? = nil, audioBitrate: Int = 192, matching: MatchedVideo? = nil) {
        self.codec = codec
        self.preset = preset
        self.crf = crf
        self.audioBitrate = audioBitrate
        self.matching = matching
    }

    /// The codec for `format`.
    public func codec(for format: MovieFormat) -> MovieCodec { codec ?? format.defaultCodec }

    /// Checks the settings against the container.
    /// - Throws: `.encodingFailed` naming what does not fit and what would.
    public func validate(for format: MovieFormat, path: String) throws(MediaError) {
        let codec = codec(for: format)
        func fail(_ message: String) -> MediaError { .encodingFailed(path: path, format: format.description, message: message) }
        guard format.codecs.contains(codec) else {
            throw fail("the codec \(codec.rawValue) cannot be written to .\(format.rawValue); use \(format.codecs.map(\.rawValue).joined(separator: " or "))")
        }
        if let preset {
            guard codec.takesPreset else { throw fail("a preset does not apply to \(codec.rawValue)") }
            guard Self.presets.contains(preset) else {
                throw fail("unknown preset '\(preset)'; use one of \(Self.presets.joined(separator: ", "))")
            }
        }
        if let crf {
            guard let range = codec.crfRange else { throw fail("crf (quality) does not apply to \(codec.rawValue)") }
            guard range.contains(crf) else { throw fail("crf (quality) for \(codec.rawValue) must be from \(range.lowerBound) to \(range.upperBound), got \(crf)") }
        }
        guard (8...1024).contains(audioBitrate) else { throw fail("the audio bit rate must be from 8 to 1024 kbit/s, got \(audioBitrate)") }
    }

    /// ffmpeg's output options for the video stream of `format` at `width`×`height`; `yuvInput`:
    /// the frames come as BT.709 limited-range 4:2:0 (said so first, so no conversion follows).
    func videoArguments(for format: MovieFormat, width: Int, height: Int, yuvInput: Bool = false) -> [String] {
        let codec = codec(for: format)
        let preset = preset ?? "medium"
        var filters: [String] = yuvInput ? ["setparams=colorspace=bt709:color_primaries=bt709:color_trc=bt709:range=tv"] : []
        if codec != .gif, width % 2 != 0 || height % 2 != 0 {
            filters.append("pad=ceil(iw/2)*2:ceil(ih/2)*2")  // 4:2:x needs even sizes: one black column/row
        }
        var arguments: [String]
        switch codec {
        case .h264:
            arguments = ["-c:v", "libx264", "-preset", preset, "-crf", String(crf ?? 23)]
            if let matching {
                // Stretches that join a copied stream: its profile, level, pixel format, B-frame
                // delay and colour description.
                arguments += matching.x264Arguments
                if !yuvInput || matching.pixelFormat != "yuv420p" || matching.colorMatrix != "bt709" || matching.colorRange == "pc" {
                    filters.append("scale=out_color_matrix=\(matching.colorMatrix):out_range=\(matching.colorRange == "pc" ? "pc" : "tv")")
                    filters.append("format=\(matching.pixelFormat)")
                }
                return arguments + ["-vf", filters.joined(separator: ",")] + matching.tagArguments
            }
        case .hevc:
            arguments = ["-c:v", "libx265", "-preset", preset, "-crf", String(crf ?? 28), "-x265-params", "log-level=error"]
            if format == .mp4 || format == .mov { arguments += ["-tag:v", "hvc1"] }
        case .vp9:
            // x264's preset names onto libvpx's speed (`-deadline good`: 5 fastest … 0 best).
            let speed = [5, 5, 5, 4, 3, 2, 1, 1, 0, 0][Self.presets.firstIndex(of: preset) ?? 5]
            arguments = ["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", String(crf ?? 32), "-row-mt", "1", "-deadline", "good", "-cpu-used", String(speed)]
        case .prores:
            arguments = ["-c:v", "prores_ks", "-profile:v", "3"]
        case .gif:
            return ["-filter_complex", "[0:v]split[a][b];[a]palettegen[p];[b][p]paletteuse", "-loop", "0"]
        }
        // RGB to Y'CbCr with the HD matrix, limited range, and tags saying so.
        filters.append("scale=out_color_matrix=bt709:out_range=tv")
        filters.append("format=\(codec.pixelFormat)")
        return arguments + ["-vf", filters.joined(separator: ","), "-colorspace", "bt709", "-color_primaries", "bt709",
                            "-color_trc", "bt709", "-color_range", "tv"]
    }

    /// ffmpeg's output options for the audio stream of `format`.
    func audioArguments(for format: MovieFormat) -> [String] {
        switch format {
        case .webm: ["-c:a", "libopus", "-b:a", "\(min(audioBitrate, 510))k", "-ar", "48000"]
        case .gif: ["-an"]
        case .mp4, .mov, .mkv: ["-c:a", "aac", "-b:a", "\(audioBitrate)k"]
        }
    }
}

/// H.264 encoder parameters copied from a source stream, so that re-encoded stretches join the
/// stretches copied from it (smart rendering).
public struct MatchedVideo: Sendable, Hashable {
    /// ffprobe's profile name ("High", "Main", "Constrained Baseline", …).
    public var profile: String
    /// ffprobe's level (40 for 4.0).
    public var level: Int
    /// The pixel format ("yuv420p").
    public var pixelFormat: String
    /// The colour description as ffprobe names it (empty or "unknown" when untagged).
    public var colorSpace: String, colorRange: String, colorPrimaries: String, colorTransfer: String
    /// Frames of B-frame reordering delay (ffprobe's `has_b_frames`).
    public var reorderDelay: Int

    /// The parameters of `stream`.
    public init(_ stream: VideoStreamInfo) {
        profile = stream.profile
        level = stream.level
        pixelFormat = stream.pixelFormat
        colorSpace = stream.colorSpace
        colorRange = stream.colorRange
        colorPrimaries = stream.colorPrimaries
        colorTransfer = stream.colorTransfer
        reorderDelay = stream.reorderDelay
    }

    /// The x264 name of the profile, nil for one x264 cannot write.
    public var x264Profile: String? {
        switch profile.lowercased() {
        case "constrained baseline", "baseline": "baseline"
        case "main": "main"
        case "high": "high"
        case "high 10": "high10"
        case "high 4:2:2": "high422"
        case "high 4:4:4 predictive": "high444"
        default: nil
        }
    }

    /// The matrix that turns RGB back into the source's Y'CbCr: BT.709 when it says so, else
    /// BT.601 (what ffmpeg assumes when decoding an untagged stream).
    var colorMatrix: String { colorSpace == "bt709" ? "bt709" : "bt601" }

    var x264Arguments: [String] {
        var arguments: [String] = []
        if let x264Profile { arguments += ["-profile:v", x264Profile] }
        if level > 0 { arguments += ["-level:v", level % 10 == 0 ? String(level / 10) : "\(level / 10).\(level % 10)"] }
        // The decoder's reordering delay: none, one B-frame, or x264's default pyramid (two).
        switch reorderDelay {
        case 0: arguments += ["-bf", "0"]
        case 1: arguments += ["-bf", "1", "-x264-params", "b-pyramid=none"]
        default: break
        }
        return arguments
    }

    var tagArguments: [String] {
        var arguments: [String] = []
        for (option, value) in [("-colorspace", colorSpace), ("-color_primaries", colorPrimaries), ("-color_trc", colorTransfer), ("-color_range", colorRange)]
        where !value.isEmpty && value != "unknown" && value != "reserved" {
            arguments += [option, value]
        }
        return arguments
    }
}
