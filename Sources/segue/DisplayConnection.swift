import FoundationEssentials
import SegueSystem

// When the X server goes away under a window (it is stopped, or the SSH tunnel carrying it
// drops), three things can happen first, depending on which call meets the closed socket:
// - Xlib calls its I/O error handler, whose default prints Xlib's own sentence and exits;
// - a write to the socket raises SIGPIPE, which ends the process without a word (status 141);
// - the Vulkan driver's window-system code dereferences a reply that never came (Mesa's
//   lavapipe does, on an X server killed between two frames) and the process crashes.
// The window commands turn all three into one `error: the display connection was lost` line and
// status 1, like every other failure. SIGPIPE and SIGSEGV count as the display's loss only when
// the X server is gone: a second connection of our own, which nothing reads, reports a hang-up
// then (`poll`, async-signal-safe); any other SIGPIPE or crash goes to the handler that was there
// before (the default, or Swift's backtracer). Handlers are process-wide state, so only the
// executable sets them, never the library. SDL loads Xlib at run time (`libX11.so.6`, not
// linked), and so does this: the handler is set in the same loaded library SDL uses. Where there
// is no Xlib or no X display (Wayland only) nothing is set and nothing changes.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum DisplayConnection {
    /// The X server connection the signal handlers ask whether the server is gone (-1: none).
    nonisolated(unsafe) private static var watchedSocket: Int32 = -1
    /// Set once the loss is being reported, so that a crash while the process exits says nothing more.
    nonisolated(unsafe) private static var reported = false
    /// The handlers that were in place before, by signal.
    nonisolated(unsafe) private static var previous: (pipe: sigaction, segv: sigaction, bus: sigaction) = (
        sigaction(), sigaction(), sigaction()
    )

    /// Makes a lost X display connection end the process with `error: the display connection
    /// was lost` and status 1. Call once, before the window opens.
    static func reportLossAsError() {
        typealias IOErrorHandler = @convention(c) (OpaquePointer?) -> Int32
        typealias SetIOErrorHandler = @convention(c) (IOErrorHandler?) -> IOErrorHandler?
        typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
        typealias ConnectionNumber = @convention(c) (OpaquePointer?) -> Int32
        // Kept open for the life of the process: the handler must stay where Xlib can call it.
        guard let library = dlopen("libX11.so.6", RTLD_LAZY), let symbol = dlsym(library, "XSetIOErrorHandler") else { return }
        let set = unsafeBitCast(symbol, to: SetIOErrorHandler.self)
        _ = set { _ in
            DisplayConnection.reported = true
            SegueCommand.fail("the display connection was lost")
        }
        // The watching connection: opened before the window's, so a display that cannot be
        // opened is left to the window to report.
        guard let open = dlsym(library, "XOpenDisplay"), let number = dlsym(library, "XConnectionNumber"),
            let display = unsafeBitCast(open, to: OpenDisplay.self)(nil)
        else { return }
        watchedSocket = unsafeBitCast(number, to: ConnectionNumber.self)(display)
        guard watchedSocket >= 0 else { return }
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signal, info, _ in
            DisplayConnection.signalled(signal, sentByAProcess: (info?.pointee.si_code ?? 0) <= 0)
        }
        action.sa_flags = SA_SIGINFO | SA_ONSTACK
        sigemptyset(&action.sa_mask)
        sigaction(SIGPIPE, &action, &previous.pipe)
        sigaction(SIGSEGV, &action, &previous.segv)
        sigaction(SIGBUS, &action, &previous.bus)
    }

    /// The signal handler: the display's loss when the server is gone, else the handler from before.
    /// - Parameter sentByAProcess: `kill` or `raise` sent it (it is no fault that happens again).
    private static func signalled(_ signal: Int32, sentByAProcess: Bool) {
        if reported { _exit(1) }
        if serverIsGone() {
            reported = true
            let message: StaticString = "error: the display connection was lost\n"
            _ = write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
            _exit(1)
        }
        // The handler from before takes over: a fault happens again when the faulting instruction
        // runs again; SIGPIPE and a signal sent by a process are raised again.
        var old = signal == SIGPIPE ? previous.pipe : signal == SIGSEGV ? previous.segv : previous.bus
        sigaction(signal, &old, nil)
        if signal == SIGPIPE || sentByAProcess { raise(signal) }
    }

    /// Whether the X server hung up on the watching connection, waiting up to 200 ms for the
    /// hang-up to arrive (the server's sockets close together, but not at one instant).
    private static func serverIsGone() -> Bool {
        let peerClosed: Int32 = 0x2000  // Linux's POLLRDHUP (declared only with _GNU_SOURCE)
        var entry = pollfd(fd: watchedSocket, events: Int16(peerClosed), revents: 0)
        var ready = poll(&entry, 1, 200)
        while ready < 0 && errno == EINTR { ready = poll(&entry, 1, 200) }
        guard ready == 1 else { return false }
        return Int32(entry.revents) & (POLLHUP | peerClosed | POLLERR) != 0
    }
}
