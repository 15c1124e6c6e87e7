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
        let (cw, ch) = checkSizes(rgba: rgba.count, yuv: yuv.count, width: width, height: height)
        let src = rgba.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let dst = yuv.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let cb = dst + width * height, cr = cb + cw * ch
        for cy in 0..<(height / 2) {
            let top = src + cy * 2 * width * 4, bottom = top + width * 4
            let lumaTop = dst + cy * 2 * width, lumaBottom = lumaTop + width
            for cx in 0..<cw {
                var sr: Int32 = 0, sg: Int32 = 0, sb: Int32 = 0
                @inline(__always) func pixel(_ row: UnsafePointer<UInt8>, _ luma: UnsafeMutablePointer<UInt8>, _ x: Int) {
                    let r = Int32(row[x * 4]), g = Int32(row[x * 4 + 1]), b = Int32(row[x * 4 + 2])
                    sr += r; sg += g; sb += b
                    luma[x] = UInt8(truncatingIfNeeded: ((11966 * r + 40254 * g + 4064 * b + 32768) >> 16) + 16)
                }
                pixel(top, lumaTop, cx * 2); pixel(top, lumaTop, cx * 2 + 1)
                pixel(bottom, lumaBottom, cx * 2); pixel(bottom, lumaBottom, cx * 2 + 1)
                // The block's mean colour (the sums are ×4: a shift of 18 instead of 16).
                cb[cy * cw + cx] = UInt8(truncatingIfNeeded: ((-6596 * sr - 22189 * sg + 28785 * sb + 131_072) >> 18) + 128)
                cr[cy * cw + cx] = UInt8(truncatingIfNeeded: ((28784 * sr - 26145 * sg - 2639 * sb + 131_072) >> 18) + 128)
            }
        }
    }

    /// Checks an even size and both buffers' lengths; returns the chroma planes' width and height.
    private static func checkSizes(rgba: Int, yuv: Int, width: Int, height: Int) -> (width: Int, height: Int) {
        precondition(width % 2 == 0 && height % 2 == 0, "4:2:0 needs an even size")
        precondition(rgba == width * height * 4 && yuv == byteCount(width: width, height: height), "buffer sizes")
        return (width / 2, height / 2)
    }

    /// Y'CbCr 4:2:0 to opaque RGBA8; each chroma sample covers its 2×2 block.
    public static func toRGBA(_ yuv: UnsafeRawBufferPointer, width: Int, height: Int, into rgba: UnsafeMutableRawBufferPointer) {
        let (cw, ch) = checkSizes(rgba: rgba.count, yuv: yuv.count, width: width, height: height)
        let src = yuv.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let dst = rgba.baseAddress!.assumingMemoryBound(to: UInt32.self)
        let cb = src + width * height, cr = cb + cw * ch
        @inline(__always) func clamp(_ v: Int32) -> UInt32 { UInt32(truncatingIfNeeded: min(max(v >> 16, 0), 255)) }
        for y in 0..<height {
            let luma = src + y * width, out = dst + y * width
            let cbRow = cb + (y / 2) * cw, crRow = cr + (y / 2) * cw
            for cx in 0..<cw {
                let d = Int32(cbRow[cx]) - 128, e = Int32(crRow[cx]) - 128
                let rc = 117_489 * e, gc = -13975 * d - 34925 * e, bc = 138_438 * d
                for dx in 0..<2 {
                    let x = cx * 2 + dx
                    let c = 76309 * (Int32(luma[x]) - 16) + 32768
                    out[x] = (clamp(c + rc) | clamp(c + gc) << 8 | clamp(c + bc) << 16 | 0xFF00_0000).littleEndian
                }
            }
        }
    }
}
