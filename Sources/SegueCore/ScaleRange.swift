import SegueMath

// The scales (pixels per point, `Image.scale`) a use accepts and the one check of a scale a caller
// gives: every image's is a finite number above 0, and a use may allow less (a window's screens
// up to 8, the gallery's previews from 0.1 to 2). Every check words what is allowed the same way,
// and a command line names its flag before it ("--scale must be in (0, 8], got 9.0").

/// A range of scales (pixels per point): above 0 or from a minimum, up to a maximum or unbounded.
public struct ScaleRange: Sendable, Equatable, CustomStringConvertible {
    /// The least scale accepted (itself included); nil: any above 0.
    public let minimum: Double?
    /// The greatest scale accepted (itself included); nil: no bound.
    public let maximum: Double?

    /// A range from `minimum` (nil: above 0) to `maximum` (nil: unbounded).
    /// - Precondition: the bounds are finite and above 0, `minimum` ≤ `maximum`.
    public init(minimum: Double? = nil, maximum: Double? = nil) {
        precondition(minimum.map { $0.isFinite && $0 > 0 } ?? true, "a scale range's minimum must be finite and above 0")
        precondition(
            maximum.map { $0.isFinite && $0 >= (minimum ?? 0) && $0 > 0 } ?? true,
            "a scale range's maximum must be finite and above its minimum")
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Every finite scale above 0: what any image may have.
    public static let positive = ScaleRange()

    /// Whether `scale` is in the range (NaN and infinities never are).
    public func contains(_ scale: Double) -> Bool {
        guard scale.isFinite, scale > 0 else { return false }
        if let minimum, scale < minimum { return false }
        if let maximum, scale > maximum { return false }
        return true
    }

    /// What the range allows, to follow "must be": "a positive number", "in (0, 8]", "in [0.1, 2]",
    /// "at least 0.5".
    public var description: String {
        let low = minimum.map { "[\(MessageText.number($0))" } ?? "(0"
        switch (minimum, maximum) {
        case (nil, nil): return "a positive number"
        case let (minimum?, nil): return "at least \(MessageText.number(minimum))"
        case let (_, maximum?): return "in \(low), \(MessageText.number(maximum))]"
        }
    }

    /// What is wrong with `scale`, to follow its name ("must be in (0, 8], got 9"); nil when
    /// it is in the range.
    public func problem(_ scale: Double) -> String? {
        contains(scale) ? nil : "must be \(self), got \(MessageText.number(scale, outside: minimum ?? 0, maximum ?? .infinity))"
    }
}

/// A scale outside the range its use allows.
public struct ImageScaleError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// The scale given.
    public let scale: Double
    /// What was allowed.
    public let range: ScaleRange

    /// The error of `scale` outside `range`.
    public init(scale: Double, range: ScaleRange) {
        self.scale = scale
        self.range = range
    }

    public var description: String { "scale " + (range.problem(scale) ?? "must be \(range)") }
}

extension Image {
    /// Checks a scale a caller gives before an image is made with it (`Image`'s initialisers
    /// require a finite scale above 0).
    /// - Throws: `ImageScaleError` when `scale` is outside `range`.
    public static func validateScale(_ scale: Double, in range: ScaleRange = .positive) throws(ImageScaleError) {
        guard range.contains(scale) else { throw ImageScaleError(scale: scale, range: range) }
    }
}
