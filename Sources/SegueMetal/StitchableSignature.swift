// What the Metal front end hands on: the errors it finds (with the user's line), the kinds of
// SwiftUI stitchable function it recognises from their signatures, and their arguments.
import SegueCore
import SegueMath

/// Errors in a transition source found before compiling it.
public struct ShaderSourceError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// The file (or built-in name) the error is in.
    public let file: String
    /// 1-based line number in the user's file.
    public let line: Int
    /// What is wrong.
    public let message: String

    /// An error at a line of a file.
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): \(message)" }
}

/// What a stitchable function does, recognised from its signature.
public enum StitchableKind: String, Sendable, Equatable, CaseIterable {
    /// `float2 f(float2 position, args…)`: where to sample the layer (SwiftUI `distortionEffect`).
    case distortion
    /// `half4 f(float2 position, half4 color, args…)`: a new colour (SwiftUI `colorEffect`).
    case color = "colour"
    /// `half4 f(float2 position, SwiftUI::Layer layer, args…)`: samples the layer freely (`layerEffect`).
    case layer
    /// `half4 f(float2 position, args…)`: a colour for every point of a shape, without a layer
    /// (SwiftUI's `Shader` as a `ShapeStyle`: `Rectangle().fill(ShaderLibrary.f(…))`); the result
    /// is premultiplied. On an image it is drawn over it (`.overlay(Rectangle().fill(…))`).
    case fill
}

/// One of the arguments after `position` (and `color` or `layer`).
public struct StitchableArgument: Sendable, Equatable {
    /// The name in the Metal source.
    public let name: String
    /// The parameter type it becomes (`float` for `float`/`half`, `vec2` for `float2`/`half2`, …,
    /// `sampler2D` for a `texture2d<half>`).
    public let type: ParameterType
    /// The type as written in Metal.
    public let metalType: String
    /// The default argument written in the source (`float windSize = 0.2`); nil without one.
    public let defaultValue: ParameterValue?
    /// For an array or data argument (`device const float *values, int count`), the name of the
    /// `int` parameter after the pointer, which gets the number of elements (bytes for data).
    public let countName: String?

    /// An argument.
    public init(name: String, type: ParameterType, metalType: String, defaultValue: ParameterValue? = nil, countName: String? = nil) {
        self.name = name
        self.type = type
        self.metalType = metalType
        self.defaultValue = defaultValue
        self.countName = countName
    }

    /// The parameters it is in the source: `float amount`, `device const float *values, int count`.
    public var declaration: String {
        guard let countName else { return "\(metalType) \(name)" }
        return "\(metalType)\(name), int \(countName)"
    }

    /// Whether `auto` can fill it: a `float2` with the layer's size in points, a `float4` with
    /// its bounding rectangle (0, 0, width, height), a `float` with the time in seconds.
    public var canBeAutomatic: Bool { type == .vec2 || type == .vec4 || type == .float }

    /// The value it takes when none is given: its default argument, else zero (a colour:
    /// transparent; an array: empty, count 0). Nil for a texture.
    public var effectiveDefault: ParameterValue? {
        type == .sampler2D ? nil : defaultValue ?? ParameterValue(type, Array(repeating: 0, count: type.componentCount))
    }
}

/// A `[[ stitchable ]]` function as the front end found it.
public struct StitchableSignature: Sendable, Equatable {
    /// Its name in the source.
    public let name: String
    /// Its name in the GLSL.
    public let glsl: String
    /// What it does.
    public let kind: StitchableKind
    /// The arguments after `position` (and `color` or `layer`).
    public let arguments: [StitchableArgument]
    /// Its line.
    public let line: Int
}

/// A `[[ stitchable ]]` function that cannot be used, because its signature is not one SwiftUI
/// calls (another shape, or an argument of a type SwiftUI does not pass). It refuses only itself,
/// when it is asked for: the file's other functions still work, as in an app, where the Metal
/// compiler takes the file and only calling this function fails.
public struct StitchableRefusal: Sendable, Equatable {
    /// Its name in the source.
    public let name: String
    /// The Metal types of its parameters after `position`, as an overload is named (`half4`, `int`).
    public let parameterTypes: [String]
    /// Its line.
    public let line: Int
    /// Why it cannot be used, at the line of its cause.
    public let error: ShaderSourceError
}

/// Names for a message: "none", or the first `limit` joined with `separator` (commas; "; " for
/// signatures, which hold commas) and a count of the rest, so a file with thousands of functions
/// or arguments still gets a one-line message.
package func listedNames(_ names: [String], limit: Int = 12, separator: String = ", ") -> String {
    guard !names.isEmpty else { return "none" }
    let shown = names.prefix(limit).joined(separator: separator)
    return names.count > limit ? shown + "\(separator)… (\(names.count - limit) more)" : shown
}
