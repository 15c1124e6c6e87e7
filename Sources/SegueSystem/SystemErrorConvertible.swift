// How a layer's own error type takes in what the system layer reports, so that the generic
// building blocks (a staged output's body, a cancellation's write) throw the caller's type.

/// An error type that can stand for a `SystemError` (the media layer's `MediaError` maps each
/// case to its own case of the same name and wording).
package protocol SystemErrorConvertible: Error {
    /// The error that says what `error` says.
    init(_ error: SystemError)
}

extension SystemError: SystemErrorConvertible {
    /// `error` itself.
    package init(_ error: SystemError) { self = error }
}

extension SystemErrorConvertible {
    /// Runs `body`, a call into the system layer, throwing its error as this type.
    package static func converting<T>(_ body: () throws(SystemError) -> T) throws(Self) -> T {
        do {
            return try body()
        } catch {
            throw Self(error)
        }
    }
}
