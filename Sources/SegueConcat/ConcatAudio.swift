import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// The sound side of a concatenation, run on its own thread: each clip's first audio stream
// decoded by ffmpeg at the output's rate and layout from the clip's in point, mixed block by
// block with the AudioMixer's gains (alone, crossfading over exactly each transition's samples,
// silent for stills and clips without sound), the soundtrack added under everything and faded
// out at the end, and the blocks written to the encoder's sound pipe.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Mixes a concatenation's sound into a writer. Used from one thread.
final class ConcatAudio: Sendable {
    /// Sample frames per block written.
    static let blockFrames = 4800

    private let concatenation: Concatenation
    private let layout: AudioLayout
    /// Kills the decoders when cancelled.
    private let cancellation: Cancellation?
    private let mixer: AudioMixer
    private let fade: SoundtrackFade?

    init(_ concatenation: Concatenation, layout: AudioLayout, cancellation: Cancellation? = nil) {
        self.concatenation = concatenation
        self.layout = layout
        self.cancellation = cancellation
        let timeline = AudioTimeline(concatenation.timeline, sampleRate: layout.sampleRate, curve: concatenation.audioCurve)
        mixer = AudioMixer(timeline: timeline, channels: layout.channels)
        fade = concatenation.soundtrack.map { _ in
            SoundtrackFade(
                sampleCount: timeline.sampleCount, sampleRate: layout.sampleRate,
                fadeSeconds: min(2, concatenation.timeline.duration / 2), curve: concatenation.audioCurve)
        }
    }

    /// Samples in the output.
    var sampleCount: Int { mixer.timeline.sampleCount }

    /// Mixes the whole output into `writer` and closes it.
    /// - Throws: `MediaError` from a decoder or the writer.
    func run(into writer: AudioWriter) throws {
        let channels = layout.channels
        var output = [Float](repeating: 0, count: Self.blockFrames * channels)
        var scratch = [Float](repeating: 0, count: Self.blockFrames * channels)
        var decoders: [Int: AudioDecoder] = [:]
        var soundtrack = try concatenation.soundtrack.map { info in
            try AudioDecoder(
                path: info.path, stream: info.audio!, sampleRate: layout.sampleRate, channels: channels, cancellation: cancellation)
        }
        defer {
            for decoder in decoders.values { decoder.close() }
            soundtrack?.close()
        }
        var next = 0  // the first clip not yet finished
        var n0 = 0
        while n0 < sampleCount {
            let frames = min(Self.blockFrames, sampleCount - n0)
            let n1 = n0 + frames
            for i in 0..<(frames * channels) { output[i] = 0 }
            var k = next
            while k < concatenation.clips.count, mixer.samples(ofClip: k).lowerBound < n1 {
                let span = mixer.samples(ofClip: k)
                let from = max(n0, span.lowerBound), to = min(n1, span.upperBound)
                if span.upperBound <= n0 {
                    decoders.removeValue(forKey: k)?.close()
                    if k == next { next += 1 }
                    k += 1
                    continue
                }
                let clip = concatenation.clips[k]
                if clip.hasAudio, from < to {
                    if decoders[k] == nil {
                        decoders[k] = try AudioDecoder(
                            path: clip.path, stream: clip.media.audio!, start: clip.start,
                            sampleRate: layout.sampleRate, channels: channels, cancellation: cancellation)
                    }
                    let count = (to - from) * channels
                    try scratch.withUnsafeMutableBufferPointer { buffer in
                        try Self.fill(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]), from: decoders[k]!)
                    }
                    scratch.withUnsafeBufferPointer { samples in
                        output.withUnsafeMutableBufferPointer { out in
                            mixer.add(
                                clip: k, UnsafeBufferPointer(rebasing: samples[0..<count]), at: from,
                                into: UnsafeMutableBufferPointer(rebasing: out[0..<(frames * channels)]), outputStart: n0)
                        }
                    }
                }
                if span.upperBound <= n1 {
                    decoders.removeValue(forKey: k)?.close()
                    if k == next { next += 1 }
                }
                k += 1
            }
            if let track = soundtrack, let fade {
                let count = frames * channels
                try scratch.withUnsafeMutableBufferPointer { buffer in
                    try Self.fill(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]), from: track)
                }
                for f in 0..<frames {
                    let g = Float(fade.gain(atSample: n0 + f))
                    for c in 0..<channels { output[f * channels + c] += g * scratch[f * channels + c] }
                }
                if n1 == sampleCount { track.close(); soundtrack = nil }
            }
            try output.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[0..<(frames * channels)])) }
            n0 = n1
        }
        try writer.close()
    }

    /// Fills `buffer` from `decoder`, with silence after the stream's end.
    private static func fill(_ buffer: UnsafeMutableBufferPointer<Float>, from decoder: AudioDecoder) throws {
        var filled = 0
        while filled < buffer.count {
            let got = try decoder.read(into: UnsafeMutableBufferPointer(rebasing: buffer[filled...])) * decoder.channels
            if got == 0 { break }
            filled += got
        }
        for i in filled..<buffer.count { buffer[i] = 0 }
    }
}
