// What one mesh frame draws: geometry in the interleaved layout of SegueCore's MeshGeometry, and the
// per-frame uniforms (supplementary transform, layer size, light).
import SegueCore
import SegueMath

/// One frame of a mesh: the uniforms and, optionally, geometry for this frame only.
public struct MeshDraw: Sendable {
    /// Layer width in points (the output image spans the layer: pixel scale = output width / this).
    public var layerWidth: Double
    /// Layer height in points.
    public var layerHeight: Double
    /// The supplementary transform, `[x' y' z' w'] = [x y z 1]·M` (CATransform3D semantics).
    public var transform: Transform3D
    /// The direction towards the light in point space (normalized on the GPU); not zero.
    public var lightDirection: Vector3
    /// `f` in `light = (1 − f) + f·|dot(n, L)|`; 0 is unlit, 1 fully diffuse.
    public var diffuseLightFactor: Double
    /// Geometry for this frame, uploaded into the frame's own in-flight buffers; nil draws the
    /// renderer's static mesh (`MeshRenderer.setMesh`).
    public var geometry: MeshGeometry?

    /// A draw of a `layerWidth × layerHeight`-point layer; defaults follow Core Animation
    /// (identity transform, light from the viewer, diffuse factor 1).
    public init(
        layerWidth: Double, layerHeight: Double, transform: Transform3D = .identity,
        lightDirection: Vector3 = Vector3(0, 0, 1), diffuseLightFactor: Double = 1, geometry: MeshGeometry? = nil
    ) {
        self.layerWidth = layerWidth
        self.layerHeight = layerHeight
        self.transform = transform
        self.lightDirection = lightDirection
        self.diffuseLightFactor = diffuseLightFactor
        self.geometry = geometry
    }
}
