import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// Planning a render: the edit split into jobs. Every render is planned, whether its jobs then run
// in this process or on many machines, so the output is the same either way.
//
// A smart plan (inputs that share their H.264 parameters): each source's video stream is remuxed
// alone into a scratch directory, its packets give the keyframes (ffprobe, no decoding), of which
// only IDR pictures without leading pictures are cut points (`VideoPackets.cleanH264Keyframes`: a
// copy cut at an open GOP's keyframe loses frames), and `SmartPlan` decides the stretches: a copy
// job per copied stretch (the remux again, made by the job, or in one process the planning's own
// remux, kept and linked: the same bytes; the join takes the stretch from the
// keyframe's timestamp, rounded up to the µs so the seek finds it, to just before the next
// keyframe's decoding timestamp, so every packet of the stretch decodes before it and none of the
// next is taken), and render jobs for the rest, encoded with the sources' profile, level, pixel
// format, B-frame delay and colour description. Copied frames decode bit-identically to the
// sources'. When the inputs differ (or are stills, rotated, of variable frame rate, or the output
// asks for another size, rate or codec) the reason is noted and the plan is a full render; so it
// is when open GOPs leave nothing to copy.
//
// A full render is split into segments at the cuts (each transition's first and last frame, each
// hard cut) and stretches longer than `jobSeconds` into equal parts: each segment is encoded as a
// file of its own, so it starts with a keyframe and the join is exact. GIF and APNG cannot be
// joined by stream copy: their plan is one job that renders the whole output. The sound, when the
// output has any, is job 0.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plan with what smart planning decided.
struct PlannedRender {
    /// The plan.
    let plan: ConcatPlan
    /// The copied and rendered stretches, nil for a full render.
    let smartPlan: SmartPlan?
}

extension ConcatRenderer {
    /// Plans the render: probes what the jobs need (for `smart`, the sources' keyframes) and
    /// splits the work into jobs, rendering nothing.
    /// - Parameters:
    ///   - smart: copy the stretches no transition touches when the inputs allow it (otherwise
    ///     the plan's `output.note` says why not).
    ///   - jobSeconds: the most seconds of output a segment job renders.
    ///   - pieceStem: the pieces' names start with it (`STEM.job-0003.mp4`): a plan file's name
    ///     without `.json`.
    /// - Throws: `PlanError` (`jobSeconds`), `MediaError` (an input that cannot be read).
    public func plan(smart: Bool, jobSeconds: Double = ConcatPlan.defaultJobSeconds, pieceStem: String) throws -> ConcatPlan {
        try makePlan(smart: smart, jobSeconds: jobSeconds, pieceStem: pieceStem).plan
    }

