import SegueCore
import SegueSystem

/// Reading and writing still images: PNG and JPEG, detected by content, written atomically.
///
/// Files hold straight (unassociated) alpha; `Image` holds premultiplied alpha. Reading
/// premultiplies with rounding and writing un-premultiplies, so opaque pixels round-trip
/// exactly and semi-transparent ones within ±1 per channel (the precision premultiplication keeps).
public enum ImageFile {
    /// The name used in errors for data that did not come from a file.
    public static let memoryName = "<memory>"

    // MARK: - Reading

    /// Reads a PNG or JPEG file, recognised by its first bytes whatever its extension.
    /// - Parameters:
    ///   - path: The file to read.
    ///   - scale: Pixels per point to give the image (its pixel size is unchanged).
    /// - Throws: `MediaError`: `.invalidScale` (before the file is opened), `.fileNotFound`,
    ///   `.unreadable` (also for a FIFO, a device or a file over ``maximumFileSize``),
    ///   `.unknownFormat` (from the first bytes, before the rest is read), `.corrupt`, or
    ///   `.imageTooLarge` (checked from the header, before pixel memory is allocated).
    public static func read(path: String, scale: Double = 1) throws(MediaError) -> Image {
        try checkScale(scale, path: path)
        let data = try FileIO.readAll(path: path, limit: maximumFileSize, noun: "image") { (head) throws(MediaError) in
            _ = try detect(head, path: path)
        }
        return try decode(data: data, scale: scale, path: path)
    }

    /// The largest image file read, in bytes (1 GiB): far more than any PNG or JPEG within the
    /// pixel limit needs. Only regular files are read (not FIFOs or devices).
    public static let maximumFileSize = 1 << 30

    /// Decodes PNG or JPEG bytes, recognised by their signature.
    /// - Parameters:
    ///   - data: The encoded file contents.
    ///   - scale: Pixels per point to give the image.
    ///   - path: The name errors report (the file the bytes came from, if any).
    /// - Throws: `MediaError`, as `read(path:scale:)`.
    public static func decode(data: [UInt8], scale: Double = 1, path: String = memoryName) throws(MediaError) -> Image {
        try checkScale(scale, path: path)
        guard let format = try detect(data, path: path) else {
            throw .unknownFormat(path: path, reason: "the file is empty")
        }
        switch format {
        case .png: return try PNGCodec.decode(data, path: path, scale: scale)
        case .jpeg: return try JPEGCodec.decode(data, path: path, scale: scale)
        }
    }

    /// Refuses a scale no image may have (not a finite number above 0).
    private static func checkScale(_ scale: Double, path: String) throws(MediaError) {
        do { try Image.validateScale(scale) } catch { throw .invalidScale(path: path, error) }
    }

    /// The format of encoded bytes, nil for empty data.
    private static func detect(_ data: [UInt8], path: String) throws(MediaError) -> ImageFormat? {
        if data.isEmpty { return nil }
        if let format = ImageFormat(magic: data) { return format }
        let head = data.prefix(8).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: " ")
        throw .unknownFormat(path: path, reason: "it starts with the bytes \(head)")
    }

    // MARK: - Writing

    /// Writes an image atomically (a temporary file renamed into place).
    /// - Parameters:
    ///   - image: The image to write.
    ///   - path: The destination; an existing file is replaced only once the new one is complete.
    ///   - format: The format, or nil to take it from the extension (`.png`, `.jpg`, `.jpeg`).
    ///   - quality: JPEG quality, 1...100 (ignored for PNG).
    ///   - cancellation: registers the temporary with it (its `cancel()` removes it).
    /// - Throws: `.unknownOutputFormat`, `.unwritable`, `.writeFailed`, `.encodingFailed`, `.cancelled`.
    public static func write(
        _ image: Image, to path: String, format: ImageFormat? = nil, quality: Int = 92,
        cancellation: Cancellation? = nil
    ) throws(MediaError) {
        guard let format = format ?? ImageFormat(pathExtensionOf: path) else {
            throw .unknownOutputFormat(path: path, supported: ImageFormat.extensions)
        }
        // Open the temporary first: a missing directory is reported before any encoding work.
        try StagedOutput.write(to: path, cancellation: cancellation) { (file) throws(MediaError) in
            let bytes =
                switch format {
                case .png: try encodePNG(image, path: path)
                case .jpeg: try encodeJPEG(image, quality: quality, path: path)
                }
            try MediaError.converting { () throws(SystemError) in try file.write(bytes) }
        }
    }

    // MARK: - Encoding

    /// Encodes an image as PNG, 8-bit straight-alpha RGBA (RGB when the image is opaque).
    /// - Parameter compression: `.default` for the smallest files, `.fast` for intermediates.
    public static func encodePNG(_ image: Image, compression: PNGCompression = .default) throws(MediaError) -> [UInt8] {
        try encodePNG(image, compression: compression, path: memoryName)
    }

    /// Encodes straight-alpha RGBA8 rows (a GPU readback, say) as PNG without making an `Image`.
    /// - Precondition: `straightRGBA.count == width * height * 4`.
    public static func encodePNG(
        straightRGBA: UnsafeRawBufferPointer, width: Int, height: Int,
        compression: PNGCompression = .default
    ) throws(MediaError) -> [UInt8] {
        try PNGCodec.encode(
            straightRGBA: straightRGBA, width: width, height: height,
            compression: compression, path: memoryName)
    }

    /// Encodes an image as JPEG. JPEG has no alpha: the premultiplied RGB is written, which is
    /// the image composited over black.
    /// - Parameter quality: 1...100; at 90 and above chroma is not subsampled.
    public static func encodeJPEG(_ image: Image, quality: Int = 92) throws(MediaError) -> [UInt8] {
        try encodeJPEG(image, quality: quality, path: memoryName)
    }

    static func encodePNG(_ image: Image, compression: PNGCompression = .default, path: String) throws(MediaError) -> [UInt8] {
        let straight = image.isOpaque ? image.pixels : image.straightRGBA()
        return try straight.withBytes { (raw) throws(MediaError) in
            try PNGCodec.encode(
                straightRGBA: raw, width: image.width, height: image.height,
                compression: compression, path: path)
        }
    }

    static func encodeJPEG(_ image: Image, quality: Int, path: String) throws(MediaError) -> [UInt8] {
        try image.pixels.withBytes { (raw) throws(MediaError) in
            try JPEGCodec.encode(rgba: raw, width: image.width, height: image.height, quality: quality, path: path)
        }
    }
}
