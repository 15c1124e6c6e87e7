// Segue's built-in mesh effects and mesh transitions: effect descriptions (name, parameters,
// defaults) bound to the Swift functions that build their meshes.

import SegueMath

/// A built-in mesh effect: an `Effect` whose program is a mesh builder.
public struct MeshEffectDefinition: Sendable {
    /// The description (kind `.mesh`, family `.segue`), listed with every other effect; its
    /// program builds the mesh.
    public let effect: Effect
    /// Whether it is a transition over both textures (`cube`, `page-curl`) rather than a mesh
    /// applied to one image.
    public var isTransition: Bool { effect.meshBuilder!.isTransition }

    init(
        name: String, summary: String, transition: Bool, duration: Double = 1, timing: String = "linear",
        parameters: [EffectParameter] = [],
        build:
            @escaping @Sendable (Double, [String: ParameterValue], Double, Double) throws -> (
                mesh: MeshTransform, appearance: MeshAppearance
            )
    ) {
        effect = Effect(
            name: name, summary: summary, mesh: MeshBuilder(isTransition: transition, build: build),
            parameters: parameters, defaultDuration: duration, defaultTiming: timing, family: .segue)
    }

    /// The mesh and appearance at `progress` (transitions; ignored by the other meshes) for a
    /// `width` × `height`-point layer; parameters not in `values` take their defaults.
    /// - Throws: `MeshError` for parameter values the mesh cannot take.
    public func scene(progress: Double = 0, parameters values: [String: ParameterValue] = [:], width: Double, height: Double) throws
        -> (mesh: MeshTransform, appearance: MeshAppearance)
    {
        try effect.meshScene(progress: progress, parameters: values, width: width, height: height)
    }
}

