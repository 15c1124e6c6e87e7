// A translated SwiftUI `[[ stitchable ]]` shader function and the transition effect built from it.
//
// Composition (shared/reference/effects.md, "Shift transition"): each screen is a layer the size
// of the output (size in points = resolution / scale) with the effect applied on its own texture.
// The removed screen (`from`) gets effect value mix(removal.from, removal.to, progress); the
// inserted one (`to`) mix(insertion.from, insertion.to, progress). A distortion samples its layer
// where the function says; a sample outside the layer, or farther than `maxSampleOffset` from the
// destination, is transparent. Each layer's result is clamped to [0, 1] and the inserted layer is
// drawn over the removed one with premultiplied source-over, as SwiftUI puts an inserted view
// above the view it replaces.
import Foundation
import SegueCore
import SegueMath

/// What a stitchable function does, recognised from its signature.
public enum StitchableKind: String, Sendable, Equatable, CaseIterable {
    /// `float2 f(float2 position, args…)`: where to sample the layer (SwiftUI `distortionEffect`).
    case distortion
    /// `half4 f(float2 position, half4 color, args…)`: a new colour (SwiftUI `colorEffect`).
    case color = "colour"
    /// `half4 f(float2 position, SwiftUI::Layer layer, args…)`: samples the layer freely (`layerEffect`).
    case layer
}

/// One of the arguments after `position` (and `color` or `layer`).
public struct StitchableArgument: Sendable, Equatable {
    /// The name in the Metal source.
    public let name: String
    /// The parameter type it becomes (`float` for `float`/`half`, `vec2` for `float2`/`half2`, …).
    public let type: ParameterType
    /// The type as written in Metal.
    public let metalType: String

    /// Whether `auto` can fill it: a `float2` with the layer's size in points, a `float4` with
    /// its bounding rectangle (0, 0, width, height), a `float` with the transition's time in seconds.
    public var canBeAutomatic: Bool { type == .vec2 || type == .vec4 || type == .float }
}

/// Why a stitchable function cannot run as configured.
public struct StitchableConfigurationError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words a user can act on.
    public let message: String

    /// An error with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// How a stitchable function runs as a transition.
public struct StitchableConfiguration: Sendable, Equatable {
    /// The `float` argument the transition drives; nil takes the last `float` argument.
    public var animated: String?
    /// Effect values of the inserted screen at progress 0 and 1.
    public var insertion: (from: Double, to: Double)
    /// Effect values of the removed screen at progress 0 and 1.
    public var removal: (from: Double, to: Double)
    /// Farthest a sample may lie from its destination, in points per axis; nil for unlimited.
    public var maxSampleOffset: Vector2?
    /// Arguments filled automatically (a `float2` with the layer size, a `float4` with its bounding
    /// rectangle, a `float` with the time in seconds); nil takes `float2 size` and
    /// `float4 boundingRect`/`bounds`.
    public var automatic: Set<String>?

    /// A configuration; the defaults are the reference's shift transition (insertion 1 → 0,
    /// removal 0 → −1, unlimited sample offset).
    public init(animated: String? = nil, insertion: (from: Double, to: Double) = (1, 0),
                removal: (from: Double, to: Double) = (0, -1), maxSampleOffset: Vector2? = nil,
                automatic: Set<String>? = nil) {
        self.animated = animated
        self.insertion = insertion
        self.removal = removal
        self.maxSampleOffset = maxSampleOffset
        self.automatic = automatic
    }

    public static func == (a: StitchableConfiguration, b: StitchableConfiguration) -> Bool {
        a.animated == b.animated && a.insertion == b.insertion && a.removal == b.removal
            && a.maxSampleOffset == b.maxSampleOffset && a.automatic == b.automatic
    }
}

