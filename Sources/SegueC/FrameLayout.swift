import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueVulkan

// The frames a C caller hands in: width × height RGBA8 with straight alpha, rows `stride` bytes
// apart. Checked before anything is read or allocated; converted to and from Segue's tightly
// packed premultiplied rows with the same rounding `segue frame` uses for PNG files
// (`Image.premultiply` on the way in, `Image.unpremultiply` on the way out).

/// The checked size and row spacing of a caller's frames.
struct FrameLayout: Equatable {
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int
    /// Bytes from one row's start to the next's (≥ `rowBytes`).
    let stride: Int

    /// Bytes of pixels in a row.
    var rowBytes: Int { width * 4 }
    /// Bytes of a tightly packed frame.
    var packedBytes: Int { rowBytes * height }

    /// Checks a caller's size and stride: each side 1…`Image.maximumSide`, at most
    /// `Image.maximumPixelCount` pixels, a stride of at least a row whose frame fits in an
    /// address space (2⁵⁷ bytes).
    /// - Throws: `ImageSizeError` for the size, `CAPIError` for the stride.
    init(width: UInt32, height: UInt32, stride: UInt) throws {
        let w = Int(width), h = Int(height)
        try Image.validateSize(width: w, height: h)
        guard stride <= UInt(Int.max) else { throw CAPIError("stride \(stride) is too large") }
        let s = Int(stride)
        guard s >= w * 4 else {
            throw CAPIError("stride \(s) is smaller than a row of \(w) RGBA8 pixels (\(w * 4) bytes)")
        }
        // No process has more than 2⁵⁷ bytes of address space (x86-64 and AArch64 with five-level
        // page tables): a frame larger than that is no caller's buffer, and writing it would
        // fault far outside the caller's memory.
        let (span, overflow) = s.multipliedReportingOverflow(by: h - 1)
        guard !overflow, span <= (1 << 57) - w * 4 else {
            throw CAPIError("stride \(s) × height \(h) does not fit in memory")
        }
        self.width = w
        self.height = h
        self.stride = s
    }

    private init(width: Int, height: Int, stride: Int) {
        (self.width, self.height, self.stride) = (width, height, stride)
    }

    /// The same size, tightly packed (the stride one row).
    var packed: FrameLayout { FrameLayout(width: width, height: height, stride: rowBytes) }

    /// Copies the caller's straight-alpha rows at `source` into `packed` (tightly packed,
    /// `packedBytes` long), premultiplying them. An opaque row (the usual video frame) is copied
    /// as it is; another is converted in a scratch row and then copied, so `packed` (GPU staging
    /// memory, possibly write-combined) is only written.
    func premultiplied(from source: UnsafePointer<UInt8>, into packed: UnsafeMutableRawBufferPointer) {
        guard let base = packed.baseAddress, packed.count >= packedBytes else { return }
        var scratch: UnsafeMutableRawPointer?
        defer { scratch?.deallocate() }
        for y in 0..<height {
            let row = UnsafeRawBufferPointer(start: source + y * stride, count: rowBytes)
            if Image.isOpaque(row) {
                (base + y * rowBytes).copyMemory(from: row.baseAddress!, byteCount: rowBytes)
                continue
            }
            let converted = scratch ?? UnsafeMutableRawPointer.allocate(byteCount: rowBytes, alignment: 16)
            scratch = converted
            converted.copyMemory(from: row.baseAddress!, byteCount: rowBytes)
            Image.premultiply(UnsafeMutableRawBufferPointer(start: converted, count: rowBytes))
            (base + y * rowBytes).copyMemory(from: converted, byteCount: rowBytes)
        }
    }

    /// The caller's frame at `source` as a premultiplied `Image`.
    func image(from source: UnsafePointer<UInt8>) -> Image {
        var bytes = [UInt8](repeating: 0, count: packedBytes)
        bytes.withUnsafeMutableBytes { premultiplied(from: source, into: $0) }
        return Image(width: width, height: height, premultipliedRGBA: bytes)
    }

    /// Writes tightly packed premultiplied `pixels` to the caller's `destination` rows, in
    /// straight alpha.
    /// - Precondition: `pixels.count == packedBytes`.
    func writeStraight(_ pixels: UnsafeRawBufferPointer, to destination: UnsafeMutablePointer<UInt8>) {
        precondition(pixels.count == packedBytes, "a frame of \(width)x\(height) pixels")
        guard let base = pixels.baseAddress else { return }
        let opaque = Image.isOpaque(pixels)  // then straight and premultiplied are the same bytes
        if opaque, stride == rowBytes {
            UnsafeMutableRawPointer(destination).copyMemory(from: base, byteCount: packedBytes)
            return
        }
        for y in 0..<height {
            let row = UnsafeMutableRawBufferPointer(start: destination + y * stride, count: rowBytes)
            row.copyMemory(from: UnsafeRawBufferPointer(start: base + y * rowBytes, count: rowBytes))
            if !opaque { Image.unpremultiply(row) }
        }
    }
}

/// Checks a progress and a time from a caller.
/// - Throws: `CAPIError` for NaN, infinities and a negative time.
func checkProgress(_ progress: Double?, time: Double) throws {
    if let progress, !progress.isFinite { throw CAPIError("progress must be a finite number, got \(MessageText.number(progress))") }
    guard time.isFinite, time >= 0 else { throw CAPIError("time must be a finite number of seconds ≥ 0, got \(MessageText.number(time))") }
}

/// Checks a duration from a caller.
/// - Throws: `CAPIError` unless finite and positive.
func checkDuration(_ seconds: Double) throws {
    guard seconds.isFinite, seconds > 0 else {
        throw CAPIError("duration must be a finite number of seconds > 0, got \(MessageText.number(seconds))")
    }
}
