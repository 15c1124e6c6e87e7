// Damped springs (CASpringAnimation), following the reference formulas.
//
// A mass m on a spring of stiffness k with damping c moves from 0 toward 1 with initial
// velocity v (positive toward the target): m·x'' + c·x' + k·(x − 1) = 0, x(0) = 0, x'(0) = v.
// With ω0 = √(k/m) and ζ = c / (2√(km)):
//   ζ < 1:  ωd = ω0√(1−ζ²);  p = 1 − e^(−ζω0t)·[cos ωd t + ((ζω0 − v)/ωd)·sin ωd t]
//   ζ = 1, or ζ > 1 without allowsOverdamping (Core Animation's behaviour):
//           p = 1 − (1 + (ω0 − v)t)·e^(−ω0t)
//   ζ > 1 with allowsOverdamping:  ωd = ω0√(ζ²−1);
//           p = 1 − [C1·e^((ωd−ζω0)t) + C2·e^(−(ζω0+ωd)t)],
//           C1 = (ωd + ζω0 − v)/(2ωd),  C2 = (ωd − ζω0 + v)/(2ωd)
// settlingDuration (|1 − p| < ε = 0.001 from then on):
//   ζ < 1: T = max(−ln(ε/(1+|B|))/(ζω0), 0), B = (ζω0 − v)/ωd  (1+|B| bounds the oscillation);
//   otherwise: sample every 0.1 s and return the first sample of the first run of samples with
//   |1 − p| < ε that lasts more than 1 s (the sample and the ten after it, spanning 1 s, all
//   pass), giving up at 10,000 s (settlingSearchLimit).
import SegueMath

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A damped spring, as Core Animation's `CASpringAnimation` evaluates it: progress from 0
/// toward 1 as a function of time in seconds (not stretched to a duration; it may overshoot 1).
public struct Spring: Sendable, Hashable {
    /// The mass `m` (> 0).
    public let mass: Double
    /// The stiffness `k` (> 0).
    public let stiffness: Double
    /// The damping coefficient `c` (≥ 0).
    public let damping: Double
    /// The initial velocity `v` in progress units per second (1 = the whole distance in one
    /// second), positive toward the target.
    public let initialVelocity: Double
    /// Whether an overdamped spring (ζ > 1) is evaluated as such; when false (Core
    /// Animation's default) it is evaluated as critically damped.
    public let allowsOverdamping: Bool

    /// The threshold of ``settlingDuration``: |1 − p| stays below it afterwards.
    public static let settlingThreshold = 0.001
    /// Seconds the search for a critically damped or overdamped spring's settling looks ahead.
    public static let settlingSearchLimit = 10_000.0

    /// Creates a spring from its physical parameters (CASpringAnimation's defaults).
    ///
    /// - Throws: ``AnimationError`` (`.invalidParameter`) naming the parameter when
    ///   `mass ≤ 0`, `stiffness ≤ 0`, `damping < 0`, or any value is not finite.
    public init(
        mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
        initialVelocity: Double = 0, allowsOverdamping: Bool = false
    ) throws {
        try Spring.check("mass", mass, mustBePositive: true)
        try Spring.check("stiffness", stiffness, mustBePositive: true)
        try Spring.check("damping", damping, mustBePositive: false)
        guard initialVelocity.isFinite else {
            throw AnimationError(
                .invalidParameter, "spring initialVelocity must be a finite number, got \(MessageText.number(initialVelocity))")
        }
        guard abs(initialVelocity) <= Spring.largestVelocity else {
            throw AnimationError(
                .invalidParameter,
                "spring initialVelocity must be within ±\(MessageText.number(Spring.largestVelocity)) (progress units per second), got \(MessageText.number(initialVelocity))"
            )
        }
        self.init(unchecked: mass, stiffness, damping, initialVelocity, allowsOverdamping)
        // The closed form needs ω0, ζ and, overdamped, ζ²·ω0 as numbers: mass 1e-300 with
        // stiffness 1e300 made ω0 infinite, damping 1e200 ζ² so, and every value NaN.
        let (w0, zeta) = (naturalFrequency, dampingRatio)
        guard w0.isNormal, w0.isFinite, zeta.isFinite, (zeta * zeta * w0).isFinite else {
            throw AnimationError(
                .invalidParameter,
                "spring stiffness \(MessageText.number(stiffness)), mass \(MessageText.number(mass)) and damping \(MessageText.number(damping)) are too far apart to compute (√(k/m) = \(MessageText.number(w0)), damping ratio \(MessageText.number(zeta))); bring them closer together"
            )
        }
    }

