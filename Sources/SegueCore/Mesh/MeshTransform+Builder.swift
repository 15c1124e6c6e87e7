extension MeshTransform {
    /// A mutable mesh under construction (BCMutableMeshTransform): add, remove and replace
    /// vertices and faces, map vertices, then ``build()`` a validated ``MeshTransform``.
    ///
    /// Nothing is checked until ``build()``, so a builder may pass through invalid states
    /// (a face added before its vertices). Out-of-range positions passed to the remove and
    /// replace methods are programmer errors and trap.
    public struct Builder: Sendable, Hashable {
        /// The vertices so far.
        public var vertices: [MeshVertex]
        /// The faces so far.
        public var faces: [MeshFace]
        /// The depth normalization of the mesh to build.
        public var depthNormalization: DepthNormalization

        /// An empty builder.
        public init(depthNormalization: DepthNormalization = .none) {
            vertices = []
            faces = []
            self.depthNormalization = depthNormalization
        }

        /// A builder holding a copy of `mesh`.
        public init(_ mesh: MeshTransform) {
            vertices = mesh.vertices
            faces = mesh.faces
            depthNormalization = mesh.depthNormalization
        }

        // MARK: - Vertices

        /// Appends a vertex; returns its index.
        @discardableResult
        public mutating func addVertex(_ vertex: MeshVertex) -> Int {
            vertices.append(vertex)
            return vertices.count - 1
        }

        /// Replaces the vertex at `index`.
        public mutating func replaceVertex(at index: Int, with vertex: MeshVertex) {
            Self.check(index, in: vertices, "vertex", to: "replace")
            vertices[index] = vertex
        }

        /// Removes the vertex at `index`. Faces that use it are removed too, and indices above
        /// `index` in the other faces move down by one, so the faces keep their vertices.
        public mutating func removeVertex(at index: Int) {
            Self.check(index, in: vertices, "vertex", to: "remove")
            vertices.remove(at: index)
            faces = faces.compactMap { face in
                guard !face.indices.contains(index) else { return nil }
                var moved = face
                for corner in 0..<4 where moved[corner] > index {
                    moved[corner] -= 1
                }
                return moved
            }
        }

        /// Replaces every vertex by `transform(vertex, index)`.
        public mutating func mapVertices(_ transform: (MeshVertex, Int) throws -> MeshVertex) rethrows {
            for index in vertices.indices {
                vertices[index] = try transform(vertices[index], index)
            }
        }

        // MARK: - Faces

        /// Appends a face; returns its index.
        @discardableResult
        public mutating func addFace(_ face: MeshFace) -> Int {
            faces.append(face)
            return faces.count - 1
        }

        /// Replaces the face at `index`.
        public mutating func replaceFace(at index: Int, with face: MeshFace) {
            Self.check(index, in: faces, "face", to: "replace")
            faces[index] = face
        }

        /// Removes the face at `index` (its vertices stay).
        public mutating func removeFace(at index: Int) {
            Self.check(index, in: faces, "face", to: "remove")
            faces.remove(at: index)
        }

        /// Traps unless `index` is a position in `items`: a programmer error, named by the kind
        /// of item and what was to be done with it.
        private static func check<Item>(_ index: Int, in items: [Item], _ kind: String, to action: String) {
            precondition(items.indices.contains(index), "no \(kind) \(index) to \(action) (the builder has \(items.count))")
        }

        // MARK: - Building

        /// The validated mesh.
        ///
        /// - Throws: ``MeshError`` as ``MeshTransform/init(vertices:faces:depthNormalization:)``.
        public func build() throws -> MeshTransform {
            try MeshTransform(vertices: vertices, faces: faces, depthNormalization: depthNormalization)
        }
    }

    /// A builder holding a copy of this mesh.
    public var builder: Builder { Builder(self) }
}
