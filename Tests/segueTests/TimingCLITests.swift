// Timing options of `segue frame` / `segue render` checked against the formulas of
// shared/reference/core-animation.md, evaluated independently here.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// Progress of an under-damped spring (ζ < 1), written out from the reference.
private func underdampedSpring(mass m: Double, stiffness k: Double, damping c: Double, velocity v: Double = 0, at t: Double) -> Double {
    let w0 = (k / m).squareRoot()
    let zeta = c / (2 * (k * m).squareRoot())
    precondition(zeta < 1)
    let wd = w0 * (1 - zeta * zeta).squareRoot()
    return 1 - exp(-zeta * w0 * t) * (cos(wd * t) + (zeta * w0 - v) / wd * sin(wd * t))
}

/// The reference's settling duration for ζ < 1.
private func underdampedSettling(mass m: Double, stiffness k: Double, damping c: Double, velocity v: Double = 0) -> Double {
    let w0 = (k / m).squareRoot()
    let zeta = c / (2 * (k * m).squareRoot())
    let wd = w0 * (1 - zeta * zeta).squareRoot()
    let b = (zeta * w0 - v) / wd
    return max(-log(0.001 / (1 + abs(b))) / (zeta * w0), 0)
}

/// A transition file whose output is the grey level of its `level` parameter.
private let levelEffect = """
    // Name: level
    uniform float level; // = 0.0
    vec4 transition(vec2 uv) { return vec4(vec3(clamp(level, 0.0, 1.0)), 1.0); }
    """

/// Red channel of every raw RGBA8 frame's first pixel.
private func firstPixelRed(_ raw: Data, width: Int, height: Int) -> [Int] {
    let frameBytes = width * height * 4
    return stride(from: 0, to: raw.count, by: frameBytes).map { Int(raw[$0]) }
}

