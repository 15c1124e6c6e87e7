// Where SwiftPM put the products the host tests run (`segue`, `libSegueC.so`).
import Foundation

/// The directory SwiftPM built the tests into, which also holds `segue` and `libSegueC.so`: the
/// test bundle's directory or one of its parents, else the repository's `.build/debug`.
public let buildDirectory: String = {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<4 {
        if FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("segue").path),
            FileManager.default.fileExists(atPath: dir.appendingPathComponent("libSegueC.so").path)
        {
            return dir.path
        }
        dir = dir.deletingLastPathComponent()
    }
    // Tests/SegueTestSupport/BuildProducts.swift → the repository's root.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    return root + "/.build/debug"
}()
