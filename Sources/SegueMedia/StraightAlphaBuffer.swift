import SegueCore

/// Turns premultiplied RGBA8 frames into straight alpha for file formats, reusing one buffer and
/// copying nothing for opaque frames (premultiplied and straight agree there).
public final class StraightAlphaBuffer {
    private var scratch: [UInt8]

    /// A buffer for frames of `byteCount` bytes.
    public init(byteCount: Int) { scratch = [UInt8](repeating: 0, count: byteCount) }

    /// Calls `body` with `pixels` in straight alpha: the same memory when every pixel is opaque,
    /// else an unpremultiplied copy.
    public func withStraightAlpha<E: Error>(
        _ pixels: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        if Image.isOpaque(pixels) { return try body(pixels) }
        if scratch.count != pixels.count { scratch = [UInt8](repeating: 0, count: pixels.count) }
        let result: Result<Void, E> = scratch.withUnsafeMutableBytes { buffer in
            buffer.copyMemory(from: pixels)
            Image.unpremultiply(buffer)
            do throws(E) {
                try body(UnsafeRawBufferPointer(buffer))
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}
