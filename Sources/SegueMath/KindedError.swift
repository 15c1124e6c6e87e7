// The shape of the errors that name a kind of broken rule and a message: `AnimationError` (an
// invalid parameter, keyframes, syntax) and `MeshError` (a mesh rule, a mesh file). One type,
// one kind enumeration per layer.

/// An error of one kind of broken rule, with a message a user can act on.
public struct KindedError<Kind: Sendable & Hashable>: SegueError, Sendable, Hashable, CustomStringConvertible {
    /// What kind of input was rejected.
    public let kind: Kind
    /// A message a user can act on, naming the parameter or rule and the offending entry.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
