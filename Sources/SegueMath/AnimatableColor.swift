/// An RGBA colour with `Double` components, as animated by the engine.
///
/// Components are stored as given (nominally in [0, 1]; no clamping, so overshooting springs
/// can leave the range) and interpolated componentwise, in whatever encoding they were given
/// in. Segue's images are premultiplied sRGB (see DESIGN.md); this type does not premultiply.
public struct AnimatableColor: Sendable, Hashable, Codable {
    /// The red component.
    public var red: Double
    /// The green component.
    public var green: Double
    /// The blue component.
    public var blue: Double
    /// The alpha (opacity) component.
    public var alpha: Double

    /// Creates a colour from its components.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque black.
    public static let black = AnimatableColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = AnimatableColor(red: 1, green: 1, blue: 1)
    /// Fully transparent black (all components zero; also the additive `zero`).
    public static let clear = AnimatableColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// The components as a vector `(red, green, blue, alpha)`.
    public var vector: Vector4 { Vector4(red, green, blue, alpha) }

    /// Creates a colour from a vector `(red, green, blue, alpha)`.
    public init(_ vector: Vector4) {
        self.init(red: vector.x, green: vector.y, blue: vector.z, alpha: vector.w)
    }
}

extension AnimatableColor: Interpolatable {
    /// All components zero (transparent black).
    public static let zero = AnimatableColor.clear

    /// Componentwise sum.
    public static func + (lhs: AnimatableColor, rhs: AnimatableColor) -> AnimatableColor {
        AnimatableColor(lhs.vector + rhs.vector)
    }

    /// Componentwise difference.
    public static func - (lhs: AnimatableColor, rhs: AnimatableColor) -> AnimatableColor {
        AnimatableColor(lhs.vector - rhs.vector)
    }

    /// Every component multiplied by `factor`.
    public func scaled(by factor: Double) -> AnimatableColor {
        AnimatableColor(vector * factor)
    }

    /// The Euclidean distance in RGBA space.
    public func distance(to other: AnimatableColor) -> Double {
        vector.distance(to: other.vector)
    }

    /// Componentwise linear interpolation.
    public func interpolated(to other: AnimatableColor, fraction: Double) -> AnimatableColor {
        AnimatableColor(Vector4.lerp(vector, other.vector, fraction))
    }
}
