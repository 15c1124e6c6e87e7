import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// A concatenation resolved against the files it names: each clip probed (video or still, its
// duration after trimming, whether it has sound), each cut's effect, duration, timing and
// keyframes resolved, the output size and frame rate chosen, and the timeline built and checked.
// Everything a user can get wrong is found here, before any output is created.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One input of a concatenation, probed.
public struct ConcatClip: Sendable {
    /// The file.
    public let path: String
    /// How messages name it: "clip 2 (b.mp4)".
    public let name: String
    /// True for a PNG/JPEG still.
    public let isStill: Bool
    /// What ffprobe says about the file.
    public let media: MediaInfo
    /// Its picture stream (for a still, the image).
    public let video: VideoStreamInfo
    /// Seconds into the source where the clip starts (the trim's in point; 0 for stills).
    public let start: Double
    /// Seconds the clip lasts in the output's time line (before transitions overlap it).
    public let duration: Double

    /// Whether the clip contributes sound.
    public var hasAudio: Bool { !isStill && media.audio != nil }
}

/// One cut between two clips, resolved.
public struct ConcatCut: Sendable {
    /// The effect, nil for a hard cut.
    public let effect: ResolvedEffect?
    /// Seconds the transition lasts (0 for a hard cut).
    public let duration: Double
    /// How progress follows time during the transition (nil for a hard cut).
    public let timing: TransitionTiming?
    /// Keyframed parameters, evaluated over the transition.
    public let keyframes: [ParameterKeyframes]

    /// Whether the cut is hard (no transition).
    public var isHardCut: Bool { effect == nil }
}

/// A concatenation ready to render: clips, cuts, the timeline and the output's size and rate.
///
/// ```swift
/// var spec = ConcatSpec(clips: [ClipSpec(path: "a.mp4"), ClipSpec(path: "photo.jpg")])
/// spec.transition = try CutSpec(parsing: "cube:1.5")
/// let concatenation = try Concatenation(spec: spec)
/// try ConcatRenderer(concatenation, output: "out.mp4").render()
/// ```
public struct Concatenation: Sendable {
    /// The clips in order.
    public let clips: [ConcatClip]
    /// The cuts, one fewer than the clips.
    public let cuts: [ConcatCut]
    /// Where each clip starts and how long the whole lasts.
    public let timeline: CompositionTimeline
    /// Output width in pixels.
    public let width: Int
    /// Output height in pixels.
    public let height: Int
    /// Output frames per second.
    public let fps: Double
    /// Output frames: round(duration · fps).
    public let frameCount: Int
    /// How inputs of another shape are fitted.
    public let resize: ResizeMode
    /// How sound crossfades over transitions.
    public let audioCurve: CrossfadeCurve
    /// A soundtrack under the whole edit, probed.
    public let soundtrack: MediaInfo?
    /// The spec it was resolved from, with every file it names absolute (clips, soundtrack,
    /// effect files): resolved again anywhere, it gives the same concatenation (a plan's jobs do so).
    public let spec: ConcatSpec

    /// The most output frames a concatenation may have (9 h 15 min at 30 fps).
    public static let maximumFrameCount = Timeline.maximumFrameCount

