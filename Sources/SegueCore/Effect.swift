// Effects are data: a program (a GLSL source, or a mesh builder), typed parameters with
// defaults, and a description.
import SegueSystem

/// The kind of pipeline an effect runs on.
public enum EffectKind: String, Sendable, Codable, CaseIterable {
    /// A fragment shader over a full-screen quad with the `from` and `to` textures.
    case fullScreen = "full-screen"
    /// A mesh of textured quads (see `MeshTransform`).
    case mesh
    /// A SwiftUI-style stitchable shader applied per layer.
    case stitchable
}

/// Where texture coordinate (0, 0) lies in an effect's source.
public enum EffectOrigin: String, Sendable, Codable {
    /// UIKit, SwiftUI and Metal: (0, 0) top-left, y down. Segue's native space.
    case topLeft = "top-left"
    /// OpenGL and gl-transitions: (0, 0) bottom-left, y up.
    case bottomLeft = "bottom-left"
}

/// How the colour an effect's shader returns is to be read.
public enum EffectAlpha: String, Sendable, Codable {
    /// Premultiplied, like Segue's textures: what Segue's own effects and SwiftUI layers return.
    case premultiplied
    /// Straight (colour not multiplied by alpha), as the gl-transitions format's renderers read a
    /// transition's result and the colours of its textures: `getFromColor`/`getToColor` return
    /// straight colour and the result is premultiplied after the transition function.
    case straight
}

/// One declared parameter of an effect.
public struct EffectParameter: Sendable, Equatable {
    /// The GLSL identifier.
    public let name: String
    /// The GLSL type.
    public let type: ParameterType
    /// The type as the effect's source spells it, for people: `vec4` in GLSL, `half4` in Metal.
    public let typeName: String
    /// The default value (nil for textures, and for gl-transitions parameters declared without
    /// one, which then default to zero).
    public let defaultValue: ParameterValue?
    /// What the parameter does, for `segue info`.
    public let summary: String
    /// The values the effect is meant for, when it states them (every component): the ends of
    /// a host's slider (frei0r's 0…1 maps onto it). A value outside is still taken — a spring's
    /// overshoot passes it — so this is a guide for people, not a check.
    public let range: ClosedRange<Double>?

    /// A parameter description; `typeName` defaults to the GLSL name.
    public init(
        name: String, type: ParameterType, defaultValue: ParameterValue?, summary: String = "", range: ClosedRange<Double>? = nil,
        typeName: String? = nil
    ) {
        self.name = name
        self.type = type
        self.typeName = typeName ?? type.rawValue
        self.defaultValue = defaultValue
        self.summary = summary
        self.range = range
    }

    /// The range as hosts read it (the C API, `--json`): the stated one; 0…1 for a bool.
    public var hostRange: ClosedRange<Double>? { range ?? (type.scalar == .bool ? 0...1 : nil) }

    /// The default, or zero of the right type when none was declared.
    public var effectiveDefault: ParameterValue? {
        if let defaultValue { return defaultValue }
        if type == .sampler2D { return nil }
        return ParameterValue(type, Array(repeating: 0, count: type.componentCount))
    }
}

/// Where an effect came from.
public enum EffectSource: Sendable, Equatable {
    /// Shipped with Segue.
    case builtIn
    /// Loaded from a file at this path.
    case file(String)

    /// A short label for listings: `built-in` or the path.
    public var label: String {
        switch self {
        case .builtIn: "built-in"
        case let .file(path): path
        }
    }
}

/// A named collection of built-in effects, for grouping them in listings (`segue list`).
public struct EffectFamily: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The short identifier (`segue`, `xfade`).
    public let rawValue: String

    /// A family by identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Segue's own built-ins.
    public static let segue = EffectFamily(rawValue: "segue")
    /// Equivalents of ffmpeg's `xfade` transitions, under xfade's names.
    public static let xfade = EffectFamily(rawValue: "xfade")

    /// A heading for listings.
    public var title: String {
        switch self {
        case .segue: "Segue built-ins"
        case .xfade: "ffmpeg xfade equivalents"
        default: rawValue
        }
    }

    public var description: String { rawValue }
}

/// How an effect draws: the one place that says what a renderer runs for it.
public enum EffectProgram: Sendable {
    /// A fragment shader: GLSL defining `vec4 transition(vec2 uv)`, with its `uniform` parameter
    /// lines removed (blank lines keep the user's line numbers). Full-screen and stitchable effects.
    case shader(glsl: String)
    /// A mesh built on the CPU for each frame and drawn by the mesh pipeline.
    case mesh(MeshBuilder)
}

