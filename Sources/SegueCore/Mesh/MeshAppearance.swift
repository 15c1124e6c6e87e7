import SegueMath

/// How a mesh is lit and placed when rendered: Core Animation's mesh-related layer state.
///
/// Lighting is diffuse white light, two-sided: `light = (1 − f) + f·|dot(n, L)|` with
/// `L = normalize(lightDirection)` and `f = diffuseLightFactor`; the supplementary transform
/// is applied to points relative to the layer's centre (CATransform3D semantics).
public struct MeshAppearance: Sendable, Hashable {
    /// The direction the light comes from (need not be normalized; default (0, 0, 1), the
    /// viewer's direction).
    public var lightDirection: Vector3
    /// How much the light direction matters: 0 = no shading, 1 = full diffuse (default 1).
    public var diffuseLightFactor: Double
    /// A transform applied to the mesh's points (relative to the layer centre, in points),
    /// e.g. perspective through `m34 = −1/d` (default identity).
    public var supplementaryTransform: Transform3D
    /// How often every face is subdivided before rendering (default 0; see
    /// ``MeshTransform/subdivided(steps:)``).
    public var subdivisionSteps: Int

    /// Creates an appearance; every parameter has Core Animation's default.
    public init(
        lightDirection: Vector3 = Vector3(0, 0, 1), diffuseLightFactor: Double = 1,
        supplementaryTransform: Transform3D = .identity, subdivisionSteps: Int = 0
    ) {
        self.lightDirection = lightDirection
        self.diffuseLightFactor = diffuseLightFactor
        self.supplementaryTransform = supplementaryTransform
        self.subdivisionSteps = subdivisionSteps
    }

    /// Core Animation's defaults: light from the viewer, full diffuse factor, identity
    /// transform, no subdivision.
    public static let `default` = MeshAppearance()

    /// The unit light direction `L`.
    public var normalizedLightDirection: Vector3 { lightDirection.direction }

    /// The light factor for a unit normal `n`: `(1 − f) + f·|dot(n, L)|`.
    public func lightFactor(normal: Vector3) -> Double {
        (1 - diffuseLightFactor) + diffuseLightFactor * abs(normal.dot(normalizedLightDirection))
    }

    /// Checks the appearance before rendering.
    ///
    /// - Throws: ``MeshError`` (`.nonFiniteValue` or `.invalidParameter`) naming the field:
    ///   a non-finite or zero light direction, a non-finite diffuse factor, a non-finite
    ///   transform entry, or subdivision steps outside 0…``MeshTransform/maximumSubdivisionSteps``.
    public func validate() throws {
        let l = lightDirection
        guard l.x.isFinite && l.y.isFinite && l.z.isFinite else {
            throw MeshError(.nonFiniteValue, "lightDirection must be finite, got (\(l.x), \(l.y), \(l.z))")
        }
        guard l.x != 0 || l.y != 0 || l.z != 0 else {
            throw MeshError(.invalidParameter, "lightDirection must not be the zero vector")
        }
        guard diffuseLightFactor.isFinite else {
            throw MeshError(.nonFiniteValue, "diffuseLightFactor must be finite, got \(diffuseLightFactor)")
        }
        guard supplementaryTransform.isFinite else {
            throw MeshError(.nonFiniteValue, "supplementaryTransform must have finite entries")
        }
        try MeshTransform.checkSubdivisionSteps(subdivisionSteps)
    }
}
