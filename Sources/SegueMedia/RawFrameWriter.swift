import SegueCore
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes raw RGBA8 frames back to back to a file descriptor (standard output by default), as
/// `ffmpeg -f rawvideo -pix_fmt rgba -s WxH -i -` reads them. Partial writes are completed, and a
/// reader that goes away is reported as an error rather than killing the process (`SIGPIPE` is
/// ignored). The descriptor is not closed. Not thread-safe.
public final class RawFrameWriter {
    /// The descriptor frames are written to.
    public let fileDescriptor: Int32
    /// The name errors use for the destination ("<stdout>").
    public let name: String
    /// Frames written so far.
    public private(set) var frameCount = 0

    /// A writer for `fileDescriptor`, named `name` in errors.
    public init(fileDescriptor: Int32 = STDOUT_FILENO, name: String = "<stdout>") {
        self.fileDescriptor = fileDescriptor
        self.name = name
        FileIO.enlargePipeBuffer(fileDescriptor)
    }

    /// Writes one frame's bytes exactly as given.
    /// - Throws: `.writeFailed` (closed pipe, full disk, I/O error).
    public func write(frame: UnsafeRawBufferPointer) throws(MediaError) {
        if let code = FileIO.writeAll(fileDescriptor, frame) {
            let reason = code == EPIPE ? "the reading end of the pipe was closed" : FileIO.message(code)
            throw .writeFailed(path: name, reason: reason)
        }
        frameCount += 1
    }

    /// Writes an image as straight-alpha RGBA8 (or its premultiplied bytes when `premultiplied`).
    public func write(_ image: Image, premultiplied: Bool = false) throws(MediaError) {
        let bytes = premultiplied || image.isOpaque ? image.pixels : image.straightRGBA()
        try bytes.withBytes { (raw) throws(MediaError) in try write(frame: raw) }
    }
}
