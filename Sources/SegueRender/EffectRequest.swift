import SegueCore
import SegueMath
import SegueMedia
import SegueShaders
import SegueVulkan

// What a user asks for when they name an effect: the effect (a built-in, a .glsl file or a
// stitchable `file.metal[:NAME]`), its parameter assignments, extra textures and, for stitchable
// shaders, how the function runs as a transition. `resolve` turns the request into an effect
// with checked parameter values and loaded textures — the one place where `--param`, `--arg`
// and `--texture` are interpreted, for every command and for library users alike.

/// An effect as named by a user, with parameters given as text.
public struct EffectRequest: Sendable {
    /// A built-in name, a `.glsl` transition file, or a stitchable `file.metal[:NAME]`.
    public var effect: String
    /// `name=value` assignments of the effect's parameters (`--param`).
    public var parameters: [(name: String, value: String)]
    /// Images for the effect's `sampler2D` parameters, by parameter name (`--texture`).
    public var textures: [(name: String, path: String)]
    /// How a stitchable function runs; nil when none of its options was given.
    public var stitchable: StitchableRequest?

    /// A request; parameters and textures as `(name, value)` pairs.
    public init(
        effect: String, parameters: [(name: String, value: String)] = [],
        textures: [(name: String, path: String)] = [], stitchable: StitchableRequest? = nil
    ) {
        self.effect = effect
        self.parameters = parameters
        self.textures = textures
        self.stitchable = stitchable
    }

    /// The effect with its resolved parameter values and loaded textures.
    /// - Parameter scale: pixels per point given to loaded texture images.
    /// - Throws: `EffectLookupError` (unknown effect, unreadable file), `ParameterError`
    ///   (unknown parameter, bad value), `StitchableConfigurationError` (stitchable options on
    ///   another kind of effect, unknown argument), `MediaError` (a texture image).
    public func resolve(scale: Double = 1) throws -> ResolvedEffect {
        let stitchable = self.stitchable ?? StitchableRequest()
        let name = stitchable.function.map { f in self.effect.hasSuffix(".metal") ? "\(self.effect):\(f)" : self.effect } ?? self.effect
        let base = try EffectCatalog.effect(name)
        let resolved: Effect
        var assignments = parameters
        if base.kind == .stitchable {
            let configured = try stitchable.configure(self.effect, base: base)
            resolved = configured.effect
            assignments = configured.arguments + parameters
        } else {
            if self.stitchable != nil {
                throw StitchableConfigurationError(.notStitchable(effect: self.effect, kind: base.kind.rawValue))
            }
            resolved = base
        }
        return try ResolvedEffect(
            effect: resolved, parameters: try resolved.resolveParameters(assignments), texturePaths: textures, scale: scale)
    }

    /// The effect that pops what `push` (this request, resolved) pushed: the push effect's
    /// `Effect.reverse`, with those of this request's parameters and of `push`'s textures that
    /// it declares (ios-pop takes all of ios-push's; a file's `// Reverse: fade` none of them).
    /// - Returns: nil when the push effect names no reverse (a pop plays the push backwards).
    /// - Throws: `EffectLookupError` (the reverse is no effect), `ParameterError`.
    public func resolveReverse(of push: ResolvedEffect) throws -> ResolvedEffect? {
        guard let name = push.effect.reverse else { return nil }
        let effect = try EffectCatalog.effect(name)
        let declared = Set(effect.parameters.map(\.name))
        return ResolvedEffect(
            effect: effect, parameters: try effect.resolveParameters(parameters.filter { declared.contains($0.name) }),
            textures: push.textures.filter { declared.contains($0.key) })
    }
}

/// An effect ready to render: checked parameter values and loaded textures.
public struct ResolvedEffect: Sendable {
    /// The effect (for a stitchable function, the transition built from it).
    public let effect: Effect
    /// Values of the parameters that were given (the others take their defaults).
    public let parameters: [String: ParameterValue]
    /// Images for the effect's `sampler2D` parameters.
    public let textures: [String: Image]
    /// Whether it is a stitchable fill, which draws without an image (over a transparent one).
    public var isFill = false

    /// `effect` with its checked `parameters` and the images of `texturePaths` read at `scale`
    /// pixels per point.
    /// - Throws: `ParameterError.givenTwice` for a texture named twice (the last one won, unsaid),
    ///   `MediaError` (an image).
    init(
        effect: Effect, parameters: [String: ParameterValue], texturePaths: [(name: String, path: String)], scale: Double
    ) throws {
        var names: Set<String> = []
        for (name, _) in texturePaths where !names.insert(name).inserted { throw ParameterError.givenTwice(name: name) }
        var images: [String: Image] = [:]
        for (name, path) in texturePaths { images[name] = try ImageFile.read(path: path, scale: scale) }
        self.init(effect: effect, parameters: parameters, textures: images)
    }

    /// `effect` with its checked `parameters` and loaded `textures`.
    init(effect: Effect, parameters: [String: ParameterValue], textures: [String: Image]) {
        self.effect = effect
        self.parameters = parameters
        self.textures = textures
    }

