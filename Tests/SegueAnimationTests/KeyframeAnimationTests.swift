import SegueAnimation
import SegueMath
import Testing

/// Independent reference: uniform Catmull–Rom through P0…P3 for the segment P1 → P2, in the
/// matrix form ½·[2P1 + (−P0+P2)s + (2P0−5P1+4P2−P3)s² + (−P0+3P1−3P2+P3)s³].
private func catmullRom(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double, _ s: Double) -> Double {
    0.5 * (2 * p1 + (-p0 + p2) * s + (2 * p0 - 5 * p1 + 4 * p2 - p3) * s * s + (-p0 + 3 * p1 - 3 * p2 + p3) * s * s * s)
}

private func keyframeError(_ make: () throws -> KeyframeAnimation<Double>) -> String {
    do {
        _ = try make()
        return "no error"
    } catch {
        return error.message
    }
}

@Suite("KeyframeAnimation")
struct KeyframeAnimationTests {
    @Test func linearWithEvenKeyTimes() throws {
        let a = try KeyframeAnimation<Double>(values: [0, 10, 30])
        #expect(a.effectiveKeyTimes == [0, 0.5, 1])
        #expect(a.keyframeValue(atFraction: 0) == 0)
        #expect(a.keyframeValue(atFraction: 0.25) == 5)
        #expect(a.keyframeValue(atFraction: 0.5) == 10)
        #expect(a.keyframeValue(atFraction: 0.75) == 20)
        #expect(a.keyframeValue(atFraction: 1) == 30)
    }

    @Test func linearWithKeyTimesHoldsOutsideThem() throws {
        let a = try KeyframeAnimation<Double>(values: [0, 10, 30], keyTimes: [0.2, 0.4, 0.8])
        #expect(a.keyframeValue(atFraction: 0.1) == 0)
        #expect(isClose(a.keyframeValue(atFraction: 0.3), 5, 1e-12))
        #expect(isClose(a.keyframeValue(atFraction: 0.6), 20, 1e-12))
        #expect(a.keyframeValue(atFraction: 0.9) == 30)
    }

    @Test func segmentLookupIsRightContinuous() throws {
        // Two equal key times make a jump; at the key time itself the later value shows.
        let a = try KeyframeAnimation<Double>(values: [0, 10, 100, 200], keyTimes: [0, 0.5, 0.5, 1])
        #expect(isClose(a.keyframeValue(atFraction: 0.5 - 1e-9), 10, 1e-6))
        #expect(a.keyframeValue(atFraction: 0.5) == 100)
        #expect(a.keyframeValue(atFraction: 0.75) == 150)
    }

    @Test func segmentTimingFunctionsApplyAfterTheAnimationsOwn() throws {
        let timing = MediaTiming(duration: 1, timingFunction: .easeIn)
        let a = try KeyframeAnimation<Double>(values: [0, 10, 20], timingFunctions: [.easeOut, .linear], timing: timing)
        let easeIn = ReferenceBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
        let easeOut = ReferenceBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
        for t in [0.2, 0.5, 0.7, 0.9] {
            let f = easeIn.y(atX: t)
            let expected = f < 0.5 ? 10 * easeOut.y(atX: f / 0.5) : 10 + 10 * (f - 0.5) / 0.5
            #expect(isClose(a.value(atParentTime: t, current: 0)!, expected, 1e-8), "t = \(t)")
        }
    }

    @Test func discreteWithoutKeyTimes() throws {
        let a = try KeyframeAnimation<Double>(values: [1, 2, 3], calculationMode: .discrete)
        #expect(a.effectiveKeyTimes.count == 4)
        #expect(a.keyframeValue(atFraction: 0) == 1)
        #expect(a.keyframeValue(atFraction: 0.33) == 1)
        #expect(a.keyframeValue(atFraction: 0.34) == 2)
        #expect(a.keyframeValue(atFraction: 0.67) == 3)
        #expect(a.keyframeValue(atFraction: 1) == 3)
    }

