import SegueMath

// How a video is encoded (codec, speed preset, quality, sound bit rate), checked against its
// container before anything starts, and the ffmpeg options that say so.

/// How a video is encoded: codec, speed preset and quality.
public struct VideoSettings: Sendable, Hashable {
    /// The x264/x265 speed presets, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]
    /// The preset used when none is given.
    public static let defaultPreset = "medium"

    /// The video codec; nil takes the container's default.
    public var codec: VideoCodec?
    /// An x264 preset name; nil is `medium`.
    public var preset: String?
    /// Constant-rate-factor quality; nil takes the codec's default.
    public var crf: Int?
    /// Audio bit rate in kbit/s.
    public var audioBitrate: Int
    /// H.264 parameters to copy from a source stream (smart rendering); nil encodes with the
    /// codec's defaults.
    public var matching: MatchedVideo?
    /// Encode the same bytes on any machine (for the same Segue and ffmpeg): a fixed number of
    /// encoder threads (x264, x265 and libvpx decide differently with the cores they see), x264's
    /// threads working on slices of one frame rather than on several frames (frame threads made a
    /// different piece in 1 run of 40 on a loaded machine; slice threads, none in 60), and no
    /// metadata or version tags from the muxer. Every piece of a concat plan is made so.
    public var deterministic: Bool

    /// The encoders' thread count when `deterministic`.
    public static let deterministicThreads = 4

    /// Settings; every field optional.
    public init(
        codec: VideoCodec? = nil, preset: String? = nil, crf: Int? = nil, audioBitrate: Int = 192, matching: MatchedVideo? = nil,
        deterministic: Bool = false
    ) {
        self.codec = codec
        self.preset = preset
        self.crf = crf
        self.audioBitrate = audioBitrate
        self.matching = matching
        self.deterministic = deterministic
    }

    /// ffmpeg's output options that make the file the same bytes wherever it is made (none unless
    /// `deterministic`).
    func reproducibleArguments() -> [String] {
        deterministic
            ? ["-threads", String(Self.deterministicThreads), "-thread_type", "slice", "-fflags", "+bitexact", "-map_metadata", "-1"] : []
    }

    /// The codec for `format`.
    public func codec(for format: VideoFormat) -> VideoCodec { codec ?? format.defaultCodec }

    /// `validate(for:)` for the output at `path`, as the media error that names it.
    /// - Throws: `MediaError.invalidSettings`.
    package func validate(for format: VideoFormat, output path: String) throws(MediaError) {
        do { try validate(for: format) } catch { throw .invalidSettings(path: path, error) }
    }

    /// Checks the settings against the container.
    /// - Throws: `VideoSettingsError` naming the setting that does not fit and what would.
    public func validate(for format: VideoFormat) throws(VideoSettingsError) {
        let codec = codec(for: format)
        guard format.codecs.contains(codec) else {
            throw VideoSettingsError(
                .codec,
                "\(codec.rawValue) cannot be written to .\(format.rawValue); use \(format.codecs.map(\.rawValue).joined(separator: " or "))"
            )
        }
        if let preset {
            guard codec.takesPreset else { throw VideoSettingsError(.preset, "does not apply to \(codec.rawValue)") }
            guard Self.presets.contains(preset) else {
                throw VideoSettingsError(.preset, "'\(preset)' is unknown; use one of \(Self.presets.joined(separator: ", "))")
            }
        }
        if let crf {
            guard let range = codec.crfRange else { throw VideoSettingsError(.crf, "does not apply to \(codec.rawValue)") }
            guard range.contains(crf) else {
                throw VideoSettingsError(.crf, "for \(codec.rawValue) must be from \(range.lowerBound) to \(range.upperBound), got \(crf)")
            }
        }
        guard (8...1024).contains(audioBitrate) else {
            throw VideoSettingsError(.audioBitrate, "must be from 8 to 1024 kbit/s, got \(audioBitrate)")
        }
    }

