import Foundation
import SegueAnimation
import Testing

@Suite("Spring")
struct SpringTests {
    static let times = (0...300).map { Double($0) / 100 }

    static func expectMatchesIntegration(
        _ spring: Spring, mass: Double, stiffness: Double, damping: Double,
        tolerance: Double = 1e-7
    ) {
        let reference = integrateSpring(
            mass: mass, stiffness: stiffness, damping: damping,
            velocity: spring.initialVelocity, at: times)
        for (t, expected) in zip(times, reference) {
            #expect(isClose(spring.value(at: t), expected, tolerance), "p(\(t)) for \(spring)")
        }
    }

    @Test func underdampedMatchesIntegration() throws {
        for velocity in [0.0, 5, -3] {
            let spring = try Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: velocity)
            #expect(spring.dampingRatio == 0.5)
            Self.expectMatchesIntegration(spring, mass: 1, stiffness: 100, damping: 10)
        }
        let heavy = try Spring(mass: 2.5, stiffness: 40, damping: 3, initialVelocity: 1)
        Self.expectMatchesIntegration(heavy, mass: 2.5, stiffness: 40, damping: 3)
    }

    @Test func criticallyDampedMatchesIntegration() throws {
        for velocity in [0.0, 4, 25] {
            let spring = try Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: velocity)
            #expect(spring.dampingRatio == 1)
            Self.expectMatchesIntegration(spring, mass: 1, stiffness: 100, damping: 20)
        }
    }

    @Test func overdampedWithoutOverdampingIsCriticallyDamped() throws {
        // ζ = 2.5 but evaluated as ζ = 1: the motion of the critically damped system c = 2√(km).
        let spring = try Spring(mass: 1, stiffness: 100, damping: 50, initialVelocity: 2)
        Self.expectMatchesIntegration(spring, mass: 1, stiffness: 100, damping: 20)
    }

    @Test func overdampedWithOverdampingMatchesIntegration() throws {
        for velocity in [0.0, 2, -1] {
            let spring = try Spring(mass: 1, stiffness: 100, damping: 50, initialVelocity: velocity, allowsOverdamping: true)
            Self.expectMatchesIntegration(spring, mass: 1, stiffness: 100, damping: 50)
        }
        let spring = try Spring(mass: 3, stiffness: 1000, damping: 500, allowsOverdamping: true)
        Self.expectMatchesIntegration(spring, mass: 3, stiffness: 1000, damping: 500)
    }

    @Test func uikitNavigationPush() {
        let push = Spring.uikitNavigationPush
        #expect(push.mass == 3 && push.stiffness == 1000 && push.damping == 500)
        #expect(isClose(push.value(at: 0.5), 0.9989, 5e-5))
        // Critically damped with ω0 = √(1000/3): direct evaluation of 1 − (1 + ω0·t)·e^(−ω0·t).
        let w0 = (1000.0 / 3).squareRoot()
        #expect(isClose(push.value(at: 0.5), 1 - (1 + w0 * 0.5) * exp(-w0 * 0.5), 1e-12))
        Self.expectMatchesIntegration(push, mass: 3, stiffness: 1000, damping: 2 * (3000.0).squareRoot())
    }

    @Test func startsAtZeroAndNegativeTimeIsZero() throws {
        let spring = try Spring()
        #expect(spring.value(at: 0) == 0)
        #expect(spring.value(at: -1) == 0)
    }

    @Test func underdampedSettlingDuration() throws {
        let epsilon = 0.001
        for (m, k, c, v) in [(1.0, 100.0, 10.0, 0.0), (1, 300, 8, 3), (2, 50, 2, -4), (1, 157.9, 5, 10)] {
            let spring = try Spring(mass: m, stiffness: k, damping: c, initialVelocity: v)
            let w0 = (k / m).squareRoot()
            let zeta = c / (2 * (k * m).squareRoot())
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v) / wd
            let expected = max(-log(epsilon / (1 + abs(b))) / (zeta * w0), 0)
            let settling = spring.settlingDuration
            #expect(isClose(settling, expected, 1e-12))
            // Settled from T on …
            for i in 0...20_000 {
                let t = settling + Double(i) * 0.0005
                #expect(abs(1 - spring.value(at: t)) < epsilon, "|1 − p(\(t))| for \(spring)")
            }
            // … but not long before: a peak exceeds ε within one period before T − ln 2/(ζω0).
            let latest = settling - log(2) / (zeta * w0)
            let window = stride(from: max(latest - 2 * .pi / wd, 0), through: latest, by: 0.0005)
            #expect(window.contains { abs(1 - spring.value(at: $0)) >= epsilon }, "\(spring) settles long before T")
        }
        // Hand-computed for the defaults: B = 5/√75, T = ln((1 + B)/0.001)/5 ≈ 1.4727003.
        #expect(isClose(try Spring().settlingDuration, 1.4727003, 1e-7))
    }

    @Test func dampedAndOverdampedSettlingDuration() throws {
        let springs = [
            try Spring(mass: 1, stiffness: 100, damping: 20),
            try Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 30),
            try Spring(mass: 1, stiffness: 100, damping: 60),
            try Spring(mass: 1, stiffness: 100, damping: 60, allowsOverdamping: true),
            Spring.uikitNavigationPush,
        ]
        for spring in springs {
            let settling = spring.settlingDuration
            #expect(isClose((settling * 10).rounded(), settling * 10, 1e-9), "a multiple of 0.1 s")
            for i in 0...10_000 {
                let t = settling + Double(i) * 0.0005
                #expect(abs(1 - spring.value(at: t)) < 0.001, "|1 − p(\(t))| for \(spring)")
            }
            #expect(settling > 0)
            #expect(abs(1 - spring.value(at: settling - 0.1)) >= 0.001, "the sample before T is unsettled")
        }
        // The push spring settles at 0.6 s: p(0.5) = 0.99890 is still 0.0011 away.
        #expect(isClose(Spring.uikitNavigationPush.settlingDuration, 0.6, 1e-9))
    }

    @Test func undampedSpringNeverSettles() throws {
        #expect(try Spring(damping: 0).settlingDuration == .infinity)
        #expect(try Spring(damping: 0).settlingProblem == "this spring never settles (damping 0)")
        #expect(try Spring().settlingProblem == nil)
    }

    @Test("a damped spring too slow to settle within the search is named as such, not as undamped")
    func slowSpringSettlingProblem() throws {
        // ζ = 10 / (2·√(1e-6 · 1e6)) = 5, evaluated as critically damped with ω0 = 1e-6 rad/s:
        // p(10,000 s) = 1 − (1 + 0.01)·e^(−0.01) ≈ 5e-5, nowhere near settled.
        let slow = try Spring(mass: 1e6, stiffness: 1e-6, damping: 10)
        #expect(slow.settlingDuration == .infinity)
        #expect(slow.settlingProblem == "this spring takes longer than 10000 s to settle")
        #expect(slow.settlingAdvice == "give it more stiffness or less mass")
        // A small damping ratio settles late but within the search: −ln(0.001 / (1 + |B|)) / (ζ·ω0)
        // = 6.9 / (1e-3 · 2π/0.3) ≈ 330 s.
        let late = try Spring(response: 0.3, dampingFraction: 1e-3)
        let w0 = 2 * Double.pi / 0.3, b = 1e-3 / (1 - 1e-6).squareRoot()
        #expect(abs(late.settlingDuration - -log(0.001 / (1 + b)) / (1e-3 * w0)) < 1e-9)
        #expect(late.settlingProblem == nil)
        // A tinier one rings past the same limit (1e-6: 3.3e5 s; 1e-300: 3.3e299 s, which the
        // analytic formula gave as a duration), so it is refused like the slow one.
        for fraction in [1e-6, 1e-300] {
            let barely = try Spring(response: 0.3, dampingFraction: fraction)
            #expect(barely.settlingDuration == .infinity)
            #expect(
                barely.settlingProblem
                    == "this spring oscillates for longer than 10000 s (damping ratio \(fraction == 1e-6 ? "1e-06" : "1e-300"))")
            #expect(barely.settlingAdvice == "give it more damping")
        }
    }

    @Test("starting(at:) replaces only the initial velocity; a velocity that is not finite starts at rest")
    func startingAtVelocity() throws {
        let spring = try Spring(mass: 2, stiffness: 300, damping: 40, initialVelocity: 1, allowsOverdamping: true)
        let moving = spring.starting(at: 5)
        #expect(moving == (try Spring(mass: 2, stiffness: 300, damping: 40, initialVelocity: 5, allowsOverdamping: true)))
        for velocity in [Double.nan, .infinity, -.infinity] {
            #expect(spring.starting(at: velocity).initialVelocity == 0)
        }
    }

    @Test func responseAndDampingFraction() throws {
        let spring = try Spring(response: 0.5, dampingFraction: 0.8)
        #expect(spring.mass == 1)
        #expect(isClose(spring.stiffness, pow(2 * .pi / 0.5, 2), 1e-12))
        #expect(isClose(spring.damping, 4 * .pi * 0.8 / 0.5, 1e-12))
        #expect(isClose(spring.dampingRatio, 0.8, 1e-12))
        #expect(isClose(spring.naturalFrequency, 2 * .pi / 0.5, 1e-12))
        #expect(!spring.allowsOverdamping)
    }

    @Test func perceptualDurationAndBounce() throws {
        let bouncy = try Spring(perceptualDuration: 0.4, bounce: 0.3)
        #expect(isClose(bouncy.stiffness, pow(2 * .pi / 0.4, 2), 1e-12))
        #expect(isClose(bouncy.damping, 0.7 * 4 * .pi / 0.4, 1e-12))
        #expect(isClose(bouncy.dampingRatio, 0.7, 1e-12))
        #expect(bouncy.allowsOverdamping)
        let flat = try Spring(perceptualDuration: 0.4, bounce: -0.5)
        #expect(isClose(flat.damping, 2 * 4 * .pi / 0.4, 1e-12))
        #expect(isClose(flat.dampingRatio, 2, 1e-12))
        Self.expectMatchesIntegration(flat, mass: 1, stiffness: flat.stiffness, damping: flat.damping)
    }

    @Test func invalidParametersThrowNamingTheParameter() throws {
        func message(_ make: () throws -> Spring) -> String {
            do {
                _ = try make()
                return "no error"
            } catch {
                return error.message
            }
        }
        #expect(message { try Spring(mass: 0) }.contains("mass must be greater than 0"))
        #expect(message { try Spring(mass: -2) }.contains("mass"))
        #expect(message { try Spring(stiffness: 0) }.contains("stiffness must be greater than 0"))
        #expect(message { try Spring(damping: -0.1) }.contains("damping must not be negative"))
        #expect(message { try Spring(mass: .nan) }.contains("mass must be a finite number"))
        #expect(message { try Spring(stiffness: .infinity) }.contains("stiffness must be a finite number"))
        #expect(message { try Spring(initialVelocity: .infinity) }.contains("initialVelocity"))
        #expect(message { try Spring(response: 0, dampingFraction: 1) }.contains("response"))
        #expect(message { try Spring(response: 1, dampingFraction: -1) }.contains("dampingFraction"))
        #expect(message { try Spring(perceptualDuration: -1) }.contains("perceptualDuration"))
        #expect(message { try Spring(perceptualDuration: 1, bounce: -1) }.contains("bounce"))
        #expect(message { try Spring(damping: 0) } == "no error")
        // Values each finite, but ω0 or ζ not (they made every value NaN), and starts so fast that
        // the overshoot is no number an animation can use.
        #expect(message { try Spring(mass: 1e-300, stiffness: 1e300, damping: 0) }.contains("too far apart to compute"))
        #expect(message { try Spring(mass: 1e300, stiffness: 1e-300, damping: 1) }.contains("too far apart to compute"))
        #expect(message { try Spring(mass: 1e-200, stiffness: 1e200, damping: 1e300) }.contains("too far apart to compute"))
        #expect(
            message { try Spring(initialVelocity: 1e308) }
                == "spring initialVelocity must be within ±1000000 (progress units per second), got 1e+308")
        #expect(message { try Spring(initialVelocity: -1e6) } == "no error")
        // Overdamped, ζ² overflowed (damping 1e200) and the spring animated NaN.
        #expect(message { try Spring(mass: 1, stiffness: 1, damping: 1e200, allowsOverdamping: true) }.contains("too far apart to compute"))
        #expect(message { try Spring(response: 1e-160, dampingFraction: 1) }.contains("spring response 1e-160 s is too short to compute"))
        #expect(message { try Spring(perceptualDuration: 1e-160) }.contains("spring perceptualDuration 1e-160 s is too short"))
        for spring in [
            try Spring(mass: 1, stiffness: 1, damping: 1e150, allowsOverdamping: true), try Spring(response: 1e-100, dampingFraction: 1),
        ] {
            #expect([0.0, 1e-120, 0.5, 2].allSatisfy { spring.value(at: $0).isFinite }, "\(spring)")
        }
        #expect(try Spring().starting(at: 1e308).initialVelocity == 1e6)
        #expect(try Spring().starting(at: .nan).initialVelocity == 0)
    }

    @Test func parsesPhysicalParameters() throws {
        let spring = try Spring(parsing: "mass=2, stiffness=300,damping=12 , velocity=1.5")
        #expect(spring == (try Spring(mass: 2, stiffness: 300, damping: 12, initialVelocity: 1.5)))
        #expect(try Spring(parsing: "stiffness=50") == (try Spring(stiffness: 50)))
        #expect(try Spring(parsing: "") == (try Spring()))
        #expect(try Spring(parsing: "damping=60, allows-overdamping=true").allowsOverdamping)
        #expect(try Spring(parsing: "uikit-navigation-push") == Spring.uikitNavigationPush)
    }

    @Test func parsesResponseAndPerceptualFamilies() throws {
        #expect(try Spring(parsing: "response=0.4,damping-fraction=0.6") == (try Spring(response: 0.4, dampingFraction: 0.6)))
        #expect(try Spring(parsing: "response=0.4") == (try Spring(response: 0.4, dampingFraction: 0.825)))
        #expect(
            try Spring(parsing: "duration=0.3, bounce=0.2, velocity=2")
                == (try Spring(perceptualDuration: 0.3, bounce: 0.2, initialVelocity: 2)))
    }

    @Test func rejectsInvalidSpringText() {
        func message(_ text: String) -> String {
            do {
                _ = try Spring(parsing: text)
                return "no error"
            } catch {
                return error.message
            }
        }
        #expect(message("mass=1,springiness=3").contains("unknown spring parameter 'springiness'"))
        #expect(message("mass=1,response=0.3").contains("cannot be mixed"))
        #expect(message("mass=abc").contains("mass = 'abc' is not a number"))
        #expect(message("mass=0").contains("mass must be greater than 0"))
        #expect(message("mass").contains("name=value"))
        #expect(message("mass=1,mass=2").contains("given twice"))
        #expect(message("damping=-1").contains("damping must not be negative"))
    }
}
