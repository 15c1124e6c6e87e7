// Golden-image comparison: images under Tests/SegueRenderTests/__Snapshots__/, compared with a stated
// tolerance; on failure `<name>-actual.png` and `<name>-difference.png` are written beside the
// golden. Set SEGUE_RECORD_GOLDENS=1 to (re-)record on purpose.
import Foundation
import Segue
import Testing

enum GoldenImage {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__").path
    static var recording: Bool { ProcessInfo.processInfo.environment["SEGUE_RECORD_GOLDENS"] == "1" }

    /// Compares `image` with the golden `name`: passes when at least `fraction` of pixels have
    /// every channel within `tolerance` (out of 255).
    static func assertMatches(
        _ image: Image, named name: String, tolerance: Int = 2, fraction: Double = 0.999,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let path = directory + "/\(name).png"
        if recording || !FileManager.default.fileExists(atPath: path) {
            try ImageFile.write(image, to: path)
            if !recording { Issue.record("recorded missing golden \(name).png; check it and run again", sourceLocation: sourceLocation) }
            return
        }
        let golden = try ImageFile.read(path: path)
        guard golden.width == image.width, golden.height == image.height else {
            try ImageFile.write(image, to: directory + "/\(name)-actual.png")
            Issue.record(
                "\(name): size \(image.width)x\(image.height), golden \(golden.width)x\(golden.height)", sourceLocation: sourceLocation)
            return
        }
        var within = 0
        var diff = [UInt8](repeating: 0, count: image.pixels.count)
        // Compare straight-alpha values as stored in the PNG.
        let a = image.straightRGBA(), b = golden.straightRGBA()
        for i in stride(from: 0, to: a.count, by: 4) {
            var worst = 0
            for c in 0..<4 { worst = max(worst, abs(Int(a[i + c]) - Int(b[i + c]))) }
            if worst <= tolerance { within += 1 }
            let v = UInt8(min(255, worst * 8))
            diff[i] = v; diff[i + 1] = v; diff[i + 2] = v; diff[i + 3] = 255
        }
        let got = Double(within) / Double(image.width * image.height)
        if got < fraction {
            try ImageFile.write(image, to: directory + "/\(name)-actual.png")
            try ImageFile.write(
                Image(width: image.width, height: image.height, premultipliedRGBA: diff), to: directory + "/\(name)-difference.png")
            Issue.record(
                "\(name): \(String(format: "%.3f", got * 100)) % of pixels within \(tolerance)/255, need \(fraction * 100) %; wrote \(name)-actual.png and -difference.png",
                sourceLocation: sourceLocation)
        }
    }
}
