import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// The description of a concatenation (`segue concat --spec FILE.json`, and the same built from
// command-line options): clips with trim points, cuts with their transitions, output settings.
// Pure data, decoded and checked here; effects and media are resolved by the layers above.
//
// JSON (every field but `clips` optional):
// {
//   "clips": [ {"path": "a.mp4", "in": 2, "out": 7.5}, {"path": "photo.jpg", "duration": 4} ],
//   "cuts":  [ {"effect": "doom-melt", "duration": 1.5, "params": {"meltSpeed": 1.2},
//               "timing": "ease-in-out", "keyframes": ["spread=0@0,0.5@1"]},
//              {"effect": "none"} ],
//   "transition": "fade:1",        // the default cut
//   "imageDuration": 3,            // seconds a still lasts
//   "size": "1920x1080", "fps": 30 (or "30000/1001"), "resize": "cover",
//   "audioCurve": "equal-power", "audio": "music.mp3"
// }
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A transition between two clips as written by a user: `EFFECT[:SECONDS]`, `none` for a hard cut.
public struct CutSpec: Sendable, Hashable, Codable {
    /// The effect name or file; `none` is a hard cut.
    public var effect: String
    /// Seconds; nil takes the effect's own duration, or with a `spring(…)` timing the spring's
    /// settling duration.
    public var duration: Double?
    /// Parameter values as text (`--param` syntax), by name.
    public var params: [String: String]
    /// A timing curve (`ease-in-out`, `cubic-bezier(…)`) or `spring(…)`; nil takes the effect's.
    public var timing: String?
    /// Keyframed parameters in `--param-keyframes` syntax.
    public var keyframes: [String]

    /// A cut.
    public init(
        effect: String, duration: Double? = nil, params: [String: String] = [:], timing: String? = nil,
        keyframes: [String] = []
    ) {
        self.effect = effect
        self.duration = duration
        self.params = params
        self.timing = timing
        self.keyframes = keyframes
    }

    /// The durations a transition may have, in seconds (0, a hard cut, to an hour).
    public static let durationRange: ClosedRange<Double> = 0...Effect.maximumDuration

    /// Why `seconds` cannot be a transition's duration (nil when it can): every reader of a cut
    /// (`--cut`, a spec's cuts and default transition) words it so.
    public static func durationProblem(_ seconds: Double) -> String? {
        durationRange.contains(seconds)
            ? nil
            : "the duration must be from 0 to \(MessageText.seconds(durationRange.upperBound)), got \(MessageText.number(seconds, outside: durationRange.lowerBound, durationRange.upperBound))"
    }

    /// Whether this is a hard cut (no transition).
    public var isHardCut: Bool { effect == "none" || duration == 0 }

    /// Parses `EFFECT[:SECONDS]` (`fade:1`, `doom-melt`, `my.glsl:0.5`, `none`). A trailing
    /// `:NUMBER` is the duration; anything else after a colon stays part of the name
    /// (`file.metal:wave`).
    /// - Throws: `CompositionError` for an empty name or a duration outside `durationRange`.
    public init(parsing text: String) throws(CompositionError) {
        var name = text.trimmingWhitespace()
        var seconds: Double?
        if let colon = name.lastIndex(of: ":") {
            let tail = name[name.index(after: colon)...]
            if let value = Double(tail) {
                if let problem = Self.durationProblem(value) { throw CompositionError("'\(text)': \(problem)") }
                seconds = value
                name = String(name[..<colon])
            }
        }
        guard !name.isEmpty else { throw CompositionError("a transition is written EFFECT[:SECONDS] (e.g. fade:1), got '\(text)'") }
        self.init(effect: name, duration: seconds)
    }