/// Builds the mesh and appearance of a mesh effect for a progress, parameter values and a layer
/// size in points.
public struct MeshBuilder: Sendable {
    /// Whether it is a transition over both textures (`cube`, `page-curl`) rather than a mesh
    /// applied to one image.
    public let isTransition: Bool
    private let build:
        @Sendable (_ progress: Double, _ values: [String: ParameterValue], _ width: Double, _ height: Double) throws
            -> (mesh: MeshTransform, appearance: MeshAppearance)

    /// A builder; `build` receives every parameter's value (defaults filled in).
    public init(
        isTransition: Bool,
        build:
            @escaping @Sendable (Double, [String: ParameterValue], Double, Double) throws -> (
                mesh: MeshTransform, appearance: MeshAppearance
            )
    ) {
        self.isTransition = isTransition
        self.build = build
    }

    /// The mesh and appearance for `values` (complete: every parameter present).
    /// - Throws: `MeshError` for parameter values the mesh cannot take, or a layer size in points
    ///   that is not finite and above 0 (an image's pixels at an absurd scale).
    public func scene(progress: Double, values: [String: ParameterValue], width: Double, height: Double) throws
        -> (mesh: MeshTransform, appearance: MeshAppearance)
    {
        try MeshGeometry.checkLayerSize(width: width, height: height)
        return try build(progress, values, width, height)
    }
}

/// A transition or effect: everything needed to compile and drive it.
public struct Effect: Sendable, Equatable {
    /// The name users type (`doom-melt`), or the file's base name.
    public let name: String
    /// One line saying what it looks like.
    public let summary: String
    /// The pipeline it runs on.
    public let kind: EffectKind
    /// Built-in or a file.
    public let source: EffectSource
    /// What the renderer runs.
    public let program: EffectProgram
    /// The GLSL of a shader effect; nil for a mesh effect.
    public var glsl: String? {
        if case let .shader(glsl) = program { return glsl }
        return nil
    }
    /// The mesh builder of a mesh effect; nil for a shader effect.
    public var meshBuilder: MeshBuilder? {
        if case let .mesh(builder) = program { return builder }
        return nil
    }
    /// Orientation of `uv` in `glsl`.
    public let origin: EffectOrigin
    /// Declared parameters, in source order.
    public let parameters: [EffectParameter]
    /// The names of the images the effect samples besides `from` and `to`: its `sampler2D`
    /// parameters, in the order they are bound.
    public var textureNames: [String] { parameters.filter { $0.type == .sampler2D }.map(\.name) }
    /// Duration used when the caller gives none, in seconds.
    public let defaultDuration: Double
    /// The longest pass an effect file may declare (`// Duration:`) and a cut may last, in
    /// seconds: an hour.
    public static let maximumDuration: Double = 3600
    /// Name of the timing curve used when the caller gives none (`linear`, `ease-in-out`, …).
    public let defaultTiming: String
    /// `// Author:` header, if any.
    public let author: String?
    /// `// License:` header, if any.
    public let license: String?
    /// The built-in collection it belongs to; nil for effects loaded from files.
    public var family: EffectFamily?
    /// How the shader's colours are read (a mesh effect's are premultiplied).
    public var alpha: EffectAlpha
    /// The effect that plays this one's pops (`// Reverse:`; ios-push → ios-pop); nil when a pop
    /// plays this effect backwards.
    public var reverse: String?

    /// A shader effect (kind `.fullScreen` or `.stitchable`); `alpha` defaults to straight for a
    /// full-screen effect (the gl-transitions format) and premultiplied for a stitchable one.
    public init(
        name: String, summary: String, kind: EffectKind = .fullScreen, source: EffectSource, glsl: String,
        origin: EffectOrigin, parameters: [EffectParameter], defaultDuration: Double = 1,
        defaultTiming: String = "linear", author: String? = nil, license: String? = nil,
        family: EffectFamily? = nil, alpha: EffectAlpha? = nil
    ) {
        precondition(kind != .mesh, "a mesh effect is made with init(name:summary:mesh:…)")
        self.init(
            name: name, summary: summary, kind: kind, source: source, program: .shader(glsl: glsl), origin: origin,
            parameters: parameters, defaultDuration: defaultDuration, defaultTiming: defaultTiming,
            author: author, license: license, family: family, alpha: alpha ?? (kind == .fullScreen ? .straight : .premultiplied))
    }

    /// A mesh effect (kind `.mesh`).
    public init(
        name: String, summary: String, mesh: MeshBuilder, source: EffectSource = .builtIn,
        parameters: [EffectParameter], defaultDuration: Double = 1, defaultTiming: String = "linear",
        family: EffectFamily? = nil
    ) {
        self.init(
            name: name, summary: summary, kind: .mesh, source: source, program: .mesh(mesh), origin: .topLeft,
            parameters: parameters, defaultDuration: defaultDuration, defaultTiming: defaultTiming,
            author: nil, license: nil, family: family, alpha: .premultiplied)
    }

