// How a transition's progress follows time: a timing curve or a spring over one pass, repeated
// and autoreversed with Core Animation's media timing (see SegueAnimation/MediaTiming.swift).
//
// A timing function is stretched over the pass: progress = curve(r / d). A spring is not: its
// progress is spring(r) in seconds, as CASpringAnimation does, and the pass's duration only says
// when it stops (by default the spring's settling duration). When the whole transition has run,
// it shows its end state exactly: progress 1, or 0 after an autoreversed pass (a spring has not
// quite reached 1 at its settling duration; Core Animation then shows the model value).
import SegueAnimation
import SegueMath
import SegueSystem

/// How a transition's progress follows time.
public struct TransitionTiming: Sendable, Hashable, CustomStringConvertible {
    /// The shape of one pass.
    public enum Curve: Sendable, Hashable, CustomStringConvertible {
        /// A cubic Bézier timing function stretched over the pass.
        case timingFunction(TimingFunction)
        /// A spring evaluated in seconds (not stretched over the pass).
        case spring(Spring)

        /// Parses `linear`, `ease-in`, `ease-out`, `ease-in-out`, `default`,
        /// `cubic-bezier(x1,y1,x2,y2)` or `spring(name=value,…)` (see `Spring.init(parsing:)`).
        /// - Throws: `AnimationError` with what is wrong.
        public init(parsing text: String) throws {
            let trimmed = text.trimmingWhitespaceAndNewlines()
            let lower = trimmed.lowercased()
            if lower.hasPrefix("spring") {
                var body = trimmed.dropFirst("spring".count).trimmingWhitespaceAndNewlines()
                if body.isEmpty {
                    self = .spring(try Spring())
                    return
                }
                guard body.hasPrefix("("), body.hasSuffix(")") else {
                    throw AnimationError(
                        .invalidSyntax,
                        "a spring is written spring(mass=…,stiffness=…,damping=…) or spring(response=…,damping-fraction=…), got '\(MessageText.excerpt(trimmed))'"
                    )
                }
                body = String(body.dropFirst().dropLast())
                self = .spring(try Spring(parsing: body))
                return
            }
            self = .timingFunction(try TimingFunction(parsing: trimmed))
        }

        /// The spring, if this is one.
        public var spring: Spring? {
            if case let .spring(s) = self { return s }
            return nil
        }

        public var description: String {
            switch self {
            case let .timingFunction(f): return f.description
            case let .spring(s):
                return "spring(mass=\(s.mass),stiffness=\(s.stiffness),damping=\(s.damping),velocity=\(s.initialVelocity))"
            }
        }
    }

    /// The shape of one pass.
    public let curve: Curve
    /// Seconds of one pass (one direction).
    public let duration: Double
    /// How many passes (0 and 1 both mean once; fractions stop part-way).
    public let repeatCount: Double
    /// Whether each pass runs forwards then backwards.
    public let autoreverses: Bool

    /// Why `count` cannot be a repeat count (nil when it can), worded to follow its name.
    public static func repeatCountProblem(_ count: Double) -> String? {
        count.isFinite && count >= 0
            ? nil : "must be a finite number of passes ≥ 0 (0 and 1 both play once), got \(MessageText.number(count))"
    }

    /// Timing for a transition.
    /// - Parameters:
    ///   - duration: seconds of one pass; nil takes the spring's settling duration (required for a
    ///     timing function).
    /// - Throws: `AnimationError` for a duration that is not positive and finite, a repeat count
    ///   that is negative or infinite, or a spring that does not settle (``Spring/settlingProblem``)
    ///   without a duration.
    public init(
        curve: Curve = .timingFunction(.linear), duration: Double? = nil, repeatCount: Double = 0,
        autoreverses: Bool = false
    ) throws {
        let d: Double
        if let duration {
            d = duration
        } else if let spring = curve.spring {
            d = spring.settlingDuration
            if !d.isFinite, let problem = spring.settlingProblem {
                throw AnimationError(.invalidParameter, "\(problem); give a duration")
            }
        } else {
            throw AnimationError(.invalidParameter, "a timing curve needs a duration")
        }
        guard d.isFinite, d > 0 else {
            throw AnimationError(.invalidParameter, "duration must be a positive number of seconds, got \(MessageText.number(d))")
        }
        if let problem = Self.repeatCountProblem(repeatCount) { throw AnimationError(.invalidParameter, "the repeat count \(problem)") }
        self.curve = curve
        self.duration = d
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
    }

    /// The timing of a transition whose caller may give a curve and a pass duration: `curve`
    /// (nil: `defaultCurve`, the effect's `// Timing:`) over `duration`. Without a duration a
    /// caller's spring lasts its settling duration and anything else `defaultDuration` (the
    /// effect's `// Duration:`), as `segue render --spring` and the C API's
    /// `segue_transition_set_timing` do.
    /// - Throws: `AnimationError` for a default curve that does not parse, or what
    ///   ``init(curve:duration:repeatCount:autoreverses:)`` throws.
    public init(
        curve: Curve?, duration: Double?, defaultCurve: String, defaultDuration: Double,
        repeatCount: Double = 0, autoreverses: Bool = false
    ) throws {
        let pass = duration ?? (curve?.spring != nil ? nil : defaultDuration)
        try self.init(
            curve: curve ?? Curve(parsing: defaultCurve), duration: pass, repeatCount: repeatCount,
            autoreverses: autoreverses)
    }

    /// The effect's own timing: its `// Timing:` curve (linear when it has none) over its
    /// `// Duration:`.
    /// - Throws: `AnimationError` when the effect's timing header does not parse.
    public init(defaultFor effect: Effect) throws {
        try self.init(curve: Curve(parsing: effect.defaultTiming), duration: effect.defaultDuration)
    }

    /// The media timing of the passes (linear; the curve is applied by ``sample(at:)``).
    public var mediaTiming: MediaTiming {
        MediaTiming(duration: duration, repeatCount: repeatCount, autoreverses: autoreverses, fillMode: .both)
    }

    /// Seconds from the start to the end of the last pass.
    public var totalDuration: Double { mediaTiming.activeDuration }

    /// Progress and linear fraction of the current pass at `time` seconds from the start
    /// (clamped to the transition).
    public func sample(at time: Double) -> (progress: Double, fraction: Double) {
        // Fill mode .both: a sample exists at every time.
        let s = mediaTiming.sample(atParentTime: time)!
        switch curve {
        case let .timingFunction(f):
            return (f.value(at: s.fraction), s.fraction)
        case let .spring(spring):
            if s.isFinished, s.fraction == 1 { return (1, 1) }
            return (spring.value(at: s.localTime), s.fraction)
        }
    }

    /// Progress at `time` seconds from the start.
    public func progress(at time: Double) -> Double { sample(at: time).progress }

    public var description: String {
        var text = "\(curve) over \(MessageText.seconds(duration))"
        if repeatCount > 0, repeatCount != 1 { text += ", repeated \(MessageText.number(repeatCount))×" }
        if autoreverses { text += ", autoreversed" }
        return text
    }
}
