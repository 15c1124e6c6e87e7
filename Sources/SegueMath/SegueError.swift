// The one protocol every user-facing error in Segue conforms to. Each layer keeps its own error
// type (`AnimationError`, `MediaError`, `VulkanError`, …); all of them carry a message written for
// the person running the program, so a front end catches `SegueError` once and prints it.
import SegueSystem

/// An error whose `message` a user can read and act on: lower case at the start, no `error:`
/// prefix, naming the input and the limit or rule it broke.
public protocol SegueError: Error, Sendable, CustomStringConvertible {
    /// The user-facing message (by default the error's `description`).
    var message: String { get }
}

extension SegueError {
    /// The user-facing message: the error's `description`.
    public var message: String { description }
}

/// The system layer's errors (files, child processes, threads, cancellation) are user-facing too.
extension SystemError: SegueError {}
