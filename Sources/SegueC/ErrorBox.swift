import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Errors across the C boundary: every entry point runs its body inside `catchingErrors`, which
// turns any thrown Swift error into a `segue_error` (a retained `ErrorBox` holding the message as
// a C string) and the entry point's failure value. Nothing is printed; no error escapes.

/// A failure found by the C layer itself: a NULL pointer, a bad size or number, a busy handle.
struct CAPIError: SegueError {
    /// The message.
    let description: String
    /// Its kind.
    let code: ErrorCode

    /// An error with `message` of kind `code`.
    init(_ message: String, code: ErrorCode = .invalidArgument) {
        description = message
        self.code = code
    }
}

/// The object behind `segue_error *`: a message as a C string the caller reads until it frees
/// it, and the error's kind.
final class ErrorBox {
    /// The message, owned by the box.
    let message: CString
    /// What kind of failure it is.
    let code: ErrorCode

    /// A box holding a copy of `text`.
    init(_ text: String, code: ErrorCode) {
        message = CString(text)
        self.code = code
    }
}

/// The user-facing message of any error: a `SegueError`'s message, else its description.
func userMessage(of error: Error) -> String {
    if let e = error as? any SegueError { return e.message }
    return String(describing: error)
}

/// Stores a new error for `error` (its message and code) in `*out` when `out` is not NULL.
func report(_ error: Error, to out: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let out else { return }
    out.pointee = OpaquePointer(Unmanaged.passRetained(ErrorBox(userMessage(of: error), code: ErrorCode(of: error))).toOpaque())
}

/// Runs `body`; a thrown error becomes `*out` (see `report`) and the result `failure`.
func catchingErrors<T>(_ out: UnsafeMutablePointer<OpaquePointer?>?, failure: T, _ body: () throws -> T) -> T {
    do {
        return try body()
    } catch {
        report(error, to: out)
        return failure
    }
}

/// The text of a C string argument.
/// - Throws: `CAPIError` naming `what` when the pointer is NULL or the text is not UTF-8.
func string(_ pointer: UnsafePointer<CChar>?, _ what: String) throws -> String {
    guard let pointer else { throw CAPIError("\(what) is NULL") }
    guard let text = String(validatingCString: pointer) else {
        let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
        throw CAPIError("\(what) is not UTF-8 text: '\(bytes.escapingInvalidUTF8)'")
    }
    return text
}

/// A text that lives as long as its owner: a NUL-terminated UTF-8 copy freed with it (C reads
/// up to the first NUL of a text that contains one).
// @unchecked: the buffer is written once in `init` and only read after; freed in `deinit`.
final class CString: @unchecked Sendable {
    /// The copy; immutable after `init`.
    let pointer: UnsafePointer<CChar>

    /// A copy of `text`.
    init(_ text: String) {
        let bytes = Array(text.utf8)
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b) }
        p[bytes.count] = 0
        pointer = UnsafePointer(p)
    }

    deinit { UnsafeMutablePointer(mutating: pointer).deallocate() }
}

// MARK: - C entry points

/// `segue_error_message`: the message, "" for NULL.
@_cdecl("segue_error_message")
public func segue_error_message(_ error: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let error else { return emptyCString.pointer }
    return Unmanaged<ErrorBox>.fromOpaque(UnsafeRawPointer(error)).takeUnretainedValue().message.pointer
}

/// `segue_error_free`: releases the error; NULL is ignored.
@_cdecl("segue_error_free")
public func segue_error_free(_ error: OpaquePointer?) {
    guard let error else { return }
    Unmanaged<ErrorBox>.fromOpaque(UnsafeRawPointer(error)).release()
}

/// "" with static storage.
let emptyCString = CString("")
