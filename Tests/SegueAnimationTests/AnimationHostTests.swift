import SegueAnimation
import SegueMath
import Testing

@Suite("AnimationHost")
struct AnimationHostTests {
    @Test func setWithoutActionChangesModelAndPresentation() {
        let (_, _, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        #expect(x.value == 0 && x.presentationValue == 0)
        x.value = 10
        #expect(x.modelValue == 10)
        #expect(x.presentationValue == 10)
        #expect(host.animationKeys.isEmpty)
        host.setValue(12.0, forKey: "x")
        #expect(host.modelValue(forKey: "x", as: Double.self) == 12)
        #expect(host.presentationValue(forKey: "x", as: Double.self) == 12)
        #expect(host.property("x", as: Double.self) === x)
        #expect(host.property("x", as: Vector2.self) == nil)
        #expect(host.propertyKeys == ["x"])
    }

    @Test func explicitAnimationChangesOnlyThePresentation() {
        let (clock, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 5.0)
        x.addAnimation(BasicAnimation<Double>(fromValue: 0, toValue: 100, timing: MediaTiming(duration: 2)), forKey: "move")
        #expect(host.animationKeys == ["move"])
        #expect(host.propertyKey(forAnimationKey: "move") == "x")
        clock.now = 0.5
        #expect(x.presentationValue == 25)
        #expect(x.modelValue == 5)
        clock.now = 2.5
        // Finished and removed on completion: back to the model even before the next update.
        #expect(x.presentationValue == 5)
        #expect(context.update() == 1)
        #expect(host.animationKeys.isEmpty)
        #expect(x.presentationValue == 5)
    }

    @Test func beginTimeZeroMeansTheCommitTime() {
        let (clock, _, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        clock.now = 10
        x.addAnimation(BasicAnimation<Double>(fromValue: 0, toValue: 1, timing: MediaTiming(duration: 1)), forKey: "a")
        #expect(x.animation(forKey: "a")?.timing.beginTime == 10)
        clock.now = 10.5
        #expect(x.presentationValue == 0.5)
        // An explicit begin time is kept, and with a backwards fill shows the start value early.
        x.addAnimation(
            BasicAnimation<Double>(fromValue: -1, toValue: -2, timing: MediaTiming(beginTime: 12, duration: 1, fillMode: .backwards)),
            forKey: "b")
        #expect(x.presentationValue == -1)
        clock.now = 12.25
        #expect(x.presentationValue == -1.25)
    }

    @Test func addingUnderAnExistingKeyReplaces() {
        let (clock, _, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        let y = host.addProperty("y", initialValue: 0.0)
        var firstFinished: Bool?
        x.addAnimation(BasicAnimation<Double>(toValue: 100, timing: MediaTiming(duration: 1)), forKey: "k") { firstFinished = $0 }
        x.addAnimation(BasicAnimation<Double>(fromValue: 0, toValue: -100, timing: MediaTiming(duration: 1)), forKey: "k")
        #expect(firstFinished == false)
        #expect(x.animationKeys == ["k"])
        clock.now = 0.5
        #expect(x.presentationValue == -50)
        // Keys are unique per host: the same key on another property replaces it too.
        y.addAnimation(BasicAnimation<Double>(fromValue: 0, toValue: 8, timing: MediaTiming(duration: 1)), forKey: "k")
        #expect(x.animationKeys.isEmpty)
        #expect(y.animationKeys == ["k"])
        #expect(x.presentationValue == 0)
        #expect(y.presentationValue == 0)  // begins now, at the commit time 0.5
        clock.now = 1
        #expect(y.presentationValue == 4)
    }

    @Test func removedOnCompletionAndForwardsFill() {
        let (clock, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        var held = BasicAnimation<Double>(fromValue: 0, toValue: 10, timing: MediaTiming(duration: 1, fillMode: .forwards))
        held.isRemovedOnCompletion = false
        x.addAnimation(held, forKey: "held")
        clock.now = 5
        #expect(x.presentationValue == 10)
        context.update()
        #expect(x.animationKeys == ["held"])
        #expect(x.presentationValue == 10)

        let y = host.addProperty("y", initialValue: 0.0)
        y.addAnimation(
            BasicAnimation<Double>(fromValue: 0, toValue: 10, timing: MediaTiming(duration: 1, fillMode: .forwards)), forKey: "removed")
        clock.now = 5.5
        #expect(y.presentationValue == 5)
        clock.now = 6.5
        #expect(y.presentationValue == 0)
        context.update()
        #expect(y.animationKeys.isEmpty)
    }

    @Test func animationsApplyInOrderAndAdditiveOnesAdd() {
        let (clock, _, host) = makeHost()
        let x = host.addProperty("x", initialValue: 100.0)
        let timing = MediaTiming(duration: 1)
        x.addAnimation(BasicAnimation<Double>(byValue: 10, timing: timing, isAdditive: true), forKey: "a")
        x.addAnimation(BasicAnimation<Double>(fromValue: -4, toValue: 4, timing: timing, isAdditive: true), forKey: "b")
        clock.now = 0.5
        #expect(x.presentationValue == 105)  // 100 + 5 + 0
        x.addAnimation(BasicAnimation<Double>(fromValue: 50, toValue: 60, timing: MediaTiming(beginTime: 0, duration: 2)), forKey: "c")
        #expect(x.presentationValue == 50)  // begins at the commit time 0.5 and overrides what is below
        clock.now = 1.5
        #expect(x.presentationValue == 55)
        x.addAnimation(BasicAnimation<Double>(byValue: 4, timing: MediaTiming(beginTime: 1, duration: 1), isAdditive: true), forKey: "d")
        #expect(x.presentationValue == 57)  // 55 + 2
        host.removeAnimation(forKey: "c")
        #expect(x.presentationValue == 102)  // model + d (a and b have ended)
        host.removeAllAnimations()
        #expect(x.presentationValue == 100)
        #expect(host.animationKeys.isEmpty)
    }

    @Test func toValueAloneStartsFromTheValueBeneath() {
        let (clock, _, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        x.addAnimation(BasicAnimation<Double>(fromValue: 0, toValue: 100, timing: MediaTiming(duration: 1)), forKey: "base")
        x.addAnimation(BasicAnimation<Double>(toValue: 0, timing: MediaTiming(duration: 1)), forKey: "to")
        clock.now = 0.5
        // Beneath "to" is 50 at this time; halfway to 0 is 25.
        #expect(x.presentationValue == 25)
    }

    @Test func completionHandlerOfAnAnimation() {
        let (clock, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        var result: [Bool] = []
        x.addAnimation(BasicAnimation<Double>(toValue: 1, timing: MediaTiming(duration: 1)), forKey: "a") { result.append($0) }
        x.addAnimation(BasicAnimation<Double>(toValue: 1, timing: MediaTiming(duration: 5)), forKey: "b") { result.append($0) }
        clock.now = 0.9
        context.update()
        #expect(result.isEmpty)
        clock.now = 1
        context.update()
        #expect(result == [true])
        host.removeAnimation(forKey: "b")
        #expect(result == [true, false])
    }

    @Test func keyframeAndSpringAnimationsOnAHost() throws {
        let (clock, context, host) = makeHost()
        let position = host.addProperty("position", initialValue: Vector2.zero)
        let path = try KeyframeAnimation<Vector2>(
            values: [Vector2(0, 0), Vector2(10, 0), Vector2(10, 10)],
            timing: MediaTiming(duration: 2))
        position.addAnimation(path, forKey: "path")
        clock.now = 1.5
        #expect(position.presentationValue == Vector2(10, 5))
        let spring = try Spring(damping: 20)
        position.addAnimation(SpringAnimation<Vector2>(spring: spring, fromValue: .zero, toValue: Vector2(100, 0)), forKey: "spring")
        #expect(position.animation(forKey: "spring")?.timing.duration == spring.settlingDuration)
        clock.now = 1.7
        #expect(isClose(position.presentationValue.x, 100 * spring.value(at: 0.2), 1e-12))
        clock.now = 100
        context.update()
        #expect(position.presentationValue == .zero)
        #expect(context.activeHostCount == 0)
    }

    @Test func updateEvaluatesOnlyAnimatedProperties() {
        let (clock, context, host) = makeHost()
        var properties: [AnimatableProperty<Double>] = []
        for i in 0..<100 {
            let p = host.addProperty("p\(i)", initialValue: 0.0)
            properties.append(p)
        }
        for p in properties.prefix(40) {
            p.addAnimation(BasicAnimation<Double>(fromValue: 0, toValue: 1, timing: MediaTiming(duration: 1)), forKey: "a-\(p.key)")
        }
        #expect(context.activeHostCount == 1)
        clock.now = 0.5
        #expect(context.update() == 40)
        #expect(properties[0].presentationValue == 0.5 && properties[99].presentationValue == 0)
        clock.now = 2
        #expect(context.update() == 40)  // the frame in which they finish
        #expect(context.update() == 0)
        #expect(context.activeHostCount == 0)
    }

    @Test func needsDisplayFollowsPresentationChanges() {
        let (clock, context, host) = makeHost()
        let delegate = TestDelegate()
        host.delegate = delegate
        let radius = host.addProperty("radius", initialValue: 0.0, needsDisplay: true)
        let other = host.addProperty("other", initialValue: 0.0)
        var notifications: [Set<String>] = []
        host.needsDisplayHandler = { _, keys in notifications.append(keys) }

        other.value = 3
        #expect(notifications.isEmpty && !host.needsDisplay)
        radius.value = 1
        #expect(notifications == [["radius"]])
        #expect(host.needsDisplay)
        host.displayIfNeeded()
        #expect(delegate.displayCount == 1 && !host.needsDisplay)
        host.displayIfNeeded()
        #expect(delegate.displayCount == 1)

        notifications = []
        radius.addAnimation(BasicAnimation<Double>(fromValue: 0, toValue: 2, timing: MediaTiming(duration: 1)), forKey: "grow")
        #expect(notifications == [["radius"]])  // the commit changed the presentation from 1 to 0
        for frame in 1...10 {
            clock.now = Double(frame) * 0.1
            context.update()
            #expect(notifications.count == frame + 1, "frame \(frame)")
        }
        // The animation ended at frame 10 and the value went back to the model (1).
        #expect(radius.presentationValue == 1)
        clock.now = 1.5
        context.update()
        #expect(notifications.count == 11)
        // A paused animation does not change, so it does not ask for display.
        radius.addAnimation(
            BasicAnimation<Double>(fromValue: 0, toValue: 2, timing: MediaTiming(duration: 1, speed: 0, timeOffset: 0.25)), forKey: "paused"
        )
        #expect(notifications.count == 12)
        clock.now = 2
        context.update()
        clock.now = 3
        context.update()
        #expect(notifications.count == 12)
        // One display covers every change since the last.
        host.displayIfNeeded()
        #expect(delegate.displayCount == 2)
        host.setNeedsDisplay()
        host.displayIfNeeded()
        #expect(delegate.displayCount == 3)
    }
}

@Suite("A property outliving its host")
struct PropertyLifetimeTests {
    @Test("a property kept after its host is released holds its values and animates no more, without a trap")
    func outlivesHost() {
        let clock = ManualClock()
        let context = AnimationContext(clock: clock)
        var host: AnimationHost? = AnimationHost(context: context)
        let x = host!.addProperty("x", initialValue: 0.0, defaultAction: .implicitAnimation)
        x.value = 1
        clock.now = 0.125
        #expect(x.presentationValue > 0 && x.presentationValue < 1)
        host = nil
        clock.now = 1
        context.update()  // the context lets go of the host once its animation has ended
        #expect(x.host == nil)
        #expect(x.modelValue == 1)
        x.value = 3
        #expect(x.modelValue == 3 && x.presentationValue == 3)
        var finished: Bool?
        x.addAnimation(BasicAnimation<Double>(fromValue: 0, toValue: 10), forKey: "late") { finished = $0 }
        #expect(finished == false)
        #expect(x.presentationValue == 3)
        context.update()
        #expect(x.presentationValue == 3)
    }
}

@Suite("Clocks")
struct ClockTests {
    @Test func manualClock() {
        let clock = ManualClock(now: 2)
        clock.advance(by: 0.5)
        #expect(clock.now == 2.5)
        clock.now = 1
        #expect(clock.now == 1)
    }

    @Test func frameClockHasNoDrift() {
        let clock = FrameClock(framesPerSecond: 30)
        #expect(clock.now == 0)
        clock.advance()
        #expect(clock.now == 1.0 / 30)
        clock.advance(frames: 299_999)
        #expect(clock.now == 10_000)
        let context = AnimationContext(clock: clock)
        #expect(context.currentTime == 10_000)
    }

    @Test func hostsReadTheInjectedClock() {
        let clock = FrameClock(framesPerSecond: 4)
        let host = AnimationHost(context: AnimationContext(clock: clock))
        let x = host.addProperty("x", initialValue: 0.0)
        x.addAnimation(BasicAnimation<Double>(fromValue: 0, toValue: 8, timing: MediaTiming(duration: 2)), forKey: "a")
        clock.advance(frames: 3)
        #expect(x.presentationValue == 3)
    }
}

/// A value type the engine has no pre-specialized code for, so it runs the generic path.
struct Celsius: Interpolatable {
    var degrees: Double
    static let zero = Celsius(degrees: 0)
    static func + (a: Celsius, b: Celsius) -> Celsius { Celsius(degrees: a.degrees + b.degrees) }
    static func - (a: Celsius, b: Celsius) -> Celsius { Celsius(degrees: a.degrees - b.degrees) }
    func scaled(by factor: Double) -> Celsius { Celsius(degrees: degrees * factor) }
    func distance(to other: Celsius) -> Double { abs(other.degrees - degrees) }
}

@Suite("Custom value types")
struct CustomValueTypeTests {
    @Test func genericPathMatchesTheSpecializedOne() throws {
        let (clock, context, host) = makeHost()
        let plain = host.addProperty("plain", initialValue: 10.0)
        let custom = host.addProperty("custom", initialValue: Celsius(degrees: 10))
        let timing = MediaTiming(duration: 2, repeatCount: 2, autoreverses: true, timingFunction: .easeInEaseOut)
        plain.addAnimation(BasicAnimation<Double>(byValue: 30, timing: timing, isAdditive: true), forKey: "p")
        custom.addAnimation(BasicAnimation<Celsius>(byValue: Celsius(degrees: 30), timing: timing, isAdditive: true), forKey: "c")
        let values: [Double] = [0, 15, 40, 5]
        plain.addAnimation(
            try KeyframeAnimation<Double>(values: values, calculationMode: .cubicPaced, timing: MediaTiming(duration: 3), isAdditive: true),
            forKey: "pk")
        custom.addAnimation(
            try KeyframeAnimation<Celsius>(
                values: values.map { Celsius(degrees: $0) }, calculationMode: .cubicPaced,
                timing: MediaTiming(duration: 3), isAdditive: true), forKey: "ck")
        for step in 0...40 {
            clock.now = Double(step) * 0.2
            #expect(context.update() == 2)
            #expect(isClose(custom.presentationValue.degrees, plain.presentationValue, 1e-12), "t = \(clock.now)")
        }
        #expect(custom.presentationValue == Celsius(degrees: 10))
    }
}
