// What the system layer's tests share: a scratch directory of their own (made by the layer's
// own `FileIO.makeScratchDirectory`) and whole-file reads and writes for fixtures.
import FoundationEssentials
import SegueSystem

#if canImport(Glibc)
import Glibc
#endif

/// A fresh scratch directory, removed with everything in it on deinit.
final class ScratchDirectory {
    let path: String

    init() { path = try! FileIO.makeScratchDirectory(prefix: "segue-system-tests") }

    deinit { FileIO.removeScratchDirectory(path) }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// The names in the directory, sorted (hidden ones included).
    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}

/// Writes a fixture file (not atomically: the tests make the states they check).
func writeFixture(_ bytes: [UInt8], to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    precondition(fd >= 0, "cannot write the fixture \(path)")
    _ = bytes.withUnsafeBytes { FileIO.writeAll(fd, $0) }
    close(fd)
}

/// The bytes of a file, or empty when it cannot be read.
func readFixture(_ path: String) -> [UInt8] {
    (try? FileIO.readAll(path: path, limit: 1 << 30, noun: "fixture")) ?? []
}

/// Catches a `SystemError` from `body`, or nil when it did not throw.
func systemError<T>(_ body: () throws(SystemError) -> T) -> SystemError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Whether process `pid` runs (a zombie does not count).
func isRunning(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    let stat =
        (try? FileIO.readAll(path: "/proc/\(pid)/stat", limit: 1 << 16, noun: "status")).map { String(decoding: $0, as: UTF8.self) } ?? ""
    return !stat.contains(") Z")
}

/// Waits (at most `seconds`) until `condition` holds.
func eventually(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    for _ in 0..<Int(seconds * 100) {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
