// Mixing the clips' sounds into the output following an AudioTimeline: each clip at gain 1 while
// it plays alone, at the crossfade curve's outgoing or incoming gain during a transition, silent
// outside its span; and a soundtrack under everything, faded out over its last seconds.
//
// Gains are evaluated per output sample n with the same progress the picture has at n / rate,
// so the crossfade lies exactly over the transition's time span.

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

/// Adds clips' interleaved Float32 samples into output blocks with their timeline gains.
public struct AudioMixer: Sendable {
    /// The timeline mixed.
    public let timeline: AudioTimeline
    /// Interleaved channels.
    public let channels: Int
    /// Per clip, the stretches it plays in and its role there.
    private let roles: [[(samples: Range<Int>, role: Role, segment: AudioTimeline.Segment)]]

    private enum Role { case alone, outgoing, incoming }

    /// A mixer of `channels` interleaved channels.
    public init(timeline: AudioTimeline, channels: Int) {
        precondition(channels > 0, "channels must be positive")
        self.timeline = timeline
        self.channels = channels
        var roles = Array(
            repeating: [(samples: Range<Int>, role: Role, segment: AudioTimeline.Segment)](), count: timeline.clipStartSamples.count)
        for segment in timeline.segments {
            if let incoming = segment.incoming {
                roles[segment.clip].append((segment.samples, .outgoing, segment))
                roles[incoming].append((segment.samples, .incoming, segment))
            } else {
                roles[segment.clip].append((segment.samples, .alone, segment))
            }
        }
        self.roles = roles
    }

    /// The output samples clip `k` is heard in.
    public func samples(ofClip k: Int) -> Range<Int> {
        timeline.clipStartSamples[k]..<min(timeline.clipEndSamples[k], timeline.sampleCount)
    }

    /// Clip `k`'s gain at output sample `n`: 1 alone, the curve's gain in a crossfade, 0 outside.
    public func gain(ofClip k: Int, atSample n: Int) -> Double {
        for entry in roles[k] where entry.samples.contains(n) {
            switch entry.role {
            case .alone: return 1
            case .outgoing: return timeline.gains(atSample: n, in: entry.segment).outgoing
            case .incoming: return timeline.gains(atSample: n, in: entry.segment).incoming
            }
        }
        return 0
    }

    /// Adds clip `k`'s samples into `output`.
    /// - Parameters:
    ///   - samples: interleaved frames of the clip's own sound heard from output sample `at` on.
    ///   - output: interleaved frames of the output starting at output sample `outputStart`.
    /// Frames falling outside `output` are ignored.
    public func add(
        clip k: Int, _ samples: UnsafeBufferPointer<Float>, at start: Int,
        into output: UnsafeMutableBufferPointer<Float>, outputStart: Int
    ) {
        precondition(samples.count % channels == 0 && output.count % channels == 0, "whole sample frames")
        let frames = samples.count / channels, outFrames = output.count / channels
        let from = max(start, outputStart), to = min(start + frames, outputStart + outFrames)
        guard from < to else { return }
        for n in from..<to {
            let g = Float(gain(ofClip: k, atSample: n))
            guard g != 0 else { continue }
            let src = (n - start) * channels, dst = (n - outputStart) * channels
            for c in 0..<channels { output[dst + c] += g * samples[src + c] }
        }
    }
}

/// The gain of a soundtrack laid under a whole edit: 1, then faded out with a curve's outgoing
/// gain over the last `fadeSamples` samples, 0 after the end.
public struct SoundtrackFade: Sendable, Hashable {
    /// Samples in the edit.
    public let sampleCount: Int
    /// Samples the fade lasts (at most `sampleCount`).
    public let fadeSamples: Int
    /// The fade's shape.
    public let curve: CrossfadeCurve

    /// A fade over the last `fadeSeconds` (clamped to the edit) at `sampleRate`.
    public init(sampleCount: Int, sampleRate: Int, fadeSeconds: Double = 2, curve: CrossfadeCurve = .equalPower) {
        precondition(sampleCount >= 0 && sampleRate > 0 && fadeSeconds.isFinite && fadeSeconds >= 0)
        self.sampleCount = sampleCount
        fadeSamples = min(sampleCount, Int((fadeSeconds * Double(sampleRate)).rounded()))
        self.curve = curve
    }

    /// The gain at output sample `n`.
    public func gain(atSample n: Int) -> Double {
        if n >= sampleCount || n < 0 { return 0 }
        let fadeStart = sampleCount - fadeSamples
        if n < fadeStart { return 1 }
        return curve.gains(at: Double(n - fadeStart) / Double(fadeSamples)).outgoing
    }
}
