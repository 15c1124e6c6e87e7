import Foundation

/// A value guarded by a lock (`NSLock`, so it also builds for macOS 13), shared by the modules
/// that pass values between threads.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` on the value under the lock.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
