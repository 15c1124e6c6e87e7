// Smart rendering's plan: which output frames are copied from a source as they are and which
// are rendered. Counted in frames, for sources of one constant frame rate equal to the output's.
//
// Clip k's frame j (0 ≤ j < n_k) is output frame s_k + j and source frame in_k + j. A frame is
// touched when a transition shows it: j < ⌈T_{k−1}·fps⌉ (the incoming transition covers local
// times [0, T_{k−1})) or j ≥ ⌈(D_k − T_k)·fps⌉ (the outgoing one covers [D_k − T_k, D_k)). The
// untouched source frames [a, b) are copied from the first keyframe at or after a to the last
// keyframe at or before b — or to b itself when b is the end of the source, which needs no
// keyframe after it. Everything else (each transition with the stretches from the keyframe
// before it to the keyframe after it, and whatever no keyframes bound) is rendered.

import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The output's frames split into stretches copied from a source and stretches rendered.
public struct SmartPlan: Sendable, Hashable {
    /// One stretch of output frames.
    public enum Piece: Sendable, Hashable {
        /// Output `frames` rendered (decoded, transitions drawn, encoded).
        case render(frames: Range<Int>)
        /// Output `frames` copied from clip `clip`'s source frames `sourceFrames` (same count),
        /// which start at a keyframe and end at a keyframe or the source's end.
        case copy(clip: Int, sourceFrames: Range<Int>, frames: Range<Int>)

        /// The output frames of the piece.
        public var frames: Range<Int> {
            switch self {
            case let .render(frames), let .copy(_, _, frames): frames
            }
        }
    }

    /// The pieces in output order, covering 0 ..< frameCount without gaps.
    public let pieces: [Piece]
    /// Output frames in all.
    public let frameCount: Int

    /// Output frames copied.
    public var copiedFrames: Int { pieces.reduce(0) { if case .copy = $1 { $0 + $1.frames.count } else { $0 } } }
    /// Output frames rendered.
    public var renderedFrames: Int { frameCount - copiedFrames }

    /// A plan.
    /// - Parameters:
    ///   - timeline: the composition (clip durations after trimming, transitions).
    ///   - fps: the output's and every source's frame rate.
    ///   - inPoints: each clip's in point in seconds from its source's first frame.
    ///   - keyframes: each source's keyframes as frame indices (from its first frame), sorted.
    ///   - sourceFrameCounts: frames in each source.
    /// - Throws: `CompositionError` when a clip's start, in point or length is not a whole
    ///   number of frames (the copied and rendered stretches could not join on the frame grid).
    public init(timeline: CompositionTimeline, fps: Double, inPoints: [Double], keyframes: [[Int]], sourceFrameCounts: [Int])
        throws(CompositionError)
    {
        let count = timeline.clipDurations.count
        precondition(inPoints.count == count && keyframes.count == count && sourceFrameCounts.count == count, "one entry per clip")
        func frames(_ seconds: Double, _ what: String) throws(CompositionError) -> Int {
            let x = seconds * fps
            guard abs(x - x.rounded()) < CompositionTimeline.frameTolerance else {
                throw CompositionError(
                    "\(what) (\(MessageText.seconds(seconds))) is not a whole number of frames at \(MessageText.number(fps)) fps")
            }
            return Int(x.rounded())
        }
        func ceilFrames(_ seconds: Double) -> Int { CompositionTimeline.firstFrame(atOrAfter: seconds, fps: fps) }
        frameCount = try frames(timeline.duration, "the output's length")
        var copies: [Piece] = []
        for k in 0..<count {
            let start = try frames(timeline.clipStarts[k], "clip \(k + 1)'s start")
            let first = try frames(inPoints[k], "clip \(k + 1)'s in point")
            let length = try frames(timeline.clipDurations[k], "clip \(k + 1)'s length")
            let incoming = k > 0 ? ceilFrames(timeline.cutDurations[k - 1]) : 0
            let outgoing = k + 1 < count ? ceilFrames(timeline.clipDurations[k] - timeline.cutDurations[k]) : length
            let a = first + incoming, b = first + min(outgoing, length)
            guard a < b else { continue }
            guard let from = keyframes[k].first(where: { $0 >= a }) else { continue }
            let to = b >= sourceFrameCounts[k] ? sourceFrameCounts[k] : (keyframes[k].last { $0 <= b } ?? from)
            guard from < to else { continue }
            copies.append(.copy(clip: k, sourceFrames: from..<to, frames: (start + from - first)..<(start + to - first)))
        }
        var pieces: [Piece] = []
        var cursor = 0
        for copy in copies {
            if copy.frames.lowerBound > cursor { pieces.append(.render(frames: cursor..<copy.frames.lowerBound)) }
            pieces.append(copy)
            cursor = copy.frames.upperBound
        }
        if cursor < frameCount { pieces.append(.render(frames: cursor..<frameCount)) }
        self.pieces = pieces
    }
}
