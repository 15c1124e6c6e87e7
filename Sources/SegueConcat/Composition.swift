import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// A composition: clips laid end to end on one timeline, each cut between two of them either hard
// or a transition during which both clips play. The arithmetic that `segue concat` and its
// library API share: where each clip starts, what the output shows at a time (one clip, or two
// clips and a progress), how long the whole is, and the audio gains of a crossfade.
//
// Timeline (issue 9): clip k+1 starts T_k seconds before clip k ends, T_k being the duration of
// cut k's transition, so the output lasts Σ durations − Σ T. During cut k, `from` is clip k's
// last T_k seconds and `to` is clip k+1's first T_k seconds, both moving.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A span of seconds on a clip's own (trimmed) time line or on the output's.
public struct TimeSpan: Sendable, Hashable, CustomStringConvertible {
    /// Start, in seconds.
    public let start: Double
    /// End, in seconds (not included).
    public let end: Double

    /// A span; `end` must not be before `start`.
    public init(start: Double, end: Double) {
        precondition(end >= start, "a span cannot end before it starts")
        self.start = start
        self.end = end
    }

    /// `end − start`.
    public var duration: Double { end - start }

    /// Whether `time` lies in [start, end).
    public func contains(_ time: Double) -> Bool { time >= start && time < end }

    public var description: String { "\(start)…\(end) s" }
}

/// Why a composition cannot be built.
public struct CompositionError: SegueError, Sendable, Hashable {
    /// What is wrong, naming the clip or cut and the numbers.
    public let message: String

    /// An error with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The timeline of clips of known durations joined by cuts of known transition durations.
public struct CompositionTimeline: Sendable, Hashable {
    /// Each clip's duration in seconds (after trimming).
    public let clipDurations: [Double]
    /// Each cut's transition duration in seconds (0 for a hard cut); one fewer than the clips.
    public let cutDurations: [Double]
    /// When each clip starts on the output's time line.
    public let clipStarts: [Double]
    /// Length of the output in seconds: Σ clip durations − Σ cut durations.
    public let duration: Double

    /// What the output shows at one time.
    public enum Moment: Sendable, Hashable {
        /// Clip `clip` alone, at `time` seconds into it.
        case clip(Int, time: Double)
        /// Cut `cut` (between clips `cut` and `cut + 1`) at `progress` (0…1): the outgoing clip
        /// at `fromTime` seconds into it, the incoming one at `toTime`.
        case transition(Int, progress: Double, fromTime: Double, toTime: Double)
    }

    /// A timeline.
    /// - Parameter names: how errors name clip k (a file name, say); default "clip k+1".
    /// - Throws: `CompositionError` for no clips, a clip that is not a positive finite length,
    ///   a cut count that does not match, a negative or non-finite cut, a transition longer
    ///   than the clip before or after it, or two transitions that overlap inside one clip.
    public init(clipDurations: [Double], cutDurations: [Double], names: [String]? = nil) throws(CompositionError) {
        func name(_ k: Int) -> String { names.flatMap { k < $0.count ? $0[k] : nil } ?? "clip \(k + 1)" }
        guard !clipDurations.isEmpty else { throw CompositionError("a composition needs at least one clip") }
        guard cutDurations.count == clipDurations.count - 1 else {
            throw CompositionError("\(clipDurations.count) clips need \(clipDurations.count - 1) cuts, got \(cutDurations.count)")
        }
        for (k, d) in clipDurations.enumerated() where !(d.isFinite && d > 0) {
            throw CompositionError("\(name(k)) has no length (\(Self.seconds(d))); a clip must last longer than 0 s")
        }
        for (k, t) in cutDurations.enumerated() {
            guard t.isFinite, t >= 0 else {
                throw CompositionError("the transition between \(name(k)) and \(name(k + 1)) must last 0 s or more, got \(Self.seconds(t))")
            }
            if t > clipDurations[k] {
                throw CompositionError(
                    "the \(Self.seconds(t)) transition between \(name(k)) and \(name(k + 1)) is longer than \(name(k)) (\(Self.seconds(clipDurations[k])))"
                )
            }
            if t > clipDurations[k + 1] {
                throw CompositionError(
                    "the \(Self.seconds(t)) transition between \(name(k)) and \(name(k + 1)) is longer than \(name(k + 1)) (\(Self.seconds(clipDurations[k + 1])))"
                )
            }
        }
        for k in 1..<max(clipDurations.count - 1, 1) where clipDurations.count > 2 {
            let both = cutDurations[k - 1] + cutDurations[k]
            if both > clipDurations[k] + 1e-9 {
                throw CompositionError(
                    "\(name(k)) (\(Self.seconds(clipDurations[k]))) is shorter than its two transitions together (\(Self.seconds(cutDurations[k - 1])) in, \(Self.seconds(cutDurations[k])) out)"
                )
            }
        }
        var starts = [0.0]
        for k in 1..<clipDurations.count { starts.append(starts[k - 1] + clipDurations[k - 1] - cutDurations[k - 1]) }
        self.clipDurations = clipDurations
        self.cutDurations = cutDurations
        clipStarts = starts
        duration = starts[starts.count - 1] + clipDurations[clipDurations.count - 1]
    }

