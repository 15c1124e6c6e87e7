import SegueCore
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes numbered PNG frames (`frame-00000.png`, `frame-00001.png`, …) into a directory, each
/// file atomically, so a reader never sees a half-written frame. Not thread-safe.
public final class FrameDirectoryWriter {
    /// The directory frames go into.
    public let directory: String
    /// The file name before the number ("frame-").
    public let prefix: String
    /// How many digits the number is padded to.
    public let digits: Int
    /// The PNG compression used.
    public let compression: PNGCompression
    /// The index the next frame gets; also the number of frames written when starting at 0.
    public private(set) var nextIndex: Int
    private let cancellation: Cancellation?

    /// Prepares to write frames into `directory`, creating it (and its parents) if needed.
    /// - Parameters:
    ///   - startIndex: The number of the first frame.
    ///   - compression: `.fast` trades file size for speed, for frames that are read back.
    ///   - cancellation: each frame's temporary is registered with it while written.
    /// - Throws: `.unwritable` when the directory cannot be created or a file is in the way.
    public init(
        directory: String, prefix: String = "frame-", digits: Int = 5, startIndex: Int = 0,
        compression: PNGCompression = .default, cancellation: Cancellation? = nil
    ) throws(MediaError) {
        precondition(digits > 0 && startIndex >= 0, "digits must be positive and startIndex non-negative")
        if let problem = FileIO.directoryCreationProblem(directory) { throw .unwritable(path: directory, reason: problem) }
        self.directory = directory
        self.prefix = prefix
        self.digits = digits
        self.compression = compression
        self.nextIndex = startIndex
        self.cancellation = cancellation
    }

    /// Whether `name` is a frame's file name as a writer with `prefix` names them: the prefix,
    /// one or more ASCII digits, `.png` (a render's directory may be replaced only when it holds
    /// nothing else).
    public static func isFrameName(_ name: String, prefix: String = "frame-") -> Bool {
        guard name.hasPrefix(prefix), name.hasSuffix(".png") else { return false }
        let number = name.utf8.dropFirst(prefix.utf8.count).dropLast(4)
        return !number.isEmpty && number.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The path of frame `index` (`DIR/frame-00042.png`).
    public func path(forFrame index: Int) -> String {
        let number = String(index)
        let padded = String(repeating: "0", count: max(0, digits - number.count)) + number
        return (directory.hasSuffix("/") ? directory : directory + "/") + prefix + padded + ".png"
    }

    /// Writes the next frame.
    /// - Returns: the path written.
    @discardableResult
    public func append(_ image: Image) throws(MediaError) -> String {
        let path = path(forFrame: nextIndex)
        let bytes = try ImageFile.encodePNG(image, compression: compression, path: path)
        try MediaError.converting { () throws(SystemError) in try StagedOutput.write(bytes, to: path, cancellation: cancellation) }
        nextIndex += 1
        return path
    }

    /// Writes the next frame from straight-alpha RGBA8 rows (a GPU readback, say).
    /// - Returns: the path written.
    @discardableResult
    public func append(straightRGBA: UnsafeRawBufferPointer, width: Int, height: Int) throws(MediaError) -> String {
        let path = path(forFrame: nextIndex)
        let bytes = try PNGCodec.encode(
            straightRGBA: straightRGBA, width: width, height: height,
            compression: compression, path: path)
        try MediaError.converting { () throws(SystemError) in try StagedOutput.write(bytes, to: path, cancellation: cancellation) }
        nextIndex += 1
        return path
    }
}