/// A `[[ stitchable ]]` function of a `.metal` file, translated to GLSL.
public struct StitchableFunction: Sendable, Equatable {
    /// The function's name.
    public let name: String
    /// Distortion, colour or layer.
    public let kind: StitchableKind
    /// The arguments after `position` (and `color`/`layer`), in order.
    public let arguments: [StitchableArgument]
    /// The line of its name in the source.
    public let line: Int
    /// The file (path or built-in file name).
    public let file: String
    /// Its name in the GLSL.
    let glslName: String
    /// The whole file's GLSL, on the user's lines.
    let moduleGLSL: String
    /// Lines in the source file.
    let lineCount: Int

    /// Names filled from the layer by default: `float2 size`, `float4 boundingRect` or `bounds`.
    public var defaultAutomatic: Set<String> {
        Set(arguments.filter { ($0.name == "size" && $0.type == .vec2) || (["boundingRect", "bounds"].contains($0.name) && $0.type == .vec4) }.map(\.name))
    }

    /// The argument a configuration animates (its `animated`, else the last `float`).
    /// - Throws: `StitchableConfigurationError` when the name is not a `float` argument or there is none.
    public func animatedArgument(_ configuration: StitchableConfiguration) throws(StitchableConfigurationError) -> StitchableArgument {
        let floats = arguments.filter { $0.type == .float }
        if let name = configuration.animated {
            guard let a = arguments.first(where: { $0.name == name }) else {
                throw StitchableConfigurationError("'\(self.name)' has no argument '\(name)' to animate; its float arguments are: \(list(floats))")
            }
            guard a.type == .float else {
                throw StitchableConfigurationError("'\(name)' is a \(a.metalType); the animated argument must be a float (float arguments: \(list(floats)))")
            }
            return a
        }
        guard let last = floats.last else {
            throw StitchableConfigurationError("'\(self.name)' has no float argument for a transition to animate; add one (e.g. 'float amount')")
        }
        return last
    }

    private func list(_ args: [StitchableArgument]) -> String { args.isEmpty ? "none" : args.map(\.name).joined(separator: ", ") }

    /// The transition effect running this function with `configuration`: an effect of kind
    /// `.stitchable` whose parameters are the arguments that are neither animated nor automatic
    /// (default zero).
    /// - Throws: `StitchableConfigurationError` for a bad animated or automatic argument, a
    ///   non-finite range or offset, a sample offset on a colour effect, or an argument name that
    ///   cannot be a uniform (`progress`, `ratio` or a GLSL reserved word).
    public func effect(_ configuration: StitchableConfiguration = StitchableConfiguration(),
                       summary: String? = nil, source: EffectSource, defaultDuration: Double = 1,
                       defaultTiming: String = "linear") throws(StitchableConfigurationError) -> Effect {
        let animated = try animatedArgument(configuration)
        let automatic = configuration.automatic ?? defaultAutomatic
        for name in automatic {
            guard let a = arguments.first(where: { $0.name == name }) else {
                throw StitchableConfigurationError("'\(self.name)' has no argument '\(name)'; its arguments are: \(list(arguments))")
            }
            guard a.canBeAutomatic, a.name != animated.name else {
                throw StitchableConfigurationError(a.name == animated.name
                    ? "'\(name)' is the animated argument; it cannot also be 'auto'"
                    : "'\(name)' is a \(a.metalType); only float (the time), float2 (the layer size) and float4 (its bounding rectangle) arguments can be 'auto'")
            }
        }
        for v in [configuration.insertion.from, configuration.insertion.to, configuration.removal.from, configuration.removal.to] where !v.isFinite {
            throw StitchableConfigurationError("insertion and removal ranges must be finite numbers, got \(v)")
        }
        if let m = configuration.maxSampleOffset {
            guard m.x.isFinite, m.y.isFinite, m.x >= 0, m.y >= 0 else {
                throw StitchableConfigurationError("the maximum sample offset must be finite and ≥ 0, got \(m.x),\(m.y)")
            }
            guard kind != .color else {
                throw StitchableConfigurationError("'\(name)' is a colour effect, which samples only its own pixel; a maximum sample offset applies to distortion and layer effects")
            }
        }
        var parameters: [EffectParameter] = []
        for a in arguments where a.name != animated.name && !automatic.contains(a.name) {
            if TransitionSourceParser.reservedNames.contains(a.name) || MetalVocabulary.isReservedInGLSL(a.name) {
                throw StitchableConfigurationError("argument '\(a.name)' of '\(name)' cannot be set as a parameter (the name is reserved in Segue's GLSL); rename it, or animate it with --animate \(a.name)")
            }
            parameters.append(EffectParameter(name: a.name, type: a.type, defaultValue: nil, summary: "\(a.metalType) argument of \(name)"))
        }
        let glsl = transitionGLSL(animated: animated.name, automatic: automatic, parameters: Set(parameters.map(\.name)),
                                  configuration: configuration)
        return Effect(name: name, summary: summary ?? "SwiftUI \(kind.rawValue) shader '\(name)' from \((file as NSString).lastPathComponent)",
                      kind: .stitchable, source: source, glsl: glsl, origin: .topLeft, parameters: parameters,
                      defaultDuration: defaultDuration, defaultTiming: defaultTiming)
    }

