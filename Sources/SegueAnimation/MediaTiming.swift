// Local time of an animation (CAMediaTiming), exactly as the reference pseudo-code:
//
//   d  = duration (0 → 0.25 s, the default transaction duration, if never resolved)
//   P  = d · (autoreverses ? 2 : 1)
//   AD = repeatDuration > 0 ? repeatDuration : repeatCount > 0 ? repeatCount·P : P
//   τ  = (tp − beginTime) · speed
//   τ < 0:   fill backwards/both → τ = 0,  else not applied
//   τ ≥ AD:  fill forwards/both  → τ = AD, else not applied (finished)
//   τ += timeOffset;  k = floor(τ/P);  r = τ − k·P
//   if τ is the clamped end and r == 0 { r = P; k −= 1 }   (the end of the last iteration)
//   if autoreverses and r > d { r = P − r }
//   progress = timingFunction(r / d)
//
// `k −= 1` at the clamped end keeps the iteration index of the iteration that just ended, so a
// cumulative animation holds the value it reached. timeOffset is added after the active-window
// check, so an offset animation wraps around within its active duration (as Core Animation's
// does) and speed 0 with timeOffset X pauses at X.

/// How an animation shows outside its active duration (CAMediaTimingFillMode).
public enum FillMode: Sendable, Hashable, CaseIterable {
    /// Not applied before it begins or after it ends.
    case removed
    /// Holds its final value after it ends.
    case forwards
    /// Shows its initial value before it begins.
    case backwards
    /// Both `forwards` and `backwards`.
    case both

    /// Whether the animation holds its end value after its active duration.
    public var fillsForwards: Bool { self == .forwards || self == .both }
    /// Whether the animation shows its start value before its begin time.
    public var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// One evaluation of an animation's timing at a parent time.
public struct TimingSample: Sendable, Hashable {
    /// The eased progress: the timing function applied to ``fraction``.
    public var progress: Double
    /// The linear fraction `r / duration` of the current iteration, in [0, 1].
    public var fraction: Double
    /// The local time `r` in seconds within the current iteration (after autoreversing).
    public var localTime: Double
    /// The iteration index `k` (0 for the first), used by cumulative animations.
    public var iteration: Int
    /// Whether the active duration has passed (`τ ≥ AD`); the sample then comes from the
    /// forwards fill.
    public var isFinished: Bool
}

/// The timing of an animation (CAMediaTiming): when it begins, how long one iteration lasts,
/// how fast it runs, how it repeats and fills, and its timing curve.
public struct MediaTiming: Sendable, Hashable {
    /// The duration Core Animation gives an animation whose duration is 0 and that is not
    /// added under a transaction with another duration: 0.25 s.
    public static let defaultDuration = 0.25

    /// The parent time at which the animation begins. When an animation is added to a host
    /// with `beginTime == 0` it is set to the current time at the transaction's commit.
    public var beginTime: Double = 0
    /// The duration of one iteration in seconds; 0 means "the transaction's duration", resolved
    /// when the animation is added to a host (0.25 s if evaluated unresolved).
    public var duration: Double = 0
    /// The rate of local time relative to parent time (0 pauses; use with ``timeOffset``).
    public var speed: Double = 1
    /// An offset added to local time after the active-window check.
    public var timeOffset: Double = 0
    /// How many iterations to play (fractions stop part-way; `.infinity` repeats forever;
    /// 0 means once).
    public var repeatCount: Double = 0
    /// How long to repeat, in local seconds; overrides ``repeatCount`` when > 0.
    public var repeatDuration: Double = 0
    /// Whether each iteration plays forwards then backwards.
    public var autoreverses = false
    /// How the animation shows outside its active duration.
    public var fillMode: FillMode = .removed
    /// The curve applied to each iteration's fraction; `nil` is linear (and lets a transaction
    /// supply its `animationTimingFunction` when the animation is added).
    public var timingFunction: TimingFunction?

    /// Creates timing with Core Animation's defaults, overriding what is given.
    public init(
        beginTime: Double = 0, duration: Double = 0, speed: Double = 1, timeOffset: Double = 0,
        repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
        fillMode: FillMode = .removed, timingFunction: TimingFunction? = nil
    ) {
        precondition(duration >= 0, "MediaTiming duration must not be negative")
        precondition(repeatCount >= 0 && repeatDuration >= 0, "MediaTiming repeatCount and repeatDuration must not be negative")
        self.beginTime = beginTime
        self.duration = duration
        self.speed = speed
        self.timeOffset = timeOffset
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses
        self.fillMode = fillMode
        self.timingFunction = timingFunction
    }

    // MARK: - Derived durations

    /// The duration of one iteration actually used: ``duration``, or 0.25 s when it is 0.
    public var resolvedDuration: Double { duration > 0 ? duration : MediaTiming.defaultDuration }

    /// The period `P` of one iteration, doubled when autoreversing.
    public var period: Double { resolvedDuration * (autoreverses ? 2 : 1) }

    /// The active duration `AD` in local time (infinite for infinite repeats).
    public var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount * period }
        return period
    }

    /// The parent time at which the active duration ends (`beginTime + AD / speed`); infinite
    /// when repeating forever or paused.
    public var endTime: Double {
        speed > 0 ? beginTime + activeDuration / speed : .infinity
    }

    // MARK: - Evaluation

    /// Whether the active duration has passed at parent time `parentTime` (`τ ≥ AD`),
    /// whatever the fill mode.
    public func isFinished(atParentTime parentTime: Double) -> Bool {
        (parentTime - beginTime) * speed >= activeDuration
    }

    /// The full timing state at a parent time, or `nil` when the animation is not applied
    /// (before its begin without a backwards fill, after its end without a forwards fill).
    public func sample(atParentTime parentTime: Double) -> TimingSample? {
        let d = resolvedDuration
        let p = period
        let ad = activeDuration
        var tau = (parentTime - beginTime) * speed
        var clampedAtEnd = false
        var finished = false
        if tau < 0 {
            guard fillMode.fillsBackwards else { return nil }
            tau = 0
        }
        if tau >= ad {
            finished = true
            guard fillMode.fillsForwards else { return nil }
            tau = ad
            clampedAtEnd = true
        }
        tau += timeOffset
        var k = (tau / p).rounded(.down)
        var r = tau - k * p
        if clampedAtEnd && r == 0 {
            r = p
            k -= 1
        }
        if autoreverses && r > d {
            r = p - r
        }
        let fraction = min(max(r / d, 0), 1)
        let progress = timingFunction?.value(at: fraction) ?? fraction
        let iteration = k.isFinite ? Int(max(min(k, Double(Int32.max)), Double(Int32.min))) : 0
        return TimingSample(progress: progress, fraction: fraction, localTime: r, iteration: iteration, isFinished: finished)
    }

    /// The eased progress at a parent time, or `nil` when the animation is not applied.
    public func progress(atParentTime parentTime: Double) -> Double? {
        sample(atParentTime: parentTime)?.progress
    }

    /// The iteration index `k` at a parent time, or `nil` when the animation is not applied.
    public func iteration(atParentTime parentTime: Double) -> Int? {
        sample(atParentTime: parentTime)?.iteration
    }
}
