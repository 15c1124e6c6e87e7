// Media for the concatenation tests, made by ffmpeg's lavfi sources (solid colours, moving boxes,
// sine tones), and the measurements the tests make on the outputs: decoded RGBA frames, decoded
// samples, stream lengths, and tone levels by the Goertzel algorithm.
import Foundation
import SegueMedia
import SegueSystem
import SegueTools

/// Runs ffmpeg quietly; throws with its stderr on failure.
@discardableResult
public func ffmpeg(_ arguments: [String]) throws -> Data {
    let r = try runTool("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments)
    guard r.status == 0 else { throw SetupFailure("ffmpeg \(arguments.joined(separator: " ")) failed: \(r.stderr)") }
    return r.stdout
}

/// A clip of `seconds` at `fps`: a solid colour, with a 12×32 box of `box` colour moving right by
/// 80 pixels a second (wrapping every 52 pixels; overlay rounds x to even) when given, and a sine tone of `tone` Hz (amplitude 1/8) at
/// `sampleRate`/`channels`, or no sound.
/// `bt709`: converted with the HD matrix and tagged so, as cameras and phones tag HD video.
public func makeClip(
    _ path: String, color: String, width: Int = 64, height: Int = 48, fps: Int = 25, seconds: Double = 2,
    tone: Double? = nil, sampleRate: Int = 48_000, channels: Int = 2, box: String? = nil, bt709: Bool = false
) throws {
    var video = "color=c=\(color):s=\(width)x\(height):r=\(fps):d=\(seconds)"
    if let box {
        video += "[bg];color=c=\(box):s=12x32:r=\(fps):d=\(seconds)[box];[bg][box]overlay=x='mod(t*80\\,52)':y=8[out0]"
    }
    var arguments = ["-f", "lavfi", "-i", video]
    if let tone { arguments += ["-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=\(sampleRate):duration=\(seconds)"] }
    arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "5"]
    if bt709 {
        arguments += [
            "-vf", "scale=out_color_matrix=bt709:out_range=tv", "-colorspace", "bt709", "-color_primaries", "bt709",
            "-color_trc", "bt709", "-color_range", "tv",
        ]
    }
    if tone != nil { arguments += ["-c:a", "aac", "-ac", String(channels)] }
    try ffmpeg(arguments + [path])
}

/// Every frame of a video as RGBA8, at its display size.
public func decodeFrames(_ path: String) throws -> (width: Int, height: Int, frames: [[UInt8]]) {
    let probe = try runTool(
        "ffprobe",
        [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height:stream_side_data=rotation",
            "-of", "default=noprint_wrappers=1", path,
        ])
    var fields: [String: Int] = [:]
    for line in String(decoding: probe.stdout, as: UTF8.self).split(separator: "\n") {
        let parts = line.split(separator: "=")
        if parts.count == 2, let v = Int(parts[1]) { fields[String(parts[0])] = v }
    }
    var (w, h) = (fields["width"] ?? 0, fields["height"] ?? 0)
    if let r = fields["rotation"], abs(r) % 180 == 90 { (w, h) = (h, w) }
    let data = try ffmpeg(["-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"])
    let size = w * h * 4
    guard size > 0, data.count % size == 0 else { throw SetupFailure("\(data.count) bytes are not whole \(w)x\(h) frames") }
    let bytes = [UInt8](data)
    return (w, h, stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<($0 + size)]) })
}

/// The pixel at (x, y) of an RGBA8 frame `width` wide.
public func pixel(_ frame: [UInt8], _ width: Int, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
    let i = (y * width + x) * 4
    return (Int(frame[i]), Int(frame[i + 1]), Int(frame[i + 2]))
}

/// The mean colour of an RGBA8 frame.
public func meanColor(_ frame: [UInt8]) -> (r: Double, g: Double, b: Double) {
    var sum = (0.0, 0.0, 0.0)
    for i in stride(from: 0, to: frame.count, by: 4) {
        sum.0 += Double(frame[i]); sum.1 += Double(frame[i + 1]); sum.2 += Double(frame[i + 2])
    }
    let n = Double(frame.count / 4)
    return (sum.0 / n, sum.1 / n, sum.2 / n)
}

