// Smart rendering: when every input is H.264 with the same parameters, the untouched stretches of
// each clip are copied as they are and only the stretches around each transition — from the
// keyframe before it to the keyframe after it — are rendered and encoded, with the sources'
// profile, level, pixel format, B-frame delay and colour description. The pieces are joined by
// ffmpeg's concat demuxer and muxed with the whole mixed sound:
//
//   1. each source's video stream is remuxed alone (`-map 0:v:0 -c copy`) into a private
//      temporary directory, so the concat list holds only video streams and an out point cannot
//      be reached early through another stream's packets;
//   2. its packets give the keyframes (ffprobe, no decoding), of which only IDR pictures without
//      leading pictures are cut points (`VideoPackets.cleanH264Keyframes`: a copy cut at an open
//      GOP's keyframe loses frames); `SmartPlan` decides the pieces;
//   3. each rendered piece is a video-only MP4 made by the normal renderer over its output frames
//      (as 4:2:0 when the sources are BT.709 4:2:0, so untouched inputs meet no colour conversion);
//      meanwhile the whole sound is mixed and encoded once into a sound-only file;
//   4. an ffconcat list names the copied stretches (`inpoint` at the keyframe's timestamp,
//      `outpoint` just before the next keyframe's decoding timestamp, `duration` exact) and the
//      rendered pieces; ffmpeg reads it with `-c:v copy` (the demuxer's `auto_convert` puts each
//      piece's own SPS/PPS in band before its keyframes) beside the sound file, copying both.
//
// The sound is always mixed and encoded whole: it is cheap, and a crossfade changes it anyway.
// Copied frames decode bit-identically to the source's. When the inputs differ (or are stills,
// rotated, of variable frame rate, or the output asks for another size, rate or codec) the
// reason is reported and everything is rendered; so it is when open GOPs leave nothing to copy.
import Foundation
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueVulkan

/// What a smart render did.
public struct SmartReport: Sendable {
    /// Why everything was rendered instead, nil when the plan was followed.
    public let fallbackReason: String?
    /// The plan followed (nil after a fallback).
    public let plan: SmartPlan?
}

