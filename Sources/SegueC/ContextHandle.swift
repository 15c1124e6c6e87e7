// The C API's handles and its context: `segue_context` is a retained `ContextHandle` holding the
// GPU context, which every transition and effect made from it also holds (so the handles may be
// destroyed in any order). `GPUContext` serialises queue submissions itself, so a context may be
// used from several threads; each transition or effect guards itself with a `UseLock`.
import Foundation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueVulkan

/// The object behind `segue_context *`.
final class ContextHandle {
    /// The device.
    let context: GPUContext
    /// The device's name, for `segue_context_device_name`.
    let deviceName: CString

    /// Opens the device `selector` names (nil: the preferred one), caching shaders in `cacheDirectory`.
    /// - Throws: `VulkanError`.
    init(selector: String?, cacheDirectory: String?) throws {
        context = try GPUContext(configuration: .init(deviceSelector: selector, shaderCacheDirectory: cacheDirectory))
        deviceName = CString(context.info.name)
    }
}

/// One thread at a time: a second thread that calls in while the first is inside gets an error
/// instead of a data race.
final class UseLock {
    private let lock = NSLock()

    /// Runs `body` holding the lock.
    /// - Throws: `CAPIError` naming `what` when another thread holds it; what `body` throws.
    func exclusive<T>(_ what: String, _ body: () throws -> T) throws -> T {
        guard lock.try() else {
            throw CAPIError("the \(what) is in use by another thread: use each \(what) from one thread at a time")
        }
        defer { lock.unlock() }
        return try body()
    }
}

/// A new C handle owning a retained reference to `object`.
func retainedHandle<T: AnyObject>(_ object: T) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(object).toOpaque())
}

/// The object behind a C handle (not retained).
/// - Throws: `CAPIError` naming `what` for NULL.
func object<T: AnyObject>(_ handle: OpaquePointer?, _ what: String, as type: T.Type = T.self) throws -> T {
    guard let handle else { throw CAPIError("\(what) is NULL") }
    return Unmanaged<T>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

/// Releases the reference a C handle owns; NULL is ignored.
func releaseHandle<T: AnyObject>(_ handle: OpaquePointer?, as type: T.Type) {
    guard let handle else { return }
    Unmanaged<T>.fromOpaque(UnsafeRawPointer(handle)).release()
}

/// The library's version.
let versionCString = CString(SegueVersion.current)

// MARK: - C entry points

/// `segue_version`.
@_cdecl("segue_version")
public func segue_version() -> UnsafePointer<CChar> {
    versionCString.pointer
}

/// `segue_context_create`.
@_cdecl("segue_context_create")
public func segue_context_create(_ device: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer? {
    segue_context_create_cached(device, nil, error)
}

/// `segue_context_create_cached`.
@_cdecl("segue_context_create_cached")
public func segue_context_create_cached(_ device: UnsafePointer<CChar>?, _ cacheDirectory: UnsafePointer<CChar>?,
                                        _ error: UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer? {
    catchingErrors(error, failure: nil) {
        let selector = device.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        let directory = cacheDirectory.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        return retainedHandle(try ContextHandle(selector: selector, cacheDirectory: directory))
    }
}

/// `segue_context_device_name`.
@_cdecl("segue_context_device_name")
public func segue_context_device_name(_ context: OpaquePointer?) -> UnsafePointer<CChar> {
    guard let handle = try? object(context, "context", as: ContextHandle.self) else { return emptyCString.pointer }
    return handle.deviceName.pointer
}

/// `segue_context_destroy`.
@_cdecl("segue_context_destroy")
public func segue_context_destroy(_ context: OpaquePointer?) {
    releaseHandle(context, as: ContextHandle.self)
}