    /// Resolves `spec`.
    /// - Parameter directory: the directory relative paths in the spec are taken from (a spec
    ///   file's own directory); nil leaves them relative to the current directory.
    /// - Throws: `CompositionError` (counts, numbers, trims, transitions longer than a clip,
    ///   naming the clip and the numbers; an unknown effect or timing, naming the cut),
    ///   `MediaError` (a missing, unreadable or corrupt input, no ffmpeg).
    public init(spec: ConcatSpec, directory: String? = nil) throws {
        try spec.validate()
        self.spec = ConcatPaths.absolute(spec, directory: directory)
        // Probed at once (an ffprobe each); the first failure in the order given is reported.
        let probed = concurrentMap(spec.clips.indices) { k in
            Result {
                try Self.probe(
                    spec.clips[k], index: k, path: ConcatPaths.file(spec.clips[k].path, in: directory), imageDuration: spec.imageDuration)
            }
        }
        let clips = try probed.map { try $0.get() }
        var cuts: [ConcatCut] = []
        for k in 0..<max(clips.count - 1, 0) {
            let place = "cut \(k + 1) (between \(clips[k].name) and \(clips[k + 1].name))"
            cuts.append(try Self.resolve(spec.cut(after: k), place: place, directory: directory))
        }
        // The default transition is checked even where no cut takes it (one clip, or every cut
        // set on its own): a misspelt effect is an error, not silently unused.
        let defaultUsed = (0..<cuts.count).contains { k in k >= spec.cuts.count || spec.cuts[k] == nil }
        if !defaultUsed {
            _ = try Self.resolve(spec.transition, place: "the transition", directory: directory)
        }
        // Size and rate: given, else the first video's, else the first image's at 30 fps.
        let firstVideo = clips.first { !$0.isStill }
        let rate = spec.fps ?? firstVideo.map { FrameRate.range.contains($0.video.fps) ? $0.video.fps : 30 } ?? 30
        fps = rate
        // Lengths of whole frames (a 29.97 fps clip's 3.336667 s) as exact frame counts, so
        // starts summed over many clips do not drift off the frame grid.
        timeline = try CompositionTimeline(
            clipDurations: clips.map { CompositionTimeline.gridAligned($0.duration, fps: rate) }, cutDurations: cuts.map(\.duration),
            names: clips.map(\.name))
        if let size = spec.size {
            (width, height) = try Image.parseSize(size)  // checked by validate()
        } else {
            let display = (firstVideo ?? clips[0]).video.displaySize
            // Even sides, as 4:2:0 video needs; never below 2.
            (width, height) = (max(2, display.width & ~1), max(2, display.height & ~1))
        }
        frameCount = try timeline.frameCount(fps: fps, maximumFrameCount: Self.maximumFrameCount)
        resize = spec.resize.flatMap(ResizeMode.init(rawValue:)) ?? .cover  // checked by validate()
        audioCurve = spec.audioCurve
        if let audio = spec.audio {
            let info = try MediaProbe.probe(path: ConcatPaths.file(audio, in: directory))
            guard info.audio != nil else { throw CompositionError("the soundtrack \(audio) has no sound") }
            soundtrack = info
        } else {
            soundtrack = nil
        }
        self.clips = clips
        self.cuts = cuts
    }

    /// Reads and checks a spec file (JSON, at most `ConcatSpec.maximumFileSize` bytes).
    /// - Throws: `MediaError` (missing, unreadable), `CompositionError` (too large, invalid,
    ///   naming the JSON path of what is wrong).
    public static func readSpec(path: String) throws -> ConcatSpec {
        let data = try ConcatPlan.readFile(path: path, limit: ConcatSpec.maximumFileSize, noun: "spec") { size in
            CompositionError("\(path): the spec is \(size) bytes; the limit is \(ConcatSpec.maximumFileSize)")
        }
        do { return try ConcatSpec(json: data) } catch { throw CompositionError("\(path): \(error.message)") }
    }

    // MARK: - Files

    /// The files an edit reads, with what each is to the user (clips, the soundtrack, effect
    /// files), as `OutputGuard` compares them with an output.
    public static func inputFiles(of spec: ConcatSpec) -> [OutputGuard.Input] {
        var files = OutputGuard.inputs("clip", spec.clips.map(\.path), numbered: true)
        if let audio = spec.audio { files.append(OutputGuard.Input("the soundtrack", audio)) }
        for (n, cut) in spec.cuts.enumerated() {
            if let cut, let file = EffectCatalog.file(ofEffect: cut.effect) {
                files.append(OutputGuard.Input("the effect file of cut \(n + 1)", file))
            }
        }
        if let file = EffectCatalog.file(ofEffect: spec.transition.effect) {
            files.append(OutputGuard.Input("the transition's effect file", file))
        }
        return files
    }