    /// Parses `N=EFFECT[:SECONDS]` (`--cut 2=cube:1.5`): cut N lies between clips N and N+1
    /// (counted from 1).
    /// - Throws: `CompositionError` when N is not a whole number ≥ 1 or the cut does not parse.
    public static func numbered(parsing text: String) throws(CompositionError) -> (cut: Int, spec: CutSpec) {
        guard let equals = text.firstIndex(of: "="), let n = Int(text[..<equals].trimmingWhitespace()), n >= 1 else {
            throw CompositionError(
                "a cut is written N=EFFECT[:SECONDS] with N from 1 (cut N joins clips N and N+1), e.g. 2=cube:1.5, got '\(text)'")
        }
        return (n, try CutSpec(parsing: String(text[text.index(after: equals)...])))
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case effect, duration, params, timing, keyframes }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        effect = try c.decode(String.self, forKey: .effect)
        duration = try c.decodeIfPresent(Double.self, forKey: .duration)
        params = try c.decodeIfPresent([String: ParameterText].self, forKey: .params)?.mapValues(\.text) ?? [:]
        timing = try c.decodeIfPresent(String.self, forKey: .timing)
        keyframes = try c.decodeIfPresent([String].self, forKey: .keyframes) ?? []
    }
}

/// One input of a concatenation.
public struct ClipSpec: Sendable, Hashable, Codable {
    /// A video file, or a PNG/JPEG still.
    public var path: String
    /// Trim: seconds into the source where the clip starts (videos).
    public var `in`: Double?
    /// Trim: seconds into the source where the clip ends (videos).
    public var out: Double?
    /// How long a still lasts (default: the composition's image duration).
    public var duration: Double?

    /// A clip.
    public init(path: String, in start: Double? = nil, out end: Double? = nil, duration: Double? = nil) {
        self.path = path
        self.in = start
        self.out = end
        self.duration = duration
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case path, `in`, out, duration }
}

/// A whole concatenation: clips, cuts and output settings.
public struct ConcatSpec: Sendable, Hashable, Codable {
    /// The inputs in order.
    public var clips: [ClipSpec]
    /// The cuts, one fewer than the clips; missing ones take `transition`.
    public var cuts: [CutSpec?]
    /// The default cut (`fade:1`).
    public var transition: CutSpec
    /// Seconds a still lasts unless its clip says otherwise (3).
    public var imageDuration: Double
    /// Output size `WxH` (default: the first video's, else the first image's).
    public var size: String?
    /// Frames per second (default: the first video's, else 30); in JSON a number or a ratio as
    /// text (`"30000/1001"`).
    public var fps: Double?
    /// `cover`, `contain` or `stretch` (default `cover`).
    public var resize: String?
    /// `equal-power` (default) or `linear`.
    public var audioCurve: CrossfadeCurve
    /// A soundtrack under the whole edit.
    public var audio: String?

    /// The most clips one concatenation may have.
    public static let maximumClipCount = 10_000
    /// The largest spec file read, in bytes.
    public static let maximumFileSize = 4 << 20

    /// A concatenation with defaults.
    public init(
        clips: [ClipSpec], cuts: [CutSpec?] = [], transition: CutSpec = CutSpec(effect: "fade", duration: 1),
        imageDuration: Double = 3, size: String? = nil, fps: Double? = nil, resize: String? = nil,
        audioCurve: CrossfadeCurve = .equalPower, audio: String? = nil
    ) {
        self.clips = clips
        self.cuts = cuts
        self.transition = transition
        self.imageDuration = imageDuration
        self.size = size
        self.fps = fps
        self.resize = resize
        self.audioCurve = audioCurve
        self.audio = audio
    }

    /// The cut after clip `k`: its own, else the default transition.
    public func cut(after k: Int) -> CutSpec {
        (k < cuts.count ? cuts[k] : nil) ?? transition
    }

