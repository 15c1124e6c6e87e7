// The concat spec (`segue concat --spec FILE.json`): JSON decoding and validation of arbitrary
// bytes through `ConcatSpec(json:)`, the entry point the command uses.
import Foundation
import Segue

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConcatSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let spec = try? ConcatSpec(json: Data(bytes: data, count: size)) {
        // What validation promises must hold for every spec it lets through.
        precondition(
            !spec.clips.isEmpty && spec.clips.count <= ConcatSpec.maximumClipCount, "a spec with \(spec.clips.count) clips was accepted")
        precondition(spec.imageDuration.isFinite && spec.imageDuration > 0, "an image duration of \(spec.imageDuration) was accepted")
        for k in 0..<max(spec.clips.count - 1, 0) { _ = spec.cut(after: k) }
    }
    return 0
}
