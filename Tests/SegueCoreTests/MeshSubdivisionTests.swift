import Foundation
import SegueCore
import SegueMath
import Testing

@Suite("Mesh subdivision")
struct MeshSubdivisionTests {
    /// The vertex of `mesh` whose `from` is `point`, if exactly one.
    func vertex(at point: Vector2, in mesh: MeshTransform) -> MeshVertex? {
        let found = mesh.vertices.filter { close($0.from, point, 1e-12) }
        return found.count == 1 ? found[0] : nil
    }

    @Test("steps 0 leaves the mesh unchanged; steps above the cap are refused")
    func stepsRange() throws {
        let ripple = MeshTransform.ripple()
        #expect(try ripple.subdivided(steps: 0) == ripple)
        let error = meshError { _ = try ripple.subdivided(steps: MeshTransform.maximumSubdivisionSteps + 1) }
        #expect(error?.kind == .invalidParameter)
        #expect(error?.message == "subdivisionSteps must be between 0 and 5, got 6")
        #expect(meshError { _ = try ripple.subdivided(steps: -1) }?.kind == .invalidParameter)
        // 2500 faces × 32² = 2,560,000 faces is within the limit; the counts follow.
        #expect(try MeshTransform.identity(rows: 2, columns: 2).subdivided(steps: 5).faces.count == 4 * 1024)
    }

    @Test("identity stays identity: a 2×3 grid subdivided twice is the 8×12 grid")
    func identityStaysIdentity() throws {
        let mesh = try MeshTransform.identity(rows: 2, columns: 3).subdivided(steps: 2)
        let fine = MeshTransform.identity(rows: 8, columns: 12)
        #expect(mesh.vertices.count == fine.vertices.count)
        #expect(mesh.faces.count == fine.faces.count)
        #expect(mesh.depthNormalization == .average)
        for expected in fine.vertices {
            let v = vertex(at: expected.from, in: mesh)
            #expect(v != nil && close(v!.to, expected.to, 1e-12) && v!.to.z == 0)
        }
        // Faces keep the orientation TL, TR, BR, BL: i1 right of i0, i3 below i0.
        for face in mesh.faces {
            let (p0, p1, p3) = (mesh.vertices[face.i0].to, mesh.vertices[face.i1].to, mesh.vertices[face.i3].to)
            #expect(close(p1.x - p0.x, 1.0 / 12) && close(p1.y, p0.y) && close(p3.y - p0.y, 1.0 / 8) && close(p3.x, p0.x))
        }
        // Original vertices keep their indices.
        #expect(Array(mesh.vertices.prefix(12)) == MeshTransform.identity(rows: 2, columns: 3).vertices)
    }

    @Test("quadratic data in each grid direction is reproduced exactly; original vertices stay")
    func quadraticReproduction() throws {
        // z = 0.3·x² − 0.2·y² + 0.1·x, and to.x = x + 0.05·y² (smooth in y).
        func surface(_ p: Vector2) -> Vector3 {
            Vector3(p.x + 0.05 * p.y * p.y, p.y, 0.3 * p.x * p.x - 0.2 * p.y * p.y + 0.1 * p.x)
        }
        let coarse = try MeshTransform.identity(rows: 4, columns: 3).mappingVertices { v, _ in MeshVertex(from: v.from, to: surface(v.from))
        }
        let fine = try coarse.subdivided(steps: 3)
        #expect(fine.vertices.count == 25 * 33)
        for v in fine.vertices {
            #expect(close(v.to, surface(v.from), 1e-12))
        }
        #expect(Array(fine.vertices.prefix(coarse.vertices.count)) == coarse.vertices)
    }

    @Test("smooth across shared edges: the slope is continuous at a coarse vertex, the polyline's is not")
    func continuity() throws {
        // One row of 4 faces; z = sin(3x) sampled at x = 0, 0.25, …, 1.
        let coarse = try MeshTransform.identity(rows: 1, columns: 4).mappingVertices { v, _ in
            MeshVertex(from: v.from, to: Vector3(v.to.xy, z: sin(3 * v.from.x)))
        }
        let fine = try coarse.subdivided(steps: 4)
        let h = 0.25 / 16
        func z(_ x: Double) -> Double { vertex(at: Vector2(x, 0), in: fine)!.to.z }
        // One-sided second-order slopes on each side of the coarse vertex x = 0.5.
        let left = (3 * z(0.5) - 4 * z(0.5 - h) + z(0.5 - 2 * h)) / (2 * h)
        let right = (-3 * z(0.5) + 4 * z(0.5 + h) - z(0.5 + 2 * h)) / (2 * h)
        let coarseKink = abs((sin(2.25) - sin(1.5)) / 0.25 - (sin(1.5) - sin(0.75)) / 0.25)  // ≈ 2.1
        #expect(abs(left - right) < 0.02 * coarseKink)
        // …and the slope there is close to the true derivative 3·cos(1.5).
        #expect(abs((left + right) / 2 - 3 * cos(1.5)) < 0.05)
        // Subdividing the same edge from both faces gives one shared vertex per point.
        #expect(fine.vertices.count == 17 * 65)
    }

    @Test("works on a non-grid mesh (jelly): counts, originals kept, texture coordinates bilinear")
    func jelly() throws {
        let jelly = try MeshTransform.jelly(phase: 0.7, magnitude: 0.05)
        let fine = try jelly.subdivided(steps: 2)
        // 101 vertices + 150 distinct edges × 3 + 50 faces × 9 interior points.
        #expect(fine.vertices.count == 101 + 150 * 3 + 50 * 9)
        #expect(fine.faces.count == 50 * 16)
        #expect(Array(fine.vertices.prefix(101)) == jelly.vertices)
        #expect(fine.vertices.allSatisfy { $0.isFinite })
        // The centre of face 0's subdivision grid has from = the mean of the face's four `from`s.
        let face = jelly.faces[0]
        let centreFrom = face.indices.reduce(Vector2.zero) { $0 + jelly.vertices[$1].from } / 4
        #expect(fine.vertices.contains { close($0.from, centreFrom, 1e-12) })
    }

    @Test("compatible meshes subdivide to compatible meshes, and textures are kept")
    func compatibility() throws {
        let a = try MeshTransform.jelly(phase: 0, magnitude: 0.05)
        let b = try MeshTransform.jelly(phase: 2, magnitude: 0.1)
        try a.subdivided(steps: 1).checkCompatible(with: try b.subdivided(steps: 1))
        let textured = try MeshTransform.identity(rows: 1, columns: 2).builder.with {
            $0.replaceFace(at: 1, with: MeshFace(1, 2, 5, 4, texture: .to))
        }
        let fine = try textured.subdivided(steps: 1)
        #expect(fine.faces.prefix(4).allSatisfy { $0.texture == .from } && fine.faces.suffix(4).allSatisfy { $0.texture == .to })
    }
}

extension MeshTransform.Builder {
    /// The mesh built after applying `change`.
    func with(_ change: (inout MeshTransform.Builder) -> Void) throws -> MeshTransform {
        var copy = self
        change(&copy)
        return try copy.build()
    }
}