    /// `sourceCopies`: a directory where smart planning leaves each clip's remuxed video
    /// (`source-K.mp4`, a copy job's piece as it would make it) instead of removing it.
    func makePlan(smart: Bool, jobSeconds: Double, pieceStem: String, sourceCopies: String? = nil) throws -> PlannedRender {
        try Self.checkJobSeconds(jobSeconds)
        guard !pieceStem.isEmpty, !pieceStem.contains("/"), !pieceStem.hasPrefix(".") else {
            throw PlanError("pieces cannot be named after '\(pieceStem)'")
        }
        let c = concatenation
        var output = planOutput(smart: smart, jobSeconds: jobSeconds)
        let maximumFrames = max(Self.shortestPiece, Int(min(jobSeconds * c.fps, Double(c.frameCount)).rounded(.down)))
        var jobs: [ConcatPlan.Job] = []
        var entries: [ConcatPlan.JoinEntry] = []
        func add(_ kind: ConcatPlan.Kind, frames: Range<Int>?, extension ext: String, clip: Int? = nil, keyframeClip: Int? = nil) -> Int {
            let n = jobs.count
            let name = Self.pieceName(pieceStem, job: n)
            let seconds = frames.map { Double($0.count) / c.fps } ?? output.seconds
            jobs.append(
                ConcatPlan.Job(
                    kind: kind, frames: frames.map { [$0.lowerBound, $0.upperBound] }, seconds: seconds,
                    piece: name + "." + ext, record: name + ".json", clip: clip, keyframeClip: keyframeClip))
            return n
        }
        /// `frames` split into equal parts of at most `maximumFrames`, each of `shortestPiece` at least.
        func parts(_ frames: Range<Int>) -> [Range<Int>] {
            let count = max(min((frames.count + maximumFrames - 1) / maximumFrames, frames.count / Self.shortestPiece), 1)
            return (0..<count).map { i in
                (frames.lowerBound + frames.count * i / count)..<(frames.lowerBound + frames.count * (i + 1) / count)
            }
        }
        let pieceExtension = Self.pieceFormat(for: settings.codec(for: format)).fileExtension
        // The sound first (see `soundPiece`).
        var sound: Int?
        if soundPiece(pieceStem: pieceStem) != nil { sound = add(.sound, frames: nil, extension: format.fileExtension) }
        var smartPlan: SmartPlan?
        var clock = Stopwatch()
        if !format.isJoinable {
            // One job renders the whole output; the join checks and publishes it.
            let n = add(.render, frames: 0..<c.frameCount, extension: format.fileExtension)
            entries.append(ConcatPlan.JoinEntry(job: n, inpoint: nil, outpoint: nil, duration: output.seconds))
            if smart { output.note = smartIncompatibility() }
        } else {
            if smart {
                switch try smartStretches(keepingCopiesIn: sourceCopies) {
                case let .failure(fallback): output.note = fallback.reason
                case let .success(found):
                    smartPlan = found.plan
                    for (k, piece) in found.plan.pieces.enumerated() {
                        switch piece {
                        case let .copy(clip, _, frames):
                            let n = add(.copy, frames: frames, extension: "mp4", clip: clip)
                            entries.append(
                                ConcatPlan.JoinEntry(
                                    job: n, inpoint: found.inpoints[k], outpoint: found.outpoints[k],
                                    duration: Double(frames.count) / c.fps))
                        case let .render(frames):
                            // After a stretch copied up to a keyframe, the piece starts on that keyframe.
                            var keyframeClip: Int?
                            if k > 0, case let .copy(clip, sourceFrames, _) = found.plan.pieces[k - 1],
                                sourceFrames.upperBound < found.counts[clip]
                            {
                                keyframeClip = clip
                            }
                            for (i, part) in parts(frames).enumerated() {
                                let n = add(.render, frames: part, extension: "mp4", keyframeClip: i == 0 ? keyframeClip : nil)
                                entries.append(
                                    ConcatPlan.JoinEntry(job: n, inpoint: nil, outpoint: nil, duration: Double(part.count) / c.fps))
                            }
                        }
                    }
                }
                timings.smartPreparation = clock.lap()
            }
            if smartPlan == nil {
                for stretch in segmentStretches() {
                    for part in parts(stretch) {
                        let n = add(.segment, frames: part, extension: pieceExtension)
                        entries.append(ConcatPlan.JoinEntry(job: n, inpoint: nil, outpoint: nil, duration: Double(part.count) / c.fps))
                    }
                }
            }
        }
        guard jobs.count <= ConcatPlan.maximumJobCount else {
            throw PlanError("\(jobs.count) jobs are more than the limit of \(ConcatPlan.maximumJobCount); make each job longer")
        }
        let inputs = try Self.inputFiles(of: c.spec).map { try ConcatPlan.fingerprint($0) }
        let plan = ConcatPlan(
            version: ConcatPlan.formatVersion, segue: SegueVersion.current, inputs: inputs, spec: c.spec, output: output,
            jobs: jobs, join: ConcatPlan.Join(method: format.isJoinable ? "concat" : "publish", video: entries, sound: sound))
        return PlannedRender(plan: plan, smartPlan: smartPlan)
    }

    /// Checks a job length.
    /// - Throws: `PlanError` unless it is a positive number of seconds.
    static func checkJobSeconds(_ jobSeconds: Double) throws(PlanError) {
        guard jobSeconds.isFinite, jobSeconds > 0 else {
            throw PlanError("a job's length must be a positive number of seconds, got \(MessageText.number(jobSeconds))")
        }
    }

