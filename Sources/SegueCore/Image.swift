import SegueMath

// An RGBA8 image with premultiplied alpha and a UIKit-style scale (pixels per point).
//
// Pixels are stored row-major from the top-left corner, 4 bytes a pixel, no row padding, with
// sRGB-encoded values blended as stored (shared/DESIGN.md, "Colour"). Files on disk use straight
// alpha; `init(straightRGBA:)` and `straightRGBA()` convert at that boundary.

/// One premultiplied RGBA8 pixel.
public struct Pixel: Sendable, Hashable, CustomStringConvertible {
    /// Red, premultiplied by alpha.
    public var r: UInt8
    /// Green, premultiplied by alpha.
    public var g: UInt8
    /// Blue, premultiplied by alpha.
    public var b: UInt8
    /// Alpha (coverage).
    public var a: UInt8

    /// A pixel from premultiplied components.
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        precondition(r <= a && g <= a && b <= a, "premultiplied colour components cannot exceed alpha")
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// Opaque black.
    public static let black = Pixel(0, 0, 0)
    /// Opaque white.
    public static let white = Pixel(255, 255, 255)
    /// Fully transparent.
    public static let clear = Pixel(0, 0, 0, 0)

    public var description: String { "(\(r), \(g), \(b), \(a))" }
}

/// A premultiplied RGBA8 image with a scale factor, the unit every Segue layer exchanges.
public struct Image: Sendable, Equatable {
    /// The largest width or height Segue accepts, in pixels.
    public static let maximumSide = 16_384
    /// The largest pixel count Segue accepts (64 megapixels, 256 MiB of RGBA8).
    public static let maximumPixelCount = 64 * 1024 * 1024

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Pixels per point, as `UIScreen.scale`; geometry given in points is multiplied by it.
    public var scale: Double
    /// Premultiplied RGBA8 bytes, `width * height * 4` of them, rows top to bottom.
    public private(set) var pixels: [UInt8]

    /// Width in points (`width / scale`).
    public var pointWidth: Double { Double(width) / scale }
    /// Height in points (`height / scale`).
    public var pointHeight: Double { Double(height) / scale }
    /// Width over height.
    public var aspectRatio: Double { Double(width) / Double(height) }

    /// Checks that a size is one Segue will allocate, before anything is allocated.
    /// - Throws: `ImageSizeError` naming the limit that was broken.
    public static func validateSize(width: Int, height: Int) throws(ImageSizeError) {
        guard width > 0, height > 0 else { throw .empty(width: width, height: height) }
        guard width <= maximumSide, height <= maximumSide else {
            throw .sideTooLarge(width: width, height: height, limit: maximumSide)
        }
        guard width * height <= maximumPixelCount else {
            throw .tooManyPixels(width: width, height: height, limit: maximumPixelCount)
        }
    }

