import Dispatch
import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// Streams a stretch of a concatenation into a movie: output frame i at i/fps is clip k's frame at
// that time (straight from its decoder to the encoder) or, during cut k, the transition rendered
// on the GPU between the two clips' moving frames; the sound is mixed on a second thread into the
// encoder's sound pipe. Decoders and the encoder are ffmpeg subprocesses; at most two clips decode
// at once per stretch, so memory stays flat however long the output. A render is a plan's jobs
// (ConcatPlanner, ConcatJobs), each such a stretch. A failure (or a cancellation, through the
// `Cancellation` given) leaves no output file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How far a render has come.
public struct ConcatProgress: Sendable, Hashable {
    /// Frames written.
    public let framesDone: Int
    /// Frames in all.
    public let frameCount: Int
}

/// Where a render's time went, measured on the thread that feeds the encoder (the decoders and
/// the encoder run in parallel in their own processes).
public struct ConcatTimings: Sendable, Hashable {
    /// Seconds waiting for decoded frames.
    public var decoding: Double = 0
    /// Seconds drawing transitions: on the GPU (colour conversions, texture uploads, shading,
    /// readback), or dissolving on the CPU.
    public var transitions: Double = 0
    /// Seconds blocked handing frames to the encoder (its pipe was full: encoding is the limit).
    public var encoding: Double = 0
    /// Seconds preparing a smart render: video-only copies of the sources and their keyframes.
    public var smartPreparation: Double = 0
    /// Seconds joining the pieces with the sound (every render is joined from pieces).
    public var smartJoin: Double = 0

    /// Adds the picture's times of `other` (its decoding, transitions and encoding) to these.
    mutating func add(_ other: ConcatTimings) {
        decoding += other.decoding
        transitions += other.transitions
        encoding += other.encoding
    }
}

/// Renders a `Concatenation` to a movie file.
///
/// ```swift
/// let concatenation = try Concatenation(spec: ConcatSpec(clips: [ClipSpec(path: "a.mp4"), ClipSpec(path: "b.mp4")]))
/// let renderer = try ConcatRenderer(concatenation, output: "out.mp4", settings: VideoSettings(preset: "fast", crf: 20))
/// try renderer.render { progress in print(progress.framesDone, "of", progress.frameCount) }
/// ```
public final class ConcatRenderer {
    /// What is rendered.
    public let concatenation: Concatenation
    /// The destination.
    public let output: String
    /// The container, from the destination's extension.
    public let format: VideoFormat
    /// Codec, preset and quality.
    public let settings: VideoSettings
    /// The sound's rate and channels.
    public let audioLayout: AudioLayout
    private let makeContext: () throws -> GPUContext
    /// Stops the render from outside: its `cancel()` kills the encoders and removes the temporaries.
    let cancellation: Cancellation?
    private var context: GPUContext?
    private let contextLock = PlainLock()
    /// Where the last render's time went.
    public internal(set) var timings = ConcatTimings()
    /// The most seconds of output one segment of a render lasts (the plan's jobs).
    public var jobSeconds = ConcatPlan.defaultJobSeconds

    /// Checks the output before anything is rendered.
    /// - Parameters:
    ///   - context: gives the GPU for transitions; called only when the first transition is
    ///     reached (an edit of hard cuts needs no GPU). Default: a context of its own on the
    ///     preferred device, without a disk cache for shaders.
    ///   - cancellation: its `cancel()` (from any thread) stops the render: `render` then throws
    ///     `MediaError.cancelled` and the output is not created.
    /// - Throws: `MediaError.unknownOutputFormat`, `.invalidSettings` for settings that do not fit
    ///   the container, `.unwritable` for an output that is one of the edit's files (`OutputGuard`).
    public init(
        _ concatenation: Concatenation, output: String, settings: VideoSettings = VideoSettings(),
        audioLayout: AudioLayout = .standard, context: @escaping () throws -> GPUContext = { try GPUContext() },
        cancellation: Cancellation? = nil
    ) throws {
        guard let format = VideoFormat(pathExtensionOf: output) else {
            throw MediaError.unknownOutputFormat(path: output, supported: VideoFormat.extensions)
        }
        if let problem = audioLayout.problem { throw RenderError.invalidValue(problem) }
        try settings.validate(for: format, output: output)
        try OutputGuard.check(output: output, inputs: Concatenation.inputFiles(of: concatenation.spec))
        self.concatenation = concatenation
        self.output = output
        self.format = format
        self.settings = settings
        self.audioLayout = audioLayout
        makeContext = context
        self.cancellation = cancellation
    }

