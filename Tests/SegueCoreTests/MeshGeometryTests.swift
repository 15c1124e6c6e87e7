import SegueCore
import SegueMath
import Testing

@Suite("Mesh geometry contract")
struct MeshGeometryTests {
    func closeF(_ a: Vector3, _ b: Vector3, _ tolerance: Double = 1e-5) -> Bool { close(a, b, tolerance) }

    @Test("positions: the spec's example (100×200, average, to = (1, 0.5, 1.5) → (50, 0, 225))")
    func positions() throws {
        var builder = MeshTransform.identity(rows: 1, columns: 1).builder
        builder.replaceVertex(at: 3, with: MeshVertex(from: Vector2(1, 1), to: Vector3(1, 0.5, 1.5)))
        let geometry = MeshGeometry(mesh: try builder.build(), width: 100, height: 200)
        #expect(MeshGeometry.floatsPerVertex == 9)
        #expect(geometry.vertices.count == 4 * 9 && geometry.vertexCount == 4)
        #expect(Array(geometry.vertices[27..<32]) == [50, 0, 225, 1, 1])
        #expect(Array(geometry.vertices[0..<5]) == [-50, -100, 0, 0, 0])
        #expect(geometry.vertices[8] == 0 && geometry.vertices[35] == 0)  // texture: from
        #expect(geometry.vertex(1).position == Vector3(50, -100, 0) && geometry.vertex(2).from == Vector2(0, 1))
    }

    @Test("two triangles per face: {i0, i1, i2}, {i2, i3, i0}")
    func indexOrder() {
        let geometry = MeshGeometry(mesh: .identity(rows: 1, columns: 2), width: 10, height: 10)
        // Faces {0, 1, 4, 3} and {1, 2, 5, 4}.
        #expect(geometry.indices == [0, 1, 4, 4, 3, 0, 1, 2, 5, 5, 4, 1])
    }

    @Test("normals of a tilted plane: z = a·X + b·Y in points gives n ∝ (−a, −b, 1)")
    func tiltedPlane() throws {
        let (w, h, a, b) = (100.0, 50.0, 0.5, 0.25)
        // With `height` normalization one unit of z is 50 points: z_units = (a·X + b·Y)/50.
        let mesh = try MeshTransform.identity(rows: 3, columns: 4).withDepthNormalization(.height).mappingVertices { v, _ in
            let (x, y) = ((v.to.x - 0.5) * w, (v.to.y - 0.5) * h)
            return MeshVertex(from: v.from, to: Vector3(v.to.xy, z: (a * x + b * y) / h))
        }
        let geometry = MeshGeometry(mesh: mesh, width: w, height: h)
        let length = (a * a + b * b + 1).squareRoot()
        for i in 0..<geometry.vertexCount {
            let v = geometry.vertex(i)
            #expect(closeF(v.normal, Vector3(-a / length, -b / length, 1 / length)))
            #expect(close(v.position.z, a * v.position.x + b * v.position.y, 1e-3))
        }
        // The flat identity faces the viewer.
        let flat = MeshGeometry(mesh: .identity(rows: 2, columns: 2), width: 30, height: 20)
        #expect((0..<flat.vertexCount).allSatisfy { flat.vertex($0).normal == Vector3(0, 0, 1) })
    }

    @Test("smooth normals average the faces around a vertex; zero-area faces contribute nothing")
    func smoothAndDegenerate() throws {
        // A roof: identity 1×2 with the middle column raised by 0.5 (`none`: z in points) on a 2×1
        // point layer. Left face slope +1 in x (per point: dz/dX = 0.5/1), right face −1.
        let roof = try MeshTransform.identity(rows: 1, columns: 2).withDepthNormalization(.none).mappingVertices { v, i in
            MeshVertex(from: v.from, to: Vector3(v.to.xy, z: i % 3 == 1 ? 0.5 : 0))
        }
        var builder = roof.builder
        // A collapsed face (all four corners at one point) on vertices 0, 6, 6, 6.
        builder.addVertex(MeshVertex(from: Vector2(0, 0), to: Vector3(0, 0, 0)))
        builder.addFace(MeshFace(0, 6, 6, 6))
        let geometry = MeshGeometry(mesh: try builder.build(), width: 2, height: 1)
        // Left face normal ∝ (−0.5, 0, 1), right ∝ (0.5, 0, 1), equal areas: the ridge gets (0, 0, 1).
        #expect(closeF(geometry.vertex(1).normal, Vector3(0, 0, 1)))
        let l = (0.25 + 1).squareRoot()
        #expect(closeF(geometry.vertex(0).normal, Vector3(-0.5 / l, 0, 1 / l)))  // the collapsed face adds nothing
        #expect(closeF(geometry.vertex(2).normal, Vector3(0.5 / l, 0, 1 / l)))
        #expect(geometry.vertex(6).normal == Vector3(0, 0, 1))  // only in a zero-area face
    }

    @Test("a vertex used by faces of both textures is emitted once per texture")
    func twoTextures() throws {
        var builder = MeshTransform.identity(rows: 1, columns: 2).builder
        builder.replaceFace(at: 1, with: MeshFace(1, 2, 5, 4, texture: .to))
        let geometry = MeshGeometry(mesh: try builder.build(), width: 20, height: 10)
        #expect(geometry.vertexCount == 8)
        #expect(geometry.sourceVertices == [0, 1, 2, 3, 4, 5, 1, 4])
        #expect((0..<8).map { geometry.vertex($0).texture } == [.from, .from, .to, .from, .from, .to, .to, .to])
        #expect(geometry.indices == [0, 1, 4, 4, 3, 0, 6, 2, 5, 5, 7, 6])
        // The copy carries the same position, coordinates and normal.
        #expect(Array(geometry.vertices[(6 * 9)..<(6 * 9 + 8)]) == Array(geometry.vertices[9..<17]))
        #expect(geometry.vertices[6 * 9 + 8] == 1 && geometry.vertices[9 + 8] == 0)
    }
}
