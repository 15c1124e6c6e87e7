/// A four-component vector of `Double`s, most often a homogeneous point `(x, y, z, w)`.
public struct Vector4: EuclideanVector, Sendable, Hashable, Codable {
    /// The first component.
    public var x: Double
    /// The second component.
    public var y: Double
    /// The third component.
    public var z: Double
    /// The fourth (homogeneous) component.
    public var w: Double

    /// Creates a vector from its components.
    public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.w = w
    }

    /// Creates a vector from its components, unlabeled.
    public init(_ x: Double, _ y: Double, _ z: Double, _ w: Double) {
        self.init(x: x, y: y, z: z, w: w)
    }

    /// Creates a homogeneous vector from a point and a `w` component.
    public init(_ xyz: Vector3, w: Double) {
        self.init(x: xyz.x, y: xyz.y, z: xyz.z, w: w)
    }

    /// The vector with all components zero.
    public static let zero = Vector4(0, 0, 0, 0)

    /// The first three components, without dividing by `w`.
    public var xyz: Vector3 { Vector3(x, y, z) }

    // MARK: - Arithmetic

    /// The componentwise sum.
    public static func + (lhs: Vector4, rhs: Vector4) -> Vector4 {
        Vector4(lhs.x + rhs.x, lhs.y + rhs.y, lhs.z + rhs.z, lhs.w + rhs.w)
    }

    /// The componentwise difference.
    public static func - (lhs: Vector4, rhs: Vector4) -> Vector4 {
        Vector4(lhs.x - rhs.x, lhs.y - rhs.y, lhs.z - rhs.z, lhs.w - rhs.w)
    }

    /// The vector pointing the other way.
    public static prefix func - (vector: Vector4) -> Vector4 {
        Vector4(-vector.x, -vector.y, -vector.z, -vector.w)
    }

    /// The vector scaled by a factor.
    public static func * (vector: Vector4, scalar: Double) -> Vector4 {
        Vector4(vector.x * scalar, vector.y * scalar, vector.z * scalar, vector.w * scalar)
    }

    /// The vector scaled by a factor.
    public static func * (scalar: Double, vector: Vector4) -> Vector4 {
        vector * scalar
    }

    /// The vector divided by a scalar.
    public static func / (vector: Vector4, scalar: Double) -> Vector4 {
        Vector4(vector.x / scalar, vector.y / scalar, vector.z / scalar, vector.w / scalar)
    }

    /// Scales the vector in place.
    public static func *= (vector: inout Vector4, scalar: Double) {
        vector = vector * scalar
    }

    /// Divides the vector by a scalar in place.
    public static func /= (vector: inout Vector4, scalar: Double) {
        vector = vector / scalar
    }

    // MARK: - Geometry

    /// The dot product with another vector.
    public func dot(_ other: Vector4) -> Double {
        x * other.x + y * other.y + z * other.z + w * other.w
    }
}
