// What the concatenation tests share beyond the media helpers of SegueTestSupport.
import Segue
import SegueTestSupport

/// Renders `spec` into `output` with the library, returning the concatenation.
@discardableResult
func renderConcat(
    _ spec: ConcatSpec, to output: String, settings: VideoSettings = VideoSettings(preset: "ultrafast", crf: 12),
    cancellation: Cancellation? = nil
) throws -> Concatenation {
    let concatenation = try Concatenation(spec: spec)
    try ConcatRenderer(concatenation, output: output, settings: settings, cancellation: cancellation).render()
    return concatenation
}