@Suite("segue CLI timing: springs, repeats, keyframes", .serialized)
struct TimingCLITests {
    @Test("--spring: fade pixels follow the spring, frame by frame")
    func springFrames() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        // m = 1, k = 100, c = 10: ζ = 0.5, passes 1 at about 0.24 s (the fade clamps there); sample before that.
        for t in [0.05, 0.1, 0.15, 0.2] {
            let r = try segue([
                "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade",
                "--spring", "mass=1,stiffness=100,damping=10", "--time", String(t), "-o", dir + "/f.png",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let expected = 255 * underdampedSpring(mass: 1, stiffness: 100, damping: 10, at: t)
            let got = Double(try ImageFile.read(path: dir + "/f.png")[2, 2].r)
            #expect(abs(got - expected) <= 1, "t=\(t): \(got) vs \(expected)")
        }
    }

    @Test("--spring response/damping-fraction: render lasts the settling duration, pixels follow the spring")
    func springRenderDuration() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 4, height: 2)
        let fps = 20.0
        let r = try segue([
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade",
            "--spring", "response=0.5,damping-fraction=0.7", "--fps", String(fps), "-o", "-",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        // response/dampingFraction → m = 1, k = (2π/response)², c = 4π·dampingFraction/response.
        let k = pow(2 * Double.pi / 0.5, 2), c = 4 * Double.pi * 0.7 / 0.5
        let settling = underdampedSettling(mass: 1, stiffness: k, damping: c)
        let frames = firstPixelRed(r.stdout, width: 4, height: 2)
        #expect(frames.count == Int((settling * fps).rounded()) + 1, "settling \(settling) s")
        for (i, red) in frames.enumerated().dropLast() {
            let expected = 255 * min(underdampedSpring(mass: 1, stiffness: k, damping: c, at: Double(i) / fps), 1)
            #expect(abs(Double(red) - expected) <= 1, "frame \(i): \(red) vs \(expected)")
        }
        #expect(frames.last == 255)
    }

    @Test("--repeat and --autoreverse: a triangle wave that ends where the last pass ends")
    func repeatAndAutoreverse() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 4, height: 2)
        let r = try segue([
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade",
            "--duration", "1", "--fps", "8", "--repeat", "2", "--autoreverse", "-o", "-",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = firstPixelRed(r.stdout, width: 4, height: 2)
        // 2 passes × (forwards + backwards) × 1 s × 8 fps + 1 frames.
        #expect(frames.count == 33)
        for (i, red) in frames.enumerated() {
            let t = Double(i) / 8
            let phase = t.truncatingRemainder(dividingBy: 2)
            let expected = 255 * (phase <= 1 ? phase : 2 - phase)
            #expect(abs(Double(red) - expected) <= 1, "frame \(i): \(red) vs \(expected)")
        }
        #expect(frames.last == 0, "an autoreversed transition ends on from")

        // 0 passes is once, as for Core Animation and the library: 1 s × 8 fps + 1 frames.
        let once = try segue([
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade",
            "--duration", "1", "--fps", "8", "--repeat", "0", "-o", "-",
        ])
        #expect(once.status == 0, "\(once.stderr)")
        #expect(firstPixelRed(once.stdout, width: 4, height: 2).count == 9)

        let half = try segue([
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade",
            "--duration", "1", "--fps", "8", "--repeat", "1.5", "--timing", "ease-in", "-o", "-",
        ])
        let halfFrames = firstPixelRed(half.stdout, width: 4, height: 2)
        #expect(halfFrames.count == 13)
        // A fractional repeat stops part-way: the last frame holds the curve at the half pass.
        #expect(abs(Double(halfFrames.last!) - 255 * TimingFunction.easeIn.value(at: 0.5)) <= 1)
    }

    @Test("--param-keyframes: linear and discrete parameter values at each frame")
    func keyframes() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 4, height: 2)
        let effect = dir + "/level.glsl"
        try levelEffect.write(toFile: effect, atomically: true, encoding: .utf8)
        let r = try segue([
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", effect,
            "--duration", "2", "--fps", "10", "--timing", "ease-in",
            "--param-keyframes", "level=0@0,1@0.5,0.25@1", "-o", "-",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = firstPixelRed(r.stdout, width: 4, height: 2)
        #expect(frames.count == 21)
        for (i, red) in frames.enumerated() {
            // Key times are fractions of the pass in linear time (the timing curve eases
            // progress, not the keyframes).
            let f = Double(i) / 20
            let expected = f < 0.5 ? 2 * f : 1 + (0.25 - 1) * (f - 0.5) / 0.5
            #expect(abs(Double(red) - 255 * expected) <= 1, "frame \(i): \(red) vs \(255 * expected)")
        }

        let d = try segue([
            "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", effect,
            "--duration", "1", "--fps", "10", "--param-keyframes", "level:discrete=0.2@0,0.6@0.3,1@0.75,@1", "-o", "-",
        ])
        #expect(d.status == 0, "\(d.stderr)")
        let discrete = firstPixelRed(d.stdout, width: 4, height: 2)
        for (i, red) in discrete.enumerated() {
            let f = Double(i) / 10
            let expected = f < 0.3 ? 0.2 : f < 0.75 ? 0.6 : 1.0
            #expect(abs(Double(red) - 255 * expected) <= 1, "frame \(i): \(red) vs \(255 * expected)")
        }
    }

    @Test("timing errors: clear messages, exit 1")
    func errors() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 4, height: 2)
        let effect = dir + "/level.glsl"
        try levelEffect.write(toFile: effect, atomically: true, encoding: .utf8)
        let base = ["frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--time", "0.1", "-o", dir + "/o.png"]
        let cases: [([String], String)] = [
            (["--effect", "fade", "--spring", "mass=0"], "spring mass must be greater than 0"),
            (["--effect", "fade", "--spring", "mass=1,response=0.3"], "cannot be mixed"),
            (["--effect", "fade", "--spring", "stiffness=100,damping=0"], "error: this spring never settles (damping 0); give a duration"),
            // Damped, but critically so with ω0 = 1e-6 rad/s: not "damping 0".
            (
                ["--effect", "fade", "--spring", "mass=1e6,stiffness=1e-6,damping=10"],
                "error: this spring takes longer than 10000 s to settle; give a duration"
            ),
            (["--effect", "fade", "--timing", "cubic-bezier(0.1,0.2)"], "cubic-bezier"),
            (["--effect", "fade", "--timing", "ease-in", "--spring", "response=0.3"], "error: give either --timing or --spring, not both"),
            (
                ["--effect", "fade", "--repeat", "-1"],
                "error: --repeat must be a finite number of passes ≥ 0 (0 and 1 both play once), got -1"
            ),
            (
                ["--effect", "fade", "--repeat", "inf"],
                "error: --repeat must be a finite number of passes ≥ 0 (0 and 1 both play once), got infinity"
            ),
            (["--effect", effect, "--param-keyframes", "level=0@0,1@0.5,0@0.4"], "key"),
            (["--effect", effect, "--param-keyframes", "level=0@0,1@1.5"], "key"),
            (["--effect", effect, "--param-keyframes", "width=0@0,1@1"], "no parameter 'width'"),
            (["--effect", effect, "--param-keyframes", "level:bouncy=0@0,1@1"], "unknown keyframe calculation mode"),
            (["--effect", effect, "--param-keyframes", "level=0@0,nan@1"], "finite"),
            (
                ["--effect", effect, "--param-keyframes", "level=0@0,1@1", "--param-keyframes", "level=1@0,0@1"],
                "error: --param-keyframes: parameter 'level' is keyframed twice"
            ),
        ]
        for (extra, message) in cases {
            let r = try segue(base + extra)
            #expect(r.status == 1, "\(extra): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: ") && r.stderr.contains(message), "\(extra): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
        }
    }
}
