import SegueAnimation

extension Error {
    /// The message of an ``AnimationError``, or a marker for any other error.
    var message: String {
        (self as? AnimationError)?.message ?? "unexpected error \(self)"
    }
}