    // MARK: - Clips

    private static func probe(_ clip: ClipSpec, index k: Int, path: String, imageDuration: Double) throws -> ConcatClip {
        let name = "clip \(k + 1) (\(clip.path))"
        if try isStill(path) {
            let image = try ImageFile.read(path: path)  // checks the file with Segue's own decoders
            if clip.in != nil || clip.out != nil {
                throw CompositionError("\(name): 'in' and 'out' trim videos; give a still a 'duration'")
            }
            let stream = VideoStreamInfo.image(width: image.width, height: image.height)
            let media = MediaInfo(path: path, formatName: "image", duration: nil, video: stream, audio: nil)
            return ConcatClip(
                path: path, name: name, isStill: true, media: media, video: stream, start: 0,
                duration: clip.duration ?? imageDuration)
        }
        if clip.duration != nil { throw CompositionError("\(name): 'duration' is for stills; trim a video with 'in' and 'out'") }
        let media = try MediaProbe.probe(path: path)
        if media.video == nil, (media.duration ?? 0) <= 0 {
            throw CompositionError("\(name) has no length (0 s); a clip must last longer than 0 s")
        }
        guard let video = media.video else {
            throw MediaError.invalidVideo(path: path, reason: "it has no video stream")
        }
        let end = media.videoDuration ?? 0
        guard end.isFinite, end > 0 else {
            throw CompositionError("\(name) has no length (0 s); a clip must last longer than 0 s")
        }
        let start = clip.in ?? 0
        let stop = clip.out ?? end
        if start >= end {
            throw CompositionError("\(name): 'in' (\(seconds(start))) is not before the video's end (\(seconds(end)))")
        }
        if stop > end + 1e-3 {
            throw CompositionError("\(name): 'out' (\(seconds(stop))) is past the video's end (\(seconds(end)))")
        }
        return ConcatClip(
            path: path, name: name, isStill: false, media: media, video: video, start: start,
            duration: min(stop, end) - start)
    }

    /// Whether `path` starts with a PNG or JPEG signature.
    /// - Throws: `MediaError` for a missing or unreadable file, or one that is not a regular file
    ///   (a FIFO would block the open for ever), before it is opened.
    private static func isStill(_ path: String) throws -> Bool {
        try MediaProbe.checkReadable(path)
        guard let handle = FileStream(forReadingAtPath: path) else {
            _ = try MediaProbe.probe(path: path)  // throws the precise error (missing, unreadable)
            return false
        }
        defer { handle.close() }
        let head = (try? handle.read(upToCount: 8)) ?? []
        return ImageFormat(magic: [UInt8](head)) != nil
    }

    // MARK: - Cuts

    private static func resolve(_ cut: CutSpec, place: String, directory: String?) throws -> ConcatCut {
        if cut.isHardCut { return ConcatCut(effect: nil, duration: 0, timing: nil, keyframes: []) }
        let name = ConcatPaths.effect(cut.effect, in: directory)
        do {
            let request = EffectRequest(
                effect: name, parameters: cut.params.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) })
            let resolved = try request.resolve()
            let effect = resolved.effect
            if let builder = effect.meshBuilder, !builder.isTransition { throw RenderError.notATransition(effect: effect.name) }
            // As `segue render` and the C API time a transition: without a duration a spring
            // lasts until it settles, anything else the effect's own duration.
            let timing = try TransitionTiming(
                curve: cut.timing.map { try TransitionTiming.Curve(parsing: $0) }, duration: cut.duration,
                defaultCurve: effect.defaultTiming, defaultDuration: effect.defaultDuration)
            let keyframes = try ParameterKeyframes.parseAll(cut.keyframes, effect: effect)
            return ConcatCut(effect: resolved, duration: timing.duration, timing: timing, keyframes: keyframes)
        } catch let error as SegueError {
            throw CompositionError("\(place): \(error.message)")
        }
    }

    private static func seconds(_ value: Double) -> String { MessageText.seconds(value) }
}
