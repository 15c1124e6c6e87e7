/// A vector of `Double`s with the Euclidean dot product: ``Vector2``, ``Vector3`` and
/// ``Vector4``.
///
/// A conforming type gives its componentwise arithmetic (`zero`, `+`, `-`, `*` and `/` by a
/// scalar) and its dot product; the length, the normalized vector, linear interpolation and
/// the rest of ``Interpolatable`` follow from them, here, once for every vector type.
public protocol EuclideanVector: Interpolatable {
    /// The vector scaled by a factor.
    static func * (vector: Self, scalar: Double) -> Self

    /// The vector divided by a scalar.
    static func / (vector: Self, scalar: Double) -> Self

    /// The dot product with another vector.
    func dot(_ other: Self) -> Double
}

extension EuclideanVector {
    // MARK: - Geometry

    /// The squared Euclidean length.
    @inlinable
    public var lengthSquared: Double { dot(self) }

    /// The Euclidean length.
    @inlinable
    public var length: Double { lengthSquared.squareRoot() }

    /// The vector scaled to length 1; the zero vector stays zero.
    @inlinable
    public var normalized: Self {
        let l = length
        return l > 0 ? self / l : self
    }

    /// Linear interpolation: `a` at `t = 0`, `b` at `t = 1`, extrapolating outside [0, 1].
    @inlinable
    public static func lerp(_ a: Self, _ b: Self, _ t: Double) -> Self {
        a * (1 - t) + b * t
    }

    // MARK: - Interpolatable

    /// The vector scaled by `factor`.
    @inlinable
    public func scaled(by factor: Double) -> Self { self * factor }

    /// The Euclidean distance between the two points (over all components).
    @inlinable
    public func distance(to other: Self) -> Double { (other - self).length }

    /// Componentwise linear interpolation.
    @inlinable
    public func interpolated(to other: Self, fraction: Double) -> Self {
        Self.lerp(self, other, fraction)
    }
}
