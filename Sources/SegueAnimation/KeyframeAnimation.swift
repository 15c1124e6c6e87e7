// Keyframe animations (CAKeyframeAnimation).
//
// The animation's own timing gives an eased fraction f ∈ [0, 1]; the keyframes map f to a value:
// - linear / cubic: key times k_0…k_(n−1) (given, or evenly spaced i/(n−1)). Segment lookup is
//   right-continuous: segment i is the last with k_i ≤ f; before k_0 the first value holds, from
//   k_(n−1) on the last. The local time s = (f − k_i)/(k_(i+1) − k_i) is eased by the segment's
//   timing function if any, then the segment is interpolated linearly or along a
//   Kochanek–Bartels spline (see KochanekBartelsSpline.swift).
// - discrete: key times k_0…k_n (given, or i/n): value i holds on [k_i, k_(i+1)).
// - paced: key times are the cumulative distances between values over the total distance
//   (evenly spaced when all values coincide); given key times and timing functions are ignored.
// - cubicPaced: the Catmull–Rom-style spline (evenly spaced for its tangents) traversed at
//   constant speed by arc length.

import SegueMath

/// How a keyframe animation computes values between keyframes (CAAnimationCalculationMode).
public enum KeyframeCalculationMode: Sendable, Hashable, CaseIterable {
    /// Straight-line interpolation between consecutive values.
    case linear
    /// No interpolation: each value holds until the next key time.
    case discrete
    /// Linear, with key times chosen for constant speed (by ``Interpolatable/distance(to:)``).
    case paced
    /// A Kochanek–Bartels spline through the values (all parameters 0 = Catmull–Rom).
    case cubic
    /// The cubic spline traversed at constant speed.
    case cubicPaced

    var isCubic: Bool { self == .cubic || self == .cubicPaced }
    var isPaced: Bool { self == .paced || self == .cubicPaced }
}

/// An animation through a sequence of values (CAKeyframeAnimation). Its keyframes are
/// validated when it is created; invalid key times throw instead of misbehaving.
public struct KeyframeAnimation<Value: Interpolatable>: PropertyAnimation {
    /// The keyframe values (at least one).
    public let values: [Value]
    /// The key times as given (in [0, 1], non-decreasing), or `nil` for even spacing.
    public let keyTimes: [Double]?
    /// One timing function per segment, applied to the segment's local time (linear and cubic
    /// modes).
    public let timingFunctions: [TimingFunction]?
    /// How values between keyframes are computed.
    public let calculationMode: KeyframeCalculationMode
    /// Kochanek–Bartels tension per keyframe (cubic modes); `nil` is all 0.
    public let tensionValues: [Double]?
    /// Kochanek–Bartels continuity per keyframe (cubic modes); `nil` is all 0.
    public let continuityValues: [Double]?
    /// Kochanek–Bartels bias per keyframe (cubic modes); `nil` is all 0.
    public let biasValues: [Double]?
    /// Whether the animated value is added to the value beneath it.
    public var isAdditive: Bool
    /// Whether iteration `k` adds `k` times the last value.
    public var isCumulative: Bool
    /// When and how fast the animation runs.
    public var timing: MediaTiming
    /// Whether a host removes the animation when its active duration has passed.
    public var isRemovedOnCompletion: Bool

    /// The key times actually used (count n, or n + 1 for discrete).
    public let effectiveKeyTimes: [Double]
    private let spline: KochanekBartelsSpline<Value>?
    private let arcLengths: ArcLengthTable?

    /// Creates a keyframe animation.
    ///
    /// - Throws: ``AnimationError`` (`.invalidKeyframes`) naming the rule broken: no values;
    ///   key times count (values count, or values count + 1 in discrete mode), key times
    ///   outside [0, 1], decreasing key times; timing functions count (values count − 1);
    ///   tension/continuity/bias count (values count) or non-finite entries. Key times and
    ///   timing functions are not checked in the paced modes, which ignore them.
    public init(
        values: [Value], keyTimes: [Double]? = nil, timingFunctions: [TimingFunction]? = nil,
        calculationMode: KeyframeCalculationMode = .linear,
        tensionValues: [Double]? = nil, continuityValues: [Double]? = nil, biasValues: [Double]? = nil,
        timing: MediaTiming = MediaTiming(), isAdditive: Bool = false, isCumulative: Bool = false,
        isRemovedOnCompletion: Bool = true
    ) throws {
        let n = values.count
        guard n > 0 else {
            throw AnimationError(.invalidKeyframes, "keyframe animation needs at least one value")
        }
        let mode = calculationMode
        if let keyTimes, !mode.isPaced {
            try KeyframeAnimation.validate(keyTimes: keyTimes, valueCount: n, mode: mode)
        }
        if let timingFunctions, mode == .linear || mode == .cubic, timingFunctions.count != max(n - 1, 0) {
            throw AnimationError(
                .invalidKeyframes,
                "timingFunctions count must be values count − 1 (\(max(n - 1, 0))), one per segment, got \(timingFunctions.count)")
        }
        if mode.isCubic {
            for (name, parameters) in [
                ("tensionValues", tensionValues), ("continuityValues", continuityValues), ("biasValues", biasValues),
            ] {
                guard let parameters else { continue }
                guard parameters.count == n else {
                    throw AnimationError(.invalidKeyframes, "\(name) count must equal values count (\(n)), got \(parameters.count)")
                }
                if let index = parameters.firstIndex(where: { !$0.isFinite }) {
                    throw AnimationError(.invalidKeyframes, "\(name)[\(index)] must be a finite number, got \(parameters[index])")
                }
            }
        }

        self.values = values
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.calculationMode = mode
        self.tensionValues = tensionValues
        self.continuityValues = continuityValues
        self.biasValues = biasValues
        self.timing = timing
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        self.isRemovedOnCompletion = isRemovedOnCompletion

        let even = n > 1 ? (0..<n).map { Double($0) / Double(n - 1) } : [0]
        switch mode {
        case .linear, .cubic:
            effectiveKeyTimes = keyTimes ?? even
        case .discrete:
            effectiveKeyTimes = keyTimes ?? (0...n).map { Double($0) / Double(n) }
        case .paced:
            effectiveKeyTimes = KeyframeAnimation.pacedKeyTimes(values) ?? even
        case .cubicPaced:
            effectiveKeyTimes = even
        }
        if mode.isCubic && n > 1 {
            let spline = KochanekBartelsSpline(
                points: values, keyTimes: mode == .cubic ? effectiveKeyTimes : nil,
                tension: tensionValues, continuity: continuityValues, bias: biasValues)
            self.spline = spline
            let table = mode == .cubicPaced ? ArcLengthTable(spline: spline) : nil
            arcLengths = (table?.totalLength ?? 0) > 0 ? table : nil
        } else {
            spline = nil
            arcLengths = nil
        }
    }

