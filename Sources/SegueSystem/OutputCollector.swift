#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Draining a child's pipe on a background thread, so the child never blocks on a full pipe
// whatever the caller is doing (writing its stdin, reading its other pipe, waiting).

/// Drains a pipe on a background thread, keeping the last `limit` bytes. With a line handler,
/// each complete line is offered to it first and only the lines it does not consume are kept.
package final class OutputCollector: Sendable {
    /// How many trailing bytes of a child's stderr are kept by default (enough for its last
    /// lines in an error message).
    package static let tailLimit = 16 * 1024

    private struct State {
        var data = [UInt8]()
        var ended = false
    }

    private let state = Locked(State())

    /// Starts draining `fd` (which it closes at the end of the stream).
    /// - Throws: `.systemLimit` when the draining thread cannot start (`fd` is then left open).
    package init(_ fd: Int32, path: String, limit: Int = tailLimit, lines handler: (@Sendable (Substring) -> Bool)? = nil)
        throws(SystemError)
    {
        let state = self.state
        try WorkerThread.start(for: path) {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            var partial = [UInt8]()
            func keep(_ bytes: ArraySlice<UInt8>) {
                state.withLock { state in
                    state.data += bytes
                    if state.data.count > limit { state.data.removeFirst(state.data.count - limit) }
                }
            }
            while true {
                let n = chunk.withUnsafeMutableBytes { FileIO.readSome(fd, $0) }
                guard n > 0 else { break }
                guard let handler else { keep(chunk[0..<n]); continue }
                partial += chunk[0..<n]
                var start = 0
                while let newline = partial[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: partial[start..<newline], as: UTF8.self)
                    if !handler(line[...]) { keep(partial[start...newline]) }
                    start = newline + 1
                }
                partial.removeFirst(start)
            }
            if let handler, !partial.isEmpty {
                let line = String(decoding: partial, as: UTF8.self)
                if !handler(line[...]) { keep(partial[...]) }
            }
            _ = close(fd)
            state.withLock { $0.ended = true }
        }
    }

    /// What has been kept so far.
    package var bytes: [UInt8] { state.withLock { $0.data } }

    /// Waits for the end of the stream and returns everything kept.
    @discardableResult
    package func waitForEnd() -> [UInt8] {
        state.wait { $0.ended }
        return bytes
    }

    /// Waits for the end of the stream and returns the last `lines` non-empty lines, each without
    /// the blanks around it.
    package func tail(lines: Int = 12) -> String {
        let text = String(decoding: waitForEnd(), as: UTF8.self)
        let kept = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return kept.suffix(lines).joined(separator: "\n")
    }
}