    private init(
        name: String, summary: String, kind: EffectKind, source: EffectSource, program: EffectProgram,
        origin: EffectOrigin, parameters: [EffectParameter], defaultDuration: Double, defaultTiming: String,
        author: String?, license: String?, family: EffectFamily?, alpha: EffectAlpha
    ) {
        self.name = name
        self.summary = summary
        self.kind = kind
        self.source = source
        self.program = program
        self.origin = origin
        self.parameters = parameters
        self.defaultDuration = defaultDuration
        self.defaultTiming = defaultTiming
        self.author = author
        self.license = license
        self.family = family
        self.alpha = alpha
    }

    /// Effects are equal when their descriptions and GLSL are; two mesh effects of the same name
    /// and source are the same effect (a builder is code, compared by the name it is registered under).
    public static func == (a: Effect, b: Effect) -> Bool {
        a.name == b.name && a.summary == b.summary && a.kind == b.kind && a.source == b.source && a.glsl == b.glsl
            && a.origin == b.origin && a.parameters == b.parameters && a.defaultDuration == b.defaultDuration
            && a.defaultTiming == b.defaultTiming && a.author == b.author && a.license == b.license && a.family == b.family
            && a.alpha == b.alpha && a.reverse == b.reverse
    }

    /// The mesh and appearance of a mesh effect at `progress` for a `width` × `height`-point
    /// layer; parameters not in `values` take their defaults.
    /// - Throws: `MeshError` for parameter values the mesh cannot take.
    /// - Precondition: the effect is a mesh effect.
    public func meshScene(progress: Double = 0, parameters values: [String: ParameterValue] = [:], width: Double, height: Double) throws
        -> (mesh: MeshTransform, appearance: MeshAppearance)
    {
        guard let meshBuilder else { preconditionFailure("'\(name)' is not a mesh effect") }
        return try meshBuilder.scene(progress: progress, values: self.values(overriding: values), width: width, height: height)
    }

    /// Every parameter's value: its default where it has one, replaced by `values`.
    public func values(overriding values: [String: ParameterValue] = [:]) -> [String: ParameterValue] {
        var all: [String: ParameterValue] = [:]
        for p in parameters { if let d = p.effectiveDefault { all[p.name] = d } }
        return all.merging(values) { $1 }
    }

    /// The parameter named `name`, if declared.
    public func parameter(named name: String) -> EffectParameter? {
        parameters.first { $0.name == name }
    }

    /// Every settable parameter's value: the defaults, overridden by `assignments` (user text).
    /// - Throws: `ParameterError` for an unknown name, a name given twice, a value of the wrong
    ///   type, or NaN/infinity.
    public func resolveParameters(_ assignments: [(name: String, value: String)]) throws(ParameterError) -> [String: ParameterValue] {
        var values = self.values()
        var given: Set<String> = []
        for (name, text) in assignments {
            guard let p = parameter(named: name) else {
                throw .unknown(name: name, effect: self.name, known: parameters.filter { $0.type != .sampler2D }.map(\.name))
            }
            guard given.insert(name).inserted else { throw .givenTwice(name: name) }
            values[name] = try value(text, of: p)
        }
        return values
    }

    /// The value of user text for parameter `p`, as every surface reads it (`--param`, a
    /// keyframe, the C API): `ParameterValue.parse`, and a stitchable function's `#` colour
    /// premultiplied, because it stands for a SwiftUI `Color`, which reaches the function so
    /// (`Shader.Argument.color`); numbers are passed as written.
    /// - Throws: `ParameterError` for a value of the wrong type, or NaN/infinity.
    public func value(_ text: String, of p: EffectParameter) throws(ParameterError) -> ParameterValue {
        let value = try ParameterValue.parse(text, as: p.type, name: p.name, typeName: p.typeName)
        guard kind == .stitchable, p.type == .vec4, text.trimmingWhitespaceAndNewlines().hasPrefix("#"), value.components.count == 4 else {
            return value
        }
        return ParameterValue(.vec4, premultiplied(value.components))
    }
}

/// Splits `NAME=VALUE` command-line text.
public func parseAssignment(_ text: String) throws(ParameterError) -> (name: String, value: String) {
    guard let eq = text.firstIndex(of: "=") else { throw .malformedAssignment(text) }
    let name = text[..<eq].trimmingWhitespaceAndNewlines()
    let value = text[text.index(after: eq)...].trimmingWhitespaceAndNewlines()
    // An empty value is a value: an empty array argument (`values=`); a scalar refuses it by type.
    guard !name.isEmpty else { throw .malformedAssignment(text) }
    return (name, value)
}
