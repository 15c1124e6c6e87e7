import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// Smart rendering: when every input is H.264 with the same parameters, the untouched stretches of
// each clip are copied as they are and only the stretches around each transition — from the
// keyframe before it to the keyframe after it — are rendered and encoded, with the sources'
// profile, level, pixel format, B-frame delay and colour description. It is a plan with copy jobs
// (ConcatPlanner.swift), run and joined as every render is (ConcatJobs.swift).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        let planned = try renderPlanned(smart: true, progress: progress)
        return SmartReport(fallbackReason: planned.plan.output.note, plan: planned.smartPlan)
    }

    /// Why the inputs cannot be copied in part, nil when they can.
    public func smartIncompatibility() -> String? {
        let c = concatenation
        guard [.mp4, .mov, .mkv].contains(format) else { return "smart rendering writes .mp4, .mov or .mkv, not .\(format.rawValue)" }
        if let codec = settings.codec, codec != .h264 {
            return "smart rendering keeps the inputs' H.264; the codec \(codec.rawValue) needs a full render"
        }
        if let still = c.clips.first(where: \.isStill) { return "\(still.name) is a still image" }
        let first = c.clips[0], v = first.video
        guard v.codec == "h264" else { return "\(first.name) is \(v.codec); smart rendering copies H.264" }
        guard let profile = MatchedVideo(v).x264Profile else {
            return "\(first.name) uses the H.264 profile '\(v.profile)', which x264 cannot match"
        }
        // x264 encodes lossless only in High 4:4:4 Predictive: the pieces must keep the inputs'.
        if settings.crf == 0, profile != "high444" {
            return "a CRF of 0 (lossless) needs the H.264 profile High 4:4:4 Predictive; \(first.name) uses '\(v.profile)'"
        }
        guard v.rotation == 0, abs(v.pixelAspect - 1) < 1e-9 else { return "\(first.name) is rotated or has non-square pixels" }
        guard v.rateText == v.baseRateText, v.fps > 0 else { return "\(first.name) has a variable frame rate" }
        guard abs(v.startOffset) < 1e-6 else { return "\(first.name)'s picture does not start with the file" }
        guard c.width == v.width, c.height == v.height else {
            return "the output is \(c.width)x\(c.height), the inputs \(v.width)x\(v.height)"
        }
        guard abs(c.fps - v.fps) < 1e-9 else {
            // 29.97 and NTSC's 30000/1001 read alike to three decimals: then the inputs' rate exactly.
            let output = MessageText.number(c.fps), input = MessageText.number(v.fps)
            return "the output is \(output) fps, the inputs \(input == output ? v.rateText : input) fps"
        }
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
}
