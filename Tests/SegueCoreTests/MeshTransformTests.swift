import SegueCore
import SegueMath
import Testing

@Suite("MeshTransform")
struct MeshTransformTests {
    @Test("identity numbers vertices row-major and faces TL, TR, BR, BL")
    func identityNumbering() {
        let mesh = MeshTransform.identity(rows: 2, columns: 3)
        #expect(mesh.vertices.count == 12 && mesh.faces.count == 6)
        #expect(mesh.depthNormalization == .average)
        for row in 0...2 {
            for col in 0...3 {
                let v = mesh.vertices[row * 4 + col]
                #expect(v.from == Vector2(Double(col) / 3, Double(row) / 2))
                #expect(v.to == Vector3(Double(col) / 3, Double(row) / 2, 0))
            }
        }
        // Face (row 1, col 1): TL = 1·4+1 = 5, TR = 6, BR = 2·4+2 = 10, BL = 9.
        #expect(mesh.faces[4] == MeshFace(5, 6, 10, 9))
        #expect(mesh.faces[0] == MeshFace(0, 1, 5, 4))
        #expect(mesh.faces.allSatisfy { $0.texture == .from })
    }

    @Test("depth normalization scales: 100×200 layer")
    func depthNormalization() {
        let expected: [DepthNormalization: Double] = [.none: 1, .width: 100, .height: 200, .min: 100, .max: 200, .average: 150]
        for (normalization, points) in expected {
            #expect(normalization.pointsPerUnit(width: 100, height: 200) == points)
        }
    }

    @Test("construction rejects out-of-range faces, non-finite vertices and empty face lists")
    func validation() {
        let vertices = MeshTransform.identity(rows: 5, columns: 5).vertices  // 36 vertices
        var faces = MeshTransform.identity(rows: 5, columns: 5).faces
        faces[3] = MeshFace(0, 1, 40, 2)
        let range = meshError { _ = try MeshTransform(vertices: vertices, faces: faces) }
        #expect(range?.kind == .faceIndexOutOfRange)
        #expect(range?.message == "face 3 uses vertex 40, but the mesh has 36 vertices (0…35)")

        let negative = meshError { _ = try MeshTransform(vertices: vertices, faces: [MeshFace(0, -1, 2, 3)]) }
        #expect(negative?.message == "face 0 uses vertex -1, but the mesh has 36 vertices (0…35)")

        var bad = vertices
        bad[7].to.z = .nan
        let nan = meshError { _ = try MeshTransform(vertices: bad, faces: [MeshFace(0, 1, 2, 3)]) }
        #expect(nan?.kind == .nonFiniteValue)
        #expect(nan?.message.hasPrefix("vertex 7 ") == true)

        let empty = meshError { _ = try MeshTransform(vertices: vertices, faces: []) }
        #expect(empty?.kind == .noFaces)
        #expect(empty?.message.contains("at least one face") == true)
    }

