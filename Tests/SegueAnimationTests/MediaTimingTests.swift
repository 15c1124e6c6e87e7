import SegueAnimation
import Testing

/// Expected values below are worked out by hand from the reference pseudo-code.
@Suite("MediaTiming")
struct MediaTimingTests {
    func progress(_ timing: MediaTiming, _ t: Double) -> Double? {
        timing.progress(atParentTime: t)
    }

    @Test func defaults() {
        let timing = MediaTiming()
        #expect(timing.beginTime == 0 && timing.duration == 0 && timing.speed == 1 && timing.timeOffset == 0)
        #expect(timing.repeatCount == 0 && timing.repeatDuration == 0 && !timing.autoreverses)
        #expect(timing.fillMode == .removed && timing.timingFunction == nil)
        // An unresolved duration of 0 plays for 0.25 s.
        #expect(timing.resolvedDuration == 0.25)
        #expect(isClose(progress(timing, 0.125)!, 0.5, 1e-15))
        #expect(progress(timing, 0.25) == nil)
    }

    @Test func fillModeRemoved() {
        let timing = MediaTiming(beginTime: 1, duration: 2)
        #expect(progress(timing, 0.5) == nil)
        #expect(progress(timing, 1) == 0)
        #expect(progress(timing, 2) == 0.5)
        #expect(isClose(progress(timing, 2.9)!, 0.95, 1e-15))
        #expect(progress(timing, 3) == nil)
        #expect(!timing.isFinished(atParentTime: 2.9))
        #expect(timing.isFinished(atParentTime: 3))
    }

    @Test func fillModeForwards() {
        let timing = MediaTiming(beginTime: 1, duration: 2, fillMode: .forwards)
        #expect(progress(timing, 0.5) == nil)
        #expect(progress(timing, 3) == 1)
        #expect(progress(timing, 100) == 1)
        #expect(timing.sample(atParentTime: 100)?.isFinished == true)
        #expect(timing.sample(atParentTime: 2)?.isFinished == false)
    }

    @Test func fillModeBackwards() {
        let timing = MediaTiming(beginTime: 1, duration: 2, fillMode: .backwards)
        #expect(progress(timing, -5) == 0)
        #expect(progress(timing, 0.5) == 0)
        #expect(progress(timing, 2) == 0.5)
        #expect(progress(timing, 3) == nil)
    }

    @Test func fillModeBoth() {
        let timing = MediaTiming(beginTime: 1, duration: 2, fillMode: .both)
        #expect(progress(timing, 0.5) == 0)
        #expect(progress(timing, 2) == 0.5)
        #expect(progress(timing, 7) == 1)
        #expect(FillMode.both.fillsForwards && FillMode.both.fillsBackwards)
        #expect(!FillMode.removed.fillsForwards && !FillMode.removed.fillsBackwards)
    }

    @Test func repeatCount() {
        let timing = MediaTiming(duration: 1, repeatCount: 3, fillMode: .forwards)
        #expect(timing.activeDuration == 3)
        #expect(progress(timing, 0.25) == 0.25)
        #expect(progress(timing, 1.25) == 0.25)
        #expect(timing.iteration(atParentTime: 1.25) == 1)
        #expect(progress(timing, 2.5) == 0.5)
        #expect(timing.iteration(atParentTime: 2.5) == 2)
        // The clamped end is the end of the last iteration, not the start of a fourth.
        #expect(progress(timing, 3) == 1)
        #expect(timing.iteration(atParentTime: 3) == 2)
        #expect(timing.iteration(atParentTime: 10) == 2)
        let removed = MediaTiming(duration: 1, repeatCount: 3)
        #expect(progress(removed, 3) == nil)
    }

    @Test func fractionalRepeatCountStopsPartWay() {
        let timing = MediaTiming(duration: 2, repeatCount: 2.5, fillMode: .forwards)
        #expect(timing.activeDuration == 5)
        #expect(progress(timing, 4.5) == 0.25)
        #expect(progress(timing, 5) == 0.5)
        #expect(progress(timing, 50) == 0.5)
        #expect(timing.iteration(atParentTime: 50) == 2)
    }

