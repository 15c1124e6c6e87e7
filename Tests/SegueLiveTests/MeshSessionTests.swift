// MeshSession with a manual clock: the touch follows the pointer in unit coordinates, a release
// springs back against the closed-form damped oscillator (written out here independently of
// `Spring`), phases run, and toggles animate from the value shown (beginFromCurrentState).
import Foundation
import Segue
import Testing

@Suite("MeshSession")
struct MeshSessionTests {
    static let size = (width: 400.0, height: 800.0)

    /// The displacement from rest of a damped oscillator with ω0, ζ, starting at d0 with velocity v0.
    static func oscillator(d0: Double, v0: Double, omega: Double, zeta: Double, t: Double) -> Double {
        if zeta < 1 {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            return exp(-zeta * omega * t) * (d0 * cos(wd * t) + (v0 + zeta * omega * d0) / wd * sin(wd * t))
        }
        return (d0 + (v0 + omega * d0) * t) * exp(-omega * t)
    }

    static func session(_ configuration: MeshSession.Configuration, at now: Double = 0) throws -> (MeshSession, ManualClock) {
        let clock = ManualClock(now: now)
        return (try MeshSession(configuration: configuration, clock: clock), clock)
    }

    func handle(_ s: MeshSession, _ event: WindowEvent) { s.handle(event, width: Self.size.width, height: Self.size.height) }

    @Test("while held, the touch is the pointer in unit coordinates of the layer; without a touch nothing follows")
    func follows() throws {
        let (s, clock) = try Self.session(MeshSession.Configuration(restTouch: Vector2(0.6, 0.5)))
        #expect(s.frame() == MeshFrame(touch: nil, phase: nil, fraction: 0), "at rest each mesh shows its own touch")
        handle(s, .pointerDown(x: 40, y: 200, time: 10))
        #expect(s.frame().touch == Vector2(0.1, 0.25))
        #expect(s.isTouching)
        clock.advance(by: 0.5)
        handle(s, .pointerMoved(x: 300, y: 600, isPressed: true, time: 10.5))
        #expect(s.frame().touch == Vector2(0.75, 0.75))
        // Held still: it stays there, however long.
        clock.advance(by: 3)
        #expect(s.frame().touch == Vector2(0.75, 0.75))
        // Moves without a button do nothing.
        let (idle, _) = try Self.session(MeshSession.Configuration(restTouch: Vector2(0.6, 0.5)))
        handle(idle, .pointerMoved(x: 10, y: 10, isPressed: false, time: 0))
        #expect(idle.frame().touch == nil)
        // A mesh without a touch: the pointer moves nothing.
        let (plain, _) = try Self.session(MeshSession.Configuration())
        handle(plain, .pointerDown(x: 40, y: 200, time: 0))
        #expect(plain.frame() == MeshFrame())
        #expect(!plain.isAnimating)
    }

    @Test("on release the touch returns to rest along the spring, starting at the pointer's velocity", arguments: [0.7, 1.0, 0.3])
    func releaseSpring(dampingFraction: Double) throws {
        let response = 0.5
        let spring = try Spring(response: response, dampingFraction: dampingFraction)
        let rest = Vector2(0.6, 0.5)
        let (s, clock) = try Self.session(MeshSession.Configuration(restTouch: rest, spring: spring), at: 100)
        // Down at (100, 400), then right and up: 100 points in x and −80 in y over the last 0.1 s.
        handle(s, .pointerDown(x: 100, y: 400, time: 5.0))
        handle(s, .pointerMoved(x: 150, y: 360, isPressed: true, time: 5.05))
        clock.now = 101
        handle(s, .pointerUp(x: 200, y: 320, time: 5.1))
        #expect(!s.isTouching)
        let d0 = Vector2(200 / Self.size.width, 320 / Self.size.height) - rest  // (−0.1, −0.1)
        let v0 = Vector2(1000 / Self.size.width, -800 / Self.size.height)  // (2.5, −1) per second
        let omega = 2 * Double.pi / response
        for t in [0.0, 0.01, 0.05, 0.1, 0.2, 0.35, 0.5] {
            clock.now = 101 + t
            let touch = try #require(s.frame().touch, "still moving at \(t) s")
            let expected = Vector2(
                rest.x + Self.oscillator(d0: d0.x, v0: v0.x, omega: omega, zeta: dampingFraction, t: t),
                rest.y + Self.oscillator(d0: d0.y, v0: v0.y, omega: omega, zeta: dampingFraction, t: t))
            #expect(abs(touch.x - expected.x) < 1e-9 && abs(touch.y - expected.y) < 1e-9, "t = \(t): \(touch) vs \(expected)")
        }
        #expect(s.isAnimating)
        // It settles: afterwards the touch is exactly at rest (each mesh's own value).
        clock.now = 101 + 10
        #expect(s.frame().touch == nil)
        #expect(!s.isAnimating)
    }

