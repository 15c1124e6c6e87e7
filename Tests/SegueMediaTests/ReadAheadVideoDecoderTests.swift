// The read-ahead decoder: every frame once, in order, with its timestamp and pixels, whatever
// the depth; frames handed back are refilled; closing early stops ffmpeg; a decoding error
// surfaces at the frame where it happened.
import Foundation
import SegueCore
import SegueSystem
import SegueTestSupport
import Testing

@testable import SegueMedia

@Suite("Read-ahead video decoder")
struct ReadAheadVideoDecoderTests {
    @Test("every frame once, in order, with its time and grey level, at depths 1 to 4", arguments: [1, 2, 4])
    func inOrder(depth: Int) throws {
        let dir = try TemporaryDirectory("media")
        let (path, stream) = try greyRamp(dir, encoder: ["-c:v", "ffv1", "-pix_fmt", "gray"], name: "ramp.mkv")
        let decoder = try TimedVideoDecoder(path: path, stream: stream, width: 16, height: 16, resize: .stretch)
        let frames = try ReadAheadVideoDecoder(decoder, depth: depth, held: 1)
        defer { frames.close() }
        var n = 0
        while let frame = try frames.next() {
            #expect(abs(frame.time - Double(n) / 10) < 1e-6, "frame \(n) at \(frame.time)")
            let p = frame.pixels.bindMemory(to: UInt8.self)
            // Full-range grey through RGBA: within 1 of 10·n in the middle and a corner.
            for i in [0, (8 * 16 + 8) * 4] {
                #expect(abs(Int(p[i]) - 10 * n) <= 1 && p[i + 3] == 255, "frame \(n): \(p[i])")
            }
            frames.recycle(frame)
            n += 1
        }
        #expect(n == 20)
        #expect(try frames.next() == nil)
    }