    @Test func repeatDurationOverridesRepeatCount() {
        let timing = MediaTiming(duration: 1, repeatCount: 10, repeatDuration: 1.5, fillMode: .forwards)
        #expect(timing.activeDuration == 1.5)
        #expect(progress(timing, 1.25) == 0.25)
        #expect(progress(timing, 2) == 0.5)
        #expect(timing.isFinished(atParentTime: 1.5))
    }

    @Test func infiniteRepeatNeverFinishes() {
        let timing = MediaTiming(duration: 2, repeatCount: .infinity)
        #expect(timing.activeDuration == .infinity)
        #expect(isClose(progress(timing, 1001)!, 0.5, 1e-12))
        #expect(timing.iteration(atParentTime: 1001) == 500)
        #expect(!timing.isFinished(atParentTime: 1e9))
        #expect(timing.endTime == .infinity)
    }

    @Test func autoreverses() {
        let timing = MediaTiming(duration: 1, autoreverses: true, fillMode: .forwards)
        #expect(timing.period == 2)
        #expect(progress(timing, 0.25) == 0.25)
        #expect(progress(timing, 1) == 1)
        #expect(progress(timing, 1.25) == 0.75)
        #expect(progress(timing, 1.75) == 0.25)
        // The clamped end of an autoreversing animation is back at the start.
        #expect(progress(timing, 2) == 0)
        #expect(progress(timing, 9) == 0)
        #expect(timing.isFinished(atParentTime: 2))
    }

    @Test func autoreversesWithRepeats() {
        let timing = MediaTiming(duration: 1, repeatCount: 1.5, autoreverses: true, fillMode: .forwards)
        #expect(timing.activeDuration == 3)
        #expect(progress(timing, 2.5) == 0.5)
        #expect(timing.iteration(atParentTime: 2.5) == 1)
        // 1.5 periods end at the far end of the second iteration.
        #expect(progress(timing, 3) == 1)
    }

    @Test func speed() {
        let fast = MediaTiming(beginTime: 1, duration: 1, speed: 2)
        #expect(progress(fast, 1.25) == 0.5)
        #expect(progress(fast, 1.5) == nil)
        #expect(fast.endTime == 1.5)
        let slow = MediaTiming(duration: 1, speed: 0.5)
        #expect(progress(slow, 1) == 0.5)
        #expect(slow.isFinished(atParentTime: 2))
    }

    @Test func speedZeroPausesAtTimeOffset() {
        let paused = MediaTiming(beginTime: 5, duration: 2, speed: 0, timeOffset: 0.6)
        for t in [0.0, 5, 6, 100] {
            #expect(isClose(progress(paused, t)!, 0.3, 1e-15))
        }
        #expect(!paused.isFinished(atParentTime: 1e6))
    }

    @Test func timeOffsetShiftsAndWraps() {
        let timing = MediaTiming(duration: 1, timeOffset: 0.5)
        #expect(progress(timing, 0) == 0.5)
        #expect(progress(timing, 0.25) == 0.75)
        // Past the end of the iteration it wraps to the start (Core Animation's behaviour).
        #expect(isClose(progress(timing, 0.6)!, 0.1, 1e-12))
        #expect(progress(timing, 1) == nil)
        let held = MediaTiming(duration: 1, timeOffset: 0.5, fillMode: .forwards)
        #expect(progress(held, 5) == 0.5)
    }

    @Test func timingFunctionEasesEachIteration() {
        let timing = MediaTiming(duration: 2, repeatCount: 2, timingFunction: .easeInEaseOut)
        let reference = ReferenceBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        #expect(isClose(progress(timing, 0.5)!, reference.y(atX: 0.25), 1e-9))
        #expect(isClose(progress(timing, 2.5)!, reference.y(atX: 0.25), 1e-9))
        #expect(isClose(progress(timing, 3.5)!, reference.y(atX: 0.75), 1e-9))
        let sample = timing.sample(atParentTime: 3.5)!
        #expect(sample.fraction == 0.75 && sample.localTime == 1.5 && sample.iteration == 1)
    }
}
