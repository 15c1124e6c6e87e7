/// How a mesh's `to.z` is scaled to points (Core Animation's `depthNormalization`).
///
/// With the layer's size W×H in points one unit of z is ``pointsPerUnit(width:height:)``
/// points: `none` → 1 (z is already in points), `width` → W, `height` → H, `min` → min(W, H),
/// `max` → max(W, H), `average` → (W + H)/2.
public enum DepthNormalization: String, Sendable, Hashable, Codable, CaseIterable {
    /// z is in points.
    case none
    /// One unit of z is the layer's width.
    case width
    /// One unit of z is the layer's height.
    case height
    /// One unit of z is the smaller side.
    case min
    /// One unit of z is the larger side.
    case max
    /// One unit of z is the mean of width and height.
    case average

    /// The points in one unit of z for a layer of `width` × `height` points.
    public func pointsPerUnit(width: Double, height: Double) -> Double {
        switch self {
        case .none: return 1
        case .width: return width
        case .height: return height
        case .min: return Swift.min(width, height)
        case .max: return Swift.max(width, height)
        case .average: return (width + height) / 2
        }
    }
}