    @Test("contain: the bars are transparent, as the GPU's contain leaves them; the picture is opaque")
    func containBars() throws {
        let dir = try TemporaryDirectory("media")
        let (path, stream) = try greyRamp(dir, encoder: ["-c:v", "ffv1", "-pix_fmt", "gray"], name: "ramp.mkv")
        let decoder = try TimedVideoDecoder(path: path, stream: stream, width: 32, height: 16, resize: .contain, frameLimit: 1)
        var pixels = [UInt8](repeating: 7, count: 32 * 16 * 4)
        _ = try pixels.withUnsafeMutableBytes { try decoder.read(into: $0) }
        decoder.close()
        for x in [0, 7, 24, 31] { #expect(pixels[(8 * 32 + x) * 4 + 3] == 0, "bar at x \(x): alpha \(pixels[(8 * 32 + x) * 4 + 3])") }
        for x in [8, 16, 23] { #expect(pixels[(8 * 32 + x) * 4 + 3] == 255, "picture at x \(x)") }
    }

    @Test("held frames stay intact while later ones are decoded into other buffers")
    func heldFrames() throws {
        let dir = try TemporaryDirectory("media")
        let (path, stream) = try greyRamp(dir, encoder: ["-c:v", "ffv1", "-pix_fmt", "gray"], name: "ramp.mkv")
        let decoder = try TimedVideoDecoder(path: path, stream: stream, width: 16, height: 16, resize: .stretch)
        let frames = try ReadAheadVideoDecoder(decoder, depth: 2, held: 2)
        defer { frames.close() }
        var a = try #require(try frames.next())
        for n in 1..<20 {
            let b = try #require(try frames.next())
            // `a` was decoded before `b` and not handed back: still its own grey.
            #expect(abs(Int(a.pixels.load(as: UInt8.self)) - 10 * (n - 1)) <= 1)
            #expect(abs(Int(b.pixels.load(as: UInt8.self)) - 10 * n) <= 1)
            frames.recycle(a)
            a = b
        }
    }

    @Test("closing after a few frames stops ffmpeg and the reading thread")
    func closeEarly() throws {
        let dir = try TemporaryDirectory("media")
        let (path, stream) = try greyRamp(dir, encoder: ["-c:v", "ffv1", "-pix_fmt", "gray"], name: "ramp.mkv")
        let decoder = try TimedVideoDecoder(path: path, stream: stream, width: 16, height: 16, resize: .stretch)
        let frames = try ReadAheadVideoDecoder(decoder)
        _ = try frames.next()
        frames.close()  // returns: the reading thread has ended
        // Whatever was decoded before the close may still come out, then nothing more.
        var more = 0
        while try frames.next() != nil { more += 1 }
        #expect(more <= 3)
    }

    @Test("a file damaged in the middle: its first frames, then the decoding error")
    func corruptMiddle() throws {
        let dir = try TemporaryDirectory("media")
        let path = dir.file("damaged.mp4")
        let r = try runTool(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=4",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "5", "-pix_fmt", "yuv420p", path,
            ])
        #expect(r.status == 0, "\(r.stderr)")
        let stream = try #require(try MediaProbe.probe(path: path).video)
        var bytes = readFixture(path)
        let mdat = try #require(
            bytes.indices.first { bytes[$0] == 0x6D && bytes[$0 + 1] == 0x64 && bytes[$0 + 2] == 0x61 && bytes[$0 + 3] == 0x74 })
        let middle = mdat + (bytes.count - mdat) / 2
        for k in middle..<min(middle + 400, bytes.count) { bytes[k] = UInt8(truncatingIfNeeded: k &* 37) }
        writeFixture(bytes, to: path)
        let decoder = try TimedVideoDecoder(path: path, stream: stream, width: 64, height: 48, resize: .stretch)
        let frames = try ReadAheadVideoDecoder(decoder)
        defer { frames.close() }
        var n = 0
        var error: MediaError?
        do {
            while let frame = try frames.next() {
                frames.recycle(frame)
                n += 1
            }
        } catch let e {
            error = e
        }
        #expect(n >= 5 && n < 40, "\(n) frames")
        guard case let .corrupt(_, format, message)? = error else {
            Issue.record("expected a decoding error after \(n) frames, got \(String(describing: error))")
            return
        }
        #expect(format == "video" && message.hasPrefix("decoding stopped after \(n) frames"), "\(message)")
    }

    @Test("a reading thread that cannot start is an error from the initializer, not a wait for ever; ffmpeg is stopped")
    func threadCannotStart() throws {
        let dir = try TemporaryDirectory("media")
        let (path, stream) = try greyRamp(dir, encoder: ["-c:v", "ffv1", "-pix_fmt", "gray"], name: "ramp.mkv")
        let decoder = try TimedVideoDecoder(path: path, stream: stream, width: 16, height: 16, resize: .stretch)
        // A stack no system can give (64 TiB): pthread_create refuses it, as it refuses any stack
        // under a tight `ulimit -v`.
        let started = Date()
        let error = mediaError { () throws(MediaError) in
            try ReadAheadVideoDecoder(decoder, depth: 2, held: 2) { (body) throws(MediaError) in
                try MediaError.converting { () throws(SystemError) in try WorkerThread.start(for: path, stackSize: 1 << 46, body) }
            }
        }
        #expect(Date().timeIntervalSince(started) < 10)
        guard case let .systemLimit(errorPath, reason)? = error else {
            Issue.record("expected .systemLimit, got \(String(describing: error))"); return
        }
        #expect(errorPath == path)
        #expect(reason.hasPrefix("could not start a thread ("), "\(reason)")
        #expect(error?.description.hasSuffix("free some memory or raise the process's limits (`ulimit -v`, `ulimit -u`)") == true)
        // The decoder was closed with it: ffmpeg is gone and nothing more comes.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: decoder.frameByteCount, alignment: 64)
        defer { buffer.deallocate() }
        #expect(try decoder.read(into: buffer) == nil)
    }
}
