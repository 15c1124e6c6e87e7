// Applying a Transform3D to points: `[x' y' z' w'] = [x y z 1] · M` (row vectors, as
// CATransform3D), then the perspective divide `(x'/w', y'/w', z'/w')`. With `m34 = −1/d`,
// `w' = 1 − z/d`, so points with z > 0 (toward the viewer) are magnified.

extension Transform3D {
    /// A transform with perspective for an eye at `distance` points from the z = 0 plane:
    /// the identity with `m34 = −1/distance` (the usual `transform.m34 = -1.0 / 500`).
    ///
    /// - Precondition: `distance` is finite and non-zero.
    public static func perspective(distance: Double) -> Transform3D {
        precondition(distance != 0 && distance.isFinite, "perspective distance must be finite and non-zero")
        var t = Transform3D.identity
        t.m34 = -1 / distance
        return t
    }

    /// The homogeneous image `[x y z 1] · M` of a point, before the perspective divide.
    public func apply(to point: Vector3) -> Vector4 {
        let (x, y, z) = (point.x, point.y, point.z)
        return Vector4(
            x * m11 + y * m21 + z * m31 + m41,
            x * m12 + y * m22 + z * m32 + m42,
            x * m13 + y * m23 + z * m33 + m43,
            x * m14 + y * m24 + z * m34 + m44
        )
    }

    /// The projected image of a point: `apply(to:)` divided by `w'`. A point on the eye plane
    /// (`w' = 0`) projects to infinities, as it does in Core Animation.
    public func project(_ point: Vector3) -> Vector3 {
        let h = apply(to: point)
        return Vector3(h.x / h.w, h.y / h.w, h.z / h.w)
    }
}
