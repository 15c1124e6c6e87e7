import SegueMath

/// A mesh transform (Core Animation's `CAMeshTransform`): quads of content moved to new
/// places in 3D, as an immutable, validated value.
///
/// Each ``MeshVertex`` maps a point of the content (`from`) to a place (`to`) in unit
/// coordinates of the layer; each ``MeshFace`` spans four vertices. ``depthNormalization``
/// says how many points one unit of `to.z` is. A mesh is validated when it is built: every
/// face index is in range, every coordinate is finite and there is at least one face.
///
/// Meshes animate in SegueAnimation's engine (see `MeshTransform+Animation.swift`) between
/// *compatible* meshes (``checkCompatible(with:)``). The additive identity ``zero`` is the one
/// mesh without faces; see its documentation.
public struct MeshTransform: Sendable, Hashable {
    /// The vertices.
    public let vertices: [MeshVertex]
    /// The faces; each index is a valid index of ``vertices``.
    public let faces: [MeshFace]
    /// How `to.z` is scaled to points.
    public let depthNormalization: DepthNormalization

    /// Creates a mesh after checking it.
    ///
    /// - Throws: ``MeshError`` naming the first broken rule: `.noFaces`, `.faceIndexOutOfRange`
    ///   (which face, which vertex, the valid range) or `.nonFiniteValue` (which vertex).
    public init(vertices: [MeshVertex], faces: [MeshFace], depthNormalization: DepthNormalization = .none) throws {
        try MeshTransform.validate(vertices: vertices, faces: faces)
        self.init(unchecked: vertices, faces: faces, depthNormalization: depthNormalization)
    }

    /// Creates a mesh from a vertex generator and a face generator.
    ///
    /// - Parameters:
    ///   - vertexCount: the number of vertices; `vertex(i)` is called for i in 0..<vertexCount.
    ///   - faceCount: the number of faces; `face(i)` is called for i in 0..<faceCount.
    /// - Throws: what the closures throw, or ``MeshError`` as ``init(vertices:faces:depthNormalization:)``.
    public init(
        vertexCount: Int, vertex: (Int) throws -> MeshVertex,
        faceCount: Int, face: (Int) throws -> MeshFace,
        depthNormalization: DepthNormalization = .none
    ) throws {
        guard vertexCount >= 0, faceCount >= 0 else {
            throw MeshError(
                .invalidParameter, "vertex and face counts must not be negative (got \(vertexCount) vertices, \(faceCount) faces)")
        }
        let vertices = try (0..<vertexCount).map(vertex)
        let faces = try (0..<faceCount).map(face)
        try self.init(vertices: vertices, faces: faces, depthNormalization: depthNormalization)
    }

    /// Creates a mesh without checking it (callers guarantee the rules).
    init(unchecked vertices: [MeshVertex], faces: [MeshFace], depthNormalization: DepthNormalization) {
        self.vertices = vertices
        self.faces = faces
        self.depthNormalization = depthNormalization
    }

    /// The additive identity used by the animation engine: the only mesh with no vertices and
    /// no faces. It acts as "all coordinates zero" with whatever structure the other operand
    /// has, so `zero + m == m`, `m - m` has m's faces and zero coordinates, and
    /// `zero.interpolated(to: m, fraction: f) == m.scaled(by: f)`. It cannot be rendered and
    /// is never produced by a validated initializer.
    public static let zero = MeshTransform(unchecked: [], faces: [], depthNormalization: .none)

    /// Whether this is ``zero``.
    public var isZero: Bool { faces.isEmpty && vertices.isEmpty }

    // MARK: - Identity

    /// The flat mesh of `rows` × `columns` faces that leaves the content in place.
    ///
    /// Vertices are row-major, vertex `row·(columns+1) + col` at `from = to.xy = (col/columns,
    /// row/rows)`, `z = 0`; faces are row-major `{TL, TR, BR, BL}`; depth normalization is
    /// ``DepthNormalization/average``.
    ///
    /// - Precondition: `rows ≥ 1` and `columns ≥ 1`.
    public static func identity(rows: Int, columns: Int) -> MeshTransform {
        precondition(rows >= 1 && columns >= 1, "an identity mesh needs at least 1 row and 1 column, got \(rows)×\(columns)")
        var vertices: [MeshVertex] = []
        vertices.reserveCapacity((rows + 1) * (columns + 1))
        for row in 0...rows {
            for col in 0...columns {
                vertices.append(MeshVertex(identityAt: Vector2(Double(col) / Double(columns), Double(row) / Double(rows))))
            }
        }
        var faces: [MeshFace] = []
        faces.reserveCapacity(rows * columns)
        for row in 0..<rows {
            for col in 0..<columns {
                let tl = row * (columns + 1) + col
                let bl = (row + 1) * (columns + 1) + col
                faces.append(MeshFace(tl, tl + 1, bl + 1, bl))
            }
        }
        return MeshTransform(unchecked: vertices, faces: faces, depthNormalization: .average)
    }

    // MARK: - Derived meshes

