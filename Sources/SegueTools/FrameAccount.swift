import FoundationEssentials
import Segue
import SegueCore
import SegueMedia
import SegueShaders

// Where the time of one frame goes, stage by stage, for `segue bench --account`.
//
// Each stage is measured on its own over the same frames the end-to-end run makes:
//   shading      render mode (no copy to the host), ms per frame;
//   readback     readback mode minus render mode (the image → buffer copy and the wait for it),
//                the two measured in turn in each run and the median of their differences taken
//                (measured apart, a change of the GPU's clocks between them made it 0 on an H200);
//   straight α   the CPU pass a raw/PNG/video-with-alpha sink makes over the read-back pixels
//                (the opaque scan, and for translucent frames the copy and un-premultiply),
//                timed around each call inside an end-to-end run;
//   pipe         the write(2) of each frame into a pipe drained by another thread, timed around
//                each call inside the same run;
//   end to end   that run's wall time per frame.
// Stages overlap in the end-to-end run (frames in flight: the device shades frame i+1 while the
// host writes frame i), so the stages may add up to more than the end-to-end time; the difference
// is the overlap. The encoder's colour conversion (RGBA → yuv420p in ffmpeg, what an MP4 costs on
// top of the raw stream) does not depend on the effect and is measured once per size.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The cost of one frame of an effect, stage by stage, in milliseconds per frame.
public struct FrameAccount: Sendable, Equatable {
    /// The effect's name.
    public var effect: String
    /// GPU shading alone.
    public var shading: Double
    /// The copy of the frame into host memory (readback mode minus render mode).
    public var readback: Double
    /// The CPU straight-alpha pass of raw, PNG and alpha-video output.
    public var straightAlpha: Double
    /// Writing the frame into a pipe.
    public var pipeWrite: Double
    /// The whole frame as raw RGBA into a pipe, measured.
    public var endToEnd: Double
    /// Frames of the run with a translucent pixel (those need the un-premultiply copy).
    public var translucentFrames: Int
    /// Frames in the run.
    public var frames: Int

    /// The stages added up (more than `endToEnd` by what overlaps).
    public var stageSum: Double { shading + readback + straightAlpha + pipeWrite }
}

extension TransitionBenchmark {
    /// The per-stage account of `effect` (median of `runs` for each measured stage).
    public func account(_ effect: Effect, parameters: [String: ParameterValue] = [:]) throws -> FrameAccount {
        let timeline = try Timeline(duration: duration, fps: 30, curve: { $0 })
        let n = Double(timeline.frameCount)
        // Warmed up: the driver compiles shader variants on first draw.
        func warmed(readback: Bool) throws -> TransitionRenderer {
            let renderer = try TransitionRenderer(
                effect: effect, from: from, to: to, parameters: parameters, context: context, readback: readback)
            try renderer.render(try Timeline(duration: 1, fps: 2, curve: { $0 })) { _, _ in }
            return renderer
        }
        let shaded = try warmed(readback: false), renderer = try warmed(readback: true)
        var modes: [(render: Double, readback: Double)] = []
        for _ in 0..<runs { modes.append((try Self.renderSeconds(shaded, timeline), try Self.renderSeconds(renderer, timeline))) }
        let render = 1000 * Statistics.median(modes.map(\.render)) / n
        let readback = 1000 * Statistics.median(modes.map { $0.readback - $0.render }) / n
        var samples: [(total: Double, alpha: Double, write: Double, translucent: Int)] = []
        for _ in 0..<runs {
            var alpha = 0.0, write = 0.0, translucent = 0
            let total = try Self.timeIntoPipe { fd in
                let writer = RawFrameWriter(fileDescriptor: fd, name: "pipe")
                let straight = StraightAlphaBuffer(byteCount: renderer.width * renderer.height * 4)
                try renderer.render(timeline) { _, pixels in
                    if !Image.isOpaque(pixels) { translucent += 1 }
                    // Laps: converting to straight alpha, writing, and handing the buffer back.
                    var watch = Stopwatch()
                    try straight.withStraightAlpha(pixels) { raw in
                        alpha += watch.lap()
                        try writer.write(frame: raw)
                        write += watch.lap()
                    }
                    alpha += watch.lap()
                }
            }
            samples.append((total, alpha, write, translucent))
        }
        let mid = Statistics.median(samples, by: \.total)
        return FrameAccount(
            effect: effect.name, shading: render, readback: max(0, readback),
            straightAlpha: 1000 * mid.alpha / n, pipeWrite: 1000 * mid.write / n,
            endToEnd: 1000 * mid.total / n, translucentFrames: mid.translucent, frames: timeline.frameCount)
    }

    /// Milliseconds per frame ffmpeg spends turning RGBA frames of this size into yuv420p, the
    /// pixel format of an MP4 (libx264): the time to read `frames` copies of a raw frame and write
    /// them as yuv420p, minus the time to read and write them unchanged (median of `runs`).
    /// - Throws: `MediaError.ffmpegNotFound`, or `RenderError.invalidValue` when ffmpeg fails;
    ///   `SystemError.cancelled` when `cancellation` stops it.
    public func encoderColourConversion() throws -> Double {
        try withScratchDirectory { dir in
            let frame = dir + "/frame.rgba"
            try StagedOutput.write(from.pixels, to: frame)
            let input = ["-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-stream_loop", String(frames - 1), "-i", frame]
            func seconds(_ pixelFormat: String) throws -> Double {
                try median {
                    try timeFFmpeg(input + ["-f", "rawvideo", "-pix_fmt", pixelFormat, "/dev/null"], what: "ffmpeg rgba → \(pixelFormat)")
                }
            }
            let converted = try seconds("yuv420p"), unchanged = try seconds("rgba")
            return max(0, 1000 * (converted - unchanged) / Double(frames))
        }
    }
}
