import SegueMath

/// The error thrown by SegueAnimation for input a caller cannot check in advance: an invalid
/// spring parameter, malformed keyframes, or text that does not parse.
public typealias AnimationError = KindedError<AnimationErrorKind>

/// What kind of input an ``AnimationError`` rejected (`AnimationError.Kind`).
public enum AnimationErrorKind: Sendable, Hashable {
    /// A numeric parameter out of its range (spring mass, stiffness, damping, …).
    case invalidParameter
    /// Keyframe values, key times, timing functions or spline parameters that break a rule.
    case invalidKeyframes
    /// A timing function or spring description that does not parse.
    case invalidSyntax
}
