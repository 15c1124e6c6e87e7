// EXIF orientation of JPEG files (a phone photo stores its pixels as the sensor saw them and says
// how to turn them in IFD0's Orientation tag, 0x0112). Read from the APP1 "Exif" segment with
// every offset bounds-checked (the bytes are untrusted); TIFF byte order "II" or "MM".
//
// Orientation values (EXIF 2.3, TIFF 6.0): 1 as stored; 2 mirrored left-right; 3 turned 180°;
// 4 mirrored top-bottom; 5 transposed (mirrored across the main diagonal); 6 needs a quarter turn
// clockwise; 7 transversed (across the other diagonal); 8 needs a quarter turn anticlockwise.
import SegueCore

/// How a JPEG's stored pixels are turned for display.
enum ExifOrientation: Int {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// The orientation in `jpeg`'s first Exif segment; `.up` when there is none or it is malformed.
    static func read(_ jpeg: [UInt8]) -> ExifOrientation {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return .up }
        var i = 2
        // Walk the marker segments before the image data.
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1]
            if marker == 0xDA || marker == 0xD9 { break }  // start of scan, end of image
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            guard length >= 2, i + 2 + length <= jpeg.count else { return .up }
            if marker == 0xE1, length >= 8, jpeg[(i + 4)..<(i + 10)].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) {
                return tiff(Array(jpeg[(i + 10)..<(i + 2 + length)])) ?? .up
            }
            i += 2 + length
        }
        return .up
    }

    /// The Orientation tag of a TIFF structure's IFD0.
    private static func tiff(_ t: [UInt8]) -> ExifOrientation? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= t.count else { return nil }
            return little ? Int(t[at]) | Int(t[at + 1]) << 8 : Int(t[at]) << 8 | Int(t[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for k in 0..<min(count, 512) {
            let entry = ifd + 2 + 12 * k
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }  // SHORT
                return ExifOrientation(rawValue: value)
            }
        }
        return nil
    }

    /// `image` turned for display.
    func apply(to image: Image) -> Image {
        if self == .up { return image }
        let w = image.width, h = image.height
        let swaps = rawValue >= 5
        let ow = swaps ? h : w, oh = swaps ? w : h
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<oh {
                    for x in 0..<ow {
                        let (sx, sy): (Int, Int)
                        switch self {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        let s = (sy * w + sx) * 4, d = (y * ow + x) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = src[s + 3]
                    }
                }
            }
        }
        return Image(width: ow, height: oh, scale: image.scale, premultipliedRGBA: out)
    }
}