    private static func validate(keyTimes: [Double], valueCount n: Int, mode: KeyframeCalculationMode) throws {
        let expected = mode == .discrete ? n + 1 : n
        guard keyTimes.count == expected else {
            let rule =
                mode == .discrete
                ? "keyTimes count must be values count + 1 (\(expected)) in discrete mode"
                : "keyTimes count must equal values count (\(expected))"
            throw AnimationError(.invalidKeyframes, "\(rule), got \(keyTimes.count)")
        }
        for (index, time) in keyTimes.enumerated() where !(time >= 0 && time <= 1) {
            throw AnimationError(.invalidKeyframes, "keyTimes must lie in [0, 1]: keyTimes[\(index)] = \(time)")
        }
        for index in keyTimes.indices.dropFirst() where keyTimes[index] < keyTimes[index - 1] {
            throw AnimationError(
                .invalidKeyframes,
                "keyTimes must be non-decreasing: keyTimes[\(index)] = \(keyTimes[index]) is less than keyTimes[\(index - 1)] = \(keyTimes[index - 1])"
            )
        }
    }

    /// Cumulative distances normalized to [0, 1]; `nil` when the total distance is 0.
    private static func pacedKeyTimes(_ values: [Value]) -> [Double]? {
        var cumulative = [0.0]
        for i in values.indices.dropFirst() {
            cumulative.append(cumulative[i - 1] + values[i - 1].distance(to: values[i]))
        }
        guard let total = cumulative.last, total > 0, total.isFinite else { return nil }
        var times = cumulative.map { $0 / total }
        times[times.count - 1] = 1
        return times
    }

    // MARK: - Evaluation

    /// The keyframe value at eased fraction `fraction` (before additive and cumulative).
    public func keyframeValue(atFraction fraction: Double) -> Value {
        let n = values.count
        let times = effectiveKeyTimes
        if calculationMode == .discrete {
            guard fraction >= times[0] else { return values[0] }
            return values[min(lastIndex(in: times, notAfter: fraction), n - 1)]
        }
        guard n > 1 else { return values[0] }
        if calculationMode == .cubicPaced, let spline {
            if let arcLengths {
                let (segment, local) = arcLengths.location(atFraction: fraction)
                return spline.value(segment: segment, local: local)
            }
            return values[0]  // all values coincide
        }
        guard fraction >= times[0] else { return values[0] }
        guard fraction < times[n - 1] else { return values[n - 1] }
        let i = lastIndex(in: times, notAfter: fraction)
        var local = (fraction - times[i]) / (times[i + 1] - times[i])
        if calculationMode != .paced, let timingFunctions {
            local = timingFunctions[i].value(at: local)
        }
        if let spline {
            return spline.value(segment: i, local: local)
        }
        return values[i].interpolated(to: values[i + 1], fraction: local)
    }

    /// The last index `i` with `times[i] <= x` (`times[0] <= x` is assumed).
    private func lastIndex(in times: [Double], notAfter x: Double) -> Int {
        var low = 0
        var high = times.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if times[mid] <= x { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The value at eased fraction `fraction` of iteration `iteration`, given the value beneath.
    public func value(atFraction fraction: Double, iteration: Int = 0, current: Value) -> Value {
        composeAnimatedValue(
            keyframeValue(atFraction: fraction), end: values[values.count - 1], iteration: iteration,
            isCumulative: isCumulative, isAdditive: isAdditive, current: current)
    }

    /// The value at a parent time, or `nil` when the animation is not applied.
    public func value(atParentTime parentTime: Double, current: Value) -> Value? {
        guard let sample = timing.sample(atParentTime: parentTime) else { return nil }
        return value(atFraction: sample.progress, iteration: sample.iteration, current: current)
    }
}
