// The geometry contract between the mesh model and the GPU mesh pipeline.
//
// Vertices are interleaved floats, `floatsPerVertex = 9`: px, py, pz, u, v, nx, ny, nz, texture.
// - p = ((to.x − 0.5)·W, (to.y − 0.5)·H, Z·to.z): points relative to the layer centre, y down,
//   Z = depthNormalization.pointsPerUnit(W, H);
// - (u, v) = from;
// - n: the area-weighted smooth vertex normal in point space (see mesh-transforms.md): each
//   face's normal is the sum of the cross products of its triangles {i0, i1, i2} and
//   {i2, i3, i0}; a vertex gets the normalized sum over the distinct faces using it. Faces of
//   zero area contribute nothing; a vertex whose sum vanishes gets (0, 0, 1). For faces in the
//   identity order (TL, TR, BR, BL) of a flat layer the normal is (0, 0, 1), toward the viewer;
// - texture: 0 for faces showing `from`, 1 for `to`.
// Indices: two triangles per face, {i0, i1, i2} and {i2, i3, i0}.
// Vertex order: emitted vertex i is mesh vertex i for i < vertexCount of the mesh, with the
// texture of the first face using it (0 if unused); a vertex also used by faces of the other
// texture is emitted again after those, in vertex order, so each copy carries one texture.

import SegueMath

/// A mesh resolved for rendering at a layer size: interleaved vertex floats and triangle
/// indices, ready to upload (the geometry contract of the GPU mesh pipeline).
///
/// Subdivision is not applied here; call ``MeshTransform/subdivided(steps:)`` first.
public struct MeshGeometry: Sendable, Equatable {
    /// Floats per vertex: position (3, points from the layer centre, y down), texture
    /// coordinates (2, `from`), unit normal (3) and texture selector (1: 0 = from, 1 = to).
    public static let floatsPerVertex = 9

    /// Interleaved `px, py, pz, u, v, nx, ny, nz, texture` per vertex.
    public let vertices: [Float]
    /// Triangle indices into the vertices, two triangles per face: {i0, i1, i2}, {i2, i3, i0}.
    public let indices: [UInt32]
    /// For each emitted vertex, the index of the mesh vertex it comes from.
    public let sourceVertices: [Int]

    /// The number of emitted vertices.
    public var vertexCount: Int { sourceVertices.count }

    /// Wraps interleaved vertex floats and triangle indices built by hand (emitted vertex i is
    /// its own source).
    /// - Precondition: `vertices.count` is a multiple of 9, `indices.count` a multiple of 3, and
    ///   every index is below the vertex count.
    public init(vertices: [Float], indices: [UInt32]) {
        precondition(vertices.count % MeshGeometry.floatsPerVertex == 0, "mesh vertices need 9 floats each, got \(vertices.count) floats")
        precondition(indices.count % 3 == 0, "mesh indices form a triangle list; \(indices.count) is not a multiple of 3")
        let count = vertices.count / MeshGeometry.floatsPerVertex
        precondition(indices.allSatisfy { Int($0) < count }, "mesh index out of range (\(count) vertices)")
        self.vertices = vertices
        self.indices = indices
        sourceVertices = Array(0..<count)
    }

    /// Checks a layer size in points before a mesh is resolved for it: an image's pixels over its
    /// scale can overflow to infinity or round to 0 at absurd scales.
    /// - Throws: `MeshError` (`.invalidParameter`) unless both sides are finite and above 0.
    public static func checkLayerSize(width: Double, height: Double) throws {
        guard width > 0, height > 0, width.isFinite, height.isFinite else {
            throw MeshError(
                .invalidParameter,
                "a mesh needs a layer of a finite size above 0 points, got \(MessageText.number(width))×\(MessageText.number(height)) (the image's pixels over its scale: is the scale absurd?)"
            )
        }
    }

