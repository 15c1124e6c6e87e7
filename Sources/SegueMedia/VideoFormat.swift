/// A video (or animated image) format Segue encodes through ffmpeg.
public enum VideoFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// H.264 in MP4 (libx264, yuv420p, fast start). No alpha; odd sizes are padded to even.
    case mp4
    /// VP9 in WebM (libvpx-vp9, yuva420p): keeps alpha.
    case webm
    /// Animated GIF with a palette generated from all frames; 1-bit transparency; loops forever.
    case gif
    /// Animated PNG: lossless, full alpha; loops forever.
    case apng

    /// The format named by `path`'s extension: `.mp4`/`.m4v`, `.webm`, `.gif`, `.apng` (any case).
    /// A `.png` path is a still image, not APNG: pass `.apng` explicitly for APNG named `.png`.
    public init?(pathExtensionOf path: String) {
        switch FileIO.pathExtension(of: path) {
        case "mp4", "m4v": self = .mp4
        case "webm": self = .webm
        case "gif": self = .gif
        case "apng": self = .apng
        default: return nil
        }
    }

    /// The extensions recognised, without dots.
    public static let extensions = ["mp4", "m4v", "webm", "gif", "apng"]

    /// Whether the format keeps an alpha channel.
    public var supportsAlpha: Bool { self != .mp4 }

    /// The usual file extension, without a dot.
    public var fileExtension: String { rawValue }

    /// The format's name ("MP4", "WebM", "GIF", "APNG").
    public var description: String {
        switch self {
        case .mp4: "MP4"
        case .webm: "WebM"
        case .gif: "GIF"
        case .apng: "APNG"
        }
    }
}
