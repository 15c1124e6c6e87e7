import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// The picture side of a concatenation: per clip a stream of fitted frames that answers "the frame
// shown at time t" (the frame whose timestamp covers t, for constant and variable frame rates:
// the decoder's frames are read ahead by one and advanced while the next one's timestamp is not
// after t), and per cut a transition renderer whose two textures are refilled every frame.
//
// Frames of a clip playing alone are handed to the encoder straight from the decoder's buffer:
// no GPU work and no copy. Only transition frames go through the GPU.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fitted frames of one clip, selected by time. Not thread-safe.
final class ClipFrames {
    let clip: ConcatClip
    /// A video's frames, decoded ahead on their own thread (nil for a still).
    private let frames: ReadAheadVideoDecoder?
    /// A still's only frame (premultiplied).
    private let still: UnsafeMutableRawBufferPointer?
    /// The frame shown now and the one after it (nil past the last).
    private var current: ReadAheadVideoDecoder.Frame?
    private var pending: ReadAheadVideoDecoder.Frame?
    /// Seconds into the clip where decoding started (added to the decoder's timestamps).
    private let offset: Double
    /// How far before a frame's timestamp a time reaches it (see `frame(at:)`): three roundings
    /// to the microsecond and a margin.
    static let reach = 2e-6

    /// Starts the clip's decoder and reads its first frame (and, for a video, the next one).
    /// - Parameter time: the first time (seconds into the clip) that will be asked for. Decoding
    ///   starts a few frames before it, so the frame covering it is among those read.
    /// - Throws: `MediaError`; `.invalidVideo` when the clip yields no frame.
    /// - Parameter pixelFormat: how frames are handed out (`.yuv420p`: BT.709 4:2:0, for clips
    ///   tagged BT.709 and stills).
    /// - Parameter atKeyframe: `time` is at a keyframe of the source (a smart render's piece
    ///   starts there): decoding starts exactly there, with no frames before it.
    init(
        _ clip: ConcatClip, from time: Double = 0, width: Int, height: Int, resize: ResizeMode, pixelFormat: RawPixelFormat = .rgba,
        atKeyframe: Bool = false, cancellation: Cancellation? = nil
    ) throws {
        self.clip = clip
        let noFrame = MediaError.invalidVideo(
            path: clip.path,
            reason: clip.start > 0
                ? "it has no frame after \(MessageText.seconds(clip.start))" : "it has no video frames")
        let decoder = { (offset: Double, exact: Bool) in
            try TimedVideoDecoder(
                path: clip.path, stream: clip.video, start: clip.start + offset, width: width,
                height: height, resize: resize, frameLimit: clip.isStill ? 1 : nil,
                pixelFormat: clip.isStill ? .rgba : pixelFormat, startsAtKeyframe: exact,
                cancellation: cancellation)
        }
        if clip.isStill {
            offset = 0
            let decoder = try decoder(0, false)
            let pixels = UnsafeMutableRawBufferPointer.allocate(byteCount: decoder.frameByteCount, alignment: 64)
            defer { decoder.close() }
            do {
                guard try decoder.read(into: pixels) != nil else { throw noFrame }
            } catch {
                pixels.deallocate()
                throw error
            }
            Image.premultiply(pixels)  // a still's transparent parts are shown over black
            if pixelFormat == .yuv420p {
                let planar = UnsafeMutableRawBufferPointer.allocate(
                    byteCount: pixelFormat.byteCount(width: width, height: height), alignment: 64)
                YUV420.fromRGBA(UnsafeRawBufferPointer(pixels), width: width, height: height, into: planar)
                pixels.deallocate()
                (still, frames) = (planar, nil)
            } else {
                (still, frames) = (pixels, nil)
            }
            return
        }
        // A few frames early, from before the clip's in point too: an in point between two frames
        // shows the one covering it (ffmpeg's exact seek drops frames before it). Where the first
        // frame read still comes after `time` (a variable-rate source's gap longer than that), the
        // decoder starts again eight times as far back, until a frame covers `time` or decoding
        // starts at the source's beginning. A smart piece's keyframe start is exact.
        let exact = atKeyframe && time > 0
        var back = max(3 / (clip.video.fps > 0 ? clip.video.fps : 30), 0.05)
        while true {
            let offset = exact ? time : max(time - back, -clip.start)
            let frames = try ReadAheadVideoDecoder(try decoder(offset, exact))
            let first: ReadAheadVideoDecoder.Frame?
            let next: ReadAheadVideoDecoder.Frame?
            do {
                first = try frames.next()
                next = first == nil ? nil : try frames.next()
            } catch {
                frames.close()
                throw error
            }
            let covers = first.map { $0.time + offset <= time + Self.reach } ?? false
            if exact || covers || offset <= -clip.start {
                guard let first else {
                    frames.close()
                    throw noFrame
                }
                (self.offset, current, pending, self.frames, still) = (offset, first, next, frames, nil)
                return
            }
            frames.close()
            back *= 8
        }
    }

