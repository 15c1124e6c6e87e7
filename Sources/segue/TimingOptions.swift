// `--timing`, `--spring`, `--repeat`, `--autoreverse` and `--param-keyframes`: how a transition's
// progress and parameters follow time.
import ArgumentParser
import Segue

struct TimingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Timing curve: linear, ease-in, ease-out, ease-in-out, default or cubic-bezier(x1,y1,x2,y2) (default: the effect's; linear for most, UIKit's push spring for ios-push/ios-pop).",
            valueName: "curve"))
    var timing: String?

    @Option(
        help: ArgumentHelp(
            "Spring instead of a curve: mass=…,stiffness=…,damping=…,velocity=… or response=…,damping-fraction=… (a pass then lasts the spring's settling duration unless --duration is given).",
            valueName: "params"))
    var spring: String?

    @Option(
        name: .customLong("repeat"), parsing: .unconditional,
        help: ArgumentHelp("Number of passes (fractions stop part-way; 0 and 1 play once).", valueName: "N"))
    var repeatCount: Double?

    @Flag(help: "Run each pass forwards, then backwards.")
    var autoreverse = false

    @Option(
        name: .customLong("param-keyframes"),
        help: ArgumentHelp(
            "Keyframe a parameter over each pass: name[:mode]=value@time,… with mode linear, discrete, paced, cubic or cubic-paced; e.g. amplitude=0@0,2@0.5,0@1; vectors in parentheses: (1,0)@0,(0,1)@1.",
            valueName: "keyframes"))
    var keyframes: [String] = []

    func validate() throws {
        try validateOneOf(["--timing": timing != nil, "--spring": spring != nil])
        if let repeatCount, let problem = TransitionTiming.repeatCountProblem(repeatCount) {
            throw ValidationError("--repeat \(problem)")
        }
    }

    /// The timing: the given curve or spring, else `defaultCurve`; `duration` (from `--duration`)
    /// overrides the pass length, which is otherwise `defaultDuration` for a curve and the
    /// spring's settling duration for a spring.
    func timing(defaultCurve: String, defaultDuration: Double, duration: Double?) throws -> TransitionTiming {
        try validateSeconds(duration, option: "--duration")
        let curve: TransitionTiming.Curve? =
            try spring.map { .spring(try Spring(parsing: $0)) }
            ?? timing.map { try TransitionTiming.Curve(parsing: $0) }
        return try TransitionTiming(
            curve: curve, duration: duration, defaultCurve: defaultCurve, defaultDuration: defaultDuration,
            repeatCount: repeatCount ?? 0, autoreverses: autoreverse)
    }

    /// The render timeline for `effect` (its default curve and duration unless overridden), with
    /// the keyframed parameters.
    func timeline(for effect: Effect, duration: Double?, fps: Double) throws -> Timeline {
        let timing = try timing(defaultCurve: effect.defaultTiming, defaultDuration: effect.defaultDuration, duration: duration)
        let tracks: [ParameterKeyframes]
        do { tracks = try ParameterKeyframes.parseAll(keyframes, effect: effect) } catch let error as AnimationError {
            throw CLIFailure(message: "--param-keyframes: \(error.message)")
        } catch let error as ParameterError {
            guard case .notKeyframable = error else { throw error }
            throw CLIFailure(message: "--param-keyframes: " + FlagWording.message(for: error))
        }
        return try Timeline(timing: timing, fps: fps, keyframes: tracks)
    }
}
