// How an effect's parameters reach a frei0r host. frei0r has four parameter types a host can set
// (MLT 7 sets doubles, bools, colours and strings; it ignores positions, so a vec2 becomes two
// doubles), and its doubles are 0…1 by convention (GStreamer clamps its properties to that).
// The mapping, documented in Docs/Frei0r.md:
//
//   float, int            → a double; frei0r v in 0…1 is min + v·(max − min) of the parameter
//   bool                  → a bool (true from 0.5)
//   vec3 / vec4 whose     → a colour (r, g, b), and for a vec4 a double NAME_alpha (0…1)
//   defaults are in 0…1
//   other vectors         → a double per component: NAME_x, NAME_y, NAME_z, NAME_w (ints rounded,
//                           bools a bool each); matrices NAME_0 … NAME_15, column-major
//   sampler2D             → a string: the path of a PNG or JPEG image
//   float[], color[],     → a string: the value as `--arg` takes it ("0.1,0.5,0.9",
//   bytes                   "#ff0000,#00ff00", "@file.bin"); empty is count 0
//
// min…max is the range the effect states (`EffectParameter.range`: every built-in, and a
// `.glsl` file's `// = d in min...max`), else one derived from the default d (`range(forDefault:)`):
// 0…1 when 0 ≤ d < 1 (fractions and texture coordinates pass unchanged), 0…N when d ≥ 1 and
// −N…N when d < 0, N the first of 1, 2, 5, 10, 20, 50, … at least 2·|d| (ints: at least 10).
// frei0r values outside 0…1 extrapolate (MLT passes them through), and a value the host never
// changes is the effect's exact default.
import SegueCore
import SegueMath
import SegueSystem

/// One frei0r parameter of a plugin.
public struct Frei0rParameter: Sendable, Equatable {
    /// frei0r's parameter types (as `F0R_PARAM_*`), the ones Segue uses.
    public enum Kind: String, Sendable {
        case double, bool, color, string
    }

    /// What the parameter sets.
    public enum Target: Sendable, Equatable {
        /// The transition's progress (mixers only).
        case progress
        /// Components of the effect parameter at this index of `Frei0rPlugin.targets`, from `component`.
        case components(parameter: Int, component: Int)
    }

    /// The frei0r name (also the MLT property and, lowercased with `-`, the GStreamer property).
    public let name: String
    /// The frei0r type.
    public let kind: Kind
    /// What it does (one line).
    public let explanation: String
    /// What it sets.
    public let target: Target
    /// The effect's values at frei0r's 0 and 1 (doubles; 0…1 otherwise).
    public let range: ClosedRange<Double>
    /// The default in frei0r units: one value, three for a colour, none for a string.
    public let defaultValue: [Double]
    /// Whether the effect parameter's components are integers (the plugin rounds the value it
    /// maps, `min + v·(max − min)`, in `segue_frei0r.c`).
    public let integer: Bool
}

/// An effect parameter as the plugin passes it to `segue_*_set_param`.
public struct Frei0rTarget: Sendable, Equatable {
    /// The effect's parameter name.
    public let name: String
    /// Its type.
    public let type: ParameterType
    /// Its default components (none for a texture).
    public let defaults: [Double]
}

extension Frei0rParameter {
    /// The range of a component whose default is `d`, for an effect that states none (see the
    /// top of this file).
    public static func range(forDefault d: Double, integer: Bool) -> ClosedRange<Double> {
        if d >= 0, d < 1, !integer { return 0...1 }
        let n = niceCeiling(max(2 * abs(d), integer ? 10 : 1))
        return d < 0 ? -n...n : 0...n
    }

    /// The first of 1, 2, 5, 10, 20, 50, … that is at least `x` (x ≥ 1).
    static func niceCeiling(_ x: Double) -> Double {
        var decade = 1.0
        while true {
            for step in [1.0, 2, 5] where step * decade >= x { return step * decade }
            decade *= 10
            if decade > 1e300 { return x }
        }
    }

