/// A value the animation engine can animate.
///
/// Besides interpolation the engine needs a vector-space structure: `zero`, `+` and `-` (from
/// `AdditiveArithmetic`) for additive and cumulative animations and for `byValue`, `scaled(by:)`
/// for cumulative repeats and spline tangents, and `distance(to:)` for paced keyframes.
/// Conformances should satisfy `a.interpolated(to: b, fraction: 0) == a`,
/// `a.interpolated(to: b, fraction: 1) == b` and `a.distance(to: a) == 0`.
public protocol Interpolatable: AdditiveArithmetic, Sendable {
    /// The value `fraction` of the way from `self` to `other`; `fraction` may lie outside
    /// [0, 1] (overshooting springs and timing curves extrapolate).
    func interpolated(to other: Self, fraction: Double) -> Self

    /// The value multiplied by a scalar.
    func scaled(by factor: Double) -> Self

    /// A non-negative distance between two values (used to pace keyframes).
    func distance(to other: Self) -> Double
}

extension Interpolatable {
    /// Linear interpolation `self·(1 − f) + other·f`, exact at both ends.
    public func interpolated(to other: Self, fraction: Double) -> Self {
        scaled(by: 1 - fraction) + other.scaled(by: fraction)
    }
}

// MARK: - Double

extension Double: Interpolatable {
    /// The product `self · factor`.
    public func scaled(by factor: Double) -> Double {
        self * factor
    }

    /// The absolute difference `|self − other|`.
    public func distance(to other: Double) -> Double {
        abs(self - other)
    }

    /// Linear interpolation `self·(1 − f) + other·f`, exact at both ends.
    public func interpolated(to other: Double, fraction: Double) -> Double {
        self * (1 - fraction) + other * fraction
    }
}

// MARK: - Vectors

// Vector2, Vector3 and Vector4 are interpolatable as EuclideanVectors (EuclideanVector.swift).

// MARK: - Transform3D

/// Transforms animate entry by entry: `zero` is the all-zero matrix, `+`, `-` and
/// `scaled(by:)` act on the sixteen entries, interpolation is componentwise and
/// `distance(to:)` is the Frobenius norm of the difference.
///
/// Componentwise interpolation is exact for translations, scales and perspective, but a
/// rotation shrinks through the middle (halfway between +90° and −90° about z is a
/// degenerate matrix). Core Animation decomposes transforms instead; to animate rotations,
/// animate an angle and build the transform from it.
extension Transform3D: Interpolatable {
    /// The all-zero matrix (the additive identity; not the transform identity).
    public static let zero = Transform3D(rowMajor: Array(repeating: 0, count: 16))

    /// Entrywise sum.
    public static func + (lhs: Transform3D, rhs: Transform3D) -> Transform3D {
        lhs.combined(with: rhs) { $0 + $1 }
    }

    /// Entrywise difference.
    public static func - (lhs: Transform3D, rhs: Transform3D) -> Transform3D {
        lhs.combined(with: rhs) { $0 - $1 }
    }

    /// Every entry multiplied by `factor`.
    public func scaled(by factor: Double) -> Transform3D {
        combined(with: self) { a, _ in a * factor }
    }

    /// The Frobenius norm of the entrywise difference.
    public func distance(to other: Transform3D) -> Double {
        let d = other - self
        return d.rowMajor.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }

    /// Entrywise linear interpolation `self·(1 − f) + other·f`.
    public func interpolated(to other: Transform3D, fraction: Double) -> Transform3D {
        combined(with: other) { $0 * (1 - fraction) + $1 * fraction }
    }

    private func combined(with o: Transform3D, _ f: (Double, Double) -> Double) -> Transform3D {
        Transform3D(
            m11: f(m11, o.m11), m12: f(m12, o.m12), m13: f(m13, o.m13), m14: f(m14, o.m14),
            m21: f(m21, o.m21), m22: f(m22, o.m22), m23: f(m23, o.m23), m24: f(m24, o.m24),
            m31: f(m31, o.m31), m32: f(m32, o.m32), m33: f(m33, o.m33), m34: f(m34, o.m34),
            m41: f(m41, o.m41), m42: f(m42, o.m42), m43: f(m43, o.m43), m44: f(m44, o.m44)
        )
    }
}
