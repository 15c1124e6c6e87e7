// What the front end's tests share: the usual first lines of a file, the error a translation
// raises, and a line of the GLSL.
import SegueMetal

/// `#include <metal_stdlib>` and `using namespace metal;`: two lines.
let prologue = "#include <metal_stdlib>\nusing namespace metal;\n"

/// The error translating `source` (as `user.metal`) raises, or else the first refused stitchable
/// function's, as text (nil when it translates and every stitchable function can be used).
func translationError(_ source: String) -> String? {
    do {
        // A function SwiftUI could not call refuses only itself: its error is what asking for it gives.
        return try MetalTranslator.translate(source, file: "user.metal").refused.first?.error.description
    } catch {
        return error.description
    }
}

/// Line `n` (1-based) of `text`.
func line(_ n: Int, of text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return n - 1 < lines.count ? String(lines[n - 1]) : ""
}