    @Test("generators build vertices and faces from closures")
    func generators() throws {
        // A strip of 3 quads: 8 vertices, two rows of 4.
        let mesh = try MeshTransform(
            vertexCount: 8,
            vertex: { i in
                MeshVertex(identityAt: Vector2(Double(i % 4) / 3, Double(i / 4)))
            }, faceCount: 3,
            face: { i in
                MeshFace(i, i + 1, i + 5, i + 4, texture: i == 1 ? .to : .from)
            }, depthNormalization: .width)
        #expect(mesh.vertices[6].from == Vector2(2.0 / 3, 1))
        #expect(mesh.faces == [MeshFace(0, 1, 5, 4), MeshFace(1, 2, 6, 5, texture: .to), MeshFace(2, 3, 7, 6)])
        #expect(mesh.depthNormalization == .width)
        #expect(
            meshError {
                _ = try MeshTransform(
                    vertexCount: 4, vertex: { MeshVertex(identityAt: Vector2(Double($0), 0)) },
                    faceCount: 1, face: { _ in MeshFace(0, 1, 2, 4) })
            }?.kind == .faceIndexOutOfRange)
    }

    @Test("the builder adds, replaces and removes vertices and faces")
    func builder() throws {
        var builder = MeshTransform.Builder(depthNormalization: .max)
        #expect(builder.addFace(MeshFace(0, 1, 2, 3)) == 0)  // before its vertices: fine until build()
        #expect(meshError { _ = try builder.build() }?.kind == .faceIndexOutOfRange)
        for (x, y) in [(0.0, 0.0), (1, 0), (1, 1), (0, 1), (2, 0), (2, 1)] {
            builder.addVertex(MeshVertex(identityAt: Vector2(x, y)))
        }
        builder.addFace(MeshFace(1, 4, 5, 2))
        builder.replaceVertex(at: 4, with: MeshVertex(from: Vector2(2, 0), to: Vector3(2, 0, 0.5)))
        builder.replaceFace(at: 0, with: MeshFace(0, 1, 2, 3, texture: .to))
        builder.mapVertices { vertex, index in
            var v = vertex
            v.to.z += Double(index) * 0.125
            return v
        }
        var mesh = try builder.build()
        #expect(mesh.vertices[4].to == Vector3(2, 0, 0.5 + 4 * 0.125))
        #expect(mesh.vertices[3].to.z == 3 * 0.125)
        #expect(mesh.faces == [MeshFace(0, 1, 2, 3, texture: .to), MeshFace(1, 4, 5, 2)])
        #expect(mesh.depthNormalization == .max)

        // Removing vertex 0 removes the face using it and renumbers the other.
        builder.removeVertex(at: 0)
        mesh = try builder.build()
        #expect(mesh.vertices.count == 5 && mesh.faces == [MeshFace(0, 3, 4, 1)])
        builder.removeFace(at: 0)
        #expect(meshError { _ = try builder.build() }?.kind == .noFaces)

        // A builder from a mesh round-trips it.
        let identity = MeshTransform.identity(rows: 2, columns: 2)
        #expect(try identity.builder.build() == identity)
    }

    @Test("mappingVertices keeps faces and refuses non-finite results")
    func mapping() throws {
        let mesh = MeshTransform.identity(rows: 1, columns: 2)
        let lifted = try mesh.mappingVertices { v, i in MeshVertex(from: v.from, to: Vector3(v.to.xy, z: Double(i))) }
        #expect(lifted.faces == mesh.faces && lifted.vertices[5].to.z == 5)
        let error = meshError {
            _ = try mesh.mappingVertices { v, i in i == 2 ? MeshVertex(from: v.from, to: Vector3(.infinity, 0, 0)) : v }
        }
        #expect(error?.kind == .nonFiniteValue && error?.message.hasPrefix("vertex 2 ") == true)
    }

    @Test("compatibility: one distinct error per rule")
    func compatibility() throws {
        let a = MeshTransform.identity(rows: 2, columns: 2)
        #expect(a.isCompatible(with: displacedGrid(1)))
        #expect(a.isCompatible(with: .zero) && MeshTransform.zero.isCompatible(with: a))

        let vertexCount = meshError { try a.checkCompatible(with: .identity(rows: 2, columns: 3)) }
        #expect(vertexCount?.kind == .vertexCountMismatch && vertexCount?.message.contains("9 and 12") == true)

        var builder = a.builder
        builder.removeFace(at: 3)
        let faceCount = meshError { try a.checkCompatible(with: try builder.build()) }
        #expect(faceCount?.kind == .faceCountMismatch && faceCount?.message.contains("4 and 3") == true)

        builder = a.builder
        builder.replaceFace(at: 2, with: MeshFace(4, 5, 8, 7).rotatedForTest)
        let indices = meshError { try a.checkCompatible(with: try builder.build()) }
        #expect(indices?.kind == .faceIndicesMismatch && indices?.message.contains("face 2") == true)

        builder = a.builder
        builder.replaceFace(at: 1, with: MeshFace(1, 2, 5, 4, texture: .to))
        let texture = meshError { try a.checkCompatible(with: try builder.build()) }
        #expect(texture?.kind == .faceTextureMismatch && texture?.message.contains("face 1") == true)

        let depth = meshError { try a.checkCompatible(with: a.withDepthNormalization(.none)) }
        #expect(depth?.kind == .depthNormalizationMismatch && depth?.message.contains("average and none") == true)
        #expect([vertexCount, faceCount, indices, texture, depth].allSatisfy { $0?.isIncompatibility == true })
    }
}

extension MeshFace {
    /// The same quad starting at its second corner.
    var rotatedForTest: MeshFace { MeshFace(i1, i2, i3, i0, texture: texture) }
}
