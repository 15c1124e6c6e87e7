import SegueMath
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
// Typed parameter values, parsed from command-line text and packed for the GPU. An array or data
// value (`ParameterType.isArray`) has a length of its own, checked against the type's maximum
// before anything is allocated by it (ParameterValue+Arrays.swift).

/// A parameter value: its type and its scalar components (column-major for matrices).
public struct ParameterValue: Sendable, Equatable, CustomStringConvertible {
    /// The declared type.
    public let type: ParameterType
    /// The components as doubles (ints and bools are exact: 0/1 for bools).
    public let components: [Double]
    /// The largest magnitude a Metal `half` holds (what a `half` argument or a colour array's
    /// component may be).
    public static let largestHalf = 65504.0

    /// A value from components.
    /// - Precondition: the count matches the type (for an array type: whole elements, at most
    ///   `maximumElements`; bytes integers 0…255), and every component is finite.
    public init(_ type: ParameterType, _ components: [Double]) {
        precondition(type != .sampler2D, "textures carry no components")
        if type.isArray {
            precondition(
                components.count % type.elementComponents == 0
                    && components.count / type.elementComponents <= type.maximumElements,
                "\(type.rawValue) takes up to \(type.maximumElements) elements of \(type.elementComponents) components, got \(components.count) components"
            )
            precondition(type != .data || components.allSatisfy { $0 >= 0 && $0 <= 255 && $0 == $0.rounded() }, "bytes are integers 0…255")
        } else {
            precondition(
                components.count == type.componentCount, "\(type.rawValue) takes \(type.componentCount) components, got \(components.count)"
            )
        }
        precondition(components.allSatisfy(\.isFinite), "parameter components must be finite")
        self.type = type
        self.components = components
    }

    /// A float value.
    public static func float(_ v: Double) -> ParameterValue { ParameterValue(.float, [v]) }
    /// An int value.
    public static func int(_ v: Int) -> ParameterValue { ParameterValue(.int, [Double(v)]) }
    /// A bool value.
    public static func bool(_ v: Bool) -> ParameterValue { ParameterValue(.bool, [v ? 1 : 0]) }
    /// A vec2 value.
    public static func vec2(_ x: Double, _ y: Double) -> ParameterValue { ParameterValue(.vec2, [x, y]) }

    /// The first component, for scalar parameters.
    public var scalar: Double { components[0] }

    /// The number of elements of an array value (floats, colours or bytes); 1 for other types.
    public var elementCount: Int { type.isArray ? components.count / type.elementComponents : 1 }

    /// The value as GLSL source text, e.g. `vec2(0.5, 1.0)` (an array value, which has no GLSL
    /// literal, as its `description`).
    public var glslLiteral: String {
        if type.isArray { return description }
        func lit(_ d: Double) -> String {
            switch type.scalar {
            case .int: return Self.integerText(d)
            case .bool: return d != 0 ? "true" : "false"
            default:
                let s = String(d)
                return s.contains(".") || s.contains("e") ? s : s + ".0"
            }
        }
        if type.componentCount == 1 { return lit(components[0]) }
        return "\(type.rawValue)(\(components.map(lit).joined(separator: ", ")))"
    }

    /// The value as a user types it: components separated by commas (bytes as `0x` and hex digits;
    /// an empty array as nothing).
    public var description: String {
        if type == .data { return components.isEmpty ? "" : "0x" + components.map { UInt8($0) }.hexDigits }
        return components.map { d in
            switch type.scalar {
            case .int: Self.integerText(d)
            case .bool: d != 0 ? "true" : "false"
            default: String(exactNumber: d)
            }
        }.joined(separator: ",")
    }

    /// `d` as an integer's text; a value beyond what an `Int` holds (2^63), which only a value
    /// made in code can have, as the number it is.
    private static func integerText(_ d: Double) -> String {
        abs(d) < 0x1p63 ? String(Int(d)) : String(exactNumber: d)
    }

    /// Parses user text for a parameter of `type`: one number (or `true`/`false`), or
    /// comma-separated components; a single component is broadcast to every component of a
    /// vector (as `vec2(1.0)` does) and to the diagonal of a matrix. A colour parameter (`vec3`,
    /// `vec4`) also takes `#rgb`, `#rrggbb` or `#rrggbbaa` (components 0…1; alpha 1 when absent).
    /// - Throws: `ParameterError` for text that is not a number of the right kind, a wrong
    ///   component count, or a NaN or infinite value.
    /// An array or data parameter takes the forms of `parseArray`.
    /// `typeName` is the type as the source spells it, for messages (`half4` in Metal; default
    /// the GLSL name).
    public static func parse(
        _ text: String, as type: ParameterType, name: String, typeName: String? = nil
    ) throws(ParameterError) -> ParameterValue {
        let spelled = typeName ?? type.rawValue
        guard type != .sampler2D else { throw .notSettable(name: name, type: type) }
        if type.isArray { return try parseArray(text, as: type, name: name) }
        if text.hasPrefix("#"), type == .vec3 || type == .vec4 {
            guard let rgba = hexColor(text.dropFirst()) else { throw .wrongType(name: name, type: spelled, text: text) }
            return ParameterValue(type, Array(rgba.prefix(type.componentCount)))
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespaceAndNewlines() }
        var values: [Double] = []
        for part in parts {
            switch type.scalar {
            case .bool:
                switch part.lowercased() {
                case "true", "1", "yes", "on": values.append(1)
                case "false", "0", "no", "off": values.append(0)
                default: throw .wrongType(name: name, type: spelled, text: text)
                }
            case .int:
                // GLSL's int has 32 bits.
                guard let i = Int32(part) else { throw .wrongType(name: name, type: spelled, text: text) }
                values.append(Double(i))
            case .float:
                guard let d = Double(part) else { throw .wrongType(name: name, type: spelled, text: text) }
                guard Float(d).isFinite else { throw .notFinite(name: name, text: text) }
                // Metal's half holds ±65504; past that the shader would see an infinity.
                guard !spelled.hasPrefix("half") || abs(d) <= ParameterValue.largestHalf else {
                    throw .beyondHalf(name: name, type: spelled, text: part)
                }
                values.append(d)
            case .texture:
                throw .notSettable(name: name, type: type)
            }
        }
        let n = type.componentCount
        if values.count == 1 && n > 1 {
            if let dim = type.matrixDimension {
                var m = [Double](repeating: 0, count: n)
                for c in 0..<dim { m[c * dim + c] = values[0] }
                values = m
            } else {
                values = Array(repeating: values[0], count: n)
            }
        }
        guard values.count == n else { throw .wrongComponentCount(name: name, type: spelled, expected: n, got: values.count) }
        return ParameterValue(type, values)
    }
}

