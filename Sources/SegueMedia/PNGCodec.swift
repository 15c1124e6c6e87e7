// PNG through libpng's simplified API (png.h, "SIMPLIFIED API"): `png_image_begin_read_from_memory`
// reads the header, so the size is checked before any pixel memory exists; `png_image_finish_read`
// converts every PNG flavour (grey, palette, tRNS, 16-bit, gAMA) to 8-bit straight RGBA; and
// `png_image_write_to_memory` writes RGBA (or RGB for opaque images) with sRGB/gAMA chunks.
//
// 16-bit files without colour-space chunks are read as sRGB-encoded (PNG_IMAGE_FLAG_16BIT_sRGB),
// as every other tool treats them; libpng would otherwise assume linear 16-bit values.
//
// Interlaced (Adam7) files go through libpng's row API instead (`decodeRows`): the simplified
// API of Debian's libpng security update returns wrong pixels for interlaced 16-bit files.

import CSeguePNG
import SegueCore

/// How hard the PNG encoder works.
public enum PNGCompression: Sendable {
    /// libpng's defaults: adaptive row filters and zlib level 6. Smallest files.
    case `default`
    /// No row filters and zlib level 3 (`PNG_IMAGE_FLAG_FAST`): several times faster, larger
    /// files. Meant for intermediate frames that are read back, not for distribution.
    case fast
}

/// libpng wrapper; all `png_*` calls of SegueMedia live here.
enum PNGCodec {
    // MARK: - Decoding

    /// Decodes PNG bytes to a premultiplied image.
    static func decode(_ data: [UInt8], path: String, scale: Double) throws(MediaError) -> Image {
        let result: Result<Image, MediaError> = data.withUnsafeBytes { bytes in
            var png = png_image()
            png.version = UInt32(PNG_IMAGE_VERSION)
            // libpng keeps a pointer to `bytes` between begin and finish, so both happen in here.
            guard png_image_begin_read_from_memory(&png, bytes.baseAddress, bytes.count) != 0 else {
                let message = PNGCodec.message(of: png)
                png_image_free(&png)
                return .failure(.corrupt(path: path, format: "PNG", message: message))
            }
            let width = Int(png.width), height = Int(png.height)
            if let problem = MediaError.sizeProblem(width: width, height: height, path: path) {
                png_image_free(&png)
                return .failure(problem)
            }
            if PNGCodec.isInterlaced(bytes) {
                png_image_free(&png)
                return PNGCodec.decodeRows(bytes, width: width, height: height, path: path, scale: scale)
            }
            png.format = PNGCodec.formatRGBA
            png.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            var failure: String?
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
                // finish_read frees the png_image's internals whether it succeeds or fails.
                if png_image_finish_read(&png, nil, buffer.baseAddress, Int32(width * 4), nil) != 0 {
                    count = width * height * 4
                } else {
                    failure = PNGCodec.message(of: png)
                    count = 0
                }
            }
            if let failure { return .failure(.corrupt(path: path, format: "PNG", message: failure)) }
            return .success(Image(width: width, height: height, scale: scale, straightRGBA: pixels))
        }
        return try result.get()
    }

    /// Whether the header (IHDR, the first chunk: its interlace byte is at offset 28) says Adam7.
    static func isInterlaced(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count > 28 && bytes[12..<16].elementsEqual("IHDR".utf8) && bytes[28] == 1
    }

    /// Decodes with libpng's row API (the C function in CSeguePNG's shim), for interlaced files,
    /// which the simplified API of Debian's libpng 1.6.39 security update decodes wrongly at
    /// 16 bits. The size was checked from the header before this allocates.
    static func decodeRows(
        _ bytes: UnsafeRawBufferPointer, width: Int, height: Int, path: String,
        scale: Double
    ) -> Result<Image, MediaError> {
        var message = [CChar](repeating: 0, count: 256)
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            status = segue_png_decode_rgba8(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, buffer.baseAddress,
                UInt32(width), UInt32(height), &message, message.count)
            count = status == 0 ? width * height * 4 : 0
        }
        guard status == 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.corrupt(path: path, format: "PNG", message: text))
        }
        return .success(Image(width: width, height: height, scale: scale, straightRGBA: pixels))
    }

    // MARK: - Encoding

    /// Encodes straight-alpha RGBA8 rows as a PNG; opaque images are stored as RGB.
    static func encode(
        straightRGBA pixels: UnsafeRawBufferPointer, width: Int, height: Int,
        compression: PNGCompression, path: String
    ) throws(MediaError) -> [UInt8] {
        precondition(pixels.count == width * height * 4, "expected \(width * height * 4) bytes, got \(pixels.count)")
        if let problem = MediaError.sizeProblem(width: width, height: height, path: path) { throw problem }
        if Image.isOpaque(pixels) {
            // Pack to RGB: a quarter less data to filter and deflate, and smaller files.
            let rgb = [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, count in
                var i = 0, o = 0
                while i < pixels.count {
                    out[o] = pixels[i]; out[o + 1] = pixels[i + 1]; out[o + 2] = pixels[i + 2]
                    i += 4; o += 3
                }
                count = width * height * 3
            }
            return try rgb.withBytes { (raw) throws(MediaError) in
                try write(raw, width: width, height: height, channels: 3, compression: compression, path: path)
            }
        }
        return try write(pixels, width: width, height: height, channels: 4, compression: compression, path: path)
    }

    private static func write(
        _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, channels: Int,
        compression: PNGCompression, path: String
    ) throws(MediaError) -> [UInt8] {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(width)
        png.height = UInt32(height)
        png.format = channels == 4 ? PNGCodec.formatRGBA : PNGCodec.formatRGB
        if compression == .fast { png.flags |= UInt32(PNG_IMAGE_FLAG_FAST) }
        let stride = Int32(width * channels)

        // One pass into a buffer that always suffices (PNG_IMAGE_PNG_SIZE_MAX in png.h, plus slack);
        // should a zlib ever exceed that bound, libpng reports the size it needs and we retry.
        var capacity = worstCaseSize(width: width, height: height, channels: channels)
        for _ in 0..<2 {
            var written = capacity
            var ok = false
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                ok =
                    png_image_write_to_memory(
                        &png, buffer.baseAddress, &written, 0,
                        pixels.baseAddress, stride, nil) != 0
                count = ok ? written : 0
            }
            if ok { return bytes }
            if written > capacity {
                capacity = written
                continue
            }
            break
        }
        let message = PNGCodec.message(of: png)
        png_image_free(&png)
        throw .encodingFailed(path: path, format: "PNG", message: message)
    }

    /// An upper bound on the encoded size, after png.h's PNG_IMAGE_PNG_SIZE_MAX.
    private static func worstCaseSize(width: Int, height: Int, channels: Int) -> Int {
        let data = (width * channels + 1) * height
        let deflated = data + (data + 7) / 8 + (data + 63) / 64 + 11
        return 8 + 25 + 16 + 44 + 12 + 12 + 12 * (deflated / 8192 + 1) + deflated + 1024
    }

    // MARK: - Helpers

    /// PNG_FORMAT_RGB and PNG_FORMAT_RGBA (png.h macros Swift does not import).
    private static let formatRGB = UInt32(PNG_FORMAT_FLAG_COLOR)
    private static let formatRGBA = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    /// libpng's message for the last warning or error on `png`.
    private static func message(of png: png_image) -> String {
        let text = withUnsafeBytes(of: png.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "libpng reported an unspecified error" : text
    }

}
