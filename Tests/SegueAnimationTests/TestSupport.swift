import Foundation
import SegueMath

// Independent reference implementations used to compute expected values in the tests. They
// deliberately use different formulations from the library (Bernstein form and bisection for
// Bézier curves, numerical integration for springs).

/// |a − b| ≤ tolerance.
func isClose(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool {
    abs(a - b) <= tolerance
}

/// Reference cubic Bézier timing curve: Bernstein form, solved for x by bisection to 1e-14.
struct ReferenceBezier {
    let x1: Double, y1: Double, x2: Double, y2: Double

    func bernstein(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    func parameter(forX x: Double) -> Double {
        var low = 0.0
        var high = 1.0
        while high - low > 1e-14 {
            let mid = (low + high) / 2
            if bernstein(x1, x2, mid) < x { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    func y(atX x: Double) -> Double {
        bernstein(y1, y2, parameter(forX: x))
    }

    /// The limit slope dy/dx at the start: the chord from (0, 0) over a tiny parameter step.
    var startSlope: Double {
        let t = 1e-9
        return bernstein(y1, y2, t) / bernstein(x1, x2, t)
    }

    /// The limit slope dy/dx at the end: the chord to (1, 1) over a tiny parameter step, with
    /// 1 − B(t) = u³ + 3u²t(1 − p1) + 3ut²(1 − p2) (u = 1 − t) to avoid cancellation.
    var endSlope: Double {
        let u = 1e-9
        let t = 1 - u
        func complement(_ p1: Double, _ p2: Double) -> Double {
            u * u * u + 3 * u * u * t * (1 - p1) + 3 * u * t * t * (1 - p2)
        }
        return complement(y1, y2) / complement(x1, x2)
    }
}

/// Integrates m·x'' + c·x' + k·(x − 1) = 0 from x(0) = 0, x'(0) = v with classical RK4 and
/// returns x at each requested time (sorted ascending).
func integrateSpring(
    mass m: Double, stiffness k: Double, damping c: Double, velocity v: Double,
    at times: [Double], step h: Double = 1e-4
) -> [Double] {
    func acceleration(_ x: Double, _ velocity: Double) -> Double {
        (-c * velocity - k * (x - 1)) / m
    }
    var x = 0.0
    var velocity = v
    var t = 0.0
    var results: [Double] = []
    for target in times {
        while t < target - 1e-12 {
            let dt = min(h, target - t)
            let k1x = velocity, k1v = acceleration(x, velocity)
            let k2x = velocity + dt / 2 * k1v, k2v = acceleration(x + dt / 2 * k1x, velocity + dt / 2 * k1v)
            let k3x = velocity + dt / 2 * k2v, k3v = acceleration(x + dt / 2 * k2x, velocity + dt / 2 * k2v)
            let k4x = velocity + dt * k3v, k4v = acceleration(x + dt * k3x, velocity + dt * k3v)
            x += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            velocity += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            t += dt
        }
        results.append(x)
    }
    return results
}