    /// The frei0r parameters of `parameters` (the effect's, in order), after `progress` when
    /// `withProgress`; and the targets they set.
    public static func map(_ parameters: [EffectParameter], withProgress: Bool) -> (parameters: [Frei0rParameter], targets: [Frei0rTarget])
    {
        var out: [Frei0rParameter] = []
        var targets: [Frei0rTarget] = []
        if withProgress {
            out.append(
                Frei0rParameter(
                    name: "progress", kind: .double, explanation: "transition progress: 0 shows the first input, 1 the second (animate it)",
                    target: .progress, range: 0...1, defaultValue: [0], integer: false))
        }
        for p in parameters {
            let index = targets.count
            let defaults = p.effectiveDefault?.components ?? []
            targets.append(Frei0rTarget(name: p.name, type: p.type, defaults: defaults))
            let summary = p.summary.isEmpty ? p.name : p.summary
            func component(_ suffix: String, _ k: Int, _ what: String, range stated: ClosedRange<Double>? = nil) -> Frei0rParameter {
                let name = suffix.isEmpty ? p.name : p.name + "_" + suffix
                switch p.type.scalar {
                case .bool:
                    return Frei0rParameter(
                        name: name, kind: .bool, explanation: what, target: .components(parameter: index, component: k),
                        range: 0...1, defaultValue: [defaults[k]], integer: false)
                default:
                    let integer = p.type.scalar == .int
                    let range = stated ?? p.range ?? Frei0rParameter.range(forDefault: defaults[k], integer: integer)
                    let span = range.upperBound - range.lowerBound
                    let explanation = range == 0...1 ? what : what + " (0…1 is \(MessageText.range(range)))"
                    return Frei0rParameter(
                        name: name, kind: .double, explanation: explanation, target: .components(parameter: index, component: k),
                        range: range, defaultValue: [(defaults[k] - range.lowerBound) / span], integer: integer)
                }
            }
            let isColour =
                (p.type == .vec3 || p.type == .vec4) && defaults.allSatisfy { (0...1).contains($0) } && (p.range ?? 0...1) == 0...1
            switch p.type {
            case .sampler2D:
                out.append(
                    Frei0rParameter(
                        name: p.name, kind: .string, explanation: summary + " (a PNG or JPEG image path)",
                        target: .components(parameter: index, component: 0), range: 0...1, defaultValue: [], integer: false))
            case _ where p.type.isArray:
                let forms =
                    p.type == .floatArray
                    ? "numbers separated by commas: 0.1,0.5,0.9"
                    : p.type == .colorArray
                        ? "colours separated by commas: #ff0000,#00ff0080" : "@FILE, 0x and hex digits, or bytes 0-255 separated by commas"
                out.append(
                    Frei0rParameter(
                        name: p.name, kind: .string, explanation: summary + " (\(forms); at most \(p.type.maximumElements))",
                        target: .components(parameter: index, component: 0), range: 0...1, defaultValue: [], integer: false))
            case _ where isColour:
                out.append(
                    Frei0rParameter(
                        name: p.name, kind: .color, explanation: summary, target: .components(parameter: index, component: 0),
                        range: 0...1, defaultValue: Array(defaults.prefix(3)), integer: false))
                if p.type == .vec4 { out.append(component("alpha", 3, summary + ": alpha", range: 0...1)) }
            case _ where p.type.componentCount == 1:
                out.append(component("", 0, summary))
            case _ where p.type.matrixDimension != nil:
                for k in 0..<p.type.componentCount { out.append(component(String(k), k, summary + ": element \(k) (column-major)")) }
            default:
                let names = ["x", "y", "z", "w"]
                for k in 0..<p.type.componentCount { out.append(component(names[k], k, summary + ": \(names[k])")) }
            }
        }
        return (out, targets)
    }
}
