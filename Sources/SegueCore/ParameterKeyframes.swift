// Keyframed effect parameters: a keyframe animation (SegueAnimation) over a parameter's
// components, evaluated at the linear fraction of each pass of the transition.
//
// Text form (the CLI's --param-keyframes):  NAME[:MODE]=V@T,V@T,…
//   MODE is linear (default), discrete, paced, cubic or cubic-paced; V is a value as --param takes
//   it, in parentheses when it has several components: (1,0)@0,(0,1)@1; T is a key time in [0, 1].
//   Discrete mode takes one more key time than values, written as a last `@T` without a value.
import SegueAnimation
import SegueMath
import SegueSystem

/// A parameter value as a vector of components, so that keyframe animations can interpolate
/// any float, int, bool, vector or matrix parameter.
public struct ParameterComponents: Interpolatable, Hashable {
    /// The components (empty for ``zero``, which acts as the zero of every length).
    public var values: [Double]

    /// Components from values.
    public init(_ values: [Double]) { self.values = values }

    public static var zero: ParameterComponents { ParameterComponents([]) }

    private static func combine(_ a: ParameterComponents, _ b: ParameterComponents, _ op: (Double, Double) -> Double) -> ParameterComponents
    {
        let n = max(a.values.count, b.values.count)
        return ParameterComponents(
            (0..<n).map { i in
                op(i < a.values.count ? a.values[i] : 0, i < b.values.count ? b.values[i] : 0)
            })
    }

    public static func + (a: ParameterComponents, b: ParameterComponents) -> ParameterComponents { combine(a, b, +) }
    public static func - (a: ParameterComponents, b: ParameterComponents) -> ParameterComponents { combine(a, b, -) }

    /// Every component multiplied by `factor`.
    public func scaled(by factor: Double) -> ParameterComponents { ParameterComponents(values.map { $0 * factor }) }

    /// The Euclidean distance between the component vectors.
    public func distance(to other: ParameterComponents) -> Double {
        (other - self).values.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }
}

/// One effect parameter driven by keyframes over each pass of a transition.
public struct ParameterKeyframes: Sendable {
    /// The parameter's name.
    public let name: String
    /// The parameter's type.
    public let type: ParameterType
    /// The largest magnitude a component may take: what the type holds on a device (a 32-bit
    /// int's, a half's ±65504, a float's). Values between keys are held within it, since a cubic
    /// curve may overshoot the keys.
    let limit: Double
    /// The keyframe animation over the parameter's components; its key times are fractions of a
    /// pass.
    public let animation: KeyframeAnimation<ParameterComponents>

    /// Keyframes for `parameter`.
    /// - Throws: `AnimationError` naming the keyframe rule broken (key time counts, ranges, order).
    public init(
        parameter: EffectParameter, values: [ParameterValue], keyTimes: [Double]? = nil,
        timingFunctions: [TimingFunction]? = nil, calculationMode: KeyframeCalculationMode = .linear
    ) throws {
        precondition(parameter.type != .sampler2D, "textures cannot be keyframed")
        precondition(!parameter.type.isArray, "array arguments cannot be keyframed")
        precondition(values.allSatisfy { $0.type == parameter.type }, "keyframe values must have the parameter's type")
        name = parameter.name
        type = parameter.type
        switch parameter.type.scalar {
        case .int: limit = Double(Int32.max)
        case .bool: limit = 1
        default: limit = parameter.typeName.hasPrefix("half") ? ParameterValue.largestHalf : Double(Float.greatestFiniteMagnitude)
        }
        animation = try KeyframeAnimation(
            values: values.map { ParameterComponents($0.components) }, keyTimes: keyTimes,
            timingFunctions: timingFunctions, calculationMode: calculationMode)
    }

    /// Parses one track per text (`parse(_:effect:)`), each for a different parameter.
    /// - Throws: what `parse(_:effect:)` throws; `AnimationError` for a parameter keyframed twice.
    public static func parseAll(_ texts: [String], effect: Effect) throws -> [ParameterKeyframes] {
        var seen: Set<String> = []
        return try texts.map { text in
            let track = try parse(text, effect: effect)
            guard seen.insert(track.name).inserted else {
                throw AnimationError(.invalidParameter, "parameter '\(track.name)' is keyframed twice")
            }
            return track
        }
    }