/// The built-in meshes.
public enum MeshEffects {
    /// Every built-in mesh: the transitions, then the mesh effects of the reference.
    public static let all: [MeshEffectDefinition] = [
        MeshEffectDefinition(
            name: "cube", summary: "A cube of the two screens turns 90° in perspective; the turning faces darken.",
            transition: true, duration: 0.5, timing: "ease-in-out",
            parameters: [
                EffectParameter(
                    name: "pop", type: .bool, defaultValue: .bool(false),
                    summary: "false: to comes from the right (push); true: from the left (pop)"),
                EffectParameter(
                    name: "eyeDistance", type: .float, defaultValue: .float(2),
                    summary: "viewer distance in screen widths (m34 = −1/(d·W))",
                    range: 1...5),
            ]
        ) { progress, v, w, h in
            let eyeDistance = try positive(v, "eyeDistance")
            // The eye stands eyeDistance widths away: a distance in points a perspective can take.
            guard (eyeDistance * w).isNormal else {
                throw MeshError(
                    .invalidParameter,
                    "eyeDistance \(MessageText.number(eyeDistance)) × the layer's width of \(MessageText.number(w)) points is no distance a perspective can take (\(MessageText.number(eyeDistance * w)) points)"
                )
            }
            return MeshTransform.cube(progress: progress, width: w, height: h, pop: v["pop"]!.scalar != 0, eyeDistance: eyeDistance)
        },
        MeshEffectDefinition(
            name: "page-curl", summary: "from curls away around a cylinder, its back showing, revealing to.",
            transition: true, duration: 1, timing: "ease-in-out",
            parameters: [
                EffectParameter(
                    name: "angle", type: .float, defaultValue: .float(30),
                    summary: "direction of the curl in degrees (0: the right edge lifts first)", range: -180...180),
                EffectParameter(
                    name: "radius", type: .float, defaultValue: .float(0.12), summary: "cylinder radius, in screen widths", range: 0.01...1),
            ]
        ) { progress, v, w, h in
            MeshTransform.pageCurl(progress: progress, width: w, height: h, angle: v["angle"]!.scalar, radius: try positive(v, "radius"))
        },
        MeshEffectDefinition(
            name: "curtain", summary: "A curtain gathered toward a touch point (diffuse 0.5, m34 = −1/2000).", transition: false,
            parameters: [
                EffectParameter(
                    name: "touch", type: .vec2, defaultValue: .vec2(0.6, 0.5),
                    summary: "touch point as a fraction of the layer (0,0 top-left)", range: 0...1)
            ]
        ) { _, v, w, h in
            let t = v["touch"]!.components
            return (try .curtain(touchPoint: Vector2(t[0] * w, t[1] * h), layerWidth: w, layerHeight: h), .curtain)
        },
        MeshEffectDefinition(
            name: "bulge", summary: "A lens-like bulge under a touch point (unlit).", transition: false,
            parameters: [
                EffectParameter(
                    name: "touch", type: .vec2, defaultValue: .vec2(0.5, 0.5),
                    summary: "touch point as a fraction of the layer (0,0 top-left)", range: 0...1),
                EffectParameter(name: "radius", type: .float, defaultValue: .float(120), summary: "radius in points", range: 1...500),
            ]
        ) { _, v, w, h in
            let t = v["touch"]!.components
            return (try .bulge(touchPoint: Vector2(t[0] * w, t[1] * h), radius: v["radius"]!.scalar, layerWidth: w, layerHeight: h), .bulge)
        },
        MeshEffectDefinition(
            name: "jelly", summary: "A wobbling disc: 100 rim vertices around a centre.", transition: false,
            parameters: [
                EffectParameter(name: "phase", type: .float, defaultValue: .float(0), summary: "phase φ in radians", range: 0...(2 * .pi)),
                EffectParameter(name: "magnitude", type: .float, defaultValue: .float(0.05), summary: "wobble magnitude m", range: 0...0.5),
            ]
        ) { _, v, _, _ in
            (try .jelly(phase: v["phase"]!.scalar, magnitude: v["magnitude"]!.scalar), .default)
        },
        MeshEffectDefinition(
            name: "ripple", summary: "Concentric ripples in depth, lit from the viewer.", transition: false,
            parameters: [
                EffectParameter(
                    name: "phase", type: .float, defaultValue: .float(0), summary: "phase φ in radians (growing: rings move outward)",
                    range: 0...(2 * .pi))
            ]
        ) { _, v, _, _ in
            (.ripple(phase: v["phase"]!.scalar), .default)
        },
        MeshEffectDefinition(name: "ellipse", summary: "The square mapped onto a rounded ellipse.", transition: false) { _, _, _, _ in
            (.ellipse(), .default)
        },
        MeshEffectDefinition(name: "skew", summary: "One quad whose top-left corner moves to the top centre.", transition: false) {
            _, _, _, _ in
            (.skew(), .default)
        },
        MeshEffectDefinition(
            name: "flat", summary: "The identity grid (rows × columns): a flat start or end for mesh animations.", transition: false,
            parameters: [
                EffectParameter(name: "rows", type: .int, defaultValue: .int(1), summary: "grid rows", range: 1...100),
                EffectParameter(name: "columns", type: .int, defaultValue: .int(1), summary: "grid columns", range: 1...100),
            ]
        ) { _, v, _, _ in
            let rows = Int(v["rows"]!.scalar), columns = Int(v["columns"]!.scalar)
            // A mesh's limit: (rows + 1) × (columns + 1) vertices (1000 × 1000 had 1,002,001).
            guard rows >= 1, columns >= 1, (rows + 1) * (columns + 1) <= MeshTransform.maximumVertexCount else {
                throw MeshError(
                    .invalidParameter,
                    "flat needs at least 1 row and column and at most \(MeshTransform.maximumVertexCount) vertices ((rows + 1) × (columns + 1)), got \(rows)×\(columns)"
                )
            }
            return (.identity(rows: rows, columns: columns), .default)
        },
    ]

    /// The built-in mesh named `name`.
    public static func named(_ name: String) -> MeshEffectDefinition? {
        all.first { $0.effect.name == name }
    }

    private static func positive(_ values: [String: ParameterValue], _ name: String) throws -> Double {
        let v = values[name]!.scalar
        guard v > 0 else { throw MeshError(.invalidParameter, "\(name) must be positive, got \(MessageText.number(v))") }
        return v
    }
}
