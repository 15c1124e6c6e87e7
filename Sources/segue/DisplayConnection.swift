import FoundationEssentials
import SegueSystem

// When the X server goes away under a window (it is stopped, or the SSH tunnel carrying it
// drops), Xlib calls its I/O error handler, whose default prints Xlib's own sentence and exits.
// The window commands replace that handler so the user sees one `error: …` line like every other
// failure. The handler is process-wide state, so only the executable sets it, never the library.
// SDL loads Xlib at run time (`libX11.so.6`, not linked), and so does this: the handler is set in
// the same loaded library SDL uses. Where there is no Xlib (Wayland only, or no X at all) nothing
// is set and nothing changes.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum DisplayConnection {
    /// Makes a lost X display connection end the process with `error: the display connection
    /// was lost` and status 1. Call before the window opens.
    static func reportLossAsError() {
        typealias IOErrorHandler = @convention(c) (OpaquePointer?) -> Int32
        typealias SetIOErrorHandler = @convention(c) (IOErrorHandler?) -> IOErrorHandler?
        // Kept open for the life of the process: the handler must stay where Xlib can call it.
        guard let library = dlopen("libX11.so.6", RTLD_LAZY), let symbol = dlsym(library, "XSetIOErrorHandler") else { return }
        let set = unsafeBitCast(symbol, to: SetIOErrorHandler.self)
        _ = set { _ in
            SegueCommand.fail("the display connection was lost")
        }
    }
}
