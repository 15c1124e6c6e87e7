/// A three-component vector of `Double`s: a point or a direction in space.
public struct Vector3: EuclideanVector, Sendable, Hashable, Codable {
    /// The first component.
    public var x: Double
    /// The second component.
    public var y: Double
    /// The third component (depth; with Core Animation's perspective, larger z is nearer).
    public var z: Double

    /// Creates a vector from its components.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Creates a vector from its components, unlabeled.
    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.init(x: x, y: y, z: z)
    }

    /// Creates a vector from a planar vector and a depth.
    public init(_ xy: Vector2, z: Double) {
        self.init(x: xy.x, y: xy.y, z: z)
    }

    /// The vector with all components zero.
    public static let zero = Vector3(0, 0, 0)

    /// The first two components.
    public var xy: Vector2 { Vector2(x, y) }

    /// The unit vector along this one, however long or short it is (a light direction of
    /// (1e200, 0, 0) is (1, 0, 0)): scaled by its largest component first, so that its length
    /// neither overflows nor underflows. The zero vector stays zero.
    public var direction: Vector3 {
        let largest = max(abs(x), abs(y), abs(z))
        return largest > 0 && largest.isFinite ? (self / largest).normalized : normalized
    }

    // MARK: - Arithmetic

    /// The componentwise sum.
    public static func + (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(lhs.x + rhs.x, lhs.y + rhs.y, lhs.z + rhs.z)
    }

    /// The componentwise difference.
    public static func - (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(lhs.x - rhs.x, lhs.y - rhs.y, lhs.z - rhs.z)
    }

    /// The vector pointing the other way.
    public static prefix func - (vector: Vector3) -> Vector3 {
        Vector3(-vector.x, -vector.y, -vector.z)
    }

    /// The vector scaled by a factor.
    public static func * (vector: Vector3, scalar: Double) -> Vector3 {
        Vector3(vector.x * scalar, vector.y * scalar, vector.z * scalar)
    }

    /// The vector scaled by a factor.
    public static func * (scalar: Double, vector: Vector3) -> Vector3 {
        vector * scalar
    }

    /// The vector divided by a scalar.
    public static func / (vector: Vector3, scalar: Double) -> Vector3 {
        Vector3(vector.x / scalar, vector.y / scalar, vector.z / scalar)
    }

    /// Scales the vector in place.
    public static func *= (vector: inout Vector3, scalar: Double) {
        vector = vector * scalar
    }

    /// Divides the vector by a scalar in place.
    public static func /= (vector: inout Vector3, scalar: Double) {
        vector = vector / scalar
    }

    // MARK: - Geometry

    /// The dot product with another vector.
    public func dot(_ other: Vector3) -> Double {
        x * other.x + y * other.y + z * other.z
    }

    /// The cross product `self × other` (right-handed).
    public func cross(_ other: Vector3) -> Vector3 {
        Vector3(
            y * other.z - z * other.y,
            z * other.x - x * other.z,
            x * other.y - y * other.x
        )
    }
}
