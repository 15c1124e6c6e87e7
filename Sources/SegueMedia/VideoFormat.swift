// The containers and codecs Segue writes through ffmpeg, one list for every command that writes
// video: which codecs a container takes, which keep an alpha channel, and their ffmpeg names.
import SegueSystem

/// A video container Segue writes (with sound where the container carries it).
public enum VideoFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// MP4 (H.264 + AAC by default; fast start). Odd sizes are padded to even.
    case mp4
    /// QuickTime (H.264 + AAC by default; ProRes 4444 keeps alpha).
    case mov
    /// Matroska (H.264 + AAC by default).
    case mkv
    /// WebM (VP9 + Opus): keeps alpha.
    case webm
    /// Animated GIF with a palette generated from all frames; 1-bit transparency; loops forever; no sound.
    case gif
    /// Animated PNG: lossless, full alpha; loops forever; no sound.
    case apng

    /// The format named by `path`'s extension: `.mp4`/`.m4v`, `.mov`, `.mkv`, `.webm`, `.gif`,
    /// `.apng` (any case). A `.png` path is a still image, not APNG.
    public init?(pathExtensionOf path: String) {
        switch FileIO.pathExtension(of: path) {
        case "mp4", "m4v": self = .mp4
        case "mov": self = .mov
        case "mkv": self = .mkv
        case "webm": self = .webm
        case "gif": self = .gif
        case "apng": self = .apng
        default: return nil
        }
    }

    /// The extensions recognised, without dots.
    public static let extensions = ["mp4", "m4v", "mov", "mkv", "webm", "gif", "apng"]

    /// The usual file extension, without a dot.
    public var fileExtension: String { rawValue }

    /// Whether the format carries sound.
    public var hasAudio: Bool { self != .gif && self != .apng }

    /// ffmpeg's muxer name.
    var muxer: String { self == .mkv ? "matroska" : rawValue }

    /// The video codec used when none is asked for.
    public var defaultCodec: VideoCodec {
        switch self {
        case .mp4, .mov, .mkv: .h264
        case .webm: .vp9
        case .gif: .gif
        case .apng: .apng
        }
    }

    /// The codecs this container takes.
    public var codecs: [VideoCodec] {
        switch self {
        case .mp4: [.h264, .hevc, .vp9]
        case .mov: [.h264, .hevc, .prores]
        case .mkv: [.h264, .hevc, .vp9, .prores]
        case .webm: [.vp9]
        case .gif: [.gif]
        case .apng: [.apng]
        }
    }

    /// The format's name ("MP4", "QuickTime", …).
    public var description: String {
        switch self {
        case .mp4: "MP4"
        case .mov: "QuickTime"
        case .mkv: "Matroska"
        case .webm: "WebM"
        case .gif: "GIF"
        case .apng: "APNG"
        }
    }
}

/// A video codec Segue encodes with.
public enum VideoCodec: String, Sendable, CaseIterable {
    /// H.264 through libx264 (yuv420p).
    case h264
    /// H.265 through libx265 (yuv420p).
    case hevc
    /// VP9 through libvpx-vp9 (yuv420p, or yuva420p with alpha; constant quality).
    case vp9
    /// Apple ProRes through prores_ks: 422 HQ (yuv422p10le), or 4444 with alpha (yuva444p10le); no crf.
    case prores
    /// GIF with a generated palette.
    case gif
    /// Animated PNG (lossless).
    case apng

    /// Parses a codec name; `h265` and `x264`/`x265`/`libx264`… are accepted too.
    public init?(name: String) {
        switch name.lowercased() {
        case "h264", "avc", "x264", "libx264": self = .h264
        case "hevc", "h265", "x265", "libx265": self = .hevc
        case "vp9", "libvpx-vp9": self = .vp9
        case "prores", "prores_ks": self = .prores
        case "gif": self = .gif
        case "apng": self = .apng
        default: return nil
        }
    }

    /// The quality scale `crf` takes, nil when the codec has none.
    public var crfRange: ClosedRange<Int>? {
        switch self {
        case .h264, .hevc: 0...51
        case .vp9: 0...63
        case .prores, .gif, .apng: nil
        }
    }

    /// The quality used when none is given.
    public var defaultCRF: Int? {
        switch self {
        case .h264: 23
        case .hevc: 28
        case .vp9: 32
        case .prores, .gif, .apng: nil
        }
    }

    /// Whether a speed preset applies (x264/x265 names; VP9 maps them onto its speed).
    public var takesPreset: Bool { self == .h264 || self == .hevc || self == .vp9 }

    /// The pixel format the codec encodes opaque frames in ("yuv420p", "pal8", …).
    public var pixelFormat: String {
        switch self {
        case .h264, .hevc, .vp9: "yuv420p"
        case .prores: "yuv422p10le"
        case .gif: "pal8"
        case .apng: "rgb24"
        }
    }

    /// The pixel format the codec encodes frames with alpha in; nil when it has no alpha.
    public var alphaPixelFormat: String? {
        switch self {
        case .h264, .hevc: nil
        case .vp9: "yuva420p"
        case .prores: "yuva444p10le"
        case .gif: "pal8"
        case .apng: "rgba"
        }
    }

    /// Whether the codec keeps an alpha channel (GIF: one bit of it).
    public var keepsAlpha: Bool { alphaPixelFormat != nil }
}
