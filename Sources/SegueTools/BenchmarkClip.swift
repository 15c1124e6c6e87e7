import SegueMedia
import SegueSystem

// The clips the concat benchmarks join, made by ffmpeg: its `testsrc2` picture turned by a hue,
// a sine tone, H.264 and AAC, tagged BT.709 limited range as cameras and phones tag HD video, with
// a keyframe every second. Both benchmarks measure the same pipeline on them (Segue's 4:2:0 path,
// which real footage takes) and smart rendering has keyframes to cut at.

/// A test clip for the concat benchmarks.
struct BenchmarkClip: CustomStringConvertible {
    let width: Int, height: Int
    let fps: Int, seconds: Int
    /// Degrees the picture's hue is turned by, and the tone's frequency in hertz: each clip of an
    /// edit looks and sounds its own.
    let hue: Int, frequency: Int

    /// What the progress log says while it is made.
    var description: String {
        "\(width)x\(height), \(seconds) s at \(fps) fps, keyframe every second, AAC"
    }

    /// Writes the clip to `path` (an MP4).
    /// - Throws: `MediaError` (no ffmpeg, ffmpeg failed), `SystemError.cancelled`.
    func write(to path: String, cancellation: Cancellation?) throws {
        try FFmpeg.run(
            [
                "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):r=\(fps):d=\(seconds),hue=h=\(hue)",
                "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=48000:duration=\(seconds)",
                "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-g", String(fps), "-keyint_min", String(fps),
                "-sc_threshold", "0", "-vf", "scale=out_color_matrix=bt709:out_range=tv", "-pix_fmt", "yuv420p",
                "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
                "-c:a", "aac", "-ac", "2", FFmpeg.fileArgument(path),
            ], for: path, cancellation: cancellation)
    }
}
