import Foundation
import SegueCore
import SegueMath

/// The repository root (for Examples/meshes).
let meshRepositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Whether two doubles agree within `tolerance`.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool {
    abs(a - b) <= tolerance
}

/// Whether two vectors agree componentwise within `tolerance`.
func close(_ a: Vector2, _ b: Vector2, _ tolerance: Double = 1e-12) -> Bool {
    close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
}

/// Whether two vectors agree componentwise within `tolerance`.
func close(_ a: Vector3, _ b: Vector3, _ tolerance: Double = 1e-12) -> Bool {
    close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance) && close(a.z, b.z, tolerance)
}

/// Whether two vertices agree within `tolerance`.
func close(_ a: MeshVertex, _ b: MeshVertex, _ tolerance: Double = 1e-12) -> Bool {
    close(a.from, b.from, tolerance) && close(a.to, b.to, tolerance)
}

/// Whether two meshes have the same faces and normalization and vertices within `tolerance`.
func close(_ a: MeshTransform, _ b: MeshTransform, _ tolerance: Double = 1e-12) -> Bool {
    a.faces == b.faces && a.depthNormalization == b.depthNormalization && a.vertices.count == b.vertices.count
        && zip(a.vertices, b.vertices).allSatisfy { close($0, $1, tolerance) }
}

/// A 2×2 identity mesh with every vertex moved by a distinct, index-dependent amount.
func displacedGrid(_ scale: Double) -> MeshTransform {
    try! MeshTransform.identity(rows: 2, columns: 2).mappingVertices { vertex, index in
        let i = Double(index)
        return MeshVertex(
            from: vertex.from + Vector2(0.01 * i, -0.02 * i) * scale,
            to: vertex.to + Vector3(0.03 * i, 0.01, 0.1 + 0.05 * i) * scale)
    }
}

/// Runs `body` and returns the MeshError it throws, or nil.
func meshError(_ body: () throws -> Void) -> MeshError? {
    do {
        try body()
        return nil
    } catch let error as MeshError {
        return error
    } catch {
        return nil
    }
}