    /// Checks that the textures given are the effect's (`Effect.checkTextures`), as a renderer
    /// will: for a caller that must fail before it opens a window or an output.
    public func checkTextures() throws(RenderError) {
        try effect.checkTextures(textures.keys)
    }
}

extension Effect {
    /// Checks that `given` names every one of the effect's ``textureNames`` and nothing else.
    /// - Throws: `RenderError.unknownTexture` for a name the effect does not declare (the
    ///   first in sorted order), then `.missingTexture` for the first declared one not given.
    public func checkTextures(_ given: some Collection<String>) throws(RenderError) {
        let declared = textureNames
        if let unknown = given.filter({ !declared.contains($0) }).min() {
            throw .unknownTexture(name: unknown, effect: name, declared: declared)
        }
        if let missing = declared.first(where: { !given.contains($0) }) {
            throw .missingTexture(name: missing, effect: name)
        }
    }
}

/// How a stitchable shader function runs as a transition (SwiftUI's `.transition` with a shader).
public struct StitchableRequest: Sendable {
    /// The function in the `.metal` file (or write `file.metal:NAME`).
    public var function: String?
    /// `name=value` argument values; the value `auto` fills a `float2` with the layer size, a
    /// `float4` with its bounds and a `float` with the time in seconds.
    public var arguments: [(name: String, value: String)]
    /// The `float` argument the transition drives (default: the last `float` argument).
    public var animate: String?
    /// Effect values of the inserted screen at progress 0 and 1 (default 1 → 0).
    public var insertion: (from: Double, to: Double)?
    /// Effect values of the removed screen at progress 0 and 1 (default 0 → −1).
    public var removal: (from: Double, to: Double)?
    /// SwiftUI's `maxSampleOffset`: how far the layer's drawing area is padded, in points per axis
    /// (checked; a layer fills the output, so no pixel changes).
    public var maxSampleOffset: Vector2?
    /// Another function of the same file for the removed screen (an LTR/RTL pair).
    public var removalFunction: String?

    /// A request; every field optional.
    public init(
        function: String? = nil, arguments: [(name: String, value: String)] = [], animate: String? = nil,
        insertion: (from: Double, to: Double)? = nil, removal: (from: Double, to: Double)? = nil,
        maxSampleOffset: Vector2? = nil, removalFunction: String? = nil
    ) {
        self.function = function
        self.arguments = arguments
        self.animate = animate
        self.insertion = insertion
        self.removal = removal
        self.maxSampleOffset = maxSampleOffset
        self.removalFunction = removalFunction
    }

    /// The transition built from the function, and the argument values to resolve as parameters.
    fileprivate func configure(_ nameOrPath: String, base: Effect) throws -> (effect: Effect, arguments: [(name: String, value: String)]) {
        let fn = try EffectCatalog.stitchableFunction(nameOrPath, function: function, use: .transition)
        var configuration = StitchableConfiguration(animated: animate)
        if let insertion { configuration.insertion = insertion }
        if let removal { configuration.removal = removal }
        if let maxSampleOffset { configuration.maxSampleOffset = maxSampleOffset }
        var functions = [fn]
        if let removalFunction {
            // The same file's other function; a built-in (`shift`) names its own.
            let path = EffectCatalog.file(ofEffect: nameOrPath) ?? nameOrPath
            let other = try EffectCatalog.stitchableFunction(path, function: removalFunction, use: .transition)
            configuration.removalFunction = other
            if other != fn { functions.append(other) }
        }
        let (automatic, assignments) = try splitAutomatic(
            arguments, automatic: functions.reduce(into: Set<String>()) { $0.formUnion($1.defaultAutomatic) }
        ) { name in
            guard functions.contains(where: { f in f.arguments.contains { $0.name == name } }) else {
                throw fn.unknownArgument(name, others: functions)
            }
        }
        configuration.automatic = automatic
        let animated = try fn.animatedArgument(configuration)
        let removalAnimated = try (configuration.removalFunction ?? fn).removalAnimatedArgument(configuration)
        if let clash = assignments.first(where: { $0.name == animated.name || $0.name == removalAnimated.name }) {
            throw StitchableConfigurationError(.animatedArgumentAssigned(name: clash.name))
        }
        let effect = try fn.effect(
            configuration, summary: base.summary, source: base.source,
            defaultDuration: base.defaultDuration, defaultTiming: base.defaultTiming)
        return (effect, assignments)
    }
}

/// Stitchable `arguments` split into the names filled automatically (`auto`, added to
/// `automatic`; a value given removes a default one) and the values to assign. `check` throws for
/// a name the function does not have; a name given twice is refused (`auto` included).
func splitAutomatic(
    _ arguments: [(name: String, value: String)], automatic: Set<String>, check: (String) throws -> Void
) throws -> (automatic: Set<String>, assignments: [(name: String, value: String)]) {
    var automatic = automatic
    var assignments: [(name: String, value: String)] = []
    var given: Set<String> = []
    for (name, value) in arguments {
        try check(name)
        guard given.insert(name).inserted else { throw ParameterError.givenTwice(name: name) }
        if value.lowercased() == "auto" {
            automatic.insert(name)
        } else {
            automatic.remove(name)
            assignments.append((name, value))
        }
    }
    return (automatic, assignments)
}