    /// Resolves `mesh` for a layer of `width` × `height` points.
    ///
    /// - Precondition: `width` and `height` are finite and positive (`checkLayerSize`), and
    ///   `mesh` is not ``MeshTransform/zero``.
    public init(mesh: MeshTransform, width: Double, height: Double) {
        precondition(
            width > 0 && height > 0 && width.isFinite && height.isFinite,
            "MeshGeometry needs a positive, finite layer size, got \(width)×\(height)")
        precondition(!mesh.isZero, "MeshTransform.zero is an arithmetic identity, not a renderable mesh")
        let z = mesh.depthNormalization.pointsPerUnit(width: width, height: height)
        let points = mesh.vertices.map { Vector3(($0.to.x - 0.5) * width, ($0.to.y - 0.5) * height, $0.to.z * z) }
        let normals = MeshGeometry.vertexNormals(points: points, faces: mesh.faces)

        // Which textures use each vertex: the first face's texture is the primary copy.
        let count = mesh.vertices.count
        var primary = [MeshFace.Texture?](repeating: nil, count: count)
        var needsSecond = [Bool](repeating: false, count: count)
        for face in mesh.faces {
            for corner in 0..<4 {
                let index = face[corner]
                if let texture = primary[index] {
                    if texture != face.texture { needsSecond[index] = true }
                } else {
                    primary[index] = face.texture
                }
            }
        }
        var sources = Array(0..<count)
        var textures = primary.map { $0 ?? .from }
        var secondCopy = [Int](repeating: -1, count: count)
        for index in 0..<count where needsSecond[index] {
            secondCopy[index] = sources.count
            sources.append(index)
            textures.append(textures[index] == .from ? .to : .from)
        }

        let stride = MeshGeometry.floatsPerVertex
        var floats = [Float](repeating: 0, count: sources.count * stride)
        for (emitted, source) in sources.enumerated() {
            let p = points[source], n = normals[source], from = mesh.vertices[source].from
            let base = emitted * stride
            floats[base] = Float(p.x)
            floats[base + 1] = Float(p.y)
            floats[base + 2] = Float(p.z)
            floats[base + 3] = Float(from.x)
            floats[base + 4] = Float(from.y)
            floats[base + 5] = Float(n.x)
            floats[base + 6] = Float(n.y)
            floats[base + 7] = Float(n.z)
            floats[base + 8] = Float(textures[emitted].index)
        }

        var indices = [UInt32]()
        indices.reserveCapacity(mesh.faces.count * 6)
        for face in mesh.faces {
            func emitted(_ index: Int) -> UInt32 {
                UInt32(face.texture == textures[index] ? index : secondCopy[index])
            }
            let (a, b, c, d) = (emitted(face.i0), emitted(face.i1), emitted(face.i2), emitted(face.i3))
            indices.append(a)
            indices.append(b)
            indices.append(c)
            indices.append(c)
            indices.append(d)
            indices.append(a)
        }

        vertices = floats
        self.indices = indices
        sourceVertices = sources
    }

    /// The emitted vertex `index` as (position, from, normal, texture).
    public func vertex(_ index: Int) -> (position: Vector3, from: Vector2, normal: Vector3, texture: MeshFace.Texture) {
        let base = index * MeshGeometry.floatsPerVertex
        let f = vertices[base..<(base + MeshGeometry.floatsPerVertex)].map(Double.init)
        return (Vector3(f[0], f[1], f[2]), Vector2(f[3], f[4]), Vector3(f[5], f[6], f[7]), f[8] == 0 ? .from : .to)
    }

    /// Area-weighted smooth normals in point space (see the top of this file).
    static func vertexNormals(points: [Vector3], faces: [MeshFace]) -> [Vector3] {
        var sums = [Vector3](repeating: .zero, count: points.count)
        var magnitudes = [Double](repeating: 0, count: points.count)
        for face in faces {
            let (p0, p1, p2, p3) = (points[face.i0], points[face.i1], points[face.i2], points[face.i3])
            let normal = (p1 - p0).cross(p2 - p0) + (p3 - p2).cross(p0 - p2)
            let length = normal.length
            guard length > 0, length.isFinite else { continue }
            // Each distinct vertex of the face once (a face may repeat a vertex).
            let (i0, i1, i2, i3) = (face.i0, face.i1, face.i2, face.i3)
            sums[i0] = sums[i0] + normal
            magnitudes[i0] += length
            if i1 != i0 {
                sums[i1] = sums[i1] + normal
                magnitudes[i1] += length
            }
            if i2 != i0 && i2 != i1 {
                sums[i2] = sums[i2] + normal
                magnitudes[i2] += length
            }
            if i3 != i0 && i3 != i1 && i3 != i2 {
                sums[i3] = sums[i3] + normal
                magnitudes[i3] += length
            }
        }
        return zip(sums, magnitudes).map { sum, magnitude in
            let length = sum.length
            // A sum that cancels to rounding noise (opposite faces) has no direction.
            guard length > magnitude * 1e-12, length.isFinite else { return Vector3(0, 0, 1) }
            return sum / length
        }
    }
}