    deinit {
        frames?.close()
        still?.deallocate()
    }

    /// The frame shown at `time` seconds into the clip (times must not decrease between calls).
    /// Valid until the next call.
    ///
    /// A time within `reach` (2 µs) before a frame's timestamp reaches it. Timestamps are whole
    /// microseconds, and a piece of a smart render is decoded from a seek point itself rounded
    /// to one, so a request and the timestamp of the frame it means can differ by up to 1.5 µs
    /// (with half a microsecond, the frame before showed every third frame of such a piece at
    /// 30 fps). A request that far before a frame between two rates is on the frame's side.
    func frame(at time: Double) throws -> UnsafeRawBufferPointer {
        guard let frames, let shown = current else { return UnsafeRawBufferPointer(still!) }
        var now = shown
        while let next = pending, next.time + offset <= time + Self.reach {
            frames.recycle(now)
            now = next
            pending = try frames.next()
        }
        current = now
        return UnsafeRawBufferPointer(now.pixels)
    }

    /// Stops the decoder.
    func close() { frames?.close() }
}

/// One cut's transition: on the GPU, created at its first frame, its textures refilled per frame;
/// or, for the built-in cross-dissolve, on the CPU without a GPU (`dissolveProgress`).
final class CutRenderer {
    let cut: ConcatCut
    private let timeline: Timeline
    private var renderer: TransitionRenderer?
    private let width: Int, height: Int
    private let context: () throws -> GPUContext
    /// Whether the effect is the built-in `fade` (which has no parameters).
    private let isDissolve: Bool

    /// - Parameter context: gives the GPU when the first frame needs it.
    init(_ cut: ConcatCut, fps: Double, width: Int, height: Int, context: @escaping () throws -> GPUContext) throws {
        precondition(!cut.isHardCut, "a hard cut has nothing to render")
        self.cut = cut
        self.width = width
        self.height = height
        self.context = context
        timeline = try Timeline(timing: cut.timing!, fps: fps, keyframes: cut.keyframes)
        let effect = cut.effect!.effect
        isDissolve = effect.source == .builtIn && effect.name == "fade" && effect.parameters.isEmpty
    }

    /// The progress at linear `fraction` of the span when the frame is a plain cross-dissolve
    /// within 0…1 (the built-in `fade`, whatever its timing), which `CrossDissolve` draws exactly
    /// like the GPU; nil when the frame needs the GPU (another effect, or a spring's overshoot).
    func dissolveProgress(at fraction: Double) -> Double? {
        guard isDissolve else { return nil }
        let progress = timeline.progress(at: fraction * cut.duration)
        return (0...1).contains(progress) ? progress : nil
    }

    /// The transition's frame at linear `fraction` (0…1) of its span, handed to `consume`
    /// (premultiplied RGBA8 of the output size, valid during the call only). `fill(i, memory)`
    /// writes input i's pixels (0 the outgoing clip's frame, 1 the incoming one's; premultiplied
    /// RGBA8 of the output size) straight into the GPU's upload memory.
    func frame(
        fraction: Double, fill: (Int, UnsafeMutableRawBufferPointer) -> Void,
        consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let effect = cut.effect!
        if let renderer {
            try renderer.replaceImages(fill: fill)
        } else {
            func image(_ i: Int) -> Image {
                var pixels = [UInt8](repeating: 0, count: width * height * 4)
                pixels.withUnsafeMutableBytes { fill(i, $0) }
                return Image(width: width, height: height, premultipliedRGBA: pixels)
            }
            renderer = try TransitionRenderer(
                effect: effect.effect, from: image(0), to: image(1), width: width, height: height,
                resize: .stretch, parameters: effect.parameters, textures: effect.textures,
                context: try context(), framesInFlight: 1)
        }
        let t = fraction * cut.duration
        try renderer!.frame(
            progress: timeline.progress(at: t), time: t, duration: cut.duration,
            overrides: timeline.parameters(at: t), consume: consume)
    }
}

/// The cross-dissolve of two frames, byte by byte: `a·(1 − p) + b·p` rounded, with `p` in 16-bit
/// fixed point (0 gives `a` and 1 gives `b` exactly). Premultiplied RGBA dissolves so, like the
/// GPU's `fade`; so does Y'CbCr 4:2:0, an affine image of RGB (each chroma sample the mean of its
/// block), without converting it: the result is the converted GPU dissolve to within rounding.
enum CrossDissolve {
    static func mix(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, progress: Double, into out: UnsafeMutableRawBufferPointer) {
        precondition(a.count == b.count && out.count == a.count, "frames of one size")
        precondition((0...1).contains(progress), "progress within 0…1")
        let w = UInt32((progress * 65536).rounded()), v = 65536 - w
        let pa = a.baseAddress!.assumingMemoryBound(to: UInt8.self), pb = b.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let po = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for i in 0..<a.count {
            po[i] = UInt8(truncatingIfNeeded: (UInt32(pa[i]) &* v &+ UInt32(pb[i]) &* w &+ 32768) >> 16)
        }
    }
}
