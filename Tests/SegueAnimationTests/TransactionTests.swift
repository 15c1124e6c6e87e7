import SegueAnimation
import Testing

private struct Failure: Error {}

@Suite("Transactions")
struct TransactionTests {
    @Test func changesCommitAtTheOutermostCommit() {
        let (_, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        context.begin()
        x.value = 5
        #expect(x.modelValue == 5)
        #expect(x.presentationValue == 0)
        context.begin()
        #expect(context.transactionDepth == 2)
        x.value = 6
        context.commit()
        #expect(x.presentationValue == 0)
        context.commit()
        #expect(context.transactionDepth == 0)
        #expect(x.presentationValue == 6)
    }

    @Test func animationsBeginAtTheOutermostCommit() {
        let (clock, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        context.perform { _ in
            x.addAnimation(BasicAnimation<Double>(fromValue: 0, toValue: 10, timing: MediaTiming(duration: 1)), forKey: "a")
            #expect(x.animationKeys == ["a"])
            #expect(x.presentationValue == 0)
            clock.now = 0.5
        }
        #expect(x.presentationValue == 0)
        clock.now = 1
        #expect(x.presentationValue == 5)
    }

    @Test func nestedTransactionsInheritSettings() {
        let (_, context, host) = makeHost()
        let a = host.addProperty("a", initialValue: 0.0, defaultAction: .implicitAnimation)
        let b = host.addProperty("b", initialValue: 0.0, defaultAction: .implicitAnimation)
        let c = host.addProperty("c", initialValue: 0.0, defaultAction: .implicitAnimation)
        let d = host.addProperty("d", initialValue: 0.0, defaultAction: .implicitAnimation)
        context.perform { outer in
            outer.animationDuration = 2
            outer.animationTimingFunction = .easeIn
            context.perform { inner in
                #expect(inner.animationDuration == 2)
                a.value = 1
                inner.animationDuration = 1
                b.value = 1
                inner.disableActions = true
                c.value = 1
            }
            d.value = 1
        }
        #expect(a.animation(forKey: "a")?.timing.duration == 2)
        #expect(a.animation(forKey: "a")?.timing.timingFunction == .easeIn)
        #expect(b.animation(forKey: "b")?.timing.duration == 1)
        #expect(c.animation(forKey: "c") == nil)
        #expect(d.animation(forKey: "d")?.timing.duration == 2)
        #expect(context.animationDuration == 0.25)
    }

    @Test func explicitAnimationsTakeTheTransactionDurationButKeepTheirOwnCurve() {
        let (_, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        context.perform { transaction in
            transaction.animationDuration = 3
            transaction.animationTimingFunction = .easeOut
            x.addAnimation(BasicAnimation<Double>(toValue: 1), forKey: "zero-duration")
            x.addAnimation(BasicAnimation<Double>(toValue: 1, timing: MediaTiming(duration: 1, timingFunction: .linear)), forKey: "own")
            x.addAnimation(SpringAnimation<Double>(spring: .uikitNavigationPush, toValue: 1), forKey: "spring")
        }
        #expect(x.animation(forKey: "zero-duration")?.timing.duration == 3)
        #expect(x.animation(forKey: "zero-duration")?.timing.timingFunction == .easeOut)
        #expect(x.animation(forKey: "own")?.timing.duration == 1)
        #expect(x.animation(forKey: "own")?.timing.timingFunction == .linear)
        #expect(x.animation(forKey: "spring")?.timing.timingFunction == nil)
        // Outside a transaction a zero duration becomes 0.25 s.
        x.addAnimation(BasicAnimation<Double>(toValue: 1), forKey: "default")
        #expect(x.animation(forKey: "default")?.timing.duration == 0.25)
    }

    @Test func completionRunsAtOnceWhenNothingWasAdded() {
        let (_, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        var calls = 0
        context.perform { transaction in
            transaction.completion = { calls += 1 }
            x.value = 1  // no action: no animation
        }
        #expect(calls == 1)
        // Nested: at the outermost commit, not the inner one.
        context.begin()
        context.perform { inner in inner.completion = { calls += 1 } }
        #expect(calls == 1)
        context.commit()
        #expect(calls == 2)
    }

    @Test func completionRunsAfterTheLastAnimationFinishes() {
        let (clock, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        let y = host.addProperty("y", initialValue: 0.0)
        var calls: [Double] = []
        context.perform { transaction in
            transaction.completion = { calls.append(clock.now) }
            x.addAnimation(BasicAnimation<Double>(toValue: 1, timing: MediaTiming(duration: 1)), forKey: "a")
            y.addAnimation(BasicAnimation<Double>(toValue: 1, timing: MediaTiming(duration: 2)), forKey: "b")
        }
        for t in [0.0, 0.5, 1.0, 1.5, 1.99] {
            clock.now = t
            context.update()
            #expect(calls.isEmpty, "at \(t)")
        }
        clock.now = 2
        context.update()
        #expect(calls == [2])
        clock.now = 3
        context.update()
        #expect(calls == [2])
    }

    @Test func completionWaitsForHeldAnimationsOnlyUntilTheyFinish() {
        let (clock, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        var calls = 0
        context.perform { transaction in
            transaction.completion = { calls += 1 }
            var held = BasicAnimation<Double>(toValue: 1, timing: MediaTiming(duration: 1, fillMode: .forwards))
            held.isRemovedOnCompletion = false
            x.addAnimation(held, forKey: "held")
        }
        clock.now = 1
        context.update()
        #expect(calls == 1)
        #expect(x.animationKeys == ["held"])
        host.removeAnimation(forKey: "held")
        #expect(calls == 1)
    }

    @Test func completionRunsWhenTheLastAnimationIsRemoved() {
        let (clock, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        var calls = 0
        context.perform { transaction in
            transaction.completion = { calls += 1 }
            x.addAnimation(
                BasicAnimation<Double>(fromValue: 0, toValue: 1, timing: MediaTiming(duration: 1, repeatCount: .infinity)),
                forKey: "forever")
        }
        clock.now = 1000
        context.update()
        #expect(calls == 0)
        host.removeAnimation(forKey: "forever")
        #expect(calls == 1)
    }

    @Test func completionRunsWhenTheAnimationIsReplaced() {
        let (_, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        var calls = 0
        context.perform { transaction in
            transaction.completion = { calls += 1 }
            x.addAnimation(BasicAnimation<Double>(toValue: 1, timing: MediaTiming(duration: 1)), forKey: "k")
        }
        #expect(calls == 0)
        x.addAnimation(BasicAnimation<Double>(toValue: 2, timing: MediaTiming(duration: 1)), forKey: "k")
        #expect(calls == 1)
    }

    @Test func outerCompletionWaitsForNestedAnimations() {
        let (clock, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0, defaultAction: .implicitAnimation)
        var order: [String] = []
        context.perform { outer in
            outer.completion = { order.append("outer") }
            context.perform { inner in
                inner.completion = { order.append("inner") }
                inner.animationDuration = 1
                x.value = 1
            }
        }
        context.update()
        #expect(order.isEmpty)
        clock.now = 1
        context.update()
        #expect(order == ["inner", "outer"])
    }

    @Test func completionMayStartNewAnimations() {
        let (clock, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0, defaultAction: .implicitAnimation)
        var secondDone = false
        context.perform { transaction in
            transaction.animationDuration = 1
            transaction.completion = {
                context.perform { next in
                    next.animationDuration = 1
                    next.completion = { secondDone = true }
                    x.value = 2
                }
            }
            x.value = 1
        }
        clock.now = 1
        context.update()
        #expect(x.animationKeys == ["x"])
        #expect(!secondDone)
        clock.now = 1.5
        #expect(x.presentationValue > 1 && x.presentationValue < 2)
        clock.now = 2
        context.update()
        #expect(secondDone)
        #expect(x.presentationValue == 2)
    }

    @Test func performReturnsAndCommitsWhenTheBodyThrows() {
        let (_, context, host) = makeHost()
        let x = host.addProperty("x", initialValue: 0.0)
        let result = context.perform { _ in 42 }
        #expect(result == 42)
        #expect(throws: Failure.self) {
            try context.perform { _ in
                x.value = 3
                throw Failure()
            }
        }
        #expect(context.transactionDepth == 0)
        #expect(x.presentationValue == 3)
    }
}
