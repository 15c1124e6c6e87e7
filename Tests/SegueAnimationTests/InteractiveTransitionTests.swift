import Foundation
import SegueAnimation
import Testing

@Suite("InteractiveTransition")
struct InteractiveTransitionTests {
    /// Closed form of a critically damped unit spring from 0 toward 1 with ω0 and velocity v.
    static func critical(_ t: Double, w0: Double, v: Double) -> Double {
        1 - (1 + (w0 - v) * t) * exp(-w0 * t)
    }

    /// Closed form of an underdamped unit spring.
    static func underdamped(_ t: Double, w0: Double, zeta: Double, v: Double) -> Double {
        let wd = w0 * (1 - zeta * zeta).squareRoot()
        return 1 - exp(-zeta * w0 * t) * (cos(wd * t) + (zeta * w0 - v) / wd * sin(wd * t))
    }

    @Test("the gesture sets the fraction, clamped; NaN is ignored; nothing moves by itself")
    func updates() throws {
        let clock = ManualClock()
        let t = try InteractiveTransition(duration: 0.5, clock: clock)
        #expect(t.state == .interactive && t.fractionComplete == 0)
        t.update(0.25)
        clock.advance(by: 3)
        #expect(t.fractionComplete == 0.25)
        t.update(1.7)
        #expect(t.fractionComplete == 1)
        t.update(-2)
        #expect(t.fractionComplete == 0)
        t.update(.nan)
        #expect(t.fractionComplete == 0)
        // Infinities are clamped as other numbers are (they were ignored, as NaN is).
        t.update(0.7)
        t.update(.infinity)
        #expect(t.fractionComplete == 1)
        t.update(-.infinity)
        #expect(t.fractionComplete == 0)
        #expect(t.takeCompletion() == nil)
    }

    @Test("a linear cancel runs the remaining share of the duration and reports the start once")
    func linearCancel() throws {
        let clock = ManualClock(now: 10)
        let t = try InteractiveTransition(duration: 2, clock: clock)
        t.update(0.3)
        #expect(t.release(velocity: 0, timing: .curve(.linear)) == .start)
        #expect(t.state == .running(toward: .start))
        #expect(t.isReversed)
        // Remaining: 0.3 of 2 s = 0.6 s.
        for (dt, expected) in [(0.0, 0.3), (0.15, 0.225), (0.3, 0.15), (0.45, 0.075)] {
            clock.now = 10 + dt
            #expect(abs(t.fractionComplete - expected) < 1e-9, "at \(dt)")
        }
        clock.now = 10.6
        #expect(t.state == .finished(.start) && t.fractionComplete == 0)
        #expect(t.takeCompletion() == .start)
        #expect(t.takeCompletion() == nil)
        // A finished transition ignores the gesture.
        t.update(0.8)
        #expect(t.fractionComplete == 0)
    }

    @Test("a curve completion follows the curve from where the finger left it")
    func easeInFinish() throws {
        let clock = ManualClock()
        let t = try InteractiveTransition(duration: 1, clock: clock)
        t.update(0.6)
        t.finish(timing: .curve(.easeIn))
        // ease-in = cubic-bezier(0.42, 0, 1, 1): solve x(s) = u by bisection, p = y(s).
        func easeIn(_ u: Double) -> Double {
            var lo = 0.0, hi = 1.0
            for _ in 0..<80 {
                let s = (lo + hi) / 2
                let x = 3 * (1 - s) * (1 - s) * s * 0.42 + 3 * (1 - s) * s * s * 1 + s * s * s
                if x < u { lo = s } else { hi = s }
            }
            let s = (lo + hi) / 2
            return 3 * (1 - s) * s * s + s * s * s
        }
        for dt in stride(from: 0.0, through: 0.4, by: 0.05) {
            clock.now = dt
            let expected = dt >= 0.4 ? 1 : 0.6 + 0.4 * easeIn(dt / 0.4)
            #expect(abs(t.fractionComplete - expected) < 1e-6, "at \(dt)")
        }
        #expect(t.takeCompletion() == .end)
    }

    @Test(
        "spring completions match the closed-form springs, with the velocity relative to the remaining distance",
        arguments: [(0.6, 0.8), (0.7, 0.0), (0.2, 1.5), (0.55, -0.4)])
    func springFinish(fraction: Double, velocity: Double) throws {
        let clock = ManualClock()
        let t = try InteractiveTransition(duration: 0.35, clock: clock)
        t.update(fraction)
        #expect(t.release(velocity: velocity, timing: .spring(try Spring(response: 0.5, dampingFraction: 1))) == .end)
        let w0 = 2 * Double.pi / 0.5
        let v = velocity / (1 - fraction)
        for dt in [0.0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5] {
            clock.now = dt
            let expected = fraction + (1 - fraction) * Self.critical(dt, w0: w0, v: v)
            #expect(abs(t.fractionComplete - expected) < 1e-6, "fraction \(fraction), velocity \(velocity), at \(dt)")
        }
        // The motion starts with the finger's velocity: a one-sided difference over 1 µs.
        clock.now = 1e-6
        let slope = (t.fractionComplete - fraction) / 1e-6
        #expect(abs(slope - velocity) < 1e-3 * max(1, abs(velocity)) + 1e-4, "slope \(slope)")
        clock.now = 60
        #expect(t.state == .finished(.end) && t.fractionComplete == 1)
    }

