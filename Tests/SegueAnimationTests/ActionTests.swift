import SegueAnimation
import SegueMath
import Testing

/// A host subclass with a class-wide default action, as CALayer subclasses override
/// `defaultAction(forKey:)`.
final class SubclassedHost: AnimationHost {
    let log = ActionLog()

    override func defaultAction(forKey key: String) -> Action? {
        key == "special" ? log.action("class default") : super.defaultAction(forKey: key)
    }
}

@Suite("Actions")
struct ActionTests {
    let defaultCurve = ReferenceBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)

    @Test func implicitAnimationFromThePresentationValue() {
        let (clock, context, host) = makeHost()
        let opacity = host.addProperty("opacity", initialValue: 0.0, defaultAction: .implicitAnimation)
        opacity.value = 1
        #expect(opacity.modelValue == 1)
        #expect(host.animationKeys == ["opacity"])
        #expect(opacity.animation(forKey: "opacity")?.timing.duration == 0.25)
        #expect(opacity.animation(forKey: "opacity")?.timing.timingFunction == .default)
        #expect(opacity.presentationValue == 0)
        clock.now = 0.125
        #expect(isClose(opacity.presentationValue, defaultCurve.y(atX: 0.5), 1e-9))
        clock.now = 0.25
        #expect(opacity.presentationValue == 1)
        context.update()
        #expect(host.animationKeys.isEmpty)
    }

    @Test func retargetingStartsFromTheCurrentPresentationValue() {
        let (clock, _, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0, defaultAction: .implicitAnimation)
        x.value = 1
        clock.now = 0.1
        let midway = defaultCurve.y(atX: 0.4)
        #expect(isClose(x.presentationValue, midway, 1e-9))
        x.value = 2
        #expect(host.animationKeys == ["x"])  // the new implicit animation replaced the old one
        #expect(isClose(x.presentationValue, midway, 1e-9))
        clock.now = 0.1 + 0.125
        #expect(isClose(x.presentationValue, midway + (2 - midway) * defaultCurve.y(atX: 0.5), 1e-9))
    }

    @Test func implicitAnimationTakesTheTransactionsDurationAndTiming() {
        let (clock, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0, defaultAction: .implicitAnimation)
        context.perform { transaction in
            transaction.animationDuration = 2
            transaction.animationTimingFunction = .linear
            x.value = 10
        }
        clock.now = 1
        #expect(x.presentationValue == 5)
        #expect(x.animation(forKey: "x")?.timing.duration == 2)
    }

    @Test func disableActionsSkipsTheAnimation() {
        let (_, context, host) = makeHost()
        let log = ActionLog()
        let delegate = TestDelegate()
        host.delegate = delegate
        let x = host.addProperty("x", initialValue: 0.0, defaultAction: log.action("default"))
        context.perform { transaction in
            transaction.disableActions = true
            x.value = 10
        }
        #expect(x.presentationValue == 10)
        #expect(log.entries.isEmpty)
        #expect(delegate.asked.isEmpty)  // the search does not even start
    }

    @Test func lookupOrderDelegateThenDictionaryThenDefault() {
        let (_, _, host) = makeHost()
        let log = ActionLog()
        let delegate = TestDelegate()
        host.delegate = delegate
        let x = host.addProperty("x", initialValue: 0.0, defaultAction: log.action("default"))

        delegate.answers["x"] = log.action("delegate")
        host.actions["x"] = log.action("dictionary")
        x.value = 1
        #expect(log.entries == ["delegate"])

        delegate.answers["x"] = nil
        x.value = 2
        #expect(log.entries == ["delegate", "dictionary"])

        host.actions["x"] = nil
        x.value = 3
        #expect(log.entries == ["delegate", "dictionary", "default"])
        #expect(delegate.asked == ["x", "x", "x"])
    }

    @Test func explicitNoActionStopsTheSearch() {
        let (_, _, host) = makeHost()
        let log = ActionLog()
        let delegate = TestDelegate()
        host.delegate = delegate
        let x = host.addProperty("x", initialValue: 0.0, defaultAction: log.action("default"))
        host.actions["x"] = log.action("dictionary")

        delegate.answers["x"] = .noAction
        x.value = 1
        #expect(log.entries.isEmpty)
        #expect(host.action(forKey: "x") == nil)
        #expect(x.presentationValue == 1)

        delegate.answers["x"] = nil
        host.actions["x"] = .noAction
        x.value = 2
        #expect(log.entries.isEmpty)
        #expect(host.action(forKey: "x") == nil)

        host.actions["x"] = nil
        #expect(host.action(forKey: "x") != nil)
    }

    @Test func subclassDefaultAction() {
        let context = AnimationContext(clock: ManualClock())
        let host = SubclassedHost(context: context)
        let special = host.addProperty("special", initialValue: 0.0)
        let plain = host.addProperty("plain", initialValue: 0.0)
        special.value = 1
        plain.value = 1
        #expect(host.log.entries == ["class default"])
        host.actions["special"] = .noAction
        special.value = 2
        #expect(host.log.entries == ["class default"])
    }

    @Test func customActionSeesPreviousAndNewValues() {
        let (_, _, host) = makeHost()
        var seen: [(Double, Double, String)] = []
        let x = host.addProperty("x", initialValue: 3.0)
        host.actions["x"] = Action { invocation in
            seen.append((invocation.previousValue as! Double, invocation.newValue as! Double, invocation.key))
        }
        x.value = 7
        #expect(seen.count == 1)
        #expect(seen.first! == (3, 7, "x"))
    }

    @Test func animationActionWithoutValuesAnimatesFromThePreviousValue() {
        let (clock, _, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        host.actions["x"] = .animation(BasicAnimation<Double>(timing: MediaTiming(duration: 1)))
        x.value = 10
        clock.now = 0.25
        #expect(x.presentationValue == 2.5)
    }

    @Test func animationActionWithAKeyframeAnimation() throws {
        let (clock, _, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        host.actions["x"] = .animation(try KeyframeAnimation<Double>(values: [0, 20, 10], timing: MediaTiming(duration: 1)))
        x.value = 10
        clock.now = 0.25
        #expect(x.presentationValue == 10)
        clock.now = 0.75
        #expect(x.presentationValue == 15)
    }

    @Test func springAction() throws {
        let (clock, _, host) = makeHost()
        let spring = try Spring(mass: 1, stiffness: 200, damping: 15)
        let x = host.addProperty("x", initialValue: 100.0, defaultAction: .spring(spring))
        x.value = 0
        #expect(x.animation(forKey: "x")?.timing.duration == spring.settlingDuration)
        clock.now = 0.2
        let expected = integrateSpring(mass: 1, stiffness: 200, damping: 15, velocity: 0, at: [0.2])[0]
        #expect(isClose(x.presentationValue, 100 * (1 - expected), 1e-6))
    }
}
