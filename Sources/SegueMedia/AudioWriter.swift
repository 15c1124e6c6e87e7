// The sound of a video, written as raw Float32 samples into a named pipe (FIFO) that the
// encoder's ffmpeg reads as its second input (see `VideoEncoder`). The FIFO is opened
// non-blocking in a retry loop, so a writer never hangs on an ffmpeg that died before opening it,
// and the encoder's `cancel()` stops the loop.

import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sound stream of a movie: rate and interleaved channels of Float32 samples.
public struct AudioLayout: Sendable, Hashable {
    /// Samples per second.
    public var sampleRate: Int
    /// Channels, interleaved.
    public var channels: Int

    /// 48 kHz stereo.
    public static let standard = AudioLayout(sampleRate: 48_000, channels: 2)

    /// A layout.
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// The sample rates Segue writes: 8 to 192 kHz.
    public static let sampleRates = 8000...192_000
    /// The channel counts Segue writes: 1 to 8.
    public static let channelCounts = 1...8

    /// What is wrong with the layout for writing ("the sound must be …"), nil when it is in range.
    public var problem: String? {
        Self.sampleRates.contains(sampleRate) && Self.channelCounts.contains(channels)
            ? nil
            : "the sound must be \(Self.sampleRates.lowerBound) to \(Self.sampleRates.upperBound) Hz with \(Self.channelCounts.lowerBound) to \(Self.channelCounts.upperBound) channels, got \(sampleRate) Hz, \(channels) channels"
    }
}

/// Writes a video's sound into its encoder's FIFO. Use it from one thread (it is not `Sendable`:
/// it is handed over to that thread); `VideoEncoder.cancel()` or its `stopper` (from any thread)
/// makes a waiting `open` or `write` give up.
public final class AudioWriter {
    /// Channels per sample frame.
    public let channels: Int
    private let fifo: String
    private let cancelled: Locked<Bool>
    private let path: String
    private let written: Locked<Int>
    private var fd: Int32 = -1
    private var finished = false

    init(fifo: String, channels: Int, cancelled: Locked<Bool>, path: String, written: Locked<Int>) {
        self.fifo = fifo
        self.channels = channels
        self.cancelled = cancelled
        self.path = path
        self.written = written
    }

    deinit { if fd >= 0 { closeDescriptor(fd) } }

    /// Writes interleaved samples (whole sample frames).
    /// - Throws: `.writeFailed` when the encoder was cancelled or ffmpeg stopped reading.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(MediaError) {
        precondition(samples.count % channels == 0 && !finished, "whole sample frames, before close()")
        if fd < 0 { try openFIFO() }
        var base = UnsafeRawPointer(samples.baseAddress)
        var remaining = samples.count * 4
        while remaining > 0, let pointer = base {
            if cancelled.withLock({ $0 }) { throw .writeFailed(path: path, reason: "the encoder was stopped") }
            let n = writeDescriptor(fd, pointer, remaining)
            if n > 0 {
                remaining -= n
                base = pointer + n
            } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&poller, 1, 100)
            } else {
                throw .writeFailed(path: path, reason: "ffmpeg stopped reading the sound (\(FileIO.message(errno)))")
            }
        }
        written.withLock { $0 += samples.count / channels }
    }

    /// Ends the sound stream (ffmpeg sees its end).
    /// - Throws: `.writeFailed` when ffmpeg never opened the stream before a cancel.
    public func close() throws(MediaError) {
        guard !finished else { return }
        if fd < 0 { try openFIFO() }
        finished = true
        closeDescriptor(fd)
        fd = -1
    }

    /// Opens the FIFO once ffmpeg has opened it for reading (non-blocking retries every 5 ms).
    private func openFIFO() throws(MediaError) {
        while true {
            if cancelled.withLock({ $0 }) { throw .writeFailed(path: path, reason: "the encoder was stopped") }
            let opened = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if opened >= 0 { fd = opened; FileIO.enlargePipeBuffer(opened); return }
            guard errno == ENXIO || errno == EINTR else {
                throw .writeFailed(path: path, reason: "cannot open the sound pipe: \(FileIO.message(errno))")
            }
            usleep(5_000)
        }
    }
}

/// `close(2)`, named apart from the types' own `close()` methods.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }

/// `write(2)` without SIGPIPE, named apart from the writer's own `write` method.
private func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    FileIO.withoutWriteSignals { write(fd, bytes, count) }
}
