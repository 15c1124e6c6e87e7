// Kochanek–Bartels (TCB) splines for cubic keyframe animations.
//
// Each keyframe P_i has tension t, continuity c and bias b (all 0 = Catmull–Rom). With the
// chords d_in = P_i − P_(i−1) and d_out = P_(i+1) − P_i, the tangents at P_i are
//   outgoing (start of segment i):   (1−t)(1+b)(1+c)/2 · d_in + (1−t)(1−b)(1−c)/2 · d_out
//   incoming (end of segment i−1):   (1−t)(1+b)(1−c)/2 · d_in + (1−t)(1−b)(1+c)/2 · d_out
// At the ends the missing neighbour is the end point itself (P_(−1) = P_0, P_n = P_(n−1)), so
// the end tangents are half the one-sided chord. For key times that are not evenly spaced,
// interior tangents are scaled as in Kochanek & Bartels (1984): outgoing by 2Δ_i/(Δ_(i−1)+Δ_i)
// and incoming by 2Δ_(i−1)/(Δ_(i−1)+Δ_i), Δ_i the duration of segment i, which keeps the
// motion C1 in time across a key. Segment i is the cubic Hermite curve
//   p(s) = h00(s)·P_i + h10(s)·out_i + h01(s)·P_(i+1) + h11(s)·in_(i+1),  s ∈ [0, 1]
// with h00 = 2s³−3s²+1, h10 = s³−2s²+s, h01 = −2s³+3s², h11 = s³−s².
//
// Paced cubic animations move at constant speed along the curve: an arc-length table samples
// every segment `samplesPerSegment` times (lengths measured with `distance(to:)`) and is
// inverted by binary search and linear interpolation.

import SegueMath

/// A Kochanek–Bartels spline through keyframe values (internal to keyframe animations).
struct KochanekBartelsSpline<Value: Interpolatable>: Sendable {
    let points: [Value]
    private let outgoing: [Value]
    private let incoming: [Value]

    /// Builds the tangents. `keyTimes` (same count as `points`) scale interior tangents for
    /// uneven spacing; `nil` means evenly spaced.
    init(points: [Value], keyTimes: [Double]?, tension: [Double]?, continuity: [Double]?, bias: [Double]?) {
        self.points = points
        let n = points.count
        var outgoing: [Value] = []
        var incoming: [Value] = []
        outgoing.reserveCapacity(n)
        incoming.reserveCapacity(n)
        for i in 0..<n {
            let previous = i > 0 ? points[i - 1] : points[i]
            let next = i < n - 1 ? points[i + 1] : points[i]
            let chordIn = points[i] - previous
            let chordOut = next - points[i]
            let t = tension?[i] ?? 0
            let c = continuity?[i] ?? 0
            let b = bias?[i] ?? 0
            var out =
                chordIn.scaled(by: (1 - t) * (1 + b) * (1 + c) / 2)
                + chordOut.scaled(by: (1 - t) * (1 - b) * (1 - c) / 2)
            var into =
                chordIn.scaled(by: (1 - t) * (1 + b) * (1 - c) / 2)
                + chordOut.scaled(by: (1 - t) * (1 - b) * (1 + c) / 2)
            if let keyTimes, i > 0, i < n - 1 {
                let before = keyTimes[i] - keyTimes[i - 1]
                let after = keyTimes[i + 1] - keyTimes[i]
                if before + after > 0 {
                    out = out.scaled(by: 2 * after / (before + after))
                    into = into.scaled(by: 2 * before / (before + after))
                }
            }
            outgoing.append(out)
            incoming.append(into)
        }
        self.outgoing = outgoing
        self.incoming = incoming
    }

    /// The point at local parameter `s` of segment `segment` (from `points[segment]` to
    /// `points[segment + 1]`).
    func value(segment i: Int, local s: Double) -> Value {
        let s2 = s * s
        let s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1
        let h10 = s3 - 2 * s2 + s
        let h01 = -2 * s3 + 3 * s2
        let h11 = s3 - s2
        return points[i].scaled(by: h00) + outgoing[i].scaled(by: h10)
            + points[i + 1].scaled(by: h01) + incoming[i + 1].scaled(by: h11)
    }
}

/// A cumulative arc-length table of a spline, for constant-speed (paced) evaluation.
struct ArcLengthTable: Sendable {
    static let samplesPerSegment = 32
    /// Cumulative lengths at global parameters `j / samplesPerSegment`.
    let lengths: [Double]
    let segmentCount: Int

    init<Value>(spline: KochanekBartelsSpline<Value>) {
        let segments = spline.points.count - 1
        let perSegment = ArcLengthTable.samplesPerSegment
        var lengths: [Double] = [0]
        lengths.reserveCapacity(segments * perSegment + 1)
        var total = 0.0
        for i in 0..<max(segments, 0) {
            var previous = spline.points[i]
            for j in 1...perSegment {
                let point = spline.value(segment: i, local: Double(j) / Double(perSegment))
                total += previous.distance(to: point)
                lengths.append(total)
                previous = point
            }
        }
        self.lengths = lengths
        segmentCount = max(segments, 0)
    }

    var totalLength: Double { lengths.last ?? 0 }

    /// The segment and local parameter at which the curve has covered `fraction` of its length.
    func location(atFraction fraction: Double) -> (segment: Int, local: Double) {
        let target = min(max(fraction, 0), 1) * totalLength
        // Last index j with lengths[j] <= target.
        var low = 0
        var high = lengths.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lengths[mid] <= target { low = mid } else { high = mid - 1 }
        }
        var u = Double(low)
        if low < lengths.count - 1 {
            let span = lengths[low + 1] - lengths[low]
            if span > 0 { u += (target - lengths[low]) / span }
        }
        u /= Double(ArcLengthTable.samplesPerSegment)
        let segment = min(Int(u), segmentCount - 1)
        return (segment, u - Double(segment))
    }
}
