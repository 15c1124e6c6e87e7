import SegueMath
/// The error thrown by SegueAnimation for input a caller cannot check in advance: an invalid
/// spring parameter, malformed keyframes, or text that does not parse.
public struct AnimationError: SegueError, Sendable, Hashable, CustomStringConvertible {
    /// What kind of input was rejected.
    public enum Kind: Sendable, Hashable {
        /// A numeric parameter out of its range (spring mass, stiffness, damping, …).
        case invalidParameter
        /// Keyframe values, key times, timing functions or spline parameters that break a rule.
        case invalidKeyframes
        /// A timing function or spring description that does not parse.
        case invalidSyntax
    }

    /// What kind of input was rejected.
    public let kind: Kind
    /// A message a user can act on, naming the parameter or rule.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