    /// Reads a size written `WxH` ("1920x1080"; the `x` in either case), checked as `validateSize`
    /// checks one: the one reader of a size a user types.
    /// - Throws: `ImageSizeError.malformed` for text of another form (a side that is not a
    ///   whole number above 0), or the limit the size breaks.
    public static func parseSize(_ text: String) throws(ImageSizeError) -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            throw .malformed(text: text)
        }
        try validateSize(width: width, height: height)
        return (width, height)
    }

    /// An image from premultiplied RGBA8 bytes.
    /// - Precondition: `pixels.count == width * height * 4`, the size passes `validateSize` and
    ///   the scale `validateScale` (check a caller's numbers with them first).
    public init(width: Int, height: Int, scale: Double = 1, premultipliedRGBA pixels: [UInt8]) {
        precondition((try? Image.validateSize(width: width, height: height)) != nil, "invalid image size \(width)x\(height)")
        precondition(pixels.count == width * height * 4, "expected \(width * height * 4) bytes, got \(pixels.count)")
        precondition(scale.isFinite && scale > 0, "scale must be positive and finite")
        self.width = width
        self.height = height
        self.scale = scale
        self.pixels = pixels
    }

    /// An image filled with one pixel.
    public init(width: Int, height: Int, scale: Double = 1, fill: Pixel) {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: bytes.count, by: 4) {
            bytes[i] = fill.r; bytes[i + 1] = fill.g; bytes[i + 2] = fill.b; bytes[i + 3] = fill.a
        }
        self.init(width: width, height: height, scale: scale, premultipliedRGBA: bytes)
    }

    /// An image whose pixels come from a closure called once per pixel, row by row.
    public init(width: Int, height: Int, scale: Double = 1, _ pixel: (_ x: Int, _ y: Int) -> Pixel) {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        var i = 0
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y)
                bytes[i] = p.r; bytes[i + 1] = p.g; bytes[i + 2] = p.b; bytes[i + 3] = p.a
                i += 4
            }
        }
        self.init(width: width, height: height, scale: scale, premultipliedRGBA: bytes)
    }

    /// An image from straight-alpha RGBA8 bytes (as PNG stores them), premultiplying each pixel
    /// with rounding to nearest: `c' = round(c · a / 255)`.
    public init(width: Int, height: Int, scale: Double = 1, straightRGBA bytes: [UInt8]) {
        var out = bytes
        Image.premultiply(&out)
        self.init(width: width, height: height, scale: scale, premultipliedRGBA: out)
    }

    /// The pixel at column `x`, row `y` (top-left origin).
    public subscript(x: Int, y: Int) -> Pixel {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            let i = (y * width + x) * 4
            return Pixel(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            let i = (y * width + x) * 4
            pixels[i] = newValue.r; pixels[i + 1] = newValue.g; pixels[i + 2] = newValue.b; pixels[i + 3] = newValue.a
        }
    }

    /// Straight-alpha RGBA8 bytes (as PNG stores them): `c = round(c' · 255 / a)`, 0 where a = 0.
    public func straightRGBA() -> [UInt8] {
        var out = pixels
        Image.unpremultiply(&out)
        return out
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        pixels.withUnsafeBytes { Image.isOpaque($0) }
    }

    /// True when every alpha byte of RGBA8 `pixels` is 255 (then premultiplied and straight
    /// alpha agree).
    public static func isOpaque(_ pixels: UnsafeRawBufferPointer) -> Bool {
        if let base = pixels.baseAddress, Int(bitPattern: base) % 4 == 0, pixels.count % 4 == 0 {
            // A word at a time: in little-endian RGBA the alpha byte is the top one. The words of a
            // block are ANDed together (a loop without an exit, which the compiler vectorises),
            // and the block's alpha checked once: the scan runs at memory speed, not a branch a pixel.
            let words = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt32.self), count: pixels.count / 4)
            let block = 1024
            var start = 0
            while start < words.count {
                let end = min(start + block, words.count)
                var all: UInt32 = 0xFFFF_FFFF
                for i in start..<end { all &= words[i] }
                if UInt32(littleEndian: all) < 0xFF00_0000 { return false }
                start = end
            }
            return true
        }
        var i = 3
        while i < pixels.count {
            if pixels[i] != 255 { return false }
            i += 4
        }
        return true
    }

    // MARK: - Pixel loops

    /// Premultiplies straight-alpha RGBA8 bytes in place, rounding to nearest.
    public static func premultiply(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { premultiply($0) }
    }

    /// Premultiplies straight-alpha RGBA8 bytes in place (raw-buffer form, for frames decoded
    /// into reused buffers).
    public static func premultiply(_ pixels: UnsafeMutableRawBufferPointer) {
        if isOpaque(UnsafeRawBufferPointer(pixels)) { return }  // the common case, at memory speed
        let p = pixels.bindMemory(to: UInt8.self)
        var i = 0
        while i + 3 < p.count {
            let a = UInt32(p[i + 3])
            if a != 255 {
                for c in 0..<3 { p[i + c] = UInt8((UInt32(p[i + c]) * a + 127) / 255) }
            }
            i += 4
        }
    }

    /// Turns premultiplied RGBA8 bytes back into straight alpha in place, rounding to nearest;
    /// fully transparent pixels become (0, 0, 0, 0).
    public static func unpremultiply(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBufferPointer { p in
            unpremultiply(UnsafeMutableRawBufferPointer(p))
        }
    }

    /// Turns premultiplied RGBA8 bytes back into straight alpha in place (raw-buffer form, for
    /// frames read back from the GPU).
    public static func unpremultiply(_ p: UnsafeMutableRawBufferPointer) {
        if isOpaque(UnsafeRawBufferPointer(p)) { return }  // the common case, at memory speed
        var i = 0
        while i + 3 < p.count {
            let a = UInt32(p[i + 3])
            if a == 0 {
                p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
            } else if a != 255 {
                for c in 0..<3 { p[i + c] = UInt8(min(255, (UInt32(p[i + c]) * 255 + a / 2) / a)) }
            }
            i += 4
        }
    }
}

/// Why an image size was refused.
public enum ImageSizeError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// A zero or negative dimension.
    case empty(width: Int, height: Int)
    /// A side longer than `Image.maximumSide`.
    case sideTooLarge(width: Int, height: Int, limit: Int)
    /// More pixels than `Image.maximumPixelCount`.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Text that does not read as `WxH` (`Image.parseSize`).
    case malformed(text: String)

    public var description: String {
        switch self {
        case let .empty(w, h): "image size \(w)x\(h) is empty"
        case let .sideTooLarge(w, h, limit): "image size \(w)x\(h) exceeds the limit of \(limit) pixels a side"
        case let .tooManyPixels(w, h, limit): "image size \(w)x\(h) has \(w * h) pixels, more than the limit of \(limit)"
        case let .malformed(text): "size must look like 1920x1080, got '\(text)'"
        }
    }
}
