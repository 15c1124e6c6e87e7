// What one mesh frame draws: geometry in the interleaved layout the mesh model produces, and the
// per-frame uniforms (supplementary transform, layer size, light).
import SegueMath

/// Triangles to draw: interleaved vertices and a triangle list of indices.
///
/// Each vertex is 9 floats `px, py, pz, u, v, nx, ny, nz, texture`: the position in points
/// relative to the layer centre (x right, y down, z towards the viewer, already scaled by the
/// depth normalization), the texture coordinate ((0, 0) top-left), the unit normal in the same
/// point space, and the texture it samples (0 `from`, 1 `to`).
public struct MeshGeometry: Sendable, Equatable {
    /// Floats per vertex.
    public static let floatsPerVertex = 9
    /// Interleaved vertex data, `floatsPerVertex` floats a vertex.
    public let vertices: [Float]
    /// Triangle-list indices into the vertices.
    public let indices: [UInt32]
    /// The number of vertices.
    public var vertexCount: Int { vertices.count / MeshGeometry.floatsPerVertex }

    /// Wraps vertex and index arrays.
    /// - Precondition: `vertices.count` is a multiple of 9, `indices.count` a multiple of 3, and
    ///   every index is below the vertex count (the mesh model validates its faces).
    public init(vertices: [Float], indices: [UInt32]) {
        precondition(vertices.count % MeshGeometry.floatsPerVertex == 0, "mesh vertices need 9 floats each, got \(vertices.count) floats")
        precondition(indices.count % 3 == 0, "mesh indices form a triangle list; \(indices.count) is not a multiple of 3")
        let count = vertices.count / MeshGeometry.floatsPerVertex
        precondition(indices.allSatisfy { Int($0) < count }, "mesh index out of range (\(count) vertices)")
        self.vertices = vertices
        self.indices = indices
    }
}

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
    public init(layerWidth: Double, layerHeight: Double, transform: Transform3D = .identity,
                lightDirection: Vector3 = Vector3(0, 0, 1), diffuseLightFactor: Double = 1, geometry: MeshGeometry? = nil) {
        self.layerWidth = layerWidth
        self.layerHeight = layerHeight
        self.transform = transform
        self.lightDirection = lightDirection
        self.diffuseLightFactor = diffuseLightFactor
        self.geometry = geometry
    }
}
