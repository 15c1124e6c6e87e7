// Reads an effect file (`.glsl` or `.metal`) as text, saying what is wrong when it cannot:
// missing, a directory, a named pipe or device (refused before a byte is read, and opened
// without blocking, so a FIFO with no writer never hangs the caller), unreadable, too large, or
// not UTF-8 (with the line of the first bad byte). The same checks as SegueMedia's `FileIO.readAll`
// for images, which this module cannot use (it depends on SegueCore only).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Effect files read from disk.
public enum EffectFile {
    /// The largest effect file read, in bytes (real effects are a few kilobytes).
    public static let maximumSize = 1 << 20

    /// The text of the effect file at `path`.
    /// - Throws: `EffectLookupError.unreadable` with the reason in words.
    public static func read(_ path: String) throws(EffectLookupError) -> String {
        func fail(_ reason: String) -> EffectLookupError { .unreadable(path: path, reason: reason) }
        // O_NONBLOCK: opening a FIFO without a writer would otherwise wait for one.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw fail(reason(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw fail(reason(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw fail("it is a directory")
        case S_IFIFO: throw fail("it is not a regular file (it is a named pipe)")
        case S_IFCHR, S_IFBLK: throw fail("it is not a regular file (it is a device)")
        default: throw fail("it is not a regular file")
        }
        guard info.st_size <= maximumSize else {
            throw fail("it is \(info.st_size) bytes; effect files are limited to \(maximumSize) bytes")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { readBytes(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                // A file that grows while it is read is still held to the limit.
                guard bytes.count + n <= maximumSize else {
                    throw fail("it is more than \(maximumSize) bytes; effect files are limited to \(maximumSize) bytes")
                }
                bytes.append(contentsOf: chunk[0..<n])
            } else if n == 0 {
                break
            } else if errno != EINTR {
                throw fail(reason(errno))
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw fail("it is not UTF-8 text (the first invalid byte is on line \(firstInvalidLine(bytes)))")
        }
        return text
    }

    /// Words for an `open`/`read` error.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a part of the path is not a directory"
        case EISDIR: "it is a directory"
        case ELOOP: "too many symbolic links"
        default: String(cString: strerror(code))
        }
    }

    /// The 1-based line of the first byte that does not decode as UTF-8.
    static func firstInvalidLine(_ bytes: [UInt8]) -> Int {
        var line = 1
        var k = 0
        while k < bytes.count {
            let b = bytes[k]
            let length = b < 0x80 ? 1 : b >> 5 == 0b110 ? 2 : b >> 4 == 0b1110 ? 3 : b >> 3 == 0b11110 ? 4 : 0
            guard length > 0, k + length <= bytes.count,
                String(validating: bytes[k..<(k + length)], as: UTF8.self) != nil
            else { return line }
            if b == 0x0A { line += 1 }
            k += length
        }
        return line
    }
}

/// `read(2)`, under a name `EffectFile.read` does not hide.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
