import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// The C API's handles and its context: `segue_context` is a retained `ContextHandle` holding the
// GPU context, which every transition and effect made from it also holds (so the handles may be
// destroyed in any order). `GPUContext` serialises queue submissions itself, so a context may be
// used from several threads; each transition or effect guards itself with a `UseLock`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A handle that holds GPU objects, which do not survive `fork()`: the Vulkan device and the
/// driver's threads stay in the parent. A child that uses an inherited handle gets an error naming
/// fork (instead of waiting forever on work no thread will do), and destroying one there only
/// forgets it: releasing would call into the parent's device.
protocol ForkBound: AnyObject {
    /// The process that made the handle.
    var process: pid_t { get }
    /// What the handle is, for the message ("context", "transition", "effect").
    static var noun: String { get }
}

extension ForkBound {
    /// Throws when the handle was made in another process (this one is a child forked after).
    func checkProcess() throws {
        let me = getpid()
        guard process == me else {
            throw CAPIError(
                "the \(Self.noun) was created in process \(process) and used in process \(me), a child made by fork(): "
                    + "GPU objects do not survive fork(); create the context and the \(Self.noun) again in the child", code: .forked)
        }
    }
}

/// The object behind `segue_context *`.
final class ContextHandle: ForkBound {
    static let noun = "context"
    /// The process that made it.
    let process = getpid()
    /// The device.
    let context: GPUContext
    /// The device's name, for `segue_context_device_name`.
    let deviceName: CString

    /// Opens the device `selector` names (nil: the preferred one), caching shaders in `cacheDirectory`.
    /// - Throws: `VulkanError`.
    convenience init(selector: String?, cacheDirectory: String?) throws {
        // SEGUE_GPU_TIMEOUT, as the CLI reads it: hosts set it in their environment (segue.h).
        let timeout = GPUContext.Configuration.gpuTimeout(environmentValue: Self.variable("SEGUE_GPU_TIMEOUT"))
        try self.init(configuration: .init(deviceSelector: selector, shaderCacheDirectory: cacheDirectory, gpuTimeout: timeout))
    }

    /// A variable of the process's environment, by getenv: walking environ could race a host
    /// thread that sets one.
    static func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Opens the device `configuration` chooses.
    /// - Throws: `VulkanError`.
    init(configuration: GPUContext.Configuration) throws {
        context = try GPUContext(configuration: configuration)
        deviceName = CString(context.info.name)
    }
}

/// One thread at a time: a second thread that calls in while the first is inside gets an error
/// instead of a data race.
final class UseLock {
    private let lock = PlainLock()

    /// Runs `body` holding the lock.
    /// - Throws: `CAPIError` naming `what` when another thread holds it; what `body` throws.
    func exclusive<T>(_ what: String, _ body: () throws -> T) throws -> T {
        guard lock.try() else {
            throw CAPIError("the \(what) is in use by another thread: use each \(what) from one thread at a time", code: .busy)
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
/// - Throws: `CAPIError` naming `what` for NULL, or naming fork for a GPU handle made in the
///   parent of this process.
func object<T: AnyObject>(_ handle: OpaquePointer?, _ what: String, as type: T.Type = T.self) throws -> T {
    guard let handle else { throw CAPIError("\(what) is NULL") }
    let object = Unmanaged<T>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    if let bound = object as? any ForkBound { try bound.checkProcess() }
    return object
}

/// Releases the reference a C handle owns; NULL is ignored. A GPU handle inherited across
/// `fork()` is only forgotten (its memory stays with the child's copy of the parent's).
func releaseHandle<T: AnyObject>(_ handle: OpaquePointer?, as type: T.Type) {
    guard let handle else { return }
    let object = Unmanaged<T>.fromOpaque(UnsafeRawPointer(handle))
    if let bound = object.takeUnretainedValue() as? any ForkBound, bound.process != getpid() { return }
    object.release()
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
public func segue_context_create_cached(
    _ device: UnsafePointer<CChar>?, _ cacheDirectory: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> OpaquePointer? {
    catchingErrors(error, failure: nil) {
        let selector = device.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        let directory = cacheDirectory.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        return retainedHandle(try ContextHandle(selector: selector, cacheDirectory: directory))
    }
}

/// `segue_context_create_default`: the device, shader cache and GPU timeout of the process's
/// environment, by the rule the CLI follows (`GPUContext.Configuration(environment:)`).
@_cdecl("segue_context_create_default")
public func segue_context_create_default(_ error: UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer? {
    catchingErrors(error, failure: nil) {
        do {
            return retainedHandle(try ContextHandle(configuration: .init(variable: ContextHandle.variable)))
        } catch let failure as VulkanError {
            // The only selector here is the variable's: the message says where it came from.
            guard case let .deviceNotFound(selector, _) = failure else { throw failure }
            throw CAPIError("SEGUE_DEVICE=\(selector): \(failure.description)", code: .noDevice)
        }
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
