import Foundation
import SegueAnimation
import SegueMath
import Testing

@Suite("BasicAnimation")
struct BasicAnimationTests {
    let current = 50.0

    func value(_ animation: BasicAnimation<Double>, progress: Double, iteration: Int = 0) -> Double {
        animation.value(atProgress: progress, iteration: iteration, current: current)
    }

    @Test func fromAndTo() {
        let a = BasicAnimation<Double>(fromValue: 10, toValue: 20)
        #expect(value(a, progress: 0) == 10)
        #expect(value(a, progress: 0.25) == 12.5)
        #expect(value(a, progress: 1) == 20)
        #expect(value(a, progress: 1.5) == 25)  // springs and curves may overshoot
    }

    @Test func fromAndBy() {
        let a = BasicAnimation<Double>(fromValue: 10, byValue: 4)
        #expect(value(a, progress: 0) == 10)
        #expect(value(a, progress: 0.5) == 12)
        #expect(value(a, progress: 1) == 14)
    }

    @Test func toAndBy() {
        let a = BasicAnimation<Double>(toValue: 20, byValue: 4)
        #expect(value(a, progress: 0) == 16)
        #expect(value(a, progress: 1) == 20)
    }

    @Test func fromAloneAnimatesToTheCurrentValue() {
        let a = BasicAnimation<Double>(fromValue: 10)
        #expect(value(a, progress: 0) == 10)
        #expect(value(a, progress: 0.5) == 30)
        #expect(value(a, progress: 1) == current)
    }

    @Test func toAloneStartsFromTheCurrentValue() {
        let a = BasicAnimation<Double>(toValue: 20)
        #expect(value(a, progress: 0) == current)
        #expect(value(a, progress: 0.5) == 35)
        #expect(value(a, progress: 1) == 20)
    }

    @Test func byAloneStartsFromTheCurrentValue() {
        let a = BasicAnimation<Double>(byValue: 4)
        #expect(value(a, progress: 0) == 50)
        #expect(value(a, progress: 0.5) == 52)
        #expect(value(a, progress: 1) == 54)
    }

    @Test func nothingSetShowsTheCurrentValue() {
        let a = BasicAnimation<Double>()
        #expect(value(a, progress: 0.3) == current)
    }

    @Test func additiveAddsToTheCurrentValue() {
        let a = BasicAnimation<Double>(fromValue: -5, toValue: 5, isAdditive: true)
        #expect(value(a, progress: 0) == 45)
        #expect(value(a, progress: 0.75) == 52.5)
        let by = BasicAnimation<Double>(byValue: 10, isAdditive: true)
        #expect(value(by, progress: 0) == 50)
        #expect(value(by, progress: 0.5) == 55)
    }

    @Test func cumulativeAddsTheEndValuePerRepeat() {
        var timing = MediaTiming(duration: 1, repeatCount: 3, fillMode: .forwards)
        timing.timingFunction = .linear
        let a = BasicAnimation<Double>(fromValue: 0, toValue: 10, timing: timing, isCumulative: true)
        #expect(a.value(atParentTime: 0.5, current: 0) == 5)
        #expect(a.value(atParentTime: 1.5, current: 0) == 15)
        #expect(a.value(atParentTime: 2.25, current: 0) == 22.5)
        #expect(a.value(atParentTime: 3, current: 0) == 30)
        #expect(a.value(atParentTime: 9, current: 0) == 30)
        // With a non-zero start each iteration continues where the previous ended (+ k·to).
        let b = BasicAnimation<Double>(fromValue: 5, toValue: 10, timing: timing, isCumulative: true)
        #expect(b.value(atParentTime: 1.5, current: 0) == 17.5)
    }

    @Test func evaluatesThroughItsTiming() {
        let timing = MediaTiming(beginTime: 2, duration: 4, timingFunction: .easeIn)
        let a = BasicAnimation<Vector2>(fromValue: Vector2(0, 0), toValue: Vector2(100, -100), timing: timing)
        let p = ReferenceBezier(x1: 0.42, y1: 0, x2: 1, y2: 1).y(atX: 0.25)
        let v = a.value(atParentTime: 3, current: .zero)!
        #expect(isClose(v.x, 100 * p, 1e-9) && isClose(v.y, -100 * p, 1e-9))
        #expect(a.value(atParentTime: 1, current: .zero) == nil)
        #expect(a.value(atParentTime: 6, current: .zero) == nil)
    }

    @Test func animatesTransformsAndColors() {
        let t = BasicAnimation<Transform3D>(
            fromValue: .identity, toValue: Transform3D(translationX: 10, y: 20),
            timing: MediaTiming(duration: 1))
        #expect(t.value(atParentTime: 0.5, current: .identity) == Transform3D(translationX: 5, y: 10))
        let c = BasicAnimation<AnimatableColor>(fromValue: .black, toValue: .white, timing: MediaTiming(duration: 2))
        #expect(c.value(atParentTime: 1, current: .clear) == AnimatableColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1))
    }
}

@Suite("SpringAnimation")
struct SpringAnimationTests {
    @Test func progressIsTheSpringInSeconds() throws {
        let spring = try Spring(mass: 1, stiffness: 100, damping: 10)
        let a = SpringAnimation<Double>(spring: spring, fromValue: 0, toValue: 200, timing: MediaTiming(beginTime: 1))
        #expect(a.timing.duration == spring.settlingDuration)
        let reference = integrateSpring(mass: 1, stiffness: 100, damping: 10, velocity: 0, at: [0.1, 0.3, 0.7])
        for (t, p) in zip([0.1, 0.3, 0.7], reference) {
            #expect(isClose(a.value(atParentTime: 1 + t, current: 0)!, 200 * p, 1e-5))
        }
        // It overshoots: the first peak of ζ = 0.5 is 1 + e^(−π·ζ/√(1−ζ²)) ≈ 1.163 at t = π/ωd.
        let peak = Double.pi / (10 * (0.75).squareRoot())
        #expect(isClose(a.value(atParentTime: 1 + peak, current: 0)!, 200 * (1 + exp(-Double.pi * 0.5 / (0.75).squareRoot())), 1e-9))
        #expect(a.value(atParentTime: 1 + spring.settlingDuration + 0.01, current: 0) == nil)
    }

    @Test func explicitDurationCutsTheSpringOff() throws {
        let a = SpringAnimation<Double>(
            spring: .uikitNavigationPush, fromValue: 375, toValue: 0,
            timing: MediaTiming(duration: 0.5, fillMode: .forwards))
        #expect(a.timing.duration == 0.5)
        let held = a.value(atParentTime: 3, current: 0)!
        #expect(isClose(held, 375 * (1 - Spring.uikitNavigationPush.value(at: 0.5)), 1e-9))
    }

    @Test func toAloneStartsAtCurrentValue() throws {
        let a = SpringAnimation<Double>(spring: try Spring(damping: 20), toValue: 1)
        let p = try Spring(damping: 20).value(at: 0.2)
        #expect(isClose(a.value(atParentTime: 0.2, current: -1)!, -1 + 2 * p, 1e-12))
    }
}
