// A mesh with its appearance: what one frame of a mesh render shows, and how two of them blend.
import SegueMath

/// A mesh transform and the appearance it is drawn with.
public struct MeshScene: Sendable, Hashable {
    /// The mesh.
    public var mesh: MeshTransform
    /// Lighting, supplementary transform and subdivision.
    public var appearance: MeshAppearance

    /// A scene.
    public init(mesh: MeshTransform, appearance: MeshAppearance = .default) {
        self.mesh = mesh
        self.appearance = appearance
    }

    /// The scene `fraction` of the way to `other`: vertices, light direction, diffuse factor and
    /// supplementary transform interpolated component by component (as Core Animation does);
    /// the larger of the two subdivision step counts, so the surface stays smooth throughout.
    /// - Precondition: the meshes are compatible (``MeshTransform/checkCompatible(with:)``).
    public func interpolated(to other: MeshScene, fraction: Double) -> MeshScene {
        let a = appearance, b = other.appearance
        return MeshScene(
            mesh: mesh.interpolated(to: other.mesh, fraction: fraction),
            appearance: MeshAppearance(
                lightDirection: a.lightDirection.interpolated(to: b.lightDirection, fraction: fraction),
                diffuseLightFactor: a.diffuseLightFactor.interpolated(to: b.diffuseLightFactor, fraction: fraction),
                supplementaryTransform: a.supplementaryTransform.interpolated(to: b.supplementaryTransform, fraction: fraction),
                subdivisionSteps: max(a.subdivisionSteps, b.subdivisionSteps)))
    }
}
