// TransitionTiming and ParameterKeyframes against the reference formulas.
import Foundation
import SegueAnimation
import SegueCore
import SegueMath
import Testing

@Suite("Transition timing")
struct TransitionTimingTests {
    @Test("a timing function is stretched over the pass; repeats and autoreverse follow media timing")
    func curveAndRepeats() throws {
        let t = try TransitionTiming(curve: .timingFunction(.easeInEaseOut), duration: 2, repeatCount: 3, autoreverses: true)
        #expect(t.totalDuration == 12)
        // Bézier evaluated by bisection here, independently of TimingFunction.
        func bezier(_ x: Double) -> Double {
            func coord(_ s: Double, _ a: Double, _ b: Double) -> Double {
                3 * a * s * (1 - s) * (1 - s) + 3 * b * s * s * (1 - s) + s * s * s
            }
            var lo = 0.0, hi = 1.0
            for _ in 0..<200 { let mid = (lo + hi) / 2; if coord(mid, 0.42, 0.58) < x { lo = mid } else { hi = mid } }
            return coord((lo + hi) / 2, 0, 1)
        }
        for time in stride(from: 0.0, through: 12.0, by: 0.37) {
            let local = time.truncatingRemainder(dividingBy: 4)
            let fraction = local <= 2 ? local / 2 : (4 - local) / 2
            #expect(abs(t.progress(at: time) - bezier(fraction)) < 1e-6, "t=\(time)")
        }
        #expect(t.progress(at: 12) == 0, "autoreversed: ends on from")
        #expect(t.progress(at: 99) == 0)
        #expect(try TransitionTiming(curve: .timingFunction(.linear), duration: 1).progress(at: 1) == 1)
        #expect(try TransitionTiming(curve: .timingFunction(.linear), duration: 1, repeatCount: 2.5).progress(at: 2.5) == 0.5)
    }

    @Test("a spring runs in seconds, not stretched; its pass defaults to the settling duration and ends exactly at 1")
    func spring() throws {
        let spring = try Spring(mass: 1, stiffness: 200, damping: 12)
        let t = try TransitionTiming(curve: .spring(spring))
        #expect(t.duration == spring.settlingDuration)
        let w0 = 200.0.squareRoot(), zeta = 12 / (2 * 200.0.squareRoot())
        let wd = w0 * (1 - zeta * zeta).squareRoot()
        for time in [0.01, 0.1, 0.2, 0.4, 0.7] {
            let expected = 1 - exp(-zeta * w0 * time) * (cos(wd * time) + zeta * w0 / wd * sin(wd * time))
            #expect(abs(t.progress(at: time) - expected) < 1e-9)
        }
        #expect(t.progress(at: t.duration) == 1)
        // A longer duration than the settling time only keeps the spring running longer.
        let long = try TransitionTiming(curve: .spring(spring), duration: 3)
        #expect(abs(long.progress(at: 0.2) - t.progress(at: 0.2)) < 1e-12)
    }