/// An RGBA colour's components with red, green and blue multiplied by alpha (how a SwiftUI
/// `Color` reaches a shader).
func premultiplied(_ c: [Double]) -> [Double] { [c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]] }

/// `rgb`, `rrggbb` or `rrggbbaa` in hex as four components 0…1, or nil.
func hexColor(_ digits: Substring) -> [Double]? {
    guard [3, 6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
    let nibbles = digits.compactMap { $0.hexDigitValue }
    let bytes: [Int] =
        digits.count == 3
        ? nibbles.map { $0 * 17 }
        : stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] * 16 + nibbles[$0 + 1] }
    return (bytes + (bytes.count == 3 ? [255] : [])).map { Double($0) / 255 }
}

/// Why a parameter assignment was refused.
public enum ParameterError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// The effect has no parameter of that name.
    case unknown(name: String, effect: String, known: [String])
    /// The text is not a value of the parameter's type (`type`: as the source spells it).
    case wrongType(name: String, type: String, text: String)
    /// NaN or an infinity.
    case notFinite(name: String, text: String)
    /// Too few or too many comma-separated components (`type`: as the source spells it).
    case wrongComponentCount(name: String, type: String, expected: Int, got: Int)
    /// A texture parameter takes an image, not a value.
    case notSettable(name: String, type: ParameterType)
    /// An array argument takes one value for the whole transition, not keyframes.
    case notKeyframable(name: String, type: ParameterType)
    /// `name=value` syntax broken.
    case malformedAssignment(String)
    /// An array or data value longer than its type's maximum (`got`: the length given, nil when
    /// only "more" is known, as for a file read up to the limit).
    case tooLong(name: String, type: ParameterType, limit: Int, got: Int?)
    /// An array or data value that is not in one of its forms, or a file that cannot be read.
    case invalidArray(name: String, message: String)
    /// A parameter given a value twice in one request (which would win is no one's guess).
    case givenTwice(name: String)
    /// A component of a Metal `half` parameter or of a colour array beyond a half's ±65504.
    case beyondHalf(name: String, type: String, text: String)

    public var description: String {
        switch self {
        case let .unknown(name, effect, known):
            let list = known.isEmpty ? "it has no parameters" : "its parameters are: \(known.joined(separator: ", "))"
            let guess = MessageText.didYouMean(name, among: known, limit: 1).map { " (\($0))" } ?? ""
            return "effect '\(effect)' has no parameter '\(name)'\(guess); \(list)"
        case let .wrongType(name, type, text):
            return "parameter '\(name)' is a \(type); '\(MessageText.excerpt(text))' is not a valid \(type) value"
        case let .notFinite(name, text):
            // A number a double holds but a shader's 32-bit float does not (1e100) is named as such.
            let beyond = text.split(separator: ",").contains {
                Double($0.trimmingWhitespaceAndNewlines())?.isFinite == true && !(Float($0.trimmingWhitespaceAndNewlines()) ?? 0).isFinite
            }
            return beyond
                ? "parameter '\(name)' is beyond a 32-bit float's range (±3.4e+38), got '\(MessageText.excerpt(text))'"
                : "parameter '\(name)' must be a finite number, got '\(MessageText.excerpt(text))'"
        case let .wrongComponentCount(name, type, expected, got):
            return "parameter '\(name)' is a \(type) with \(expected) component\(expected == 1 ? "" : "s"); got \(got)"
        case let .notSettable(name, _):
            return "parameter '\(name)' is a texture: give it an image (a PNG or JPEG path), not a value"
        case let .notKeyframable(name, type):
            return "'\(name)' is an array argument (\(type.rawValue)); it cannot be keyframed: give it one value"
        case let .malformedAssignment(text):
            return "expected NAME=VALUE, got '\(MessageText.excerpt(text))'"
        case let .tooLong(name, type, limit, got):
            return "argument '\(name)' takes at most \(limit) \(type.elementUnit ?? "elements"); got \(got.map { "\($0)" } ?? "more")"
        case let .invalidArray(name, message):
            return "argument '\(name)': \(message)"
        case let .givenTwice(name):
            return "parameter '\(name)' is given twice; give it once"
        case let .beyondHalf(name, type, text):
            return "parameter '\(name)' is a \(type), whose components hold at most ±65504; got '\(MessageText.excerpt(text))'"
        }
    }
}
