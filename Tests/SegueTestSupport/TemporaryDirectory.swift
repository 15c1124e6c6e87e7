// The one scratch directory of the tests: each test that writes files makes its own, so tests
// running in parallel never share a path, and nothing is left behind.
import Foundation
import SegueSystem

/// A fresh directory `segue-LABEL-XXXXXX` under the system temporary directory (SegueSystem's
/// scratch directories), removed with everything in it on deinit or by `remove()`.
public final class TemporaryDirectory {
    /// Its absolute path.
    public let path: String

    /// Makes one; `label` names the tests that use it, for anyone looking in /tmp.
    public init(_ label: String = "test") throws {
        path = try FileIO.makeScratchDirectory(prefix: "segue-" + label)
    }

    deinit { remove() }

    /// Removes the directory and everything in it now.
    public func remove() { FileIO.removeScratchDirectory(path) }

    /// A path inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The names in the directory, sorted (hidden ones included).
    public var contents: [String] { listing(path) }
}

/// The names in a directory, sorted (hidden ones included); empty when it cannot be read.
public func listing(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

/// Writes a fixture file (not atomically: tests make the states they check); the test fails
/// later, reading it, if it could not be written.
public func writeFixture(_ bytes: [UInt8], to path: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}

/// The bytes of a file, or empty when it cannot be read.
public func readFixture(_ path: String) -> [UInt8] {
    (try? FileIO.readAll(path: path, limit: 1 << 30, noun: "fixture")) ?? []
}
