import SegueCore
import SegueMath
import SegueMetal
// A translated SwiftUI `[[ stitchable ]]` shader function, and the effects built from it: a
// transition (SwiftUI's `.transition(.modifier(active:identity:))` with the shader on each view)
// and an effect on one image (a `colorEffect`, `distortionEffect` or `layerEffect` modifier).
//
// Composition (shared/reference/effects.md, "Shift transition"): each screen is a layer the size
// of the output (size in points = resolution / scale) with the effect applied on its own texture.
// The removed screen (`from`) gets effect value mix(removal.from, removal.to, progress) — through
// another function of the file when one is given for the removal, as SwiftUI's `.asymmetric`
// transitions pair left-to-right and right-to-left shaders; the inserted one (`to`)
// mix(insertion.from, insertion.to, progress). A distortion samples its layer where the function
// says; a sample outside the layer's bounds is transparent. `maxSampleOffset` pads the area the
// layer is drawn in, as in SwiftUI; since a layer fills the output, it changes no pixel. Each
// layer's result is clamped to [0, 1] and the inserted layer is drawn over the removed one with
// premultiplied source-over, as SwiftUI puts an inserted view above the view it replaces.
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a stitchable function cannot run as configured.
public struct StitchableConfigurationError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// The cases a front end words in its own terms (a command line names its flags).
    public enum Reason: Sendable, Equatable {
        /// Stitchable settings were given for `effect`, an effect of another `kind`.
        case notStitchable(effect: String, kind: String)
        /// The argument the transition animates was also given a fixed value.
        case animatedArgumentAssigned(name: String)
    }

    /// What is wrong, in words a user can act on.
    public let message: String
    /// Which of the cases with a remedy of their own it is; nil for the others.
    public let reason: Reason?

    /// An error with a message.
    public init(_ message: String) {
        self.message = message
        reason = nil
    }

    /// An error of a case with a remedy of its own, worded in terms of settings.
    public init(_ reason: Reason) {
        self.reason = reason
        switch reason {
        case let .notStitchable(effect, kind):
            message =
                "a function, arguments, an animated argument, insertion and removal ranges, a removal function and a maximum sample offset apply to stitchable shader effects (.metal files, shift); '\(effect)' is a \(kind) effect: set its parameters instead"
        case let .animatedArgumentAssigned(name):
            message = "'\(name)' is the animated argument; set its insertion and removal ranges instead of a value"
        }
    }

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
    /// SwiftUI's `maxSampleOffset`: how far (points per axis) the layer's drawing area is padded
    /// beyond its bounds. A layer fills the output, so it changes no pixel; it is checked and kept
    /// so a configuration says what the Swift code says. Nil is SwiftUI's default (`.zero`).
    public var maxSampleOffset: Vector2?
    /// Arguments filled automatically (a `float2` with the layer size, a `float4` with its bounding
    /// rectangle, a `float` with the time in seconds); nil takes `float2 size` and
    /// `float4 boundingRect`/`bounds`.
    public var automatic: Set<String>?
    /// Another function of the same file for the removed screen (SwiftUI `.asymmetric(insertion:
    /// removal:)` with two shaders); nil uses the same function for both.
    public var removalFunction: StitchableFunction?

    /// A configuration; the defaults are the reference's shift transition (insertion 1 → 0,
    /// removal 0 → −1, one function for both screens).
    public init(
        animated: String? = nil, insertion: (from: Double, to: Double) = (1, 0),
        removal: (from: Double, to: Double) = (0, -1), maxSampleOffset: Vector2? = nil,
        automatic: Set<String>? = nil, removalFunction: StitchableFunction? = nil
    ) {
        self.animated = animated
        self.insertion = insertion
        self.removal = removal
        self.maxSampleOffset = maxSampleOffset
        self.automatic = automatic
        self.removalFunction = removalFunction
    }

    public static func == (a: StitchableConfiguration, b: StitchableConfiguration) -> Bool {
        a.animated == b.animated && a.insertion == b.insertion && a.removal == b.removal
            && a.maxSampleOffset == b.maxSampleOffset && a.automatic == b.automatic && a.removalFunction == b.removalFunction
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
    /// The library helpers the file uses.
    let preludeGLSL: String
    /// Lines in the source file.
    let lineCount: Int
    /// The names of every stitchable function of the file (this one included), in order.
    public let siblings: [String]

    /// Names filled from the layer by default: `float2 size`, `float4 boundingRect` or `bounds`.
    public var defaultAutomatic: Set<String> {
        Set(
            arguments.filter {
                ($0.name == "size" && $0.type == .vec2) || (["boundingRect", "bounds"].contains($0.name) && $0.type == .vec4)
            }.map(\.name))
    }

    /// Names filled automatically when the function is applied to one image: the transition's
    /// (`size`, `boundingRect`/`bounds`) and a `float time` (seconds).
    public var defaultImageAutomatic: Set<String> {
        defaultAutomatic.union(arguments.filter { ["time", "iTime"].contains($0.name) && $0.type == .float }.map(\.name))
    }

    /// Names that mark the animated argument, in order of preference.
    public static let progressNames = ["progress", "amount", "effectValue", "value", "percent", "fraction", "t"]

    /// The argument a configuration animates: its `animated`, else a `float` named `progress`,
    /// `amount`, `effectValue`, `value`, `percent`, `fraction` or `t`, else the last `float`
    /// without a default argument (and not named `time`), else the last `float`.
    /// - Throws: `StitchableConfigurationError` when the name is not a `float` argument or there is none.
    public func animatedArgument(_ configuration: StitchableConfiguration) throws(StitchableConfigurationError) -> StitchableArgument {
        let floats = arguments.filter { $0.type == .float }
        if let name = configuration.animated {
            guard let a = arguments.first(where: { $0.name == name }) else {
                throw StitchableConfigurationError(
                    "'\(self.name)' has no argument '\(name)' to animate; its float arguments are: \(listedNames(floats.map(\.name)))")
            }
            guard a.type == .float else {
                throw StitchableConfigurationError(
                    "'\(name)' is a \(a.metalType); the animated argument must be a float (float arguments: \(listedNames(floats.map(\.name))))"
                )
            }
            return a
        }
        // A float named like a progress, else the last float without a default value.
        if let named = Self.progressNames.lazy.compactMap({ n in floats.first { $0.name == n } }).first { return named }
        guard let last = floats.last(where: { $0.defaultValue == nil && $0.name != "time" }) ?? floats.last else {
            throw StitchableConfigurationError(
                "'\(self.name)' has no float argument for a transition to animate; add one (e.g. 'float amount')")
        }
        return last
    }

    /// Whether the function runs as a transition when nothing configures it (`segue info` and
    /// `segue check` take it so): it is not a fill and has a `float` to animate. Otherwise it is
    /// applied to one image (`imageEffect`).
    public var runsAsTransition: Bool {
        kind != .fill && (try? animatedArgument(StitchableConfiguration())) != nil
    }

    /// The animated argument of the function run on the removed screen (`configuration.
    /// removalFunction`): the configured name when it has a `float` of that name, else its default.
    public func removalAnimatedArgument(_ configuration: StitchableConfiguration) throws(StitchableConfigurationError) -> StitchableArgument
    {
        if let name = configuration.animated, let a = arguments.first(where: { $0.name == name }), a.type == .float { return a }
        var c = configuration
        c.animated = nil
        return try animatedArgument(c)
    }

    /// The error of an argument `name` that neither this function nor `others` (a removal
    /// function, which takes the same values) has, listing theirs with their Metal types: every
    /// reader of `--arg` and `auto` words it so.
    public func unknownArgument(_ name: String, others: [StitchableFunction] = []) -> StitchableConfigurationError {
        var known: [String] = []
        for a in ([self] + others).flatMap(\.arguments) where !known.contains("\(a.name) (\(a.metalType))") {
            known.append("\(a.name) (\(a.metalType))")
        }
        return StitchableConfigurationError("'\(self.name)' has no argument '\(name)'; its arguments are: \(listedNames(known))")
    }

    /// The types after `position`, as `FILE:NAME(types)` names an overload: the colour or layer
    /// (`half4`, `SwiftUI::Layer`), then each argument's Metal type.
    public var parameterTypes: [String] {
        let input: [String]
        switch kind {
        case .color: input = ["half4"]
        case .layer: input = ["SwiftUI::Layer"]
        case .distortion, .fill: input = []
        }
        return input + arguments.flatMap { $0.countName == nil ? [$0.metalType] : [$0.metalType, "int"] }
    }

    /// The signature as `segue info` lists overloads: `half4 name(float2 position, half4 color, float amount)`.
    public var signatureText: String {
        let input: [String]
        switch kind {
        case .color: input = ["half4 color"]
        case .layer: input = ["SwiftUI::Layer layer"]
        case .distortion, .fill: input = []
        }
        let result = kind == .distortion ? "float2" : "half4"
        return "\(result) \(name)(" + (["float2 position"] + input + arguments.map(\.declaration)).joined(separator: ", ") + ")"
    }

    /// The transition effect running this function with `configuration`: an effect of kind
    /// `.stitchable` whose parameters are the arguments that are neither animated nor automatic
    /// (of both functions when the removal has its own), with their default arguments or zero.
    /// - Throws: `StitchableConfigurationError` for a bad animated or automatic argument, a
    ///   non-finite range or offset, a sample offset on a colour effect, a removal function of
    ///   another file, or an argument with two types in the two functions.
    public func effect(
        _ configuration: StitchableConfiguration = StitchableConfiguration(),
        summary: String? = nil, source: EffectSource, defaultDuration: Double = 1,
        defaultTiming: String = "linear"
    ) throws(StitchableConfigurationError) -> Effect {
        let removalFunction = configuration.removalFunction ?? self
        guard removalFunction.file == file, removalFunction.moduleGLSL == moduleGLSL else {
            throw StitchableConfigurationError(
                "the removal function '\(removalFunction.name)' must be in the same file as '\(name)' (\(file))")
        }
        let animated = try animatedArgument(configuration)
        let removalAnimated = try removalFunction.removalAnimatedArgument(configuration)
        let functions = removalFunction == self ? [self] : [self, removalFunction]
        let automatic = configuration.automatic ?? functions.reduce(into: Set<String>()) { $0.formUnion($1.defaultAutomatic) }
        for name in automatic {
            guard let a = functions.lazy.compactMap({ $0.arguments.first { $0.name == name } }).first else {
                throw unknownArgument(name, others: functions)
            }
            guard a.canBeAutomatic, a.name != animated.name, a.name != removalAnimated.name || removalFunction == self else {
                throw StitchableConfigurationError(
                    a.name == animated.name || a.name == removalAnimated.name
                        ? "'\(name)' is the animated argument; it cannot also be 'auto'"
                        : "'\(name)' is a \(a.metalType); only float (the time), float2 (the layer size) and float4 (its bounding rectangle) arguments can be 'auto'"
                )
            }
        }
        for v in [configuration.insertion.from, configuration.insertion.to, configuration.removal.from, configuration.removal.to]
        where !v.isFinite {
            throw StitchableConfigurationError("insertion and removal ranges must be finite numbers, got \(MessageText.number(v))")
        }
        if let m = configuration.maxSampleOffset {
            guard m.x.isFinite, m.y.isFinite, m.x >= 0, m.y >= 0 else {
                throw StitchableConfigurationError(
                    "the maximum sample offset must be finite and ≥ 0, got \(MessageText.number(m.x)),\(MessageText.number(m.y))")
            }
            guard kind != .color else {
                throw StitchableConfigurationError(
                    "'\(name)' is a colour effect, which samples only its own pixel; a maximum sample offset applies to distortion and layer effects"
                )
            }
        }
        var animatedNames = [name: animated.name]
        animatedNames[removalFunction.name] = removalAnimated.name
        let parameters = try Self.parameters(functions, excluding: animatedNames, automatic: automatic)
        let arrays = parameters.filter(\.type.isArray).map(\.name)
        var glsl = layerModel(parameters)
        let range = { (r: (from: Double, to: Double)) in "mix(\(Self.literal(r.from)), \(Self.literal(r.to)), progress)" }
        glsl +=
            "vec4 _segue_removedLayer(float _segue_value) {\n    \(removalFunction.layerReturn(layer: 0, animated: removalAnimated.name, automatic: automatic, arrays: arrays))\n}\n"
        glsl +=
            "vec4 _segue_insertedLayer(float _segue_value) {\n    \(layerReturn(layer: 1, animated: animated.name, automatic: automatic, arrays: arrays))\n}\n\n"
        glsl += """
            vec4 transition(vec2 uv) {
                _segue_layerSize = _segue_resolution / _segue_scale;
                _segue_destination = uv * _segue_layerSize;
                vec4 removed = _segue_removedLayer(\(range(configuration.removal)));
                vec4 inserted = _segue_insertedLayer(\(range(configuration.insertion)));
                return inserted + removed * (1.0 - inserted.a);
            }

            """
        let pair = removalFunction == self ? "" : " (removal: '\(removalFunction.name)')"
        return Effect(
            name: name, summary: summary ?? "SwiftUI \(kind.rawValue) shader '\(name)'\(pair) from \(FileIO.lastComponent(of: file))",
            kind: .stitchable, source: source, glsl: glsl, origin: .topLeft, parameters: parameters,
            defaultDuration: defaultDuration, defaultTiming: defaultTiming)
    }

    /// The function applied to one image (the `from` texture), as SwiftUI's `colorEffect`,
    /// `distortionEffect` or `layerEffect` modifier draws it: every argument that is not automatic
    /// is a parameter (default: its default argument, else zero — a colour is transparent);
    /// `automatic` defaults to `defaultImageAutomatic` (a `float time` gets the time in seconds).
    /// - Throws: `StitchableConfigurationError` for an automatic name that is not an argument or
    ///   cannot be filled.
    public func imageEffect(
        automatic: Set<String>? = nil, summary: String? = nil, source: EffectSource,
        defaultDuration: Double = 1
    ) throws(StitchableConfigurationError) -> Effect {
        let automatic = automatic ?? defaultImageAutomatic
        for name in automatic {
            guard let a = arguments.first(where: { $0.name == name }) else { throw unknownArgument(name) }
            guard a.canBeAutomatic else {
                throw StitchableConfigurationError(
                    "'\(name)' is a \(a.metalType); only float (the time), float2 (the layer size) and float4 (its bounding rectangle) arguments can be 'auto'"
                )
            }
        }
        let parameters = try Self.parameters([self], excluding: [:], automatic: automatic)
        var glsl = layerModel(parameters)
        glsl += """
            vec4 transition(vec2 uv) {
                _segue_layerSize = _segue_resolution / _segue_scale;
                _segue_destination = uv * _segue_layerSize;
                float _segue_value = 0.0;
                \(layerReturn(layer: 0, animated: nil, automatic: automatic, arrays: parameters.filter(\.type.isArray).map(\.name)))
            }

            """
        let use = kind == .fill ? "drawn alone, or over an image" : "on one image"
        return Effect(
            name: name, summary: summary ?? "SwiftUI \(kind.rawValue) shader '\(name)' from \(FileIO.lastComponent(of: file)), \(use)",
            kind: .stitchable, source: source, glsl: glsl, origin: .topLeft, parameters: parameters,
            defaultDuration: defaultDuration, defaultTiming: "linear")
    }

    /// The parameters of `functions`: their arguments that are neither animated (`excluding`:
    /// function → argument) nor automatic, each name once.
    static func parameters(
        _ functions: [StitchableFunction], excluding: [String: String],
        automatic: Set<String>
    ) throws(StitchableConfigurationError) -> [EffectParameter] {
        var parameters: [EffectParameter] = []
        for f in functions {
            for a in f.arguments where a.name != excluding[f.name] && !automatic.contains(a.name) {
                if let p = parameters.first(where: { $0.name == a.name }) {
                    guard p.type == a.type else {
                        throw StitchableConfigurationError(
                            "argument '\(a.name)' is a \(p.typeName) in '\(functions[0].name)' but a \(a.metalType) in '\(f.name)'; rename one"
                        )
                    }
                    continue
                }
                parameters.append(
                    EffectParameter(
                        name: a.name, type: a.type, defaultValue: a.defaultValue,
                        summary: "\(a.type.isArray ? a.declaration : a.metalType) argument of \(f.name)",
                        typeName: a.type.isArray ? nil : a.metalType))
            }
        }
        let arrays = parameters.filter(\.type.isArray)
        guard arrays.count <= ParameterType.maximumArrayParameters else {
            throw StitchableConfigurationError(
                "the functions have \(arrays.count) array and data arguments (\(listedNames(arrays.map(\.name)))); "
                    + "an effect takes at most \(ParameterType.maximumArrayParameters) (each takes \(ParameterType.arrayBlockBytes / 1024) KiB of the GPU's uniform block)"
            )
        }
        return parameters
    }

    // MARK: - GLSL

    private static func literal(_ v: Double) -> String {
        let s = String(v)
        return s.contains(".") || s.contains("e") ? s : s + ".0"
    }

    /// The prelude, Segue's layer model and the file's GLSL on its own lines.
    private func layerModel(_ parameters: [EffectParameter]) -> String {
        var s = Self.wordReader(parameters.filter(\.type.isArray))
        s += preludeGLSL
        s += """
            // Segue's layer model: sizes and positions in points, top-left origin.
            vec2 _segue_layerSize;
            vec2 _segue_destination;
            vec4 _segue_sampleLayer(int layer, vec2 p) {
                if (p.x < 0.0 || p.y < 0.0 || p.x > _segue_layerSize.x || p.y > _segue_layerSize.y) return vec4(0.0);
                vec2 uv = p / _segue_layerSize;
                return layer == 0 ? getFromColor(uv) : getToColor(uv);
            }
            #line 1

            """
        s += moduleGLSL
        s += "\n#line \(lineCount + 1)\n"
        return s
    }

    /// `_segue_word(b, w)`: 32-bit word `w` of array argument `b` (its index among the effect's
    /// array and data parameters), 0 outside the value given (before its first byte, after its
    /// last word) and for any other `b` — every read through a pointer goes through it, so no
    /// index reads past the value (nor past the 4 KiB its member has in the uniform block).
    static func wordReader(_ arrays: [EffectParameter]) -> String {
        var s = "uint _segue_word(int b, int w) {\n    if (w < 0) return 0u;\n"
        for (k, p) in arrays.enumerated() {
            let name = ShaderTemplate.argumentPrefix + p.name
            let words = "min((\(ShaderTemplate.countPrefix + p.name) * \(p.type.elementBytes) + 3) / 4, \(UniformLayout.arrayWords * 4))"
            s += "    if (b == \(k)) return w < \(words) ? \(name)[w >> 2][w & 3] : 0u;\n"
        }
        return s + "    return 0u;\n}\n"
    }

    /// `return …;` running the function on layer `layer` with `_segue_value` as the animated
    /// argument; an array argument is its index in `arrays` (what `_segue_word` reads) and its count.
    private func layerReturn(layer: Int, animated: String?, automatic: Set<String>, arrays: [String]) -> String {
        let args: [String] = arguments.map { a in
            if a.type.isArray, let k = arrays.firstIndex(of: a.name) {
                return "\(k), \(ShaderTemplate.countPrefix + a.name)"
            }
            if a.name == animated { return "_segue_value" }
            if automatic.contains(a.name) {
                switch a.type {
                case .float: return "_segue_time"
                case .vec2: return "_segue_layerSize"
                default: return "vec4(0.0, 0.0, _segue_layerSize)"
                }
            }
            return ShaderTemplate.argumentPrefix + a.name
        }
        let input: [String]
        switch kind {
        case .distortion, .fill: input = []
        case .color: input = ["_segue_sampleLayer(\(layer), _segue_destination)"]
        case .layer: input = ["\(layer)"]
        }
        let call = (["_segue_destination"] + input + args).joined(separator: ", ")
        switch kind {
        case .distortion: return "return _segue_sampleLayer(\(layer), \(glslName)(\(call)));"
        case .color, .layer: return "return clamp(\(glslName)(\(call)), 0.0, 1.0);"
        case .fill:
            // Premultiplied source-over the layer (transparent when there is no image).
            return "vec4 _segue_fill = clamp(\(glslName)(\(call)), 0.0, 1.0); "
                + "return _segue_fill + _segue_sampleLayer(\(layer), _segue_destination) * (1.0 - _segue_fill.a);"
        }
    }
}
