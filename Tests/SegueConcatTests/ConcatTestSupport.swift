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

/// A clip of `frames` frames at `rate` (ffmpeg's form: "30000/1001") in which frame n shows a
/// white bar n pixels wide over black, 128×16 (luma, so sharp through 4:2:0; n < 128), encoded
/// by x264 with `options` (default: lossless, which makes no B-frames).
func makeBars(_ path: String, rate: String, frames: Int, options: [String] = ["-preset", "ultrafast", "-qp", "0"]) throws {
    try ffmpeg(
        [
            "-f", "lavfi", "-i", "color=c=black:s=128x16:r=\(rate):d=\(frames)", "-vf", "geq=lum='if(lt(X,N),235,16)':cb=128:cr=128",
            "-frames:v", String(frames), "-c:v", "libx264",
        ] + options + ["-pix_fmt", "yuv420p", path])
}

/// The source frame each frame of a video made of `makeBars` clips shows: its bar's width.
func barWidths(_ path: String) throws -> [Int] {
    let (width, _, frames) = try decodeFrames(path)
    return frames.map { frame in (0..<width).filter { pixel(frame, width, $0, 8).g > 128 }.count }
}
