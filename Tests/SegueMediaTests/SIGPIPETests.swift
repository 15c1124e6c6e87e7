// Writing to a pipe whose reader has gone must fail with EPIPE without raising SIGPIPE and
// without touching the process's disposition of it (a host program that loads Segue owns that).
import Foundation
import SegueSystem
import Testing

@testable import SegueMedia

#if canImport(Glibc)
import Glibc
#endif

@Suite("SIGPIPE stays the host's")
struct SIGPIPETests {
    /// The process's current SIGPIPE handler, as `sigaction` reports it.
    private func disposition() -> UInt {
        var action = sigaction()
        sigaction(SIGPIPE, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
    }

    @Test("a write to a closed pipe returns EPIPE, raises nothing and changes no disposition")
    func writeToClosedPipe() throws {
        let before = disposition()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        let bytes = [UInt8](repeating: 7, count: 100_000)
        let code = bytes.withUnsafeBytes { FileIO.writeAll(fds[1], $0) }
        #expect(code == EPIPE)
        #expect(disposition() == before)
        // Nothing left pending for this thread, and the thread's mask is as it was.
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0)
        var mask = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &mask)
        #expect(sigismember(&mask, SIGPIPE) == 0)
    }
}
