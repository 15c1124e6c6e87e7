/// A still-image file format Segue reads and writes.
import SegueSystem

public enum ImageFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// PNG: lossless, keeps alpha (stored straight, not premultiplied).
    case png
    /// JPEG: lossy, no alpha (images are written as their premultiplied RGB, i.e. over black).
    case jpeg

    /// The format whose usual extension `path` ends with (`.png`, `.jpg`, `.jpeg`; any case).
    public init?(pathExtensionOf path: String) {
        switch FileIO.pathExtension(of: path) {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        default: return nil
        }
    }

    /// The format whose signature `bytes` starts with, or nil.
    public init?(magic bytes: some Collection<UInt8>) {
        if bytes.starts(with: ImageFormat.pngSignature) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else {
            return nil
        }
    }

    /// The extensions recognised for output, without dots.
    public static let extensions = ["png", "jpg", "jpeg"]

    /// "PNG" or "JPEG".
    public var description: String { rawValue.uppercased() }

    /// The 8-byte PNG file signature.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
