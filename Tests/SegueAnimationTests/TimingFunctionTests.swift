import SegueAnimation
import SegueMath
import Testing

@Suite("TimingFunction")
struct TimingFunctionTests {
    static let named: [(TimingFunction, ReferenceBezier)] = [
        (.linear, ReferenceBezier(x1: 0, y1: 0, x2: 1, y2: 1)),
        (.easeIn, ReferenceBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)),
        (.easeOut, ReferenceBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)),
        (.easeInEaseOut, ReferenceBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)),
        (.default, ReferenceBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)),
    ]

    @Test func checkValueFromTheReference() {
        #expect(isClose(TimingFunction.easeInEaseOut.value(at: 0.25), 0.129162, 1e-6))
    }

    @Test func namedCurvesMatchBisectionReference() {
        for (curve, reference) in Self.named {
            for i in 0...1000 {
                let x = Double(i) / 1000
                #expect(isClose(curve.value(at: x), reference.y(atX: x), 1e-9), "\(curve) at \(x)")
            }
        }
    }

    @Test func namedControlPoints() {
        #expect(
            [TimingFunction.easeIn.x1, TimingFunction.easeIn.y1, TimingFunction.easeIn.x2, TimingFunction.easeIn.y2] == [0.42, 0, 1, 1])
        #expect(
            [TimingFunction.default.x1, TimingFunction.default.y1, TimingFunction.default.x2, TimingFunction.default.y2] == [
                0.25, 0.1, 0.25, 1,
            ])
        #expect(isClose(TimingFunction.linear.value(at: 0.3), 0.3, 1e-12))
    }

    @Test func randomCurvesMatchBisectionReference() {
        var generator = SplitMix64(seed: 42)
        var curves: [(Double, Double, Double, Double)] = [
            (0, 1, 1, 0), (0.9, -0.5, 0.1, 1.5), (0, 0, 0, 1), (1, 0, 1, 1), (0.5, 2, 0.5, -1),
        ]
        for _ in 0..<40 {
            curves.append(
                (
                    Double.random(in: 0...1, using: &generator), Double.random(in: -1...2, using: &generator),
                    Double.random(in: 0...1, using: &generator), Double.random(in: -1...2, using: &generator)
                ))
        }
        for (x1, y1, x2, y2) in curves {
            let curve = TimingFunction(controlPoints: x1, y1, x2, y2)
            let reference = ReferenceBezier(x1: x1, y1: y1, x2: x2, y2: y2)
            for i in 0...200 {
                let x = Double(i) / 200
                #expect(isClose(curve.value(at: x), reference.y(atX: x), 1e-7), "cubic-bezier(\(x1), \(y1), \(x2), \(y2)) at \(x)")
            }
        }
    }

    @Test func curveWithAFlatInflection() {
        // x(t) = 3(1−t)²t + t³ has x'(0.5) = 0: y(x) is vertical at x = 0.5, where y = 0.5.
        let curve = TimingFunction(controlPoints: 1, 0, 0, 1)
        #expect(isClose(curve.value(at: 0.5), 0.5, 1e-9))
        let reference = ReferenceBezier(x1: 1, y1: 0, x2: 0, y2: 1)
        for x in [0.05, 0.2, 0.35, 0.45, 0.55, 0.65, 0.8, 0.95] {
            #expect(isClose(curve.value(at: x), reference.y(atX: x), 1e-7), "at \(x)")
        }
    }

    @Test func endpointsAreExact() {
        for (curve, _) in Self.named {
            #expect(curve.value(at: 0) == 0)
            #expect(curve.value(at: 1) == 1)
        }
    }

    @Test func extrapolatesAlongEndTangents() {
        for (x1, y1, x2, y2) in [
            (0.42, 0.0, 0.58, 1.0), (0.25, 0.1, 0.25, 1.0), (0.3, 0.8, 0.6, 1.4), (0.42, 0.0, 1.0, 1.0), (0.0, 0.0, 0.58, 1.0),
        ] {
            let curve = TimingFunction(controlPoints: x1, y1, x2, y2)
            let reference = ReferenceBezier(x1: x1, y1: y1, x2: x2, y2: y2)
            for x in [-1.0, -0.25, -0.01] {
                #expect(isClose(curve.value(at: x), reference.startSlope * x, 1e-5), "start of \(curve) at \(x)")
            }
            for x in [1.01, 1.5, 3.0] {
                #expect(isClose(curve.value(at: x), 1 + reference.endSlope * (x - 1), 1e-5), "end of \(curve) at \(x)")
            }
        }
        // Hand-computed: easeIn ends along the chord from (0.42, 0) to (1, 1): slope 1/0.58.
        #expect(isClose(TimingFunction.easeIn.value(at: 1.5), 1 + 0.5 / 0.58, 1e-12))
        #expect(TimingFunction.easeIn.value(at: -0.5) == 0)
    }

    @Test func parsesNames() throws {
        #expect(try TimingFunction(parsing: "linear") == .linear)
        #expect(try TimingFunction(parsing: " ease-in ") == .easeIn)
        #expect(try TimingFunction(parsing: "ease-out") == .easeOut)
        #expect(try TimingFunction(parsing: "EASE-IN-OUT") == .easeInEaseOut)
        #expect(try TimingFunction(parsing: "default") == .default)
        #expect(try TimingFunction(parsing: "easeInEaseOut") == .easeInEaseOut)
    }

    @Test func parsesCubicBezier() throws {
        let curve = try TimingFunction(parsing: "cubic-bezier(0.1, -0.5,0.9 , 1.5)")
        #expect(curve == TimingFunction(controlPoints: 0.1, -0.5, 0.9, 1.5))
        // The description reads back.
        for text in ["linear", "ease-in", "ease-out", "ease-in-out", "default", "cubic-bezier(0.1, -0.5, 0.9, 1.5)"] {
            #expect(try TimingFunction(parsing: text).description == text)
        }
    }

    @Test func rejectsInvalidText() throws {
        func message(_ text: String) -> String {
            do {
                _ = try TimingFunction(parsing: text)
                return "no error"
            } catch {
                return error.message
            }
        }
        #expect(message("bouncy").contains("unknown timing function 'bouncy'"))
        #expect(message("cubic-bezier(1.5, 0, 0.5, 1)").contains("x1 = 1.5 is outside [0, 1]"))
        #expect(message("cubic-bezier(0.5, 0, -0.1, 1)").contains("x2 = -0.1 is outside [0, 1]"))
        #expect(message("cubic-bezier(0.5, 0, 0.5)").contains("needs 4 numbers"))
        // y is unbounded in CSS; near 1e308 the polynomial overflowed and progress was NaN.
        #expect(
            message("cubic-bezier(0, 1e308, 1, 1)")
                == "cubic-bezier y1 = 1e+308 is outside [-1000, 1000]; a control point that far overshoots beyond any screen")
        #expect(message("cubic-bezier(0, 0, 1, -1000.5)").contains("y2 = -1000.5 is outside [-1000, 1000]"))
        let extreme = try TimingFunction(parsing: "cubic-bezier(0, 1000, 1, -1000)")
        for x in stride(from: 0.0, through: 1.0, by: 0.125) { #expect(extreme.value(at: x).isFinite) }
        #expect(message("cubic-bezier(0.5, zero, 0.5, 1)").contains("y1 'zero' is not a finite number"))
        #expect(message("cubic-bezier(0.5, 0, 0.5, 1").contains("closing parenthesis"))
        #expect(throws: AnimationError.self) { try TimingFunction(parsing: "cubic-bezier(0, nan, 1, 1)") }
    }
}