    @Test("a barely damped spring without a duration is refused (it was a pass of 3.3e299 s); with one it runs")
    func barelyDampedSpring() throws {
        let curve = try TransitionTiming.Curve(parsing: "spring(response=0.3,damping-fraction=1e-300)")
        #expect(
            throws: AnimationError(
                .invalidParameter, "this spring oscillates for longer than 10000 s (damping ratio 1e-300); give a duration")
        ) {
            try TransitionTiming(curve: curve)
        }
        let t = try TransitionTiming(curve: curve, duration: 2)
        #expect(t.duration == 2 && t.progress(at: 2) == 1 && t.progress(at: 1).isFinite)
    }

    @Test("ios-push and ios-pop default to UIKit's push spring, evaluated as critically damped")
    func uikitPush() throws {
        let curve = try TransitionTiming.Curve(parsing: "spring(mass=3,stiffness=1000,damping=500)")
        #expect(curve == .spring(.uikitNavigationPush))
        let t = try TransitionTiming(curve: curve, duration: 0.5)
        let w0 = (1000.0 / 3).squareRoot()
        for time in [0.05, 0.1, 0.25, 0.45] {
            #expect(abs(t.progress(at: time) - (1 - (1 + w0 * time) * exp(-w0 * time))) < 1e-12)
        }
        #expect(abs(Spring.uikitNavigationPush.value(at: 0.5) - 0.9989) < 1e-4)
    }

    @Test("curve parsing: names, cubic-bezier, spring(...), and clear errors")
    func parsing() throws {
        #expect(try TransitionTiming.Curve(parsing: "ease-in") == .timingFunction(.easeIn))
        #expect(
            try TransitionTiming.Curve(parsing: " spring(response=0.5, damping-fraction=1) ").spring
                == (try Spring(response: 0.5, dampingFraction: 1)))
        #expect(try TransitionTiming.Curve(parsing: "spring") == .spring(try Spring()))
        #expect(throws: AnimationError.self) { try TransitionTiming.Curve(parsing: "spring[mass=1]") }
        #expect(throws: AnimationError.self) { try TransitionTiming.Curve(parsing: "bouncy") }
        #expect(throws: AnimationError.self) { try TransitionTiming(curve: .timingFunction(.linear)) }
        #expect(throws: AnimationError.self) { try TransitionTiming(curve: .timingFunction(.linear), duration: .nan) }
        #expect(throws: AnimationError.self) { try TransitionTiming(curve: .timingFunction(.linear), duration: 1, repeatCount: .infinity) }
        #expect(throws: AnimationError.self) { try TransitionTiming(curve: .spring(try Spring(damping: 0))) }
    }
}

@Suite("Parameter keyframes")
struct ParameterKeyframesTests {
    let effect = Effect(
        name: "e", summary: "", kind: .fullScreen, source: .builtIn, glsl: "", origin: .topLeft,
        parameters: [
            EffectParameter(name: "amount", type: .float, defaultValue: .float(0)),
            EffectParameter(name: "direction", type: .vec2, defaultValue: .vec2(1, 0)),
            EffectParameter(name: "count", type: .int, defaultValue: .int(1)),
            EffectParameter(name: "on", type: .bool, defaultValue: .bool(false)),
        ],
        defaultDuration: 1, defaultTiming: "linear")

    @Test("linear scalar and vector keyframes; ints round, bools switch at one half")
    func values() throws {
        let a = try ParameterKeyframes.parse("amount=0@0,2@0.5,0@1", effect: effect)
        for f in stride(from: 0.0, through: 1.0, by: 0.05) {
            #expect(abs(a.value(atFraction: f).scalar - (f <= 0.5 ? 4 * f : 4 * (1 - f))) < 1e-12)
        }
        let d = try ParameterKeyframes.parse("direction=(1,0)@0,(0,2)@1", effect: effect)
        #expect(d.value(atFraction: 0.25).components == [0.75, 0.5])
        let c = try ParameterKeyframes.parse("count=1@0,4@1", effect: effect)
        #expect(c.value(atFraction: 0.4).components == [2])  // 2.2 rounds to 2
        #expect(c.value(atFraction: 0.5).components == [3])  // 2.5 rounds away from zero
        let b = try ParameterKeyframes.parse("on=false@0,true@1", effect: effect)
        #expect(b.value(atFraction: 0.49).components == [0] && b.value(atFraction: 0.5).components == [1])
    }