    /// The span of clip `k` on the output's time line.
    public func span(ofClip k: Int) -> TimeSpan {
        TimeSpan(start: clipStarts[k], end: clipStarts[k] + clipDurations[k])
    }

    /// The span of cut `k`'s transition on the output's time line (empty for a hard cut).
    public func span(ofCut k: Int) -> TimeSpan {
        TimeSpan(start: clipStarts[k + 1], end: clipStarts[k + 1] + cutDurations[k])
    }

    /// How near a time must be to a clip's or a cut's start to count as reaching it: half a
    /// microsecond, as timestamps are whole microseconds. A frame's time `i / fps` and a start
    /// summed from trimmed lengths (0.4 − 0.1 is 0.30000000000000004) differ by rounding only.
    public static let timeTolerance = 5e-7

    /// How near, in frames, a time must be to a frame to count as that frame: a length rounded
    /// to the microsecond (a 29.97 fps clip's) is off the grid by far less. The smart plan, the
    /// job planner and the renderer all place starts on the grid with it, and `Concatenation`
    /// takes such lengths as whole frames (`gridAligned`), so that many of them add up without
    /// drifting (each 29.97 fps length is 1e-5 frames long: a hundred of them would pass it).
    public static let frameTolerance = 1e-3

    /// `seconds` as the whole number of frames at `fps` it lies within `frameTolerance` of,
    /// else unchanged.
    public static func gridAligned(_ seconds: Double, fps: Double) -> Double {
        let frames = seconds * fps
        return abs(frames - frames.rounded()) < frameTolerance ? frames.rounded() / fps : seconds
    }

    /// The first output frame at or after `seconds` at `fps` (a time within `frameTolerance`
    /// frames after a frame counts as that frame).
    public static func firstFrame(atOrAfter seconds: Double, fps: Double) -> Int {
        Int((seconds * fps - frameTolerance).rounded(.up))
    }

    /// What the output shows at `time` seconds (clamped to the composition). A clip or a cut
    /// starting within `timeTolerance` after `time` has started.
    public func moment(at time: Double) -> Moment {
        let t = min(max(time, 0), duration)
        return moment(at: t) { start in start <= t + Self.timeTolerance }
    }