    @Test("a release after the pointer rested starts at zero velocity; a press while it springs catches the touch")
    func restThenCatch() throws {
        let rest = Vector2(0.5, 0.5)
        let (s, clock) = try Self.session(MeshSession.Configuration(restTouch: rest))
        handle(s, .pointerDown(x: 100, y: 100, time: 0))
        handle(s, .pointerMoved(x: 120, y: 200, isPressed: true, time: 0.1))
        // Held still for 0.3 s before the release.
        handle(s, .pointerUp(x: 120, y: 200, time: 0.4))
        let d0 = Vector2(0.3, 0.25) - rest
        let omega = 2 * Double.pi / 0.5
        clock.now = 0.15
        let touch = try #require(s.frame().touch)
        #expect(abs(touch.x - (rest.x + Self.oscillator(d0: d0.x, v0: 0, omega: omega, zeta: 0.7, t: 0.15))) < 1e-9)
        #expect(abs(touch.y - (rest.y + Self.oscillator(d0: d0.y, v0: 0, omega: omega, zeta: 0.7, t: 0.15))) < 1e-9)
        // A new press takes the touch where the finger lands.
        handle(s, .pointerDown(x: 200, y: 400, time: 1))
        clock.now = 2
        #expect(s.frame().touch == Vector2(0.5, 0.5))
        #expect(s.isTouching)
    }

    @Test("a slow spring (settling in minutes) carries the touch all the way to rest, not cut off at a minute")
    func slowSpringRelease() throws {
        // Critically damped, ω = 2π/100: D(t) = d0·(1 + ωt)·e^(−ωt) from rest velocity.
        let response = 100.0, omega = 2 * Double.pi / response
        let rest = Vector2(0.5, 0.5)
        let (s, clock) = try Self.session(
            MeshSession.Configuration(restTouch: rest, spring: try Spring(response: response, dampingFraction: 1)))
        // Down at the rest point, dragged left, held still (no velocity), released.
        handle(s, .pointerDown(x: 200, y: 400, time: 2))
        handle(s, .pointerMoved(x: 40, y: 400, isPressed: true, time: 2.5))
        handle(s, .pointerUp(x: 40, y: 400, time: 4))
        let start = clock.now
        let dx = 40 / Self.size.width - rest.x  // −0.4
        for t in [30.0, 61, 100, 150] {
            clock.now = start + t
            let touch = try #require(s.frame().touch, "still moving at \(t) s")
            let expected = rest.x + Self.oscillator(d0: dx, v0: 0, omega: omega, zeta: 1, t: t)
            // (Before, the release ended at 60 s with the touch 0.044 of the width, 18 points, from rest: a snap.)
            #expect(abs(touch.x - expected) < 1e-9, "t = \(t): \(touch.x) vs \(expected)")
        }
        // It ends once the displacement stays within the tolerance (1e-4), and not long after.
        clock.now = start + 400
        #expect(s.frame().touch == nil && !s.isAnimating)
    }

