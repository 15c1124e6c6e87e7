import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueSystem
import SegueWindow

// The state of a live mesh (`segue mesh --window`): what the mesh's live parameters are at each
// moment, as BCMeshTransformView's demos drive them.
//
// - Touch. While a button is held, the `touch` parameter is the pointer's position in unit
//   coordinates of the layer (x / width, y / height; (0, 0) top-left). On release it returns to
//   its rest value along a damped spring (SwiftUI's `response`/`dampingFraction`, or any
//   `Spring`) that starts at the pointer's velocity, per component: the displacement from rest
//   obeys D'' + (c/m)·D' + (k/m)·D = 0 with D(0) = d0, D'(0) = v0, whose solution is assembled
//   from the project's `Spring` (progress p_v(t) from 0 toward 1 with initial velocity v):
//   D(t) = d0·(1 − p_0(t)) + v0·(p_1(t) − p_0(t)). The release ends (touch exactly at rest) once
//   |D| stays below `settleTolerance`.
// - Phase. A mesh with a `phase` (jelly, ripple) runs continuously: φ(t) = φ_rest + rate·t.
// - Toggle. With a second mesh, a click (a press released within `clickSlop` points of where it
//   landed) or space animates the blend fraction between the meshes (0: the first, 1: the
//   second) with the offline command's timing curve or spring. A toggle during the animation
//   starts from the value shown then (UIKit's `beginFromCurrentState`): fraction
//   f(t) = f_from + (f_to − f_from)·progress(t), over the timing's whole duration.
//
// Time comes from an injected `AnimationClock` (a `ManualClock` in tests), so everything is tested
// without a window; the pointer's velocity is taken from the events' own timestamps.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a live mesh shows at a moment.
public struct MeshFrame: Sendable, Equatable {
    /// The touch point in unit coordinates of the layer; nil at rest (each mesh shows its own
    /// resting `touch`).
    public var touch: Vector2?
    /// The phase in radians; nil when no mesh has a running phase.
    public var phase: Double?
    /// The blend between the two meshes: 0 the first, 1 the second (a spring may overshoot).
    public var fraction: Double

    /// A frame.
    public init(touch: Vector2? = nil, phase: Double? = nil, fraction: Double = 0) {
        self.touch = touch
        self.phase = phase
        self.fraction = fraction
    }

    /// The parameter values this frame sets (`touch`, `phase`), for `MeshTemplate.scene`.
    public var overrides: [String: ParameterValue] {
        var values: [String: ParameterValue] = [:]
        if let touch { values["touch"] = .vec2(touch.x, touch.y) }
        if let phase { values["phase"] = .float(phase) }
        return values
    }
}

/// A live mesh's touch, phase and toggle, driven by input events and a clock.
public final class MeshSession {
    /// What the session animates.
    public struct Configuration: Sendable {
        /// Where `touch` rests (nil: the meshes have no touch, and the pointer moves nothing).
        public var restTouch: Vector2?
        /// The spring a released touch returns along; its own initial velocity is replaced by
        /// the pointer's.
        public var spring: Spring
        /// The phase at the start (nil: the meshes have no phase).
        public var restPhase: Double?
        /// Radians per second the phase runs at.
        public var phaseRate: Double
        /// The toggle's timing (nil: there is no second mesh).
        public var toggle: TransitionTiming?
        /// Points a press may travel and still count as a click (a toggle).
        public var clickSlop: Double
        /// Unit coordinates within which a released touch counts as at rest.
        public var settleTolerance: Double

        /// A configuration; the spring defaults to SwiftUI's `response` 0.5, `dampingFraction` 0.7.
        public init(
            restTouch: Vector2? = nil, spring: Spring? = nil, restPhase: Double? = nil, phaseRate: Double = 2 * .pi,
            toggle: TransitionTiming? = nil, clickSlop: Double = 6, settleTolerance: Double = 1e-4
        ) {
            self.restTouch = restTouch
            self.spring = spring ?? MeshSession.defaultSpring
            self.restPhase = restPhase
            self.phaseRate = phaseRate.isFinite ? phaseRate : 0
            self.toggle = toggle
            self.clickSlop = clickSlop
            self.settleTolerance = settleTolerance
        }
    }