    /// Renders the whole output, calling `progress` as frames are rendered. The render is planned
    /// (`plan(smart:jobSeconds:pieceStem:)`: segments of at most ten seconds cut at the
    /// transitions, and the sound) and the jobs run at once, joined by stream copy: the output is
    /// what the plan's jobs and join make on any number of machines.
    /// - Throws: `MediaError` (a decoder or the encoder), `VulkanError`, `RenderError`; the
    ///   output is then not created (nor left half-written).
    public func render(progress: (ConcatProgress) -> Void = { _ in }) throws {
        _ = try renderPlanned(smart: false, progress: progress)
    }

    /// Mixes the sound into `encoder` on its own thread while `picture` feeds the picture, then
    /// finishes the movie (`probed`: see `VideoEncoder.finish`); on any failure the movie is
    /// cancelled (nothing is left). `token`: what stops the work (the encoder's too), by default
    /// the renderer's.
    func withSound(_ encoder: VideoEncoder, probed: Bool = true, stoppedBy token: Cancellation? = nil, picture: () throws -> Void) throws {
        let token = token ?? cancellation
        let audioError = Locked<Error?>(nil)
        let audioDone = DispatchSemaphore(value: 0)
        if let writer = encoder.audioWriter() {
            let audio = ConcatAudio(concatenation, layout: audioLayout, cancellation: token)
            let stopper = encoder.stopper
            do {
                try WorkerThread.start(for: output) {
                    do { try audio.run(into: writer) } catch {
                        audioError.withLock { $0 = error }
                        stopper.abort()  // unblocks the picture side at once
                    }
                    audioDone.signal()
                }
            } catch {
                encoder.cancel()
                throw MediaError(error)
            }
        } else {
            audioDone.signal()
        }
        do {
            try picture()
            try encoder.finish(probed: probed)
        } catch {
            // A write error ffmpeg reported (a full disk) first: the picture's and the sound's
            // closed pipes follow from it. Then the sound's error when it stopped the encoder (it
            // is recorded before the abort).
            let cause = audioError.withLock { $0 }
            encoder.cancel()
            audioDone.wait()
            if token?.isCancelled == true { throw MediaError.cancelled(path: output) }
            throw encoder.writeFailure ?? cause ?? error
        }
        // ffmpeg ended well, so it read the sound to its end: the mix closed its stream without an
        // error (a failing mix aborts the encoder before its stream closes, and an aborted
        // encoder publishes nothing).
        audioDone.wait()
    }

    /// The GPU, made when the first transition needs it (from any thread).
    private func gpu() throws -> GPUContext {
        contextLock.lock()
        defer { contextLock.unlock() }
        if let context { return context }
        let made = try makeContext()
        context = made
        return made
    }

    /// How frames travel from the decoders to the encoder. Y'CbCr 4:2:0 when the encoder codes
    /// that and every video is tagged BT.709 (HD and phone video): frames outside transitions then
    /// go through with no colour conversion at either end and 1.5 bytes a pixel instead of 4; only
    /// transition frames are converted, to RGBA for the GPU and back. Otherwise RGBA, which ffmpeg
    /// converts from each source's own matrix. `settings`: the encoder's (a smart render's pieces
    /// match the sources' pixel format, which must then be 4:2:0 too).
    func pictureLayout(for settings: VideoSettings) -> RawPixelFormat {
        let c = concatenation
        guard settings.matching.map({ $0.pixelFormat == "yuv420p" }) ?? true, settings.codec(for: format).pixelFormat == "yuv420p",
            c.width % 2 == 0, c.height % 2 == 0,
            c.clips.allSatisfy({ $0.isStill || ($0.video.colorSpace == "bt709" && ["tv", ""].contains($0.video.colorRange)) })
        else { return .rgba }
        return .yuv420p
    }

