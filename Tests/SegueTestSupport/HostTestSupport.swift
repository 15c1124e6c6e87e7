// What the host tests (the C API, the frei0r plugins in MLT and GStreamer) share: the repository,
// Segue installed by scripts/install.sh into a temporary prefix, straight-alpha test frames and
// frame comparisons.
import Foundation
import Segue

/// The repository's root directory.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// A step of a test's set-up failed (an installation, a compiler, a fixture).
public struct SetupFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Installs the debug build's products into `prefix` with `scripts/install.sh --no-build`.
/// - Throws: `SetupFailure` with the script's output when it fails.
public func installSegue(into prefix: String) throws {
    let run = try runProgram(repositoryRoot + "/scripts/install.sh", ["--prefix", prefix, "--build-dir", buildDirectory, "--no-build"])
    guard run.status == 0 else { throw SetupFailure("install.sh exited \(run.status): \(run.stderr)\(run.stdout)") }
}

/// Straight-alpha RGBA8 test frames: `from` an opaque gradient, `to` opaque stripes, both varying
/// with x and y so that any misplaced row or column shows; `translucent` gives `from` a
/// half-transparent square and `to` a band whose alpha falls off.
public enum TestFrames {
    public static func from(width: Int, height: Int, translucent: Bool = false) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let inSquare = (width / 4..<width / 2).contains(x) && (height / 4..<height / 2).contains(y)
                bytes[i] = UInt8(x * 255 / max(width - 1, 1))
                bytes[i + 1] = UInt8(y * 255 / max(height - 1, 1))
                bytes[i + 2] = UInt8((x * 7 + y * 13) % 256)
                bytes[i + 3] = translucent && inSquare ? 128 : 255
            }
        }
        return bytes
    }

    public static func to(width: Int, height: Int, translucent: Bool = false) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let stripe = (x / 4 + y / 3) % 2 == 0
                bytes[i] = stripe ? 230 : 20
                bytes[i + 1] = UInt8((y * 255 / max(height - 1, 1)) ^ 0x55)
                bytes[i + 2] = stripe ? 40 : 210
                bytes[i + 3] = translucent && y < height / 3 ? UInt8(255 - x * 200 / max(width - 1, 1)) : 255
            }
        }
        return bytes
    }

    /// Writes NAME.rgba (raw) and NAME.png (the same straight bytes) into `directory`.
    public static func write(_ bytes: [UInt8], width: Int, height: Int, name: String, into directory: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(name).rgba"))
        let png = try bytes.withUnsafeBytes { try ImageFile.encodePNG(straightRGBA: $0, width: width, height: height) }
        try Data(png).write(to: URL(fileURLWithPath: "\(directory)/\(name).png"))
    }

    /// Writes FROM.png/.rgba and TO.png/.rgba of `width`×`height` into `directory` (`suffix`
    /// added to both names: `from-64x40`).
    public static func writePair(width: Int, height: Int, translucent: Bool = false, suffix: String = "", into directory: String) throws {
        try write(
            from(width: width, height: height, translucent: translucent), width: width, height: height, name: "from" + suffix,
            into: directory)
        try write(
            to(width: width, height: height, translucent: translucent), width: width, height: height, name: "to" + suffix, into: directory)
    }
}

/// The largest difference of any premultiplied channel between two images, and where (255 at
/// -1, -1 when their sizes differ).
public func largestDifference(_ a: Image, _ b: Image) -> (difference: Int, x: Int, y: Int) {
    guard a.width == b.width, a.height == b.height else { return (255, -1, -1) }
    var worst = (0, 0, 0)
    for i in 0..<min(a.pixels.count, b.pixels.count) {
        let d = abs(Int(a.pixels[i]) - Int(b.pixels[i]))
        if d > worst.0 { worst = (d, (i / 4) % a.width, (i / 4) / a.width) }
    }
    return worst
}

/// A straight-alpha raw frame as an image (premultiplied as Segue reads PNG files).
public func image(rawStraight path: String, width: Int, height: Int) throws -> Image {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    guard bytes.count == width * height * 4 else { throw SetupFailure("\(path): \(bytes.count) bytes, not \(width)x\(height) RGBA") }
    return Image(width: width, height: height, straightRGBA: bytes)
}
