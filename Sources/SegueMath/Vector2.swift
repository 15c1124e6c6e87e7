/// A two-component vector of `Double`s: a point, a size or a direction in a plane.
public struct Vector2: EuclideanVector, Sendable, Hashable, Codable {
    /// The first component.
    public var x: Double
    /// The second component.
    public var y: Double

    /// Creates a vector from its components.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Creates a vector from its components, unlabeled.
    public init(_ x: Double, _ y: Double) {
        self.init(x: x, y: y)
    }

    /// The vector with both components zero.
    public static let zero = Vector2(0, 0)

    // MARK: - Arithmetic

    /// The componentwise sum.
    public static func + (lhs: Vector2, rhs: Vector2) -> Vector2 {
        Vector2(lhs.x + rhs.x, lhs.y + rhs.y)
    }

    /// The componentwise difference.
    public static func - (lhs: Vector2, rhs: Vector2) -> Vector2 {
        Vector2(lhs.x - rhs.x, lhs.y - rhs.y)
    }

    /// The vector pointing the other way.
    public static prefix func - (vector: Vector2) -> Vector2 {
        Vector2(-vector.x, -vector.y)
    }

    /// The vector scaled by a factor.
    public static func * (vector: Vector2, scalar: Double) -> Vector2 {
        Vector2(vector.x * scalar, vector.y * scalar)
    }

    /// The vector scaled by a factor.
    public static func * (scalar: Double, vector: Vector2) -> Vector2 {
        vector * scalar
    }

    /// The vector divided by a scalar.
    public static func / (vector: Vector2, scalar: Double) -> Vector2 {
        Vector2(vector.x / scalar, vector.y / scalar)
    }

    /// Scales the vector in place.
    public static func *= (vector: inout Vector2, scalar: Double) {
        vector = vector * scalar
    }

    /// Divides the vector by a scalar in place.
    public static func /= (vector: inout Vector2, scalar: Double) {
        vector = vector / scalar
    }

    // MARK: - Geometry

    /// The dot product with another vector.
    public func dot(_ other: Vector2) -> Double {
        x * other.x + y * other.y
    }
}