    @Test func discreteUsesTheExtraKeyTime() throws {
        let a = try KeyframeAnimation<Double>(values: [1, 2, 3], keyTimes: [0.1, 0.2, 0.5, 0.9], calculationMode: .discrete)
        #expect(a.keyframeValue(atFraction: 0.05) == 1)
        #expect(a.keyframeValue(atFraction: 0.1) == 1)
        #expect(a.keyframeValue(atFraction: 0.2) == 2)
        #expect(a.keyframeValue(atFraction: 0.49) == 2)
        #expect(a.keyframeValue(atFraction: 0.5) == 3)
        #expect(a.keyframeValue(atFraction: 0.95) == 3)
    }

    @Test func pacedSpacesSegmentsByDistance() throws {
        // Distances 1, 2, 3 of 6: key times 0, 1/6, 1/2, 1, so the motion is uniform: 6f.
        let a = try KeyframeAnimation<Double>(
            values: [0, 1, 3, 6], keyTimes: [0, 0.9, 0.95, 1],
            timingFunctions: [.easeIn, .easeIn, .easeIn], calculationMode: .paced)
        for i in 0...20 {
            let f = Double(i) / 20
            #expect(isClose(a.keyframeValue(atFraction: f), 6 * f, 1e-12), "f = \(f)")
        }
        // In the plane: legs of length 5 and 6, so the corner is reached at 5/11.
        let b = try KeyframeAnimation<Vector2>(values: [Vector2(0, 0), Vector2(3, 4), Vector2(3, 10)], calculationMode: .paced)
        let corner = b.keyframeValue(atFraction: 5.0 / 11)
        #expect((corner - Vector2(3, 4)).length < 1e-12)
        let later = b.keyframeValue(atFraction: 8.0 / 11)
        #expect((later - Vector2(3, 7)).length < 1e-12)
    }

    @Test func pacedWithCoincidentValues() throws {
        let a = try KeyframeAnimation<Double>(values: [4, 4, 4], calculationMode: .paced)
        #expect(a.keyframeValue(atFraction: 0.3) == 4)
    }

    @Test func cubicIsCatmullRomThroughTheValues() throws {
        let p: [Double] = [0, 10, 5, 20, 15]
        let a = try KeyframeAnimation<Double>(values: p, calculationMode: .cubic)
        for segment in 0..<4 {
            // Missing neighbours at the ends are the end points themselves.
            let p0 = p[max(segment - 1, 0)]
            let p3 = p[min(segment + 2, 4)]
            for j in 0...10 {
                let s = Double(j) / 10
                let f = (Double(segment) + s) / 4
                let expected = catmullRom(p0, p[segment], p[segment + 1], p3, s)
                #expect(isClose(a.keyframeValue(atFraction: f), expected, 1e-12), "segment \(segment), s = \(s)")
            }
        }
        // Through every value at its key time.
        for (i, value) in p.enumerated() {
            #expect(isClose(a.keyframeValue(atFraction: Double(i) / 4), value, 1e-12))
        }
    }

    @Test func cubicWithVectors() throws {
        let p = [Vector2(0, 0), Vector2(1, 2), Vector2(3, 1), Vector2(4, 4)]
        let a = try KeyframeAnimation<Vector2>(values: p, calculationMode: .cubic)
        let v = a.keyframeValue(atFraction: 0.5)  // segment 1 at s = 0.5
        #expect(isClose(v.x, catmullRom(0, 1, 3, 4, 0.5), 1e-12))
        #expect(isClose(v.y, catmullRom(0, 2, 1, 4, 0.5), 1e-12))
    }

