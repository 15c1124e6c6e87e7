import Foundation
import SegueCore
import SegueSystem
import SegueTestSupport

@testable import SegueMedia

/// CRC-32 (ISO 3309, as PNG chunks use), bit by bit.
func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// A PNG chunk: length, type, data, CRC.
func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typeBytes = Array(type.utf8)
    return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
}

func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
}

/// A syntactically valid PNG start whose IHDR declares `width`x`height` RGBA8, followed by a
/// small IDAT (so libpng's header read stops there) and IEND. The pixel data is not valid.
func craftedPNG(width: UInt32, height: UInt32) -> [UInt8] {
    let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
    return ImageFormat.pngSignature + pngChunk("IHDR", ihdr)
        + pngChunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + pngChunk("IEND", [])
}

/// A straight-alpha test pattern: every pixel different, alphas across the range.
func straightPattern(width: Int, height: Int, alpha: Bool) -> [UInt8] {
    var bytes = [UInt8]()
    for y in 0..<height {
        for x in 0..<width {
            bytes += [
                UInt8((x * 37 + y * 11) & 0xFF), UInt8((x * 5 + y * 71) & 0xFF), UInt8((x * y * 13 + 7) & 0xFF),
                alpha ? UInt8((x * 29 + y * 53 + 1) & 0xFF) : 255,
            ]
        }
    }
    return bytes
}

/// Catches a `MediaError` from `body`, or nil when it did not throw.
func mediaError<T>(_ body: () throws(MediaError) -> T) -> MediaError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// A lossless 16×16 clip at 10 fps whose frame n is grey 10·n (20 frames), encoded with `encoder`
/// (ffmpeg's output options: codec, keyframes, pixel format) into `dir/name`.
func greyRamp(_ dir: TemporaryDirectory, encoder: [String], name: String) throws -> (path: String, stream: VideoStreamInfo) {
    let path = dir.file(name)
    let r = try runTool(
        "ffmpeg",
        [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
            "color=c=black:s=16x16:r=10:d=2,format=gray,geq=lum='N*10'",
        ] + encoder + [path])
    guard r.status == 0, let stream = try MediaProbe.probe(path: path).video else {
        throw MediaError.invalidVideo(path: path, reason: "the test clip was not made: \(r.stderr)")
    }
    return (path, stream)
}

/// Runs `body` with `executable` as ffmpeg, for the calling test's task only; ffprobe is the one
/// found beside it or on PATH, whatever SEGUE_FFPROBE the developer's shell sets.
func withFFmpeg<T>(_ executable: String, _ body: () throws -> T) rethrows -> T {
    var environment = ProcessInfo.processInfo.environment
    environment[FFmpeg.ffmpegVariable] = executable
    environment[FFmpeg.ffprobeVariable] = nil
    return try FFmpeg.$environment.withValue(environment) { try body() }
}