    /// The output as a plan describes it (its note not yet known).
    func planOutput(smart: Bool, jobSeconds: Double) -> ConcatPlan.Output {
        let c = concatenation
        let layout = format.hasAudio ? audioLayout : nil
        return ConcatPlan.Output(
            path: ConcatPaths.absolute(output), container: format.rawValue, codec: settings.codec?.rawValue, preset: settings.preset,
            crf: settings.crf,
            audioBitrate: settings.audioBitrate, width: c.width, height: c.height, fps: c.fps, frames: c.frameCount,
            seconds: Double(c.frameCount) / c.fps, sampleRate: layout?.sampleRate, channels: layout?.channels, smart: smart, note: nil,
            jobSeconds: jobSeconds)
    }

    /// The sound job's piece, nil when the plan has none (no sound in the container, or a GIF or
    /// APNG made by one job). The sound is job 0, named before anything is probed: it depends
    /// on nothing planning finds, so a render in this process starts it at once.
    func soundPiece(pieceStem: String) -> String? {
        guard format.isJoinable, format.hasAudio else { return nil }
        return Self.pieceName(pieceStem, job: 0) + "." + format.fileExtension
    }

    /// A job's piece name without its extension: `STEM.job-0003`.
    static func pieceName(_ stem: String, job n: Int) -> String { stem + ".job-" + String(cFormat: "%04d", n) }

    /// The fewest frames of a segment piece (unless the whole output has fewer). A piece of one or
    /// two frames has no B-frames, so its timestamps start without the B-frame delay the next
    /// piece's start with: joined, their decoding timestamps went backwards, ffmpeg squeezed them,
    /// and the output was two frames short (a clip one frame longer than its transition).
    static let shortestPiece = 8

    /// The output frames split at every cut (the first and last frame of each transition, and
    /// each hard cut), where each stretch keeps `shortestPiece` frames: a cut closer than that to
    /// the one before it, or to the end, is left out (its frames join the stretch beside them).
    func segmentStretches() -> [Range<Int>] {
        let c = concatenation
        var cuts: Set<Int> = []
        for k in c.cuts.indices {
            let span = c.timeline.span(ofCut: k)
            for t in [span.start, span.end] { cuts.insert(CompositionTimeline.firstFrame(atOrAfter: t, fps: c.fps)) }
        }
        var bounds = [0]
        for frame in cuts.sorted()
        where frame - bounds[bounds.count - 1] >= Self.shortestPiece && c.frameCount - frame >= Self.shortestPiece {
            bounds.append(frame)
        }
        bounds.append(c.frameCount)
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }

    /// The files the edit reads: clips, soundtrack, effect files (each once, in order).
    static func inputFiles(of spec: ConcatSpec) -> [String] {
        // (The clips and the soundtrack were probed, so they exist; an effect name that is not a file
        // is a built-in.)
        var files: [String] = [], seen: Set<String> = []
        for input in Concatenation.inputFiles(of: spec) where FileIO.exists(input.path) && seen.insert(input.path).inserted {
            files.append(input.path)
        }
        return files
    }

    /// The container a segment of `codec` is written in.
    static func pieceFormat(for codec: VideoCodec) -> VideoFormat {
        switch codec {
        case .vp9: .webm
        case .prores: .mov
        default: .mp4
        }
    }

    // MARK: - Smart stretches

    /// What smart planning found: the plan and, per piece, where a copied stretch starts and ends
    /// in its remuxed source.
    struct SmartStretches {
        let plan: SmartPlan
        let inpoints: [Double?]
        let outpoints: [Double?]
        /// Frames in each source.
        let counts: [Int]
    }

