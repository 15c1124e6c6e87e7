import Dispatch
import FoundationEssentials
import Segue

// Ctrl-C, SIGTERM and a closed terminal (SIGHUP) for the `segue` program: the library owns no
// signal handling, so the executable installs it, stops the command's work through its
// `Cancellation` (children killed, temporaries removed; every command hands the library
// `InterruptHandler.cancellation`) and exits with 128 + the signal (130, 143, 129), as shells
// report a process killed by it.
//
// Signal safety (the self-pipe pattern): the handler only writes the signal number to a
// non-blocking pipe, which is async-signal-safe; a dedicated thread blocks reading the pipe and
// does the real work as ordinary code.
//
// Why not `signal(SIGINT, SIG_IGN)` plus a Dispatch signal source: on Linux, libdispatch reads
// signals through signalfd, which only sees a signal if every thread blocks it; a signal handed to
// an already-running thread that does not is discarded by SIG_IGN, so the cleanup sometimes never
// ran.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum InterruptHandler {
    /// The token of the command's work: every command passes it to the library calls that write.
    static let cancellation = Cancellation()

    /// The signals that stop a render and clean up.
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the handlers (once, at start-up, before any work).
    static func install() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        interruptPipeWriteEnd = fds[1]
        let readEnd = fds[0]
        try? WorkerThread.start(for: "a thread") {
            var byte: UInt8 = 0
            while true {
                let n = read(readEnd, &byte, 1)
                if n == 1 { break }
                if n < 0 && errno == EINTR { continue }
                return
            }
            interrupted.withLock { $0 = true }
            cancellation.cancel()
            // `_exit`, not `exit`: the render threads are still running (their writes now fail),
            // and `exit` would run static destructors under them.
            _exit(128 + Int32(byte))
        }
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in signals {
            _ = signal(signalNumber, interruptSignalHandler)
            sigaddset(&unblock, signalNumber)
        }
        // A process inherits its parent's signal mask across exec; a parent that blocks SIGINT
        // (some test runners and supervisors do) would make Ctrl-C a no-op here.
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Parks the calling thread for good while an interrupt is being handled: killing the
    /// children makes the work fail, and the thread reporting that failure must not exit with
    /// status 1 before the handler exits with 128 + the signal. Returns at once otherwise.
    static func yieldToInterrupt() {
        guard interrupted.withLock({ $0 }) || cancellation.isCancelled else { return }
        while true { sleep(60) }
    }

    private static let interrupted = Locked(false)
}

/// The write end of the interrupt pipe; a constant-initialised global, so reading it in the
/// signal handler involves no lazy initialisation.
nonisolated(unsafe) private var interruptPipeWriteEnd: Int32 = -1

/// The handler: async-signal-safe, it only writes the signal number to the pipe.
private func interruptSignalHandler(_ signalNumber: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(interruptPipeWriteEnd, &byte, 1)
    errno = saved
}