    // MARK: - GLSL

    private static func literal(_ v: Double) -> String {
        let s = String(v)
        return s.contains(".") || s.contains("e") ? s : s + ".0"
    }

    private func transitionGLSL(animated: String, automatic: Set<String>, parameters: Set<String>,
                                configuration: StitchableConfiguration) -> String {
        // Header uniforms are renamed by ShaderTemplate when a parameter takes their name.
        func header(_ n: String) -> String { parameters.contains(n) ? "_segue_\(n)" : n }
        let lit = Self.literal
        var s = MetalVocabulary.preludeGLSL
        s += """
        // Segue's layer model: sizes and positions in points, top-left origin.
        vec2 _segue_layerSize;
        vec2 _segue_destination;
        vec4 _segue_sampleLayer(int layer, vec2 p) {

        """
        if let m = configuration.maxSampleOffset {
            s += "    if (any(greaterThan(abs(p - _segue_destination), vec2(\(lit(m.x)), \(lit(m.y)))))) return vec4(0.0);\n"
        }
        s += """
            if (p.x < 0.0 || p.y < 0.0 || p.x > _segue_layerSize.x || p.y > _segue_layerSize.y) return vec4(0.0);
            vec2 uv = p / _segue_layerSize;
            return layer == 0 ? getFromColor(uv) : getToColor(uv);
        }
        #line 1

        """
        s += moduleGLSL
        s += "\n#line \(lineCount + 1)\n"
        let args: [String] = arguments.map { a in
            if a.name == animated { return "_segue_value" }
            if automatic.contains(a.name) {
                switch a.type {
                case .float: return header("time")
                case .vec2: return "_segue_layerSize"
                default: return "vec4(0.0, 0.0, _segue_layerSize)"
                }
            }
            return a.name
        }
        let call = (["_segue_destination"] + (kind == .distortion ? [] : [kind == .color ? "_segue_sampleLayer(_segue_layer, _segue_destination)" : "_segue_layer"]) + args)
            .joined(separator: ", ")
        s += "vec4 _segue_layerEffect(int _segue_layer, float _segue_value) {\n"
        switch kind {
        case .distortion:
            s += "    return _segue_sampleLayer(_segue_layer, \(glslName)(\(call)));\n"
        case .color, .layer:
            s += "    return clamp(\(glslName)(\(call)), 0.0, 1.0);\n"
        }
        s += """
        }

        vec4 transition(vec2 uv) {
            _segue_layerSize = \(header("resolution")) / \(header("scale"));
            _segue_destination = uv * _segue_layerSize;
            vec4 removed = _segue_layerEffect(0, mix(\(lit(configuration.removal.from)), \(lit(configuration.removal.to)), progress));
            vec4 inserted = _segue_layerEffect(1, mix(\(lit(configuration.insertion.from)), \(lit(configuration.insertion.to)), progress));
            return inserted + removed * (1.0 - inserted.a);
        }

        """
        return s
    }
}
