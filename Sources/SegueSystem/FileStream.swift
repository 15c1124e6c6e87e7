// An open file read or written in pieces (Foundation's `FileHandle`, without Foundation): the
// fingerprints and digests of concat plans, the frames a benchmark writes, the CLI's stderr.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor with reads, writes and seeks; closed when the stream goes away.
package final class FileStream {
    /// The descriptor (valid until `close`).
    package private(set) var descriptor: Int32
    private let owned: Bool

    /// The process's standard error (never closed).
    package static var standardError: FileStream { FileStream(descriptor: 2, owned: false) }

    private init(descriptor: Int32, owned: Bool) {
        self.descriptor = descriptor
        self.owned = owned
    }

    /// Opens an existing file for reading; nil when it cannot be opened.
    package convenience init?(forReadingAtPath path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.init(descriptor: fd, owned: true)
    }

    /// Opens an existing file for writing from its start; nil when it cannot be opened.
    package convenience init?(forWritingAtPath path: String) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.init(descriptor: fd, owned: true)
    }

    deinit { close() }

    /// Closes the descriptor (once; the standard streams stay open).
    package func close() {
        #if canImport(Glibc)
        if owned && descriptor >= 0 { _ = Glibc.close(descriptor) }
        #else
        if owned && descriptor >= 0 { _ = Darwin.close(descriptor) }
        #endif
        descriptor = -1
    }

    /// Up to `count` bytes (fewer only at the end of the file); empty at the end.
    /// - Throws: `.unreadable` with the system's reason.
    package func read(upToCount count: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(count, 0))
        var total = 0
        while total < bytes.count {
            let n = bytes.withUnsafeMutableBytes { FileIO.readSome(descriptor, UnsafeMutableRawBufferPointer(rebasing: $0[total...])) }
            if n == 0 { break }
            guard n > 0 else { throw .unreadable(path: "/proc/self/fd/\(descriptor)", reason: FileIO.message(errno)) }
            total += n
        }
        bytes.removeSubrange(total...)
        return bytes
    }

    /// The rest of the file.
    package func readToEnd() throws(SystemError) -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let chunk = try read(upToCount: 1 << 20)
            if chunk.isEmpty { return result }
            result.append(contentsOf: chunk)
        }
    }

    /// Moves to `offset` bytes from the start.
    package func seek(toOffset offset: UInt64) throws(SystemError) {
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
            throw .unreadable(path: "/proc/self/fd/\(descriptor)", reason: FileIO.message(errno))
        }
    }

    /// Writes all of `bytes`.
    /// - Throws: `.writeFailed` with the system's reason.
    package func write(contentsOf bytes: some Collection<UInt8>) throws(SystemError) {
        let array = Array(bytes)
        if let code = array.withUnsafeBytes({ FileIO.writeAll(descriptor, $0) }) {
            throw .writeFailed(path: "/proc/self/fd/\(descriptor)", reason: FileIO.writeFailure(code))
        }
    }

    /// Writes all of `data`, ignoring failures (a closed stderr).
    package func write(_ data: some Collection<UInt8>) {
        _ = try? write(contentsOf: data)
    }
}

extension FileIO {
    /// Writes `text` to the standard error, ignoring failures.
    package static func writeStandardError(_ text: String) {
        FileStream.standardError.write(Array(text.utf8))
    }

    /// `component` appended to `path` with one slash between them (`NSString.appendingPathComponent`
    /// for the paths Segue builds: `path` itself when `component` is empty).
    package static func appending(_ component: String, to path: String) -> String {
        if component.isEmpty { return path }
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }

    /// `path` and `component` joined (`appending(component, to: path)`).
    package static func joining(_ path: String, _ component: String) -> String { appending(component, to: path) }

    /// Sleeps the calling thread for `seconds` (Foundation's `Thread.sleep(forTimeInterval:)`), at
    /// most 10⁹ s.
    package static func sleep(seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        var request = timespec(seconds: seconds)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
