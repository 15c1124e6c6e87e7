// Smart rendering's re-encoded stretches must join the stretches copied from a source: the same
// H.264 profile, level, pixel format, B-frame delay and colour description.

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
        for (option, value) in [
            ("-colorspace", colorSpace), ("-color_primaries", colorPrimaries), ("-color_trc", colorTransfer), ("-color_range", colorRange),
        ]
        where !value.isEmpty && value != "unknown" && value != "reserved" {
            arguments += [option, value]
        }
        return arguments
    }
}