    /// SwiftUI's default interactive spring for the release: `response` 0.5, `dampingFraction` 0.7.
    public static let defaultSpring: Spring = (try? Spring(response: 0.5, dampingFraction: 0.7)) ?? .uikitNavigationPush

    /// The configuration.
    public let configuration: Configuration
    /// The clock every animation reads.
    public let clock: AnimationClock
    /// Whether a button is held on the layer now.
    public private(set) var isTouching = false
    /// Whether the toggle's target is the second mesh.
    public private(set) var isToggled = false

    private let start: Double
    private var touch: Vector2?
    /// The finger's recent positions, across and down.
    private var gesture = (x: GestureVelocity(), y: GestureVelocity())
    private var pressedAt: (x: Double, y: Double)?
    private var travel = 0.0
    private var release: TouchRelease?
    /// How far a release's settling search looks ahead (`TouchRelease.horizon(for:)`).
    private let releaseHorizon: Double
    private var toggleMotion: (from: Double, to: Double, start: Double)?

    /// A session starting (its phase at rest) at the clock's present time.
    /// - Throws: `AnimationError` when the configuration's spring does not settle
    ///   (``Spring/settlingProblem``): a released touch would never come to rest.
    public init(configuration: Configuration, clock: AnimationClock) throws(AnimationError) {
        if let problem = configuration.spring.settlingProblem {
            throw AnimationError(
                .invalidParameter, "\(problem): a released touch would never come to rest; \(configuration.spring.settlingAdvice)")
        }
        self.configuration = configuration
        self.clock = clock
        start = clock.now
        releaseHorizon = TouchRelease.horizon(for: configuration.spring)
    }

    // MARK: - Input

    /// Handles an input event at the clock's time; `width` × `height` is the layer's size in
    /// points (the window's).
    public func handle(_ event: WindowEvent, width: Double, height: Double) {
        switch event {
        case .keyDown(.space, false, _):
            toggle()
        case let .pointerDown(x, y, time):
            pressedAt = (x, y)
            travel = 0
            isTouching = true
            gesture = (GestureVelocity(), GestureVelocity())
            gesture.x.record(x, at: time)
            gesture.y.record(y, at: time)
            release = nil
            if configuration.restTouch != nil { touch = Self.unit(x, y, width, height) }
        case let .pointerMoved(x, y, pressed, time) where pressed && isTouching:
            track(x, y, time, width, height)
        case let .pointerUp(x, y, time) where isTouching:
            track(x, y, time, width, height)
            isTouching = false
            if let rest = configuration.restTouch, let touch {
                let velocity = Vector2(width > 0 ? gesture.x.velocity / width : 0, height > 0 ? gesture.y.velocity / height : 0)
                release = TouchRelease(
                    spring: configuration.spring, rest: rest, position: touch, velocity: velocity,
                    start: clock.now, tolerance: configuration.settleTolerance, horizon: releaseHorizon)
            }
            if travel <= configuration.clickSlop { toggle() }
        default:
            break
        }
    }

    /// Starts the animation to the other mesh from the fraction shown now (nothing without a
    /// second mesh).
    public func toggle() {
        guard configuration.toggle != nil else { return }
        let now = clock.now
        let current = fraction(at: now)
        isToggled.toggle()
        toggleMotion = (current, isToggled ? 1 : 0, now)
    }

    private func track(_ x: Double, _ y: Double, _ time: Double, _ width: Double, _ height: Double) {
        if let p = pressedAt { travel = max(travel, ((x - p.x) * (x - p.x) + (y - p.y) * (y - p.y)).squareRoot()) }
        gesture.x.record(x, at: time)
        gesture.y.record(y, at: time)
        if configuration.restTouch != nil { touch = Self.unit(x, y, width, height) }
    }

    /// How far a phase running at `rate` radians per second has gone in `seconds`, less whole
    /// turns: the picture is the same (the meshes' phases are angles), and the value stays
    /// exact over a long session and finite at any rate (1.7e308 rad/s × 1.1 s overflowed).
    static func advance(_ rate: Double, over seconds: Double) -> Double {
        let period = 2 * Double.pi / abs(rate)  // infinite for 0: no turn to take off
        return rate * fmod(seconds, period)
    }

