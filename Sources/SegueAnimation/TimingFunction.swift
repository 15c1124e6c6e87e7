// Cubic Bézier timing curves (CAMediaTimingFunction).
//
// The curve runs from (0, 0) to (1, 1) with control points c1 = (x1, y1), c2 = (x2, y2):
//   B(t) = 3(1−t)²t·c1 + 3(1−t)t²·c2 + t³·(1, 1),  t ∈ [0, 1].
// In polynomial form each coordinate is ((a·t + b)·t + c)·t with c = 3·p1, b = 3(p2 − p1) − c,
// a = 1 − c − b. With x1, x2 ∈ [0, 1], x(t) is non-decreasing, so y as a function of x is well
// defined: solve x(t) = x with Newton–Raphson from t = x, falling back to bisection on [0, 1]
// when Newton stalls (flat derivative) or leaves the interval, then return y(t). Both stop at
// |x(t) − x| < 1e-12, well inside the 1e-6 the reference asks for. Inputs outside [0, 1]
// extrapolate along the end tangents, like Core Animation and WebKit's UnitBezier.

/// A cubic Bézier timing curve from (0, 0) to (1, 1), as `CAMediaTimingFunction`: maps the
/// linear fraction of an animation's duration to its eased progress.
public struct TimingFunction: Sendable, Hashable, CustomStringConvertible {
    /// The x coordinate of the first control point, in [0, 1].
    public let x1: Double
    /// The y coordinate of the first control point.
    public let y1: Double
    /// The x coordinate of the second control point, in [0, 1].
    public let x2: Double
    /// The y coordinate of the second control point.
    public let y2: Double

    // Polynomial coefficients: x(t) = ((ax·t + bx)·t + cx)·t, same for y.
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double
    private let startSlope: Double
    private let endSlope: Double

    /// Creates the curve with control points (x1, y1) and (x2, y2).
    ///
    /// - Precondition: all four are finite and `x1`, `x2` lie in [0, 1] (use
    ///   ``init(parsing:)`` to validate user input with a thrown error instead).
    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        precondition([x1, y1, x2, y2].allSatisfy(\.isFinite), "timing function control points must be finite")
        precondition((0...1).contains(x1) && (0...1).contains(x2), "timing function x1 and x2 must lie in [0, 1]")
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by

        // Tangent at (0, 0): toward the first control point distinct from the start.
        if x1 > 0 {
            startSlope = y1 / x1
        } else if y1 == 0 && x2 > 0 {
            startSlope = y2 / x2
        } else if y1 == 0 && y2 == 0 {
            startSlope = 1
        } else {
            startSlope = 0  // vertical tangent: extrapolate flat rather than to infinity
        }
        // Tangent at (1, 1): from the last control point distinct from the end.
        if x2 < 1 {
            endSlope = (y2 - 1) / (x2 - 1)
        } else if y2 == 1 && x1 < 1 {
            endSlope = (y1 - 1) / (x1 - 1)
        } else if y2 == 1 && y1 == 1 {
            endSlope = 1
        } else {
            endSlope = 0
        }
    }

    // MARK: - Named curves

    /// Linear pacing: control points (0, 0) and (1, 1).
    public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
    /// Slow start: (0.42, 0), (1, 1).
    public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
    /// Slow end: (0, 0), (0.58, 1).
    public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
    /// Slow start and end: (0.42, 0), (0.58, 1).
    public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)
    /// The curve of implicit animations (`kCAMediaTimingFunctionDefault`): (0.25, 0.1), (0.25, 1).
    public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)

    // MARK: - Evaluation

    /// The eased progress at input fraction `x`, accurate to better than 1e-9 in [0, 1].
    /// Outside [0, 1] the curve continues along its end tangents.
    public func value(at x: Double) -> Double {
        if x <= 0 {
            return x == 0 ? 0 : startSlope * x
        }
        if x >= 1 {
            return x == 1 ? 1 : 1 + endSlope * (x - 1)
        }
        return sampleY(parameter(forX: x))
    }

    /// The curve parameter `t` in [0, 1] with `x(t) = x`.
    func parameter(forX x: Double) -> Double {
        let tolerance = 1e-12
        // Newton–Raphson from t = x.
        var t = x
        for _ in 0..<8 {
            let error = sampleX(t) - x
            if abs(error) < tolerance { return t }
            let derivative = sampleDerivativeX(t)
            if abs(derivative) < 1e-9 { break }
            t -= error / derivative
            if !(0...1).contains(t) { break }
        }
        // Bisection: x(t) is non-decreasing on [0, 1].
        var low = 0.0
        var high = 1.0
        t = x
        for _ in 0..<100 {
            let value = sampleX(t)
            if abs(value - x) < tolerance { break }
            if value < x { low = t } else { high = t }
            let mid = (low + high) / 2
            if mid == t || high - low < 1e-16 { break }
            t = mid
        }
        return t
    }

    @inline(__always) private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) private func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inline(__always) private func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    // MARK: - Description

    /// `linear`, `ease-in`, `ease-out`, `ease-in-out`, `default`, or `cubic-bezier(x1, y1, x2, y2)`:
    /// text that ``init(parsing:)`` reads back.
    public var description: String {
        switch self {
        case .linear: return "linear"
        case .easeIn: return "ease-in"
        case .easeOut: return "ease-out"
        case .easeInEaseOut: return "ease-in-out"
        case .default: return "default"
        default: return "cubic-bezier(\(x1), \(y1), \(x2), \(y2))"
        }
    }

    /// Two curves are equal when their control points are.
    public static func == (lhs: TimingFunction, rhs: TimingFunction) -> Bool {
        lhs.x1 == rhs.x1 && lhs.y1 == rhs.y1 && lhs.x2 == rhs.x2 && lhs.y2 == rhs.y2
    }

    /// Hashes the control points.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(x1)
        hasher.combine(y1)
        hasher.combine(x2)
        hasher.combine(y2)
    }
}
