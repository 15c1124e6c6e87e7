// Frames as 8-bit Y'CbCr 4:2:0 (ffmpeg's `yuv420p`: the Y plane, then Cb and Cr at half width
// and height), BT.709 matrix, limited range — what H.264, HEVC and VP9 encode. Decoders can hand
// frames over in it and the encoder take them, so frames that no transition touches skip two
// colour conversions and 60 % of the bytes of RGBA. Transition frames are converted here, on
// the CPU, in 16.16 fixed point.

/// How raw frames are laid out between Segue and ffmpeg.
public enum RawPixelFormat: String, Sendable, Hashable {
    /// RGBA8, 4 bytes a pixel.
    case rgba
    /// Y'CbCr 4:2:0, BT.709, limited range: 1.5 bytes a pixel (even sizes only).
    case yuv420p

    /// Bytes in one `width`×`height` frame.
    public func byteCount(width: Int, height: Int) -> Int {
        switch self {
        case .rgba: width * height * 4
        case .yuv420p: YUV420.byteCount(width: width, height: height)
        }
    }
}

/// Conversions between RGBA8 and Y'CbCr 4:2:0 (BT.709, limited range).
public enum YUV420 {
    /// Bytes in a `width`×`height` frame (both even).
    public static func byteCount(width: Int, height: Int) -> Int { width * height + 2 * (width / 2) * (height / 2) }

    /// RGBA8 (premultiplied, so colour over black; alpha is dropped) to Y'CbCr 4:2:0. Each 2×2
    /// block's chroma is that of the block's mean colour.
    public static func fromRGBA(_ rgba: UnsafeRawBufferPointer, width: Int, height: Int, into yuv: UnsafeMutableRawBufferPointer) {
        precondition(width % 2 == 0 && height % 2 == 0, "4:2:0 needs an even size")
        precondition(rgba.count == width * height * 4 && yuv.count == byteCount(width: width, height: height), "buffer sizes")
        let src = rgba.bindMemory(to: UInt8.self), dst = yuv.bindMemory(to: UInt8.self)
        let cw = width / 2
        let cbBase = width * height, crBase = cbBase + cw * (height / 2)
        for cy in 0..<(height / 2) {
            for cx in 0..<cw {
                var sr = 0, sg = 0, sb = 0
                for dy in 0..<2 {
                    let y = cy * 2 + dy
                    for dx in 0..<2 {
                        let x = cx * 2 + dx
                        let i = (y * width + x) * 4
                        let r = Int(src[i]), g = Int(src[i + 1]), b = Int(src[i + 2])
                        sr += r; sg += g; sb += b
                        dst[y * width + x] = UInt8(((11966 * r + 40254 * g + 4064 * b + 32768) >> 16) + 16)
                    }
                }
                // The block's mean colour (the sums are ×4: a shift of 18 instead of 16).
                dst[cbBase + cy * cw + cx] = UInt8(clamping: ((-6596 * sr - 22189 * sg + 28785 * sb + 131_072) >> 18) + 128)
                dst[crBase + cy * cw + cx] = UInt8(clamping: ((28784 * sr - 26145 * sg - 2639 * sb + 131_072) >> 18) + 128)
            }
        }
    }

    /// Y'CbCr 4:2:0 to opaque RGBA8; each chroma sample covers its 2×2 block.
    public static func toRGBA(_ yuv: UnsafeRawBufferPointer, width: Int, height: Int, into rgba: UnsafeMutableRawBufferPointer) {
        precondition(width % 2 == 0 && height % 2 == 0, "4:2:0 needs an even size")
        precondition(rgba.count == width * height * 4 && yuv.count == byteCount(width: width, height: height), "buffer sizes")
        let src = yuv.bindMemory(to: UInt8.self), dst = rgba.bindMemory(to: UInt8.self)
        let cw = width / 2
        let cbBase = width * height, crBase = cbBase + cw * (height / 2)
        for y in 0..<height {
            let chromaRow = (y / 2) * cw
            for x in 0..<width {
                let c = 76309 * (Int(src[y * width + x]) - 16) + 32768
                let d = Int(src[cbBase + chromaRow + x / 2]) - 128
                let e = Int(src[crBase + chromaRow + x / 2]) - 128
                let i = (y * width + x) * 4
                dst[i] = UInt8(clamping: (c + 117_489 * e) >> 16)
                dst[i + 1] = UInt8(clamping: (c - 13975 * d - 34925 * e) >> 16)
                dst[i + 2] = UInt8(clamping: (c + 138_438 * d) >> 16)
                dst[i + 3] = 255
            }
        }
    }
}