    private static func unit(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Vector2 {
        Vector2(width > 0 ? x / width : 0, height > 0 ? y / height : 0)
    }

    // MARK: - Output

    /// What to show at the clock's present time.
    public func frame() -> MeshFrame {
        let now = clock.now
        var frame = MeshFrame(fraction: fraction(at: now))
        if let rest = configuration.restPhase { frame.phase = rest + Self.advance(configuration.phaseRate, over: now - start) }
        if isTouching {
            frame.touch = touch
        } else if let r = release {
            if now - r.start >= r.duration {
                release = nil
                touch = nil
            } else {
                frame.touch = r.position(at: now)
            }
        }
        return frame
    }

    /// Whether the picture changes by itself (a running phase, a release or a toggle in flight),
    /// as of the last `frame()`.
    public var isAnimating: Bool {
        (configuration.restPhase != nil && configuration.phaseRate != 0) || release != nil || toggleMotion != nil
    }

    /// The blend fraction at `now`; a finished toggle leaves its end value.
    private func fraction(at now: Double) -> Double {
        guard let motion = toggleMotion, let timing = configuration.toggle else { return isToggled ? 1 : 0 }
        let t = now - motion.start
        if t >= timing.totalDuration {
            toggleMotion = nil
            return motion.to
        }
        return motion.from + (motion.to - motion.from) * timing.sample(at: max(t, 0)).progress
    }
}

/// A released touch springing back to rest (see the file header for the formula).
struct TouchRelease {
    let rest: Vector2
    let displacement: Vector2
    let velocity: Vector2
    let start: Double
    /// Seconds until |D| stays within the tolerance.
    let duration: Double
    private let still: Spring
    private let moving: Spring

    /// The most points the settling search samples (a minute at 240 a second).
    static let searchSamples = 14_400

    /// Seconds the settling search looks ahead for `spring`: four times the slower of its
    /// settling durations from rest and from unit velocity (their threshold is relative to the
    /// distance, the touch's tolerance absolute), at least a minute, at most
    /// `Spring.settlingSearchLimit` (a spring that does not settle by then is refused when the
    /// session is made). A slow spring was cut off at a minute and snapped to rest.
    static func horizon(for spring: Spring) -> Double {
        let settling = max(spring.starting(at: 0).settlingDuration, spring.starting(at: 1).settlingDuration)
        return min(max(60, 4 * settling), Spring.settlingSearchLimit)
    }

    init(spring: Spring, rest: Vector2, position: Vector2, velocity: Vector2, start: Double, tolerance: Double, horizon: Double) {
        self.rest = rest
        displacement = position - rest
        self.velocity = Vector2(velocity.x.isFinite ? velocity.x : 0, velocity.y.isFinite ? velocity.y : 0)
        self.start = start
        still = spring.starting(at: 0)
        moving = spring.starting(at: 1)
        // The last moment (on a grid of 1/240 s, coarser past a minute) the displacement is
        // outside the tolerance.
        let step = max(1.0 / 240, horizon / Double(Self.searchSamples))
        var last = 0.0
        for i in 0...Int(horizon / step) {
            let t = Double(i) * step
            let e = Self.displacement(still, moving, displacement, self.velocity, t)
            if max(abs(e.x), abs(e.y)) >= tolerance { last = t }
        }
        duration = last + step
    }

    private static func displacement(_ still: Spring, _ moving: Spring, _ d: Vector2, _ v: Vector2, _ t: Double) -> Vector2 {
        let p0 = still.value(at: t), p1 = moving.value(at: t)
        return d * (1 - p0) + v * (p1 - p0)
    }

    /// The displacement from rest `t` seconds after the release.
    func displacement(after t: Double) -> Vector2 {
        Self.displacement(still, moving, displacement, velocity, t)
    }

    /// The touch point at `now`.
    func position(at now: Double) -> Vector2 {
        rest + displacement(after: now - start)
    }
}