    /// ffmpeg's output options for the video stream of `format` at `width`×`height`.
    /// - Parameters:
    ///   - yuvInput: the frames come as BT.709 limited-range 4:2:0 (said so first, so no
    ///     conversion follows).
    ///   - alpha: keep the frames' alpha channel (for a codec that has one).
    func videoArguments(for format: VideoFormat, width: Int, height: Int, yuvInput: Bool = false, alpha: Bool = false) -> [String] {
        let codec = codec(for: format)
        let preset = preset ?? Self.defaultPreset
        let crf = String(crf ?? codec.defaultCRF ?? 0)  // every codec that reads it has a default
        let pixelFormat = alpha ? codec.alphaPixelFormat ?? codec.pixelFormat : codec.pixelFormat
        var filters: [String] = yuvInput ? ["setparams=colorspace=bt709:color_primaries=bt709:color_trc=bt709:range=tv"] : []
        if codec != .gif, codec != .apng, width % 2 != 0 || height % 2 != 0 {
            filters.append("pad=ceil(iw/2)*2:ceil(ih/2)*2")  // 4:2:x needs even sizes: one black column/row
        }
        var arguments: [String]
        switch codec {
        case .h264:
            arguments = ["-c:v", "libx264", "-preset", preset, "-crf", crf]
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
            // x265 sizes its frame threads and thread pool from the cores unless told.
            let threads = deterministic ? ":pools=\(Self.deterministicThreads):frame-threads=2" : ""
            arguments = ["-c:v", "libx265", "-preset", preset, "-crf", crf, "-x265-params", "log-level=error" + threads]
            if format == .mp4 || format == .mov { arguments += ["-tag:v", "hvc1"] }
        case .vp9:
            // x264's preset names onto libvpx's speed (`-deadline good`: 5 fastest … 0 best).
            let speed = [5, 5, 5, 4, 3, 2, 1, 1, 0, 0][Self.presets.firstIndex(of: preset) ?? 5]
            arguments = [
                "-c:v", "libvpx-vp9", "-b:v", "0", "-crf", crf, "-row-mt", "1", "-deadline", "good", "-cpu-used",
                String(speed),
            ]
        case .prores:
            arguments = ["-c:v", "prores_ks", "-profile:v", alpha ? "4444" : "hq"]
        case .gif:
            return ["-filter_complex", "[0:v]split[a][b];[a]palettegen[p];[b][p]paletteuse", "-loop", "0"]
        case .apng:
            return ["-c:v", "apng", "-pix_fmt", pixelFormat, "-plays", "0"]
        }
        // RGB to Y'CbCr with the HD matrix, limited range, and tags saying so.
        filters.append("scale=out_color_matrix=bt709:out_range=tv")
        filters.append("format=\(pixelFormat)")
        return arguments + [
            "-vf", filters.joined(separator: ","), "-colorspace", "bt709", "-color_primaries", "bt709",
            "-color_trc", "bt709", "-color_range", "tv",
        ]
    }

    /// ffmpeg's output options for the audio stream of `format`.
    func audioArguments(for format: VideoFormat) -> [String] {
        switch format {
        case .webm: ["-c:a", "libopus", "-b:a", "\(min(audioBitrate, 510))k", "-ar", "48000"]
        case .gif, .apng: ["-an"]
        case .mp4, .mov, .mkv: ["-c:a", "aac", "-b:a", "\(audioBitrate)k"]
        }
    }
}

/// Video settings that do not fit an output: which setting, and the rule it broke.
public struct VideoSettingsError: SegueError, Sendable, Equatable {
    /// A field of `VideoSettings`.
    public enum Setting: Sendable, Equatable {
        /// `codec`: one the container cannot hold.
        case codec
        /// `preset`: unknown, or for a codec that takes none.
        case preset
        /// `crf`: out of the codec's range, or for a codec that takes none.
        case crf
        /// `audioBitrate`: outside 8…1024 kbit/s.
        case audioBitrate

        /// How the library's messages name it.
        public var name: String {
            switch self {
            case .codec: "the codec"
            case .preset: "the preset"
            case .crf: "crf (quality)"
            case .audioBitrate: "the audio bit rate"
            }
        }
    }

    /// The setting that does not fit.
    public let setting: Setting
    /// The rule, worded to follow the setting's name: "for h264 must be from 0 to 51, got 99".
    public let rule: String

    /// The error of `setting` breaking `rule`.
    public init(_ setting: Setting, _ rule: String) {
        self.setting = setting
        self.rule = rule
    }

    /// The setting's name, then the rule: "crf (quality) for h264 must be from 0 to 51, got 99".
    public var description: String { "\(setting.name) \(rule)" }
}
