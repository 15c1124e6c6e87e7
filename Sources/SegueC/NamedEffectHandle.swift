import SegueVulkan

// What `segue_transition *` and `segue_effect *` share: each is made from an effect's name on a
// context, is used by one thread at a time and takes its parameters as text, so their `_create`
// and `_set_param` entry points run the same steps, written here once.

/// A C handle made from an effect's name on a context, whose parameters a caller sets as text.
protocol NamedEffectHandle: ForkBound {
    /// The effect `name` on `context`.
    init(_ name: String, context: GPUContext) throws
    /// One thread at a time.
    var use: UseLock { get }
    /// Sets a parameter from text.
    func set(_ name: String, to text: String) throws
}

extension NamedEffectHandle {
    /// `segue_*_create`: a new handle for the effect named by `effect` on the context handle
    /// `context`; NULL with `*error` on failure.
    static func create(
        _ context: OpaquePointer?, _ effect: UnsafePointer<CChar>?,
        _ error: UnsafeMutablePointer<OpaquePointer?>?
    ) -> OpaquePointer? {
        catchingErrors(error, failure: nil) {
            let owner = try object(context, "context", as: ContextHandle.self)
            return retainedHandle(try Self(try string(effect, "effect"), context: owner.context))
        }
    }

    /// `segue_*_set_param`: sets the parameter `name` of the handle `handle` from the text `value`;
    /// 0, or -1 with `*error`.
    static func setParameter(
        _ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?,
        _ error: UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32 {
        catchingErrors(error, failure: -1) {
            let handle = try object(handle, noun, as: Self.self)
            let (name, value) = (try string(name, "parameter name"), try string(value, "parameter value"))
            try handle.use.exclusive(noun) { try handle.set(name, to: value) }
            return 0
        }
    }
}