/// Whether a colour is within `tolerance` of (r, g, b) in every channel.
public func near(_ c: (r: Double, g: Double, b: Double), _ r: Double, _ g: Double, _ b: Double, _ tolerance: Double = 12) -> Bool {
    abs(c.r - r) <= tolerance && abs(c.g - g) <= tolerance && abs(c.b - b) <= tolerance
}

/// The left channel of a file's sound at 48 kHz.
public func decodeLeftChannel(_ path: String) throws -> [Float] {
    let data = try ffmpeg(["-i", path, "-vn", "-af", "pan=mono|c0=c0", "-ar", "48000", "-f", "f32le", "pipe:1"])
    return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// The amplitude of the `frequency` component of `x` at `rate` (Goertzel): 2|X(f)|/N, so a sine
/// of amplitude A gives A when the window holds whole periods.
public func toneAmplitude(_ x: ArraySlice<Float>, frequency: Double, rate: Double = 48_000) -> Double {
    let w = 2 * Double.pi * frequency / rate
    let coefficient = 2 * cos(w)
    var s1 = 0.0, s2 = 0.0
    for v in x {
        let s = Double(v) + coefficient * s1 - s2
        s2 = s1
        s1 = s
    }
    let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
    return 2 * power.squareRoot() / Double(x.count)
}

/// The samples of `x` from `start` to `end` seconds at 48 kHz.
public func window(_ x: [Float], _ start: Double, _ end: Double) -> ArraySlice<Float> {
    x[Int(start * 48_000)..<min(x.count, Int(end * 48_000))]
}

/// Root mean square of samples.
public func rms(_ x: ArraySlice<Float>) -> Double {
    (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(x.count, 1))).squareRoot()
}

/// Video and audio stream durations and the exact number of video frames, from ffprobe.
public func streamLengths(_ path: String) throws -> (video: Double, audio: Double?, frames: Int) {
    let r = try runTool(
        "ffprobe",
        [
            "-v", "error", "-count_frames", "-show_entries", "stream=codec_type,duration,nb_read_frames",
            "-of", "compact=p=0:nk=0", path,
        ])
    var video = 0.0, audio: Double?, frames = 0
    for line in String(decoding: r.stdout, as: UTF8.self).split(separator: "\n") {
        var f: [String: String] = [:]
        for kv in line.split(separator: "|") {
            let p = kv.split(separator: "=", maxSplits: 1)
            if p.count == 2 { f[String(p[0])] = String(p[1]) }
        }
        if f["codec_type"] == "video" { video = Double(f["duration"] ?? "") ?? 0; frames = Int(f["nb_read_frames"] ?? "") ?? 0 }
        if f["codec_type"] == "audio" { audio = Double(f["duration"] ?? "") }
    }
    return (video, audio, frames)
}

/// `jpeg` with an APP1 Exif segment after SOI holding IFD0 with two entries, another tag first and
/// then Orientation = `value`, in a big- or little-endian TIFF structure.
public func withExifOrientation(_ value: UInt16, _ jpeg: [UInt8], littleEndian: Bool = false) -> [UInt8] {
    func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
    func u32(_ v: UInt32) -> [UInt8] {
        littleEndian
            ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
            : [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    var tiff: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
    tiff += u16(42) + u32(8)
    // A first entry of another tag, then Orientation (SHORT, count 1, value in the first 2 bytes).
    tiff += u16(2) + u16(0x010F) + u16(2) + u32(4) + u32(0) + u16(0x0112) + u16(3) + u32(1) + u16(value) + [0, 0] + u32(0)
    let body: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
    let length = body.count + 2
    return Array(jpeg.prefix(2)) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body + Array(jpeg.dropFirst(2))
}