    /// What output frame `index` shows at `fps`: the clips and cuts whose first frame
    /// (`firstFrame(atOrAfter:fps:)`) it has reached, so the renderer starts each where the smart
    /// plan and the job planner count it. Times inside a clip or a cut are measured from that
    /// first frame when the start lies within `frameTolerance` of it: frame n of a clip is then
    /// n/fps into it, not n/fps less the start's rounding drift, which at 29.97 fps can put the
    /// request a microsecond before the source frame's timestamp and show the frame before it.
    public func moment(atFrame index: Int, fps: Double) -> Moment {
        let t = min(max(Double(index) / fps, 0), duration)
        return moment(at: t) { start in
            Self.firstFrame(atOrAfter: start, fps: fps) <= index
        } origin: { start in
            let frame = Double(Self.firstFrame(atOrAfter: start, fps: fps)) / fps
            return abs(frame - start) * fps < Self.frameTolerance ? frame : start
        }
    }

    /// What the output shows at `t`, `reached` saying whether a clip or a cut starting at a time
    /// has started, `origin` what time a clip or a cut starting at a time is measured from.
    private func moment(
        at t: Double, reached: (Double) -> Bool, origin: (Double) -> Double = { $0 }
    ) -> Moment {
        // The last clip that has started.
        var k = 0
        while k + 1 < clipStarts.count && reached(clipStarts[k + 1]) { k += 1 }
        let start = origin(clipStarts[k])
        if k > 0 {
            let cut = span(ofCut: k - 1)
            if reached(cut.start) && !reached(cut.end) {
                return .transition(
                    k - 1, progress: min(max((t - start) / cut.duration, 0), 1),
                    fromTime: t - origin(clipStarts[k - 1]), toTime: max(t - start, 0))
            }
        }
        return .clip(k, time: min(max(t - start, 0), clipDurations[k]))
    }

    /// Number of output frames at `fps`: frame i is at i/fps for i = 0 ..< round(duration·fps),
    /// so the picture covers the duration (each frame lasts 1/fps).
    /// - Throws: `CompositionError` when fps is outside `FrameRate.range` or the count passes
    ///   `maximumFrameCount`.
    public func frameCount(fps: Double, maximumFrameCount: Int = Timeline.maximumFrameCount) throws(CompositionError) -> Int {
        if let problem = FrameRate.problem(fps) { throw CompositionError("the frame rate \(problem)") }
        let n = (duration * fps).rounded()
        // At most the limit, as a render's `Timeline` and a plan's frame count allow.
        guard n <= Double(maximumFrameCount) else {
            throw CompositionError(
                "the output would have \(MessageText.number(n)) frames (\(Self.seconds(duration)) at \(MessageText.number(fps)) fps); the limit is \(maximumFrameCount) frames"
            )
        }
        return max(Int(n), 1)
    }

    /// "1.5 s" (see `MessageText.seconds`).
    static func seconds(_ value: Double) -> String { MessageText.seconds(value) }
}

/// How audio fades across a transition.
public enum CrossfadeCurve: String, Sendable, Hashable, CaseIterable {
    /// Gains cos(p·π/2) out and sin(p·π/2) in: constant power for uncorrelated signals.
    case equalPower = "equal-power"
    /// Gains 1 − p out and p in: constant amplitude for identical signals.
    case linear

    /// The (outgoing, incoming) gains at progress `p` (clamped to 0…1).
    public func gains(at p: Double) -> (outgoing: Double, incoming: Double) {
        let x = min(max(p, 0), 1)
        switch self {
        case .equalPower: return (cos(x * Double.pi / 2), sin(x * Double.pi / 2))
        case .linear: return (1 - x, x)
        }
    }
}

/// Which source frame is shown at a time: the one whose timestamp covers it (the last frame
/// whose timestamp is not after the time), for constant and variable frame rates alike.
public struct FrameTimestamps: Sendable, Hashable {
    /// Presentation timestamps in seconds, increasing.
    public let times: [Double]

    /// Timestamps; they are sorted and duplicates removed.
    public init(_ times: [Double]) {
        var sorted = times.filter(\.isFinite).sorted()
        var unique: [Double] = []
        unique.reserveCapacity(sorted.count)
        for t in sorted where unique.last != t { unique.append(t) }
        sorted = unique
        self.times = sorted
    }