    /// The stretches a smart render copies, or why it cannot copy any. Each clip's video is
    /// remuxed to be indexed, in a scratch directory removed afterwards, or in `keep` (kept there
    /// as `source-K.mp4`).
    func smartStretches(keepingCopiesIn keep: String? = nil) throws -> Result<SmartStretches, SmartFallback> {
        if let reason = smartIncompatibility() { return .failure(SmartFallback(reason)) }
        let c = concatenation
        let directory =
            try keep
            ?? MediaError.converting { () throws(SystemError) in
                try FileIO.makeScratchDirectory(prefix: "segue-smart", cancellation: cancellation)
            }
        defer { if keep == nil { FileIO.removeScratchDirectory(directory, cancellation: cancellation) } }
        // Each clip's video alone and its packets (each clip's ffmpeg and ffprobe at once).
        let prepared = concurrentMap(c.clips.indices) { k -> Result<VideoPackets, Error> in
            Result {
                let copy = Self.sourceCopy(k, in: directory)
                try remuxVideo(of: k, to: copy, probed: false)  // probed next, packet by packet
                return try MediaProbe.videoPackets(path: copy, cancellation: cancellation)
            }
        }
        var keyframes: [[Int]] = [], counts: [Int] = [], packets: [VideoPackets] = []
        var openGOPs: String?  // the first clip with keyframes that are not clean cut points
        for (k, clip) in c.clips.enumerated() {
            let list = try prepared[k].get()
            let frames = list.packets.compactMap { $0.pts }.sorted()
            guard let first = frames.first else { throw MediaError.invalidVideo(path: clip.path, reason: "it has no video frames") }
            let indices = frames.map { list.seconds($0 - first) * c.fps }
            if let bad = indices.enumerated().first(where: { abs($0.element - Double($0.offset)) > 0.01 }) {
                return .failure(
                    SmartFallback("\(clip.name) does not have one frame every 1/\(MessageText.number(c.fps)) s (frame \(bad.offset + 1))"))
            }
            packets.append(list)
            let clean = list.cleanH264Keyframes(inFile: Self.sourceCopy(k, in: directory))
            if openGOPs == nil, clean.count < list.packets.count(where: \.isKeyframe) { openGOPs = clip.name }
            keyframes.append(clean.compactMap { list.packets[$0].pts }.map { Int((list.seconds($0 - first) * c.fps).rounded()) }.sorted())
            counts.append(frames.count)
        }
        let plan: SmartPlan
        do {
            plan = try SmartPlan(
                timeline: c.timeline, fps: c.fps, inPoints: c.clips.map(\.start), keyframes: keyframes, sourceFrameCounts: counts)
        } catch {
            return .failure(SmartFallback(error.message))
        }
        if plan.copiedFrames == 0, let clip = openGOPs {
            return .failure(
                SmartFallback(
                    "\(clip) has open GOPs (keyframes that are not IDR pictures), so no stretch can be copied without losing frames"))
        }
        var inpoints: [Double?] = [], outpoints: [Double?] = []
        for piece in plan.pieces {
            guard case let .copy(k, sourceFrames, _) = piece else { inpoints.append(nil); outpoints.append(nil); continue }
            let p = packets[k]
            let first = p.packets.compactMap { $0.pts }.min() ?? 0
            func keyframe(_ index: Int) -> VideoPackets.Packet? {
                p.packets.first { $0.isKeyframe && $0.pts.map { Int((p.seconds($0 - first) * c.fps).rounded()) } == index }
            }
            inpoints.append(p.seconds(keyframe(sourceFrames.lowerBound)?.pts ?? first))
            if sourceFrames.upperBound < counts[k], let next = keyframe(sourceFrames.upperBound), let dts = next.dts ?? next.pts {
                outpoints.append(p.seconds(dts) - 0.5 / c.fps)
            } else {
                outpoints.append(nil)
            }
        }
        return .success(SmartStretches(plan: plan, inpoints: inpoints, outpoints: outpoints, counts: counts))
    }

    /// Clip `k`'s video stream alone (a copy job's piece, and what smart planning probes): the
    /// same bytes wherever it is made. `probed`: see `VideoEncoder.finish`.
    func remuxVideo(of k: Int, to path: String, probed: Bool) throws {
        let clip = concatenation.clips[k]
        let remux = try VideoEncoder(
            path: path, width: concatenation.width, height: concatenation.height, fps: concatenation.fps, format: .mp4,
            settings: VideoSettings(deterministic: true),
            input: .copy(inputArguments: ["-i", FFmpeg.fileArgument(clip.path)]), cancellation: cancellation)
        try remux.finish(probed: probed)
    }

    /// Where smart planning writes clip `k`'s remuxed video in `directory`.
    static func sourceCopy(_ k: Int, in directory: String) -> String { directory + "/source-\(k).mp4" }
}

/// Why a smart render copies nothing.
struct SmartFallback: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

extension VideoFormat {
    /// Whether pieces of video in this container can be joined by stream copy (not GIF or APNG).
    var isJoinable: Bool { self != .gif && self != .apng }
}
