import SegueMath

/// A vertex of a ``MeshTransform``: which point of the content (`from`) goes where (`to`).
///
/// Both are in unit coordinates of the layer, (0, 0) top-left and (1, 1) bottom-right, y down.
/// `to.z` is depth, in units set by the mesh's ``DepthNormalization``; larger z is nearer the
/// viewer under Core Animation's perspective (`m34 < 0`).
public struct MeshVertex: Sendable, Hashable, Codable {
    /// The point of the content (texture coordinates), in unit coordinates.
    public var from: Vector2
    /// Where that point goes, in unit coordinates, with depth `z`.
    public var to: Vector3

    /// Creates a vertex.
    public init(from: Vector2, to: Vector3) {
        self.from = from
        self.to = to
    }

    /// A vertex that leaves its content point in place (`to = (from, z)`).
    public init(identityAt point: Vector2, z: Double = 0) {
        self.init(from: point, to: Vector3(point, z: z))
    }

    /// Whether all five coordinates are finite.
    public var isFinite: Bool {
        from.x.isFinite && from.y.isFinite && to.x.isFinite && to.y.isFinite && to.z.isFinite
    }

    // MARK: - Arithmetic (used by mesh interpolation)

    /// Componentwise sum of `from` and `to`.
    public static func + (lhs: MeshVertex, rhs: MeshVertex) -> MeshVertex {
        MeshVertex(from: lhs.from + rhs.from, to: lhs.to + rhs.to)
    }

    /// Componentwise difference of `from` and `to`.
    public static func - (lhs: MeshVertex, rhs: MeshVertex) -> MeshVertex {
        MeshVertex(from: lhs.from - rhs.from, to: lhs.to - rhs.to)
    }

    /// Both `from` and `to` scaled by `factor`.
    public static func * (vertex: MeshVertex, factor: Double) -> MeshVertex {
        MeshVertex(from: vertex.from * factor, to: vertex.to * factor)
    }

    /// Linear interpolation in `from.xy` and `to.xyz`: `a` at `t = 0`, `b` at `t = 1`.
    public static func lerp(_ a: MeshVertex, _ b: MeshVertex, _ t: Double) -> MeshVertex {
        MeshVertex(from: Vector2.lerp(a.from, b.from, t), to: Vector3.lerp(a.to, b.to, t))
    }

    /// The squared Euclidean distance over all five coordinates.
    func squaredDistance(to other: MeshVertex) -> Double {
        (other.from - from).lengthSquared + (other.to - to).lengthSquared
    }
}