    /// A mesh with the same faces and each vertex replaced by `transform(vertex, index)`.
    ///
    /// - Throws: what `transform` throws, or ``MeshError`` (`.nonFiniteValue`) when a new
    ///   vertex is not finite.
    public func mappingVertices(_ transform: (MeshVertex, Int) throws -> MeshVertex) throws -> MeshTransform {
        var mapped = vertices
        for index in mapped.indices {
            mapped[index] = try transform(mapped[index], index)
        }
        try MeshTransform.validate(vertices: mapped, faces: faces)
        return MeshTransform(unchecked: mapped, faces: faces, depthNormalization: depthNormalization)
    }

    /// The same mesh with another depth normalization.
    public func withDepthNormalization(_ normalization: DepthNormalization) -> MeshTransform {
        MeshTransform(unchecked: vertices, faces: faces, depthNormalization: normalization)
    }

    /// The same mesh with every face showing `texture`.
    public func withTexture(_ texture: MeshFace.Texture) -> MeshTransform {
        MeshTransform(
            unchecked: vertices,
            faces: faces.map {
                var f = $0; f.texture = texture; return f
            },
            depthNormalization: depthNormalization)
    }

    // MARK: - Validation

    /// Checks the construction rules; throws the first one broken.
    /// The most vertices a mesh may have (a 999 × 999-face grid has 1,000,000).
    public static let maximumVertexCount = 1_000_000
    /// The most faces a mesh may have.
    public static let maximumFaceCount = 1_000_000

    /// Throws unless `vertices` and `faces` are within ``maximumVertexCount`` and
    /// ``maximumFaceCount`` (checked before anything of that size is built).
    public static func checkSize(vertices: Int, faces: Int) throws(MeshError) {
        guard vertices <= maximumVertexCount, faces <= maximumFaceCount else {
            throw MeshError(
                .invalidParameter,
                "a mesh may have at most \(maximumVertexCount) vertices and \(maximumFaceCount) faces, got \(vertices) vertices and \(faces) faces"
            )
        }
    }

    static func validate(vertices: [MeshVertex], faces: [MeshFace]) throws {
        try checkSize(vertices: vertices.count, faces: faces.count)
        guard !faces.isEmpty else {
            throw MeshError(.noFaces, "a mesh needs at least one face, got none (\(vertices.count) vertices)")
        }
        let count = vertices.count
        for (faceIndex, face) in faces.enumerated() {
            for corner in 0..<4 where !(0..<count).contains(face[corner]) {
                let range = count == 0 ? "no vertices" : "\(count) vertices (0…\(count - 1))"
                throw MeshError(.faceIndexOutOfRange, "face \(faceIndex) uses vertex \(face[corner]), but the mesh has \(range)")
            }
        }
        if let index = vertices.firstIndex(where: { !$0.isFinite }) {
            let v = vertices[index]
            throw MeshError(
                .nonFiniteValue,
                "vertex \(index) has a coordinate that is not a finite number (from (\(v.from.x), \(v.from.y)), to (\(v.to.x), \(v.to.y), \(v.to.z)))"
            )
        }
    }

    // MARK: - Compatibility

    /// Checks that the mesh can be animated to or from `other`: the same vertex count, the
    /// same face count, the same indices face by face, the same texture face by face, and the
    /// same depth normalization. ``zero`` is compatible with every mesh.
    ///
    /// - Throws: ``MeshError`` with the kind of the first rule that fails
    ///   (`.vertexCountMismatch`, `.faceCountMismatch`, `.faceIndicesMismatch`,
    ///   `.faceTextureMismatch`, `.depthNormalizationMismatch`) and a message naming it.
    public func checkCompatible(with other: MeshTransform) throws {
        if let error = incompatibility(with: other) { throw error }
    }

    /// Whether ``checkCompatible(with:)`` would succeed.
    public func isCompatible(with other: MeshTransform) -> Bool {
        incompatibility(with: other) == nil
    }

    /// The first compatibility rule broken with `other`, or `nil`.
    func incompatibility(with other: MeshTransform) -> MeshError? {
        if isZero || other.isZero { return nil }
        guard vertices.count == other.vertices.count else {
            return MeshError(
                .vertexCountMismatch,
                "meshes are incompatible: different vertex counts (\(vertices.count) and \(other.vertices.count)); animated meshes need the same vertices"
            )
        }
        guard faces.count == other.faces.count else {
            return MeshError(
                .faceCountMismatch,
                "meshes are incompatible: different face counts (\(faces.count) and \(other.faces.count)); animated meshes need the same faces"
            )
        }
        for k in faces.indices where !faces[k].hasSameIndices(as: other.faces[k]) {
            let a = faces[k].indices.map(String.init).joined(separator: ", ")
            let b = other.faces[k].indices.map(String.init).joined(separator: ", ")
            return MeshError(
                .faceIndicesMismatch,
                "meshes are incompatible: face \(k) has indices {\(a)} in one and {\(b)} in the other; animated meshes need identical faces"
            )
        }
        for k in faces.indices where faces[k].texture != other.faces[k].texture {
            return MeshError(
                .faceTextureMismatch,
                "meshes are incompatible: face \(k) shows the \(faces[k].texture.rawValue) texture in one and the \(other.faces[k].texture.rawValue) texture in the other"
            )
        }
        guard depthNormalization == other.depthNormalization else {
            return MeshError(
                .depthNormalizationMismatch,
                "meshes are incompatible: depth normalization \(depthNormalization.rawValue) and \(other.depthNormalization.rawValue) differ"
            )
        }
        return nil
    }
}
