import SegueSystem

// A `TimedVideoDecoder` read ahead on its own thread. An ffmpeg decoder writes into a pipe that
// holds far less than one frame of RGBA, so read in step with the caller it decodes only while the
// caller waits for it. Read ahead, it decodes the next frames while the caller draws transitions
// or feeds the encoder, and the two overlap on separate cores. A reading thread that cannot start
// (no memory for its stack) is reported by the initializer, so no caller waits for frames that
// no thread will decode.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes a video's frames ahead of the caller, up to `depth` of them, on a thread of its own.
/// One caller at a time; frames come out in order.
// @unchecked: what the reading thread and the caller share (`free`, `decoded`, `end`, `stopping`,
// `running`) is read and written only under `condition`; `decoder` is the reading thread's alone
// until it has stopped (`close` waits for that).
public final class ReadAheadVideoDecoder: @unchecked Sendable {
    /// A decoded frame: `frameByteCount` bytes of straight-alpha RGBA8 and the frame's timestamp.
    /// It stays valid until handed back with `recycle(_:)` or the decoder is released.
    public struct Frame {
        /// The pixels.
        public let pixels: UnsafeMutableRawBufferPointer
        /// Presentation time in seconds, from the start of decoding.
        public let time: Double
    }

    /// Bytes in one frame.
    public let frameByteCount: Int

    private let decoder: TimedVideoDecoder
    private let condition = ConditionLock()
    private let buffers: [UnsafeMutableRawBufferPointer]
    private var free: [UnsafeMutableRawBufferPointer]
    private var decoded: [Frame] = []
    private var end: Result<Void, MediaError>?
    private var stopping = false
    private var running = true

    /// Starts reading `decoder` ahead.
    /// - Parameter depth: frames that may wait decoded, besides the ones the caller holds (the
    ///   caller may hold up to `held` frames at once before handing any back).
    /// - Throws: `.systemLimit` when the reading thread cannot start; `decoder` is then closed.
    public convenience init(_ decoder: TimedVideoDecoder, depth: Int = 2, held: Int = 2) throws(MediaError) {
        try self.init(decoder, depth: depth, held: held) { (body) throws(MediaError) in
            try MediaError.converting { () throws(SystemError) in try WorkerThread.start(for: decoder.path, body) }
        }
    }

    /// Starts reading `decoder` ahead on a thread started by `startThread` (which throws when it
    /// cannot start one).
    init(
        _ decoder: TimedVideoDecoder, depth: Int, held: Int,
        startThread: (@escaping @Sendable () -> Void) throws(MediaError) -> Void
    ) throws(MediaError) {
        precondition(depth >= 1 && held >= 1, "depth and held must be at least 1")
        self.decoder = decoder
        frameByteCount = decoder.frameByteCount
        buffers = (0..<(depth + held)).map { _ in .allocate(byteCount: decoder.frameByteCount, alignment: 64) }
        free = buffers
        do {
            try startThread { [self] in produce() }
        } catch {
            running = false
            decoder.close()
            throw error
        }
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// The next frame, waiting for it to be decoded; nil after the last.
    /// - Throws: the decoder's error (corrupt data, ffmpeg failing), at the frame where it happened.
    public func next() throws(MediaError) -> Frame? {
        condition.lock()
        defer { condition.unlock() }
        while decoded.isEmpty && end == nil { condition.wait() }
        if !decoded.isEmpty { return decoded.removeFirst() }
        if case let .failure(error) = end { throw error }
        return nil
    }

    /// Hands a frame's buffer back for the decoder to fill again.
    public func recycle(_ frame: Frame) {
        condition.lock()
        free.append(frame.pixels)
        condition.wakeOne()
        condition.unlock()
    }

    /// Stops decoding (ffmpeg is stopped) and waits for the reading thread to end, which takes at
    /// most the rest of the frame being read. Frames the caller holds stay valid until release.
    public func close() {
        condition.lock()
        stopping = true
        condition.wakeAll()
        while running { condition.wait() }
        condition.unlock()
    }

    private func produce() {
        while true {
            condition.lock()
            while free.isEmpty && !stopping { condition.wait() }
            if stopping { condition.unlock(); break }
            let buffer = free.removeLast()
            condition.unlock()
            let result: Result<Double?, MediaError>
            do { result = .success(try decoder.read(into: buffer)) } catch { result = .failure(error) }
            condition.lock()
            switch result {
            case let .success(time?):
                decoded.append(Frame(pixels: buffer, time: time))
            case .success(nil):
                free.append(buffer)
                end = .success(())
            case let .failure(error):
                free.append(buffer)
                end = .failure(error)
            }
            condition.wakeAll()
            let done = end != nil || stopping
            condition.unlock()
            if done { break }
        }
        decoder.close()
        condition.lock()
        if end == nil { end = .success(()) }
        running = false
        condition.wakeAll()
        condition.unlock()
    }
}