    /// The fastest start a spring takes, in progress units per second (a million times the
    /// whole distance a second; a faster one overshot to numbers no animation can use).
    public static let largestVelocity = 1e6

    /// Creates a spring from SwiftUI/UIKit parameters: `m = 1`, `k = (2π/response)²`,
    /// `c = 4π·dampingFraction/response`.
    ///
    /// - Throws: ``AnimationError`` when `response ≤ 0` or `dampingFraction < 0` (or either
    ///   is not finite).
    public init(response: Double, dampingFraction: Double, initialVelocity: Double = 0) throws {
        try Spring.check("response", response, mustBePositive: true)
        try Spring.check("dampingFraction", dampingFraction, mustBePositive: false)
        try Spring.checkStiffness(of: response, "response")
        try self.init(
            mass: 1, stiffness: (2 * .pi / response) * (2 * .pi / response),
            damping: 4 * .pi * dampingFraction / response, initialVelocity: initialVelocity)
    }

    /// Creates a spring from a perceptual duration and a bounce (SwiftUI's `Spring(duration:bounce:)`):
    /// `m = 1`, `k = (2π/d)²`, `c = r·4π/d` with `r = 1 − b` for `b ≥ 0` and `r = 1/(1 + b)`
    /// for `b < 0`; overdamping allowed.
    ///
    /// - Throws: ``AnimationError`` when `perceptualDuration ≤ 0`, `bounce ≤ −1` or
    ///   `bounce > 1` (or either is not finite).
    public init(perceptualDuration: Double, bounce: Double = 0, initialVelocity: Double = 0) throws {
        try Spring.check("perceptualDuration", perceptualDuration, mustBePositive: true)
        try Spring.checkStiffness(of: perceptualDuration, "perceptualDuration")
        guard bounce.isFinite, bounce > -1, bounce <= 1 else {
            throw AnimationError(.invalidParameter, "spring bounce must lie in (-1, 1], got \(MessageText.number(bounce))")
        }
        let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        try self.init(
            mass: 1, stiffness: (2 * .pi / perceptualDuration) * (2 * .pi / perceptualDuration),
            damping: ratio * 4 * .pi / perceptualDuration, initialVelocity: initialVelocity,
            allowsOverdamping: true)
    }

    /// This spring starting at `velocity` (progress units per second) instead of its own
    /// initial velocity, as a gesture hands its speed over; a velocity that is not finite
    /// starts it at rest, and one beyond ±`largestVelocity` starts at that speed.
    public func starting(at velocity: Double) -> Spring {
        let v = velocity.isFinite ? min(max(velocity, -Spring.largestVelocity), Spring.largestVelocity) : 0
        return Spring(unchecked: mass, stiffness, damping, v, allowsOverdamping)
    }

    /// The critically damped spring of `response` seconds (> 0), as `init(response:dampingFraction: 1)`.
    static func critical(response: Double) -> Spring {
        Spring(unchecked: 1, (2 * .pi / response) * (2 * .pi / response), 4 * .pi / response, 0, false)
    }