    @Test("calculation modes: discrete takes a closing key time, paced ignores key times, cubic is Catmull–Rom")
    func modes() throws {
        let d = try ParameterKeyframes.parse("amount:discrete=1@0,2@0.25,3@0.5,@1", effect: effect)
        #expect([0.0, 0.2, 0.25, 0.49, 0.5, 0.99, 1].map { d.value(atFraction: $0).scalar } == [1, 1, 2, 2, 3, 3, 3])
        // Paced: distances 3 and 1, so the middle value is reached at 3/4 of the pass.
        let p = try ParameterKeyframes.parse("amount:paced=0@0,3@0.1,4@0.2", effect: effect)
        #expect(abs(p.value(atFraction: 0.75).scalar - 3) < 1e-12)
        #expect(abs(p.value(atFraction: 0.875).scalar - 3.5) < 1e-12)
        // Cubic through 0, 1, 0, 1 at even key times: the middle segment is the Catmull–Rom
        // Hermite curve with tangents (p2 − p0)/2 = 0 and (p3 − p1)/2 = 0 there.
        let c = try ParameterKeyframes.parse("amount:cubic=0@0,1@0.333333333333,0@0.666666666667,1@1", effect: effect)
        for s in [0.25, 0.5, 0.75] {
            let f = (1 + s) / 3
            let hermite = 2 * s * s * s - 3 * s * s + 1  // h00(s)·1 + h01(s)·0, zero tangents
            #expect(abs(c.value(atFraction: f).scalar - hermite) < 1e-6, "s=\(s)")
        }
    }

    @Test("a cubic curve's overshoot between keys stops at what the type holds: a 32-bit int, a half's ±65504")
    func overshootHeld() throws {
        // Keys 0, M, M at 0, ½, 1: the Catmull–Rom tangent at ½ is M/2 (0 at the last key), so
        // the curve rises past M in the last segment: h10(½)·M/2 = M/16 at ¾.
        let held = Effect(
            name: "h", summary: "", kind: .stitchable, source: .builtIn, glsl: "", origin: .topLeft,
            parameters: [
                EffectParameter(name: "count", type: .int, defaultValue: .int(0)),
                EffectParameter(name: "amount", type: .float, defaultValue: .float(0), typeName: "half"),
                EffectParameter(name: "tint", type: .vec2, defaultValue: .vec2(0, 0), typeName: "half2"),
                EffectParameter(name: "wide", type: .float, defaultValue: .float(0)),
            ],
            defaultDuration: 1, defaultTiming: "linear")
        let int = try ParameterKeyframes.parse("count:cubic=0@0,2147483647@0.5,2147483647@1", effect: held)
        #expect(int.animation.keyframeValue(atFraction: 0.75).values[0] == 2_147_483_647 * 1.0625, "the curve overshoots")
        #expect(int.value(atFraction: 0.75).components == [2_147_483_647])
        // Within the range the curve is untouched (rounded, as ints are).
        let inside = int.animation.keyframeValue(atFraction: 0.25).values[0]
        #expect(inside > 0 && inside < 2_147_483_647 && int.value(atFraction: 0.25).components == [inside.rounded()])
        let half = try ParameterKeyframes.parse("amount:cubic=0@0,65504@0.5,65504@1", effect: held)
        #expect(half.value(atFraction: 0.75).components == [65504])
        let negative = try ParameterKeyframes.parse("tint:cubic=(0,0)@0,(-65504,1)@0.5,(-65504,1)@1", effect: held)
        #expect(negative.value(atFraction: 0.75).components == [-65504, 1.0625])
        // A float (32-bit on the device) holds far more: the overshoot stands.
        let float = try ParameterKeyframes.parse("wide:cubic=0@0,65504@0.5,65504@1", effect: held)
        #expect(float.value(atFraction: 0.75).components == [65504 * 1.0625])
    }

    @Test("errors name the rule or the parameter")
    func errors() throws {
        func message(_ text: String) -> String {
            do { _ = try ParameterKeyframes.parse(text, effect: effect); return "" } catch { return "\(error)" }
        }
        #expect(message("amount=0@0,1@0.5,0@0.4").contains("non-decreasing") || message("amount=0@0,1@0.5,0@0.4").contains("decreas"))
        #expect(message("amount=0@0,1@2").contains("[0, 1]") || message("amount=0@0,1@2").contains("range"))
        #expect(message("amount=0@0,1").contains("needs a key time"))
        #expect(message("amount=0@0,@1").contains("only discrete"))
        #expect(message("amount:discrete=0@0,1@1").contains("key"))
        #expect(message("speed=0@0").contains("no parameter 'speed'"))
        #expect(message("amount=abc@0").contains("not a valid float"))
        #expect(message("amount").contains("NAME[:MODE]="))
    }
}