extension ConcatRenderer {
    /// Renders like `render`, copying the stretches no transition touches when the inputs share
    /// their codec parameters; otherwise says why in the report and renders everything.
    /// `progress` counts the frames rendered.
    /// - Throws: what `render` throws; the output is then not created.
    public func renderSmart(progress: (ConcatProgress) -> Void = { _ in }) throws -> SmartReport {
        if let reason = smartIncompatibility() {
            try render(progress: progress)
            return SmartReport(fallbackReason: reason, plan: nil)
        }
        let c = concatenation
        timings = ConcatTimings()
        var clock = Stopwatch()
        let directory = try makeTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            cancellation?.unregister(directory)
        }
        // 1–2: video-only copies and their keyframes (each clip's ffmpeg and ffprobe at once).
        let prepared = concurrentMap(c.clips.indices) { k -> Result<(String, VideoPackets), Error> in
            Result {
                let clip = c.clips[k]
                let copy = directory + "/source-\(k).mp4"
                try FFmpeg.run(["-i", FFmpeg.fileArgument(clip.path), "-map", "0:\(clip.video.index)", "-c", "copy", "-an", "-sn", "-dn",
                                "-f", "mp4", FFmpeg.fileArgument(copy)], for: clip.path, cancellation: cancellation)
                return (copy, try MediaProbe.videoPackets(path: copy, cancellation: cancellation))
            }
        }
        var copies: [String] = [], keyframes: [[Int]] = [], counts: [Int] = [], packets: [VideoPackets] = []
        var openGOPs: String?  // the first clip with keyframes that are not clean cut points
        for (k, clip) in c.clips.enumerated() {
            let (copy, list) = try prepared[k].get()
            let frames = list.packets.compactMap { $0.pts }.sorted()
            guard let first = frames.first else { throw MediaError.invalidVideo(path: clip.path, reason: "it has no video frames") }
            let indices = frames.map { list.seconds($0 - first) * c.fps }
            if let bad = indices.enumerated().first(where: { abs($0.element - Double($0.offset)) > 0.01 }) {
                let reason = "\(clip.name) does not have one frame every 1/\(FFmpegText.number(c.fps)) s (frame \(bad.offset + 1))"
                try render(progress: progress)
                return SmartReport(fallbackReason: reason, plan: nil)
            }
            copies.append(copy)
            packets.append(list)
            let clean = list.cleanH264Keyframes(inFile: copy)
            if openGOPs == nil, clean.count < list.packets.count(where: \.isKeyframe) { openGOPs = clip.name }
            keyframes.append(clean.compactMap { list.packets[$0].pts }.map { Int((list.seconds($0 - first) * c.fps).rounded()) }.sorted())
            counts.append(frames.count)
        }
        timings.smartPreparation = clock.lap()
        let plan: SmartPlan
        do {
            plan = try SmartPlan(timeline: c.timeline, fps: c.fps, inPoints: c.clips.map(\.start), keyframes: keyframes, sourceFrameCounts: counts)
        } catch {
            try render(progress: progress)
            return SmartReport(fallbackReason: error.message, plan: nil)
        }
        if plan.copiedFrames == 0, let clip = openGOPs {
            let reason = "\(clip) has open GOPs (keyframes that are not IDR pictures), so no stretch can be copied without losing frames"
            try render(progress: progress)
            return SmartReport(fallbackReason: reason, plan: nil)
        }
        // 3: the rendered pieces, encoded to join the copied ones.
        var matched = settings
        matched.matching = MatchedVideo(c.clips[0].video)
        var list = "ffconcat version 1.0\n"
        var rendered: [RenderedPiece] = []
        for (n, piece) in plan.pieces.enumerated() {
            switch piece {
            case let .render(frames):
                let path = directory + "/piece-\(n).mp4"
                // After a stretch copied up to a keyframe, the piece starts on that keyframe.
                var keyframeClip: Int?
                if n > 0, case let .copy(k, sourceFrames, _) = plan.pieces[n - 1], sourceFrames.upperBound < counts[k] { keyframeClip = k }
                rendered.append(RenderedPiece(path: path, frames: frames, keyframeClip: keyframeClip))
                list += FFmpeg.concatListEntry(path) + "\nduration \(FFmpegText.seconds(Double(frames.count) / c.fps))\n"
            case let .copy(k, sourceFrames, _):
                let p = packets[k]
                let first = p.packets.compactMap { $0.pts }.min()!
                func keyframe(_ index: Int) -> VideoPackets.Packet? {
                    p.packets.first { $0.isKeyframe && $0.pts.map { Int((p.seconds($0 - first) * c.fps).rounded()) } == index }
                }
                list += FFmpeg.concatListEntry(copies[k]) + "\n"
                // At the keyframe's own timestamp (rounded up to the µs, so the seek finds it).
                let start = keyframe(sourceFrames.lowerBound)?.pts ?? first
                list += "inpoint \(FFmpegText.secondsRoundedUp(p.seconds(start)))\n"
                if sourceFrames.upperBound < counts[k], let next = keyframe(sourceFrames.upperBound), let dts = next.dts ?? next.pts {
                    // Just before the next keyframe's decoding timestamp: every packet of the stretch
                    // decodes before it (closed GOPs), and no packet of the next one is taken.
                    list += "outpoint \(FFmpegText.seconds(p.seconds(dts) - 0.5 / c.fps))\n"
                }
                list += "duration \(FFmpegText.seconds(Double(sourceFrames.count) / c.fps))\n"
            }
        }
        // The sound, mixed and encoded on its own thread while the pieces around the transitions
        // are rendered at once (each with its own decoders and encoder).
        let layout = pictureLayout(for: matched)
        let soundPath = directory + "/sound.mp4"
        let sound = try VideoEncoder(path: soundPath, width: c.width, height: c.height, fps: c.fps, format: .mp4, settings: settings,
                                     input: .soundOnly, audio: audioLayout, cancellation: cancellation)
        try withSound(sound) {
            try renderPieces(rendered, settings: matched, layout: layout, total: plan.renderedFrames, progress: progress)
        }
        let listPath = directory + "/pieces.ffconcat"
        try list.write(toFile: listPath, atomically: true, encoding: .utf8)
        // 4: the pieces joined, with the sound, both copied.
        _ = clock.lap()
        let encoder = try VideoEncoder(path: output, width: c.width, height: c.height, fps: c.fps, format: format, settings: settings,
                                       input: .copy(inputArguments: ["-f", "concat", "-safe", "0", "-i", FFmpeg.fileArgument(listPath)]),
                                       copiedSound: soundPath, duration: Double(c.frameCount) / c.fps, cancellation: cancellation)
        try encoder.finish()
        timings.smartJoin = clock.lap()
        return SmartReport(fallbackReason: nil, plan: plan)
    }

    /// Renders each of `pieces` (output frames into a video-only MP4 at its path) at once,
    /// adding their timings to `timings`.
    /// A stretch of output frames rendered into its own file.
    private struct RenderedPiece {
        let path: String
        let frames: Range<Int>
        /// The clip whose frame at the piece's start is a keyframe (nil at a source's start).
        let keyframeClip: Int?
    }

    private func renderPieces(_ pieces: [RenderedPiece], settings: VideoSettings, layout: RawPixelFormat,
                              total frameCount: Int, progress: (ConcatProgress) -> Void) throws {
        let c = concatenation
        let done = Locked(0)
        let outcomes = concurrentMap(pieces.indices) { n -> Result<ConcatTimings, Error> in
            Result {
                let piece = pieces[n]
                let encoder = try VideoEncoder(path: piece.path, width: c.width, height: c.height, fps: c.fps, format: .mp4,
                                               settings: settings, input: layout == .yuv420p ? .yuv420 : .opaqueRGBA, cancellation: cancellation)
                do {
                    var previous = 0
                    let timings = try renderPicture(into: encoder, frames: piece.frames, layout: layout, keyframeClip: piece.keyframeClip) { count in
                        done.withLock { total in  // one report at a time, under the lock
                            total += count - previous
                            progress(ConcatProgress(framesDone: total, frameCount: frameCount))
                        }
                        previous = count
                    }
                    try encoder.finish()
                    return timings
                } catch {
                    encoder.cancel()
                    throw error
                }
            }
        }
        for outcome in outcomes { timings.add(try outcome.get()) }
    }

    /// Why the inputs cannot be copied in part, nil when they can.
    public func smartIncompatibility() -> String? {
        let c = concatenation
        guard [.mp4, .mov, .mkv].contains(format) else { return "smart rendering writes .mp4, .mov or .mkv, not .\(format.rawValue)" }
        if let codec = settings.codec, codec != .h264 { return "smart rendering keeps the inputs' H.264; the codec \(codec.rawValue) needs a full render" }
        if let still = c.clips.first(where: \.isStill) { return "\(still.name) is a still image" }
        let first = c.clips[0], v = first.video
        guard v.codec == "h264" else { return "\(first.name) is \(v.codec); smart rendering copies H.264" }
        guard MatchedVideo(v).x264Profile != nil else { return "\(first.name) uses the H.264 profile '\(v.profile)', which x264 cannot match" }
        guard v.rotation == 0, abs(v.pixelAspect - 1) < 1e-9 else { return "\(first.name) is rotated or has non-square pixels" }
        guard v.rateText == v.baseRateText, v.fps > 0 else { return "\(first.name) has a variable frame rate" }
        guard abs(v.startOffset) < 1e-6 else { return "\(first.name)'s picture does not start with the file" }
        guard c.width == v.width, c.height == v.height else { return "the output is \(c.width)x\(c.height), the inputs \(v.width)x\(v.height)" }
        guard abs(c.fps - v.fps) < 1e-9 else { return "the output is \(FFmpegText.number(c.fps)) fps, the inputs \(FFmpegText.number(v.fps)) fps" }
        for clip in c.clips.dropFirst() {
            let w = clip.video
            let fields: [(String, String, String)] = [
                ("codec", w.codec, v.codec), ("profile", w.profile, v.profile), ("level", String(w.level), String(v.level)),
                ("pixel format", w.pixelFormat, v.pixelFormat), ("size", "\(w.width)x\(w.height)", "\(v.width)x\(v.height)"),
                ("frame rate", w.rateText, v.rateText), ("time base", w.timeBase, v.timeBase),
                ("B-frame delay", String(w.reorderDelay), String(v.reorderDelay)),
                ("colour space", w.colorSpace, v.colorSpace), ("colour range", w.colorRange, v.colorRange),
                ("rotation", String(w.rotation), String(v.rotation)), ("first frame", String(w.startOffset), String(v.startOffset)),
            ]
            if let (what, a, b) = fields.first(where: { $0.1 != $0.2 }) {
                return "\(clip.name) differs from \(first.name) in its \(what) (\(a), not \(b))"
            }
        }
        return nil
    }

    private func makeTemporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "/segue-smart-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        cancellation?.register(path)
        return path
    }
}

/// Numbers as ffmpeg's concat scripts and messages take them.
enum FFmpegText {
    /// Seconds with microsecond precision ("8.966667").
    static func seconds(_ value: Double) -> String { String(format: "%.6f", value) }

    /// Seconds rounded up to the microsecond, so a seek lands on or after the exact time.
    static func secondsRoundedUp(_ value: Double) -> String { String(format: "%.6f", (value * 1e6 - 1e-3).rounded(.up) / 1e6) }

    /// "30" or "29.97".
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(format: "%.3f", value)
    }
}
