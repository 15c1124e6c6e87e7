// JPEG through libjpeg-turbo's TurboJPEG API (turbojpeg.h). `tjDecompressHeader3` gives the size
// before any pixel memory is allocated; `tjDecompress2` decodes straight to RGBA (alpha 255);
// `tjCompress2` encodes RGBA ignoring the alpha byte.
//
// Alpha: JPEG has none. Encoding passes the premultiplied RGB values, which is exactly the image
// composited over opaque black. Decoding treats libjpeg warnings (a truncated file, corrupt
// entropy data) as errors, because the decoder would otherwise fill the missing part with grey.
// The EXIF Orientation tag is applied after decoding (ExifOrientation); CMYK/YCCK files are
// refused with a clear message (their conversion needs a colour-managed print profile).

import CSegueJPEG
import SegueCore

/// TurboJPEG wrapper; all `tj*` calls of SegueMedia live here.
enum JPEGCodec {
    // MARK: - Decoding

    /// Decodes JPEG bytes to an opaque image.
    static func decode(_ data: [UInt8], path: String, scale: Double) throws(MediaError) -> Image {
        guard let handle = tjInitDecompress() else {
            throw .corrupt(path: path, format: "JPEG", message: "TurboJPEG could not start a decoder")
        }
        defer { tjDestroy(handle) }
        let result: Result<Image, MediaError> = data.withUnsafeBufferPointer { jpeg in
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard
                tjDecompressHeader3(
                    handle, jpeg.baseAddress, UInt(jpeg.count),
                    &width, &height, &subsampling, &colorspace) == 0
            else {
                return .failure(.corrupt(path: path, format: "JPEG", message: message(handle)))
            }
            let w = Int(width), h = Int(height)
            guard w > 0, h > 0 else {  // TurboJPEG can "succeed" on a stream cut before the frame header
                return .failure(.corrupt(path: path, format: "JPEG", message: "the data ends before the frame header"))
            }
            if let problem = MediaError.sizeProblem(width: w, height: h, path: path) { return .failure(problem) }
            if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
                // CMYK to RGB needs the print profile (a colour management system); guessing would
                // give wrong colours without a word.
                return .failure(
                    .unsupportedImage(
                        path: path,
                        reason:
                            "a CMYK JPEG (print colours); Segue reads RGB and greyscale JPEGs: convert it to sRGB first, e.g. 'convert \(path) -colorspace sRGB out.png'"
                    ))
            }
            var failure: String?
            let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, count in
                let status = tjDecompress2(
                    handle, jpeg.baseAddress, UInt(jpeg.count), buffer.baseAddress,
                    width, width * 4, height, Int32(TJPF_RGBA.rawValue), 0)
                if status == 0 {
                    count = w * h * 4
                } else {
                    // A warning (TJERR_WARNING) still means missing or damaged pixels: refuse it.
                    failure = message(handle)
                    count = 0
                }
            }
            if let failure { return .failure(.corrupt(path: path, format: "JPEG", message: failure)) }
            // Turned as the EXIF Orientation tag says (a phone photo held upright stays upright).
            return .success(ExifOrientation.read(data).apply(to: Image(width: w, height: h, scale: scale, premultipliedRGBA: pixels)))
        }
        return try result.get()
    }

    // MARK: - Encoding

    /// Encodes RGBA8 rows (alpha ignored) as a baseline JPEG. Quality 90 and above keeps full
    /// chroma resolution (4:4:4); below it, chroma is subsampled 4:2:0 as most encoders do.
    static func encode(
        rgba pixels: UnsafeRawBufferPointer, width: Int, height: Int,
        quality: Int, path: String
    ) throws(MediaError) -> [UInt8] {
        precondition((1...100).contains(quality), "JPEG quality must be in 1...100, got \(quality)")
        precondition(pixels.count == width * height * 4, "expected \(width * height * 4) bytes, got \(pixels.count)")
        if let problem = MediaError.sizeProblem(width: width, height: height, path: path) { throw problem }
        guard let handle = tjInitCompress() else {
            throw .encodingFailed(path: path, format: "JPEG", message: "TurboJPEG could not start an encoder")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if let output { tjFree(output) } }
        let subsampling = quality >= 90 ? TJSAMP_444 : TJSAMP_420
        let status = tjCompress2(
            handle, pixels.baseAddress?.assumingMemoryBound(to: UInt8.self),
            Int32(width), Int32(width * 4), Int32(height), Int32(TJPF_RGBA.rawValue),
            &output, &size, Int32(subsampling.rawValue), Int32(quality), 0)
        guard status == 0, let output else {
            throw .encodingFailed(path: path, format: "JPEG", message: message(handle))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// TurboJPEG's message for the last error on `handle`.
    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "TurboJPEG reported an unspecified error" }
        return String(cString: text)
    }
}