    /// Sets cut `n` (1-based: between clips n and n+1), filling the cuts before it with the default.
    /// - Throws: `CompositionError` when there is no such cut.
    public mutating func setCut(_ n: Int, to cut: CutSpec) throws(CompositionError) {
        guard n >= 1, n < clips.count else {
            throw CompositionError(
                clips.count < 2
                    ? "there is no cut \(n): one clip has no cuts"
                    : "there is no cut \(n): \(clips.count) clips have cuts 1 to \(clips.count - 1)")
        }
        while cuts.count < n { cuts.append(nil) }
        cuts[n - 1] = cut
    }

    /// Checks counts and numbers.
    /// - Throws: `CompositionError` naming the clip or cut.
    public func validate() throws(CompositionError) {
        guard !clips.isEmpty else { throw CompositionError("give at least one clip") }
        guard clips.count <= Self.maximumClipCount else {
            throw CompositionError("\(clips.count) clips is more than the limit of \(Self.maximumClipCount)")
        }
        guard cuts.count <= clips.count - 1 else {
            throw CompositionError("\(clips.count) clips have \(clips.count - 1) cuts, but \(cuts.count) are given")
        }
        guard imageDuration.isFinite, imageDuration > 0 else {
            throw CompositionError("the image duration must be a positive number of seconds, got \(MessageText.number(imageDuration))")
        }
        if let fps, let problem = FrameRate.problem(fps) { throw CompositionError("fps \(problem)") }
        // Checked here, before any clip is probed, as every other field of the spec is.
        if let size {
            do { _ = try Image.parseSize(size) } catch { throw CompositionError("the \(error)") }
        }
        if let resize, ResizeMode(rawValue: resize) == nil {
            let modes = ResizeMode.allCases.map(\.rawValue)
            throw CompositionError(
                "resize must be \(modes.dropLast().joined(separator: ", ")) or \(modes.last ?? ""), got '\(resize)'")
        }
        for (k, clip) in clips.enumerated() {
            let name = "clip \(k + 1) (\(clip.path))"
            for (label, value) in [("in", clip.in), ("out", clip.out)] {
                if let value, !(value.isFinite && value >= 0) {
                    throw CompositionError("\(name): '\(label)' must be a number of seconds ≥ 0, got \(MessageText.number(value))")
                }
            }
            if let a = clip.in, let b = clip.out, b <= a {
                throw CompositionError("\(name): 'out' (\(MessageText.seconds(b))) must be after 'in' (\(MessageText.seconds(a)))")
            }
            if let d = clip.duration, !(d.isFinite && d > 0) {
                throw CompositionError("\(name): 'duration' must be a positive number of seconds, got \(MessageText.number(d))")
            }
        }
        // The default transition is checked even where every cut is given (it is the spec's word).
        if let d = transition.duration, let problem = CutSpec.durationProblem(d) { throw CompositionError("the transition: \(problem)") }
        for (k, cut) in cuts.enumerated() {
            if let d = cut?.duration, let problem = CutSpec.durationProblem(d) { throw CompositionError("cut \(k + 1): \(problem)") }
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case clips, cuts, transition, imageDuration, size, fps, resize, audioCurve, audio }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        clips = try c.decode([ClipSpec].self, forKey: .clips)
        cuts = try c.decodeIfPresent([CutOrText?].self, forKey: .cuts)?.map { $0?.cut } ?? []
        transition = try c.decodeIfPresent(CutOrText.self, forKey: .transition)?.cut ?? CutSpec(effect: "fade", duration: 1)
        imageDuration = try c.decodeIfPresent(Double.self, forKey: .imageDuration) ?? 3
        size = try c.decodeIfPresent(String.self, forKey: .size)
        fps = try c.decodeIfPresent(RateNumberOrText.self, forKey: .fps)?.fps
        resize = try c.decodeIfPresent(String.self, forKey: .resize)
        audioCurve = try c.decodeIfPresent(CurveText.self, forKey: .audioCurve)?.curve ?? .equalPower
        audio = try c.decodeIfPresent(String.self, forKey: .audio)
    }
}

extension CrossfadeCurve: Codable {}