    private init(unchecked mass: Double, _ stiffness: Double, _ damping: Double, _ velocity: Double, _ overdamping: Bool) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = velocity
        self.allowsOverdamping = overdamping
    }

    /// Refuses a period (`response`, `perceptualDuration`) so short that the stiffness it makes,
    /// (2π/period)², is no number (it was reported as "stiffness", which the caller never gave).
    private static func checkStiffness(of period: Double, _ name: String) throws {
        guard ((2 * .pi / period) * (2 * .pi / period)).isFinite else {
            throw AnimationError(
                .invalidParameter,
                "spring \(name) \(MessageText.number(period)) s is too short to compute (the stiffness (2π/\(name))² is no number)")
        }
    }

    private static func check(_ name: String, _ value: Double, mustBePositive: Bool) throws {
        guard value.isFinite else {
            throw AnimationError(.invalidParameter, "spring \(name) must be a finite number, got \(MessageText.number(value))")
        }
        if mustBePositive, value <= 0 {
            throw AnimationError(.invalidParameter, "spring \(name) must be greater than 0, got \(MessageText.number(value))")
        }
        if !mustBePositive, value < 0 {
            throw AnimationError(.invalidParameter, "spring \(name) must not be negative, got \(MessageText.number(value))")
        }
    }

    /// UIKit's navigation push spring: `m = 3`, `k = 1000`, `c = 500` (overdamped, so
    /// evaluated as critically damped; `p(0.5) ≈ 0.9989`).
    public static let uikitNavigationPush = Spring(unchecked: 3, 1000, 500, 0, false)

    // MARK: - Derived quantities

    /// The undamped angular frequency `ω0 = √(k/m)`.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// The damping ratio `ζ = c / (2√(km))`.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The undamped period in seconds, 2π·√(m/k) (SwiftUI's `response`).
    public var response: Double { 2 * .pi * (mass / stiffness).squareRoot() }

    // MARK: - Evaluation

    /// The progress at `t` seconds (0 at `t = 0`, tending to 1). Negative times give 0.
    public func value(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        let w0 = naturalFrequency
        let zeta = dampingRatio
        let v = initialVelocity
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v) / wd
            return 1 - exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t))
        }
        if zeta == 1 || !allowsOverdamping {
            return 1 - (1 + (w0 - v) * t) * exp(-w0 * t)
        }
        let wd = w0 * (zeta * zeta - 1).squareRoot()
        let c1 = (wd + zeta * w0 - v) / (2 * wd)
        let c2 = (wd - zeta * w0 + v) / (2 * wd)
        return 1 - (c1 * exp((wd - zeta * w0) * t) + c2 * exp(-(zeta * w0 + wd) * t))
    }

    /// The time after which |1 − p| stays below ``settlingThreshold`` (0.001), by the rules in
    /// the file header. Infinite for an undamped spring (`damping == 0`), and for one that
    /// takes longer than ``settlingSearchLimit`` to settle, oscillating or not.
    public var settlingDuration: Double {
        let epsilon = Spring.settlingThreshold
        let w0 = naturalFrequency
        let zeta = dampingRatio
        if zeta < 1 {
            guard zeta > 0 else { return .infinity }
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - initialVelocity) / wd
            let settling = max(-log(epsilon / (1 + abs(b))) / (zeta * w0), 0)
            // A barely damped spring rings for longer than anyone waits (1e-300: 3e299 s).
            return settling <= Spring.settlingSearchLimit ? settling : .infinity
        }
        let step = 0.1
        let samplesPerSecond = 10
        var runStart: Int?
        for i in 0...Int(Spring.settlingSearchLimit / step) {
            let t = Double(i) * step
            if abs(1 - value(at: t)) < epsilon {
                if runStart == nil { runStart = i }
                if let start = runStart, i - start >= samplesPerSecond {
                    return Double(start) * step
                }
            } else {
                runStart = nil
            }
        }
        return .infinity
    }

    /// Why this spring cannot end a motion by itself, or nil when it settles: an undamped
    /// spring never comes to rest, a barely damped one rings and a slow one creeps for longer
    /// than ``settlingSearchLimit``. A clause for the caller's advice to follow ("…; give a
    /// duration"); ``settlingAdvice`` says what would make it settle.
    public var settlingProblem: String? {
        guard !settlingDuration.isFinite else { return nil }
        if damping == 0 { return "this spring never settles (damping 0)" }
        let limit = MessageText.number(Spring.settlingSearchLimit)
        return dampingRatio < 1
            ? "this spring oscillates for longer than \(limit) s (damping ratio \(MessageText.number(dampingRatio)))"
            : "this spring takes longer than \(limit) s to settle"
    }

    /// What would make a spring with a ``settlingProblem`` settle: damping for one that
    /// oscillates, stiffness or less mass for one that creeps.
    public var settlingAdvice: String {
        damping == 0 ? "give it damping" : dampingRatio < 1 ? "give it more damping" : "give it more stiffness or less mass"
    }
}