    @Test func fullTensionGivesZeroTangents() throws {
        let p: [Double] = [0, 10, -4]
        let a = try KeyframeAnimation<Double>(values: p, calculationMode: .cubic, tensionValues: [1, 1, 1])
        for j in 0...10 {
            let s = Double(j) / 10
            let smooth = 3 * s * s - 2 * s * s * s
            #expect(isClose(a.keyframeValue(atFraction: s / 2), 10 * smooth, 1e-12))
            #expect(isClose(a.keyframeValue(atFraction: 0.5 + s / 2), 10 - 14 * smooth, 1e-12))
        }
    }

    @Test func tensionContinuityBiasTangents() throws {
        let p: [Double] = [0, 10, 4, 8]
        let (t, c, b) = ([0.2, -0.3, 0.5, 0.0], [0.1, 0.4, -0.2, 0.3], [-0.5, 0.25, 0.1, -0.2])
        let a = try KeyframeAnimation<Double>(values: p, calculationMode: .cubic, tensionValues: t, continuityValues: c, biasValues: b)
        // Kochanek–Bartels tangents for the middle segment 10 → 4, written out from the definitions.
        let out1 = (1 - t[1]) * (1 + b[1]) * (1 + c[1]) / 2 * (p[1] - p[0]) + (1 - t[1]) * (1 - b[1]) * (1 - c[1]) / 2 * (p[2] - p[1])
        let in2 = (1 - t[2]) * (1 + b[2]) * (1 - c[2]) / 2 * (p[2] - p[1]) + (1 - t[2]) * (1 - b[2]) * (1 + c[2]) / 2 * (p[3] - p[2])
        for j in 0...8 {
            let s = Double(j) / 8
            let hermite =
                (2 * s * s * s - 3 * s * s + 1) * p[1] + (s * s * s - 2 * s * s + s) * out1
                + (-2 * s * s * s + 3 * s * s) * p[2] + (s * s * s - s * s) * in2
            #expect(isClose(a.keyframeValue(atFraction: (1 + s) / 3), hermite, 1e-12))
        }
    }

    @Test func cubicWithUnevenKeyTimesIsSmoothInTime() throws {
        let a = try KeyframeAnimation<Double>(values: [0, 10, 5, 20], keyTimes: [0, 0.1, 0.7, 1], calculationMode: .cubic)
        #expect(isClose(a.keyframeValue(atFraction: 0.1), 10, 1e-12))
        #expect(isClose(a.keyframeValue(atFraction: 0.7), 5, 1e-12))
        // The time derivative is continuous across interior keys.
        let h = 1e-6
        for key in [0.1, 0.7] {
            let left = (a.keyframeValue(atFraction: key) - a.keyframeValue(atFraction: key - h)) / h
            let right = (a.keyframeValue(atFraction: key + h) - a.keyframeValue(atFraction: key)) / h
            #expect(isClose(left, right, 1e-3 * max(1, abs(left))), "slopes \(left) and \(right) at \(key)")
        }
    }

    @Test func cubicPacedMovesAtConstantSpeed() throws {
        // Evenly spaced collinear values: constant speed makes the motion exactly linear.
        let a = try KeyframeAnimation<Double>(values: [0, 1, 2, 3], calculationMode: .cubicPaced)
        for i in 0...40 {
            let f = Double(i) / 40
            #expect(isClose(a.keyframeValue(atFraction: f), 3 * f, 2e-4), "f = \(f)")
        }
        // A curved path: equal steps in f cover equal arc lengths.
        let p = [Vector2(0, 0), Vector2(10, 0), Vector2(10, 10), Vector2(0, 30)]
        let b = try KeyframeAnimation<Vector2>(values: p, calculationMode: .cubicPaced)
        #expect((b.keyframeValue(atFraction: 0) - p[0]).length < 1e-12)
        #expect((b.keyframeValue(atFraction: 1) - p[3]).length < 1e-9)
        var steps: [Double] = []
        var previous = b.keyframeValue(atFraction: 0)
        for i in 1...50 {
            // Arc length of each step, measured with 20 sub-steps.
            var length = 0.0
            for j in 1...20 {
                let point = b.keyframeValue(atFraction: (Double(i - 1) + Double(j) / 20) / 50)
                length += previous.distance(to: point)
                previous = point
            }
            steps.append(length)
        }
        let mean = steps.reduce(0, +) / Double(steps.count)
        #expect(steps.allSatisfy { abs($0 - mean) < 0.01 * mean }, "step lengths \(steps)")
    }