    /// Parses `NAME[:MODE]=V@T,V@T,…` (see the file header) for a parameter of `effect`.
    /// - Throws: `ParameterError` for an unknown parameter, a bad value or an array argument,
    ///   `AnimationError` for bad syntax, an unknown mode or key times that break a rule.
    public static func parse(_ text: String, effect: Effect) throws -> ParameterKeyframes {
        guard let eq = text.firstIndex(of: "=") else {
            throw AnimationError(
                .invalidSyntax, "keyframes are written NAME[:MODE]=VALUE@TIME,VALUE@TIME,…, got '\(MessageText.excerpt(text))'")
        }
        let head = text[..<eq].trimmingWhitespaceAndNewlines()
        let body = text[text.index(after: eq)...].trimmingWhitespaceAndNewlines()
        let nameAndMode = head.split(separator: ":", maxSplits: 1).map { $0.trimmingWhitespaceAndNewlines() }
        let name = nameAndMode.first ?? ""
        var mode = KeyframeCalculationMode.linear
        if nameAndMode.count == 2 {
            mode = try parseMode(nameAndMode[1])
        }
        guard let parameter = effect.parameters.first(where: { $0.name == name }) else {
            throw ParameterError.unknown(name: name, effect: effect.name, known: effect.parameters.map(\.name))
        }
        guard !parameter.type.isArray else { throw ParameterError.notKeyframable(name: name, type: parameter.type) }
        guard parameter.type != .sampler2D else { throw ParameterError.notSettable(name: name, type: parameter.type) }

        var values: [ParameterValue] = []
        var times: [Double] = []
        let items = splitOutsideParentheses(body)
        for (index, item) in items.enumerated() {
            guard let at = item.lastIndex(of: "@") else {
                throw AnimationError(.invalidSyntax, "keyframe '\(item)' of '\(name)' needs a key time: VALUE@TIME")
            }
            let valueText = item[..<at].trimmingWhitespaceAndNewlines()
            let timeText = item[item.index(after: at)...].trimmingWhitespaceAndNewlines()
            guard let time = Double(timeText), time.isFinite else {
                throw AnimationError(.invalidSyntax, "key time '\(timeText)' of '\(name)' is not a number")
            }
            times.append(time)
            if valueText.isEmpty {
                // Only discrete mode's closing key time has no value.
                guard mode == .discrete, index == items.count - 1 else {
                    throw AnimationError(
                        .invalidSyntax, "keyframe '\(item)' of '\(name)' has no value (only discrete mode ends with a lone @TIME)")
                }
                continue
            }
            var inner = valueText
            if inner.hasPrefix("("), inner.hasSuffix(")") { inner = String(inner.dropFirst().dropLast()) }
            values.append(try effect.value(inner, of: parameter))
        }
        let keyTimes: [Double]? = mode.isPacedMode ? nil : times
        return try ParameterKeyframes(parameter: parameter, values: values, keyTimes: keyTimes, calculationMode: mode)
    }

    /// The value at `fraction` (0…1) of a pass. Int parameters are rounded and bools are true
    /// from 0.5 on. A cubic curve's overshoot between keys stops at what the type holds (a 32-bit
    /// int, a half's ±65504, a float's ±3.4e+38).
    public func value(atFraction fraction: Double) -> ParameterValue {
        let c = animation.keyframeValue(atFraction: fraction).values
        let components = (0..<type.componentCount).map { i -> Double in
            let v = min(max(i < c.count ? c[i] : 0, -limit), limit)
            switch type.scalar {
            case .int: return v.rounded()
            case .bool: return v >= 0.5 ? 1 : 0
            default: return v
            }
        }
        return ParameterValue(type, components)
    }

    private static func parseMode(_ text: String) throws -> KeyframeCalculationMode {
        switch text.lowercased() {
        case "linear": return .linear
        case "discrete": return .discrete
        case "paced": return .paced
        case "cubic": return .cubic
        case "cubic-paced", "cubicpaced": return .cubicPaced
        default:
            throw AnimationError(
                .invalidSyntax, "unknown keyframe calculation mode '\(text)'; use linear, discrete, paced, cubic or cubic-paced")
        }
    }

    private static func splitOutsideParentheses(_ text: String) -> [String] {
        var parts: [String] = []
        var depth = 0
        var current = ""
        for ch in text {
            if ch == "(" { depth += 1 }
            if ch == ")" { depth -= 1 }
            if ch == ",", depth == 0 {
                parts.append(current.trimmingWhitespaceAndNewlines())
                current = ""
            } else {
                current.append(ch)
            }
        }
        parts.append(current.trimmingWhitespaceAndNewlines())
        return parts
    }
}

extension KeyframeCalculationMode {
    fileprivate var isPacedMode: Bool { self == .paced || self == .cubicPaced }
}