    /// Frame i at i/fps for `count` frames.
    public init(count: Int, fps: Double) {
        precondition(count >= 0 && fps > 0, "count must be ≥ 0 and fps positive")
        times = (0..<count).map { Double($0) / fps }
    }

    /// The index of the frame shown at `time`: the last with timestamp ≤ time (the first frame
    /// before it starts). Nil when there are no frames.
    public func frame(at time: Double) -> Int? {
        guard !times.isEmpty else { return nil }
        var lo = 0, hi = times.count - 1
        if time < times[0] { return 0 }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if times[mid] <= time { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

/// The audio of a composition, sample-aligned: the output's samples split into stretches where
/// one clip plays alone or two crossfade. Each clip plays over one contiguous stretch of output
/// samples, so its audio is read as one stream from its first sample on.
///
/// Sample n of the output is at n / rate seconds. A clip starting at s seconds starts at sample
/// round(s·rate); a transition from sample a to b gives sample n the progress (n − a)/(b − a),
/// the same progress the picture has at that time.
public struct AudioTimeline: Sendable, Hashable {
    /// One stretch of output samples.
    public struct Segment: Sendable, Hashable {
        /// Output samples covered.
        public let samples: Range<Int>
        /// The clip playing alone, or the outgoing clip of a crossfade.
        public let clip: Int
        /// The incoming clip of a crossfade; nil when `clip` plays alone.
        public let incoming: Int?
    }

    /// Samples per second.
    public let sampleRate: Int
    /// The crossfade curve.
    public let curve: CrossfadeCurve
    /// Output samples in all: round(duration · rate).
    public let sampleCount: Int
    /// Each clip's first output sample.
    public let clipStartSamples: [Int]
    /// Each clip's end sample (exclusive).
    public let clipEndSamples: [Int]
    /// The stretches, in order, covering 0 ..< sampleCount.
    public let segments: [Segment]

    /// The audio timeline of `timeline` at `sampleRate`.
    /// - Precondition: sampleRate positive (a programmer's choice, not a user's number).
    public init(_ timeline: CompositionTimeline, sampleRate: Int, curve: CrossfadeCurve = .equalPower) {
        precondition(sampleRate > 0, "sample rate must be positive")
        func sample(_ seconds: Double) -> Int { Int((seconds * Double(sampleRate)).rounded()) }
        self.sampleRate = sampleRate
        self.curve = curve
        sampleCount = sample(timeline.duration)
        let count = timeline.clipDurations.count
        clipStartSamples = timeline.clipStarts.map(sample)
        clipEndSamples = (0..<count).map { k in k == count - 1 ? sample(timeline.duration) : sample(timeline.span(ofClip: k).end) }
        var segments: [Segment] = []
        var cursor = 0
        for k in 0..<count {
            // Alone until the next clip starts (or the end), then crossfading until this clip ends.
            let aloneEnd = k + 1 < count ? clipStartSamples[k + 1] : sampleCount
            if aloneEnd > cursor { segments.append(Segment(samples: cursor..<aloneEnd, clip: k, incoming: nil)) }
            cursor = max(cursor, aloneEnd)
            if k + 1 < count, clipEndSamples[k] > cursor {
                segments.append(Segment(samples: cursor..<clipEndSamples[k], clip: k, incoming: k + 1))
                cursor = clipEndSamples[k]
            }
        }
        self.segments = segments
    }

    /// The (outgoing, incoming) gains of output sample `n` in a crossfade `segment`.
    public func gains(atSample n: Int, in segment: Segment) -> (outgoing: Double, incoming: Double) {
        let span = segment.samples
        return curve.gains(at: Double(n - span.lowerBound) / Double(span.count))
    }

    /// The sample of clip `k`'s own audio (counted from its trimmed start) heard at output sample `n`.
    public func clipSample(_ k: Int, atOutputSample n: Int) -> Int { n - clipStartSamples[k] }
}