    @Test("a spring given as it is (.spring) keeps its overdamping: the closed form of ζ = 2, not a critical spring")
    func overdampedFinish() throws {
        let clock = ManualClock()
        let t = try InteractiveTransition(duration: 0.5, clock: clock)
        t.update(0.4)
        // SwiftUI's Spring(duration: 0.5, bounce: -0.5): ζ = 1/(1 − 0.5) = 2, overdamping allowed.
        let spring = try Spring(perceptualDuration: 0.5, bounce: -0.5)
        t.finish(timing: .spring(spring))
        // The release spring is SwiftUI's critically damped 0.3 s spring, to the bit.
        #expect(CompletionTiming.release == .spring(try Spring(response: 0.3, dampingFraction: 1)))
        let w0 = 2 * Double.pi / 0.5, zeta = 2.0
        let (r1, r2) = (-w0 * (zeta - (zeta * zeta - 1).squareRoot()), -w0 * (zeta + (zeta * zeta - 1).squareRoot()))
        // y = 1 − x = c1·e^(r1·t) + c2·e^(r2·t), y(0) = 1, y'(0) = 0 (the finish starts at rest).
        let c1 = -r2 / (r1 - r2), c2 = 1 - c1
        var apart = 0.0
        for i in 1...60 {
            let dt = Double(i) * 0.01
            clock.now = dt
            guard t.state != .finished(.end) else { break }
            let expected = 0.4 + 0.6 * (1 - (c1 * exp(r1 * dt) + c2 * exp(r2 * dt)))
            #expect(abs(t.fractionComplete - expected) < 1e-6, "at \(dt): \(t.fractionComplete), expected \(expected)")
            apart = max(apart, abs(t.fractionComplete - (0.4 + 0.6 * Self.critical(dt, w0: w0, v: 0))))
        }
        #expect(apart > 0.05, "an overdamped spring is slower than a critical one of the same ω0")
    }

    @Test("an underdamped cancel overshoots the start like the closed form, then rests exactly there")
    func underdampedCancel() throws {
        let clock = ManualClock()
        let t = try InteractiveTransition(duration: 0.5, clock: clock)
        t.update(0.4)
        // A flick back: -2 fractions per second, toward the start.
        #expect(t.release(velocity: -2, timing: .spring(try Spring(response: 0.4, dampingFraction: 0.5))) == .start)
        let w0 = 2 * Double.pi / 0.4
        let v = -2 / (0 - 0.4)  // 5: relative to the remaining distance, positive toward the target
        var sawOvershoot = false
        for i in 0...100 {
            let dt = Double(i) * 0.01
            clock.now = dt
            let expected = 0.4 - 0.4 * Self.underdamped(dt, w0: w0, zeta: 0.5, v: v)
            if t.state != .finished(.start) {
                #expect(abs(t.fractionComplete - expected) < 1e-6, "at \(dt)")
                if t.fractionComplete < 0 { sawOvershoot = true }
            }
        }
        #expect(sawOvershoot, "an underdamped spring passes the start")
        clock.now = 100
        #expect(t.fractionComplete == 0)
        #expect(t.takeCompletion() == .start)
    }

    @Test(
        "finish or cancel: past half way, or a flick in the direction it points",
        arguments: [
            (0.2, 0.0, false), (0.49, 0.9, false), (0.51, 0.0, true), (0.9, -0.9, true), (0.1, 1.0, true),
            (0.1, 3, true), (0.95, -1.0, false), (0.7, -5, false), (0.5, 0, false),
        ])
    func decision(fraction: Double, velocity: Double, finishes: Bool) throws {
        #expect(InteractiveTransition.shouldFinish(fraction: fraction, velocity: velocity) == finishes)
        let clock = ManualClock()
        let t = try InteractiveTransition(duration: 1, clock: clock)
        t.update(fraction)
        let heading = t.release(velocity: velocity, timing: .spring(try Spring(response: 0.3, dampingFraction: 1)))
        #expect(heading == (finishes ? .end : .start))
        clock.advance(by: 30)
        #expect(t.takeCompletion() == heading)
        #expect(t.fractionComplete == (finishes ? 1 : 0))
    }

    @Test("pause holds the fraction; reversing while running turns around from where it is")
    func pauseAndReverse() throws {
        let clock = ManualClock()
        let t = try InteractiveTransition(duration: 1, clock: clock)
        t.continueAnimation(timing: .curve(.linear))
        clock.now = 0.4
        #expect(abs(t.fractionComplete - 0.4) < 1e-12)
        t.pause()
        clock.now = 5
        #expect(t.state == .interactive && abs(t.fractionComplete - 0.4) < 1e-12)
        t.continueAnimation()
        clock.now = 5.2
        #expect(abs(t.fractionComplete - 0.6) < 1e-12)
        t.isReversed = true
        #expect(t.state == .running(toward: .start))
        clock.now = 5.5
        #expect(abs(t.fractionComplete - 0.3) < 1e-12)
        clock.now = 5.8
        #expect(t.state == .finished(.start))
        #expect(t.takeCompletion() == .start)
    }

    @Test("a release at the target finishes at once; bad parameters are rejected")
    func edges() throws {
        let clock = ManualClock()
        let t = try InteractiveTransition(duration: 1, clock: clock)
        t.update(1)
        t.finish(timing: .spring(try Spring(response: 0.3, dampingFraction: 1)), velocity: 4)
        #expect(t.state == .finished(.end))
        #expect(throws: AnimationError.self) { try InteractiveTransition(duration: 0, clock: clock) }
        #expect(throws: AnimationError.self) { try InteractiveTransition(duration: .infinity, clock: clock) }
        #expect(throws: AnimationError.self) { try InteractiveTransition(duration: 1, flickVelocity: -1, clock: clock) }
    }
}
