// Threads started with `pthread_create`, so that a thread that cannot start is an error its
// caller sees. Foundation's `Thread.detachNewThread` drops that failure: the body never runs, and
// whoever then waits for it (a decoder's reader, a pipe's drainer) waits for ever. Under a
// virtual-memory limit (`ulimit -v`) or a thread limit (`ulimit -u`) a thread's stack can be
// refused at any time, so every thread Segue starts goes through here.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting detached threads, reporting a thread that cannot start.
package enum WorkerThread {
    /// Stack bytes of each thread (the system's default is the stack limit, often 8 MiB): the
    /// threads run short loops, and smaller stacks leave more room under a memory limit.
    package static let stackSize = 2 << 20

    /// Starts `body` on a new detached thread.
    /// - Parameter path: the file the work is about, named in the error.
    /// - Throws: `.systemLimit` ("could not start a thread: …") when the system refuses one;
    ///   `body` has then not run and never will.
    /// `body` is handed over to the thread (`sending`): what it captures is the thread's alone.
    package static func start(for path: String, _ body: sending @escaping () -> Void) throws(SystemError) {
        try start(for: path, stackSize: stackSize, body)
    }

    /// Starts `body` on a new detached thread with a stack of `stackSize` bytes.
    package static func start(for path: String, stackSize: Int, _ body: sending @escaping () -> Void) throws(SystemError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, stackSize)
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let code = pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        guard code == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw failure(code, path: path)
        }
    }

    /// The error for a thread refused with `code`.
    package static func failure(_ code: Int32, path: String) -> SystemError {
        .systemLimit(
            path: path,
            reason: "could not start a thread (\(FileIO.message(code))); "
                + "free some memory or raise the process's limits (`ulimit -v`, `ulimit -u`)")
    }

    /// A closure carried across `pthread_create`.
    private final class Body {
        let run: () -> Void
        init(_ run: sending @escaping () -> Void) { self.run = run }
    }
}