    /// Writes output frames `frames` of the picture into `encoder` (its frames laid out as
    /// `layout`), calling `progress` with the count written after each, and returns where the time
    /// went. Clips are decoded from the first frame needed. Several calls may run at once on
    /// different threads (for different frames).
    /// `keyframeClip`: the clip whose frame at `frames.lowerBound` is a keyframe of its source
    /// (a smart render's piece after a copied stretch), decoded from exactly there.
    func renderPicture(
        into encoder: VideoEncoder, frames: Range<Int>, layout: RawPixelFormat = .rgba, keyframeClip: Int? = nil,
        progress: (Int) -> Void
    ) throws -> ConcatTimings {
        let c = concatenation
        var timings = ConcatTimings()
        // A dissolved frame, in the frames' own layout.
        let dissolved = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.byteCount(width: c.width, height: c.height), alignment: 64)
        defer { dissolved.deallocate() }
        var sources: [Int: ClipFrames] = [:]
        var cutRenderers: [Int: CutRenderer] = [:]
        defer { for s in sources.values { s.close() } }
        var first = true  // at frames.lowerBound
        func source(_ k: Int, at time: Double) throws -> ClipFrames {
            if let s = sources[k] { return s }
            let s = try ClipFrames(
                c.clips[k], from: time, width: c.width, height: c.height, resize: c.resize, pixelFormat: layout,
                atKeyframe: first && k == keyframeClip, cancellation: cancellation)
            sources[k] = s
            return s
        }
        /// Closes the clips and transitions before clip `k`.
        func release(before k: Int) {
            for key in sources.keys where key < k { sources.removeValue(forKey: key)?.close() }
            for key in cutRenderers.keys where key < k { cutRenderers.removeValue(forKey: key) }
        }
        for i in frames {
            switch c.timeline.moment(atFrame: i, fps: c.fps) {
            case let .clip(k, time):
                release(before: k)
                var clock = Stopwatch()
                let frame = try source(k, at: time).frame(at: time)
                timings.decoding += clock.lap()
                try encoder.append(frame: frame)
                timings.encoding += clock.lap()
            case let .transition(k, fraction, fromTime, toTime):
                release(before: k)
                var clock = Stopwatch()
                let from = try source(k, at: fromTime).frame(at: fromTime)
                let to = try source(k + 1, at: toTime).frame(at: toTime)
                timings.decoding += clock.lap()
                let renderer = try cutRenderers[k] ?? CutRenderer(c.cuts[k], fps: c.fps, width: c.width, height: c.height, context: gpu)
                cutRenderers[k] = renderer
                if let p = renderer.dissolveProgress(at: fraction) {  // no GPU: the frames dissolved in their own layout
                    CrossDissolve.mix(from, to, progress: p, into: dissolved)
                    timings.transitions += clock.lap()
                    try encoder.append(frame: UnsafeRawBufferPointer(dissolved))
                } else {
                    // The inputs written straight into the GPU's upload memory (4:2:0 converted on
                    // the way); the frame from the readback memory to the encoder (which converts
                    // it back to 4:2:0 when it takes that).
                    try renderer.frame(
                        fraction: fraction,
                        fill: { i, rgba in
                            let source = i == 0 ? from : to
                            if layout == .yuv420p {
                                YUV420.toRGBA(source, width: c.width, height: c.height, into: rgba)
                            } else {
                                rgba.copyMemory(from: source)
                            }
                        },
                        consume: { pixels in
                            timings.transitions += clock.lap()
                            try encoder.append(premultiplied: pixels)
                        })
                }
                timings.encoding += clock.lap()
            }
            progress(i + 1 - frames.lowerBound)
            first = false
        }
        return timings
    }
}

/// `transform` of each index, run on up to as many threads as there are cores; results in order.
/// `transform` must be safe to call from several threads at once (callers keep what it shares
/// behind locks: `Locked`, the GPU context's queue lock).
func concurrentMap<T>(_ indices: Range<Int>, _ transform: (Int) -> T) -> [T] {
    return withoutActuallyEscaping(transform) { transform in
        let shared = ConcurrentWork(transform: transform, results: Locked([:]))
        DispatchQueue.concurrentPerform(iterations: indices.count) { i in
            let value = shared.transform(indices.lowerBound + i)
            shared.results.withLock { $0[indices.lowerBound + i] = value }
        }
        let all = shared.results.withLock { $0 }
        return indices.map { all[$0]! }
    }
}

/// `side` on a thread of its own while `main` runs on this one; both results once both are done.
/// When no thread can be started, `side` runs here after `main`. `path`: named if that fails.
/// (`side` escapes: the thread may still hold it for a moment after handing back its result.)
func alongside<A, B>(for path: String, _ side: @escaping () -> A, _ main: () -> B) -> (A, B) {
    let work = SideWork(run: side, result: Locked(nil))
    let finished = DispatchSemaphore(value: 0)
    let started =
        (try? WorkerThread.start(for: path) {
            let value = work.run()
            work.result.withLock { $0 = value }
            finished.signal()
        }) != nil
    let b = main()
    if started {
        finished.wait()
    } else {
        let value = side()
        work.result.withLock { $0 = value }
    }
    return (work.result.withLock { $0! }, b)
}

/// A closure and its result handed to another thread (which Swift cannot check).
// @unchecked: `run` is called by the one thread it is handed to, while the caller waits; the
// result crosses back under `result`'s lock.
private struct SideWork<T>: @unchecked Sendable {
    let run: () -> T
    let result: Locked<T?>
}

/// A closure and its results handed to Dispatch's worker threads (which Swift cannot check).
// @unchecked: `transform` is only called (its callers pass closures that touch no shared
// mutable state, each index once); the results cross back under `results`' lock.
private struct ConcurrentWork<T>: @unchecked Sendable {
    let transform: (Int) -> T
    let results: Locked<[Int: T]>
}