    @Test func singleValueHolds() throws {
        for mode in KeyframeCalculationMode.allCases {
            let a = try KeyframeAnimation<Double>(values: [7], calculationMode: mode)
            #expect(a.keyframeValue(atFraction: 0.5) == 7, "\(mode)")
        }
    }

    @Test func additiveAndCumulative() throws {
        let timing = MediaTiming(duration: 1, repeatCount: 2, fillMode: .forwards)
        let a = try KeyframeAnimation<Double>(values: [0, 4, 2], timing: timing, isAdditive: true, isCumulative: true)
        #expect(a.value(atParentTime: 0.25, current: 100) == 102)
        #expect(a.value(atParentTime: 1.75, current: 100) == 105)  // 100 + 3 + 1·2
        #expect(a.value(atParentTime: 5, current: 100) == 104)  // 100 + 2 + 1·2
    }

    @Test func invalidKeyTimesThrowNamingTheRule() {
        #expect(
            keyframeError { try KeyframeAnimation<Double>(values: [1, 2, 3], keyTimes: [0, 1]) }
                .contains("keyTimes count must equal values count (3), got 2"))
        #expect(
            keyframeError { try KeyframeAnimation<Double>(values: [1, 2, 3], keyTimes: [0, 0.5, 1], calculationMode: .discrete) }
                .contains("keyTimes count must be values count + 1 (4) in discrete mode, got 3"))
        #expect(
            keyframeError { try KeyframeAnimation<Double>(values: [1, 2, 3], keyTimes: [0, 1.5, 1]) }
                .contains("keyTimes must lie in [0, 1]: keyTimes[1] = 1.5"))
        #expect(
            keyframeError { try KeyframeAnimation<Double>(values: [1, 2, 3], keyTimes: [-0.1, 0.5, 1]) }
                .contains("keyTimes must lie in [0, 1]: keyTimes[0] = -0.1"))
        #expect(
            keyframeError { try KeyframeAnimation<Double>(values: [1, 2, 3], keyTimes: [0, .nan, 1]) }
                .contains("must lie in [0, 1]"))
        #expect(
            keyframeError { try KeyframeAnimation<Double>(values: [1, 2, 3], keyTimes: [0, 0.6, 0.4]) }
                .contains("keyTimes must be non-decreasing: keyTimes[2] = 0.4 is less than keyTimes[1] = 0.6"))
        // Paced modes ignore key times.
        #expect(
            keyframeError { try KeyframeAnimation<Double>(values: [1, 2, 3], keyTimes: [0.9, 0.1], calculationMode: .paced) } == "no error")
    }

    @Test func otherInvalidKeyframesThrow() {
        #expect(keyframeError { try KeyframeAnimation<Double>(values: []) }.contains("at least one value"))
        #expect(
            keyframeError { try KeyframeAnimation<Double>(values: [1, 2, 3], timingFunctions: [.linear]) }
                .contains("timingFunctions count must be values count − 1 (2)"))
        #expect(
            keyframeError { try KeyframeAnimation<Double>(values: [1, 2], calculationMode: .cubic, tensionValues: [0]) }
                .contains("tensionValues count must equal values count (2), got 1"))
        #expect(
            keyframeError { try KeyframeAnimation<Double>(values: [1, 2], calculationMode: .cubic, biasValues: [0, .infinity]) }
                .contains("biasValues[1] must be a finite number"))
        #expect(throws: AnimationError.self) { try KeyframeAnimation<Double>(values: [1], keyTimes: [0, 1]) }
    }
}