    @Test("a spring that does not settle is refused when the session is made, not swung for ever on release")
    func unsettledSpringRefused() throws {
        for (spring, problem) in [
            (try Spring(damping: 0), "this spring never settles (damping 0): a released touch would never come to rest; give it damping"),
            (
                try Spring(mass: 1e6, stiffness: 1e-6, damping: 10),
                "this spring takes longer than 10000 s to settle: a released touch would never come to rest; give it more stiffness or less mass"
            ),
            (
                try Spring(response: 0.3, dampingFraction: 1e-9),
                "this spring oscillates for longer than 10000 s (damping ratio 1e-09): a released touch would never come to rest; give it more damping"
            ),
        ] {
            let configuration = MeshSession.Configuration(restTouch: Vector2(0.5, 0.5), spring: spring)
            #expect(throws: AnimationError(.invalidParameter, problem)) {
                try MeshSession(configuration: configuration, clock: ManualClock())
            }
        }
    }

    @Test("a phase runs at its rate from its rest value; without one the frame has none")
    func phase() throws {
        let (s, clock) = try Self.session(MeshSession.Configuration(restPhase: 0.5, phaseRate: 2), at: 7)
        #expect(s.frame().phase == 0.5)
        clock.now = 8.5
        #expect(s.frame().phase == 0.5 + 2 * 1.5)
        #expect(s.isAnimating)
        let (held, _) = try Self.session(MeshSession.Configuration(restPhase: 0.5, phaseRate: 0))
        #expect(!held.isAnimating)
        let (none, _) = try Self.session(MeshSession.Configuration())
        #expect(none.frame().phase == nil)
        #expect(MeshFrame(touch: Vector2(0.25, 0.5), phase: 3).overrides == ["touch": .vec2(0.25, 0.5), "phase": .float(3)])
        #expect(MeshFrame().overrides.isEmpty)
    }

    @Test("a phase drops whole turns: finite at any rate (1.7e308 rad/s stopped the window), exact after a long run")
    func phaseTurns() throws {
        for rate in [1.7e308, -1e308, 1e-300] {
            let (s, clock) = try Self.session(MeshSession.Configuration(restPhase: 0.5, phaseRate: rate), at: 0)
            clock.now = 1.1
            let phase = try #require(s.frame().phase)
            #expect(phase.isFinite && abs(phase - 0.5) <= 2 * .pi, "\(rate): \(phase)")
            _ = MeshFrame(phase: phase).overrides  // a finite parameter value
        }
        // A quarter turn a second for a million seconds and a second: a quarter turn on from rest.
        let (s, clock) = try Self.session(MeshSession.Configuration(restPhase: 0.5, phaseRate: .pi / 2), at: 0)
        clock.now = 1_000_001
        #expect(abs(try #require(s.frame().phase) - (0.5 + .pi / 2)) < 1e-9)
    }

    @Test("a click toggles with the timing; a click mid-way reverses from the value shown; a drag does not toggle")
    func toggle() throws {
        let timing = try TransitionTiming(curve: .timingFunction(.linear), duration: 2)
        let (s, clock) = try Self.session(MeshSession.Configuration(toggle: timing))
        handle(s, .pointerDown(x: 10, y: 10, time: 0))
        handle(s, .pointerUp(x: 12, y: 11, time: 0.05))
        #expect(s.isToggled)
        clock.now = 0.5
        #expect(abs(s.frame().fraction - 0.25) < 1e-9)
        clock.now = 1
        #expect(abs(s.frame().fraction - 0.5) < 1e-9)
        // Mid-way: back from 0.5, over the whole duration (0.5 → 0 in 2 s).
        handle(s, .keyDown(.space, isRepeat: false, time: 1))
        #expect(!s.isToggled)
        #expect(abs(s.frame().fraction - 0.5) < 1e-9, "no jump")
        clock.now = 2
        #expect(abs(s.frame().fraction - 0.25) < 1e-9)
        clock.now = 2.5
        #expect(abs(s.frame().fraction - 0.125) < 1e-9)
        clock.now = 3
        #expect(s.frame().fraction == 0)
        #expect(!s.isAnimating)
        // A drag is not a click; an auto-repeated space does nothing.
        handle(s, .pointerDown(x: 10, y: 10, time: 5))
        handle(s, .pointerMoved(x: 60, y: 10, isPressed: true, time: 5.1))
        handle(s, .pointerUp(x: 11, y: 10, time: 5.2))
        handle(s, .keyDown(.space, isRepeat: true, time: 5.3))
        #expect(!s.isToggled && s.frame().fraction == 0)
        // Without a second mesh a click toggles nothing.
        let (single, _) = try Self.session(MeshSession.Configuration())
        single.toggle()
        #expect(!single.isToggled && single.frame().fraction == 0)
    }

    @Test("a toggle follows a timing curve or a spring as the offline animation does")
    func toggleTimings() throws {
        let eased = try TransitionTiming(curve: .timingFunction(.easeInEaseOut), duration: 1)
        let (s, clock) = try Self.session(MeshSession.Configuration(toggle: eased))
        s.toggle()
        clock.now = 0.3
        #expect(abs(s.frame().fraction - TimingFunction.easeInEaseOut.value(at: 0.3)) < 1e-9)
        // Reversed at 0.3: from there to 0 along the curve.
        let from = s.frame().fraction
        s.toggle()
        clock.now = 0.3 + 0.6
        #expect(abs(s.frame().fraction - from * (1 - TimingFunction.easeInEaseOut.value(at: 0.6))) < 1e-9)

        let spring = try Spring(response: 0.4, dampingFraction: 0.5)
        let springy = try TransitionTiming(curve: .spring(spring), duration: 2)
        let (b, bc) = try Self.session(MeshSession.Configuration(toggle: springy))
        b.toggle()
        for t in [0.1, 0.25, 0.5, 1.5] {
            bc.now = t
            #expect(abs(b.frame().fraction - spring.value(at: t)) < 1e-12, "t = \(t)")
        }
        bc.now = 2
        #expect(b.frame().fraction == 1)
    }

    @Test("a frame's parameters build the offline scene: the same mesh as --param touch=… resolves")
    func offlineScene() throws {
        let request = MeshRequest(start: .builtIn("curtain"), parameters: [(name: "touch", value: "0.8,0.3")])
        let templates = try request.templates()
        #expect(templates.start.value(of: "touch") == .vec2(0.8, 0.3))
        let live = try MeshRequest.scenes(
            templates.start, nil, width: 390, height: 844,
            overrides: MeshFrame(touch: Vector2(0.25, 0.75)).overrides
        ).start
        let offline = try MeshRequest(start: .builtIn("curtain"), parameters: [(name: "touch", value: "0.25,0.75")])
            .resolve(width: 390, height: 844).start
        #expect(live == offline)
        #expect(live != (try request.resolve(width: 390, height: 844).start))
        // A phase reaches jelly and ripple; a mesh file ignores both.
        let jelly = try MeshTemplate(.builtIn("jelly")).scene(width: 100, height: 100, overrides: MeshFrame(phase: 1).overrides)
        #expect(jelly.mesh == (try MeshTransform.jelly(phase: 1, magnitude: 0.05)))
        let ripple = try MeshTemplate(.builtIn("ripple")).scene(width: 100, height: 100, overrides: MeshFrame(phase: 2).overrides)
        #expect(ripple.mesh == MeshTransform.ripple(phase: 2))
    }
}
