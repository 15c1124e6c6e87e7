// Inputs that are not ordinary image files: a FIFO (which would block), devices that never end,
// a huge file of the wrong kind and one larger than the input limit. Each is refused from its type,
// its size or its first bytes, without reading the rest (sparse files use no disk).
import Foundation
import SegueCore
import SegueTestSupport
import Testing

@testable import SegueMedia

#if canImport(Glibc)
import Glibc
#endif

@Suite("Image inputs: type, size and first bytes checked before reading")
struct ImageInputLimitTests {
    private let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory("media") }

    private func readError(_ path: String) -> MediaError? {
        mediaError { () throws(MediaError) in try ImageFile.read(path: path) }
    }

    /// A sparse file of `size` bytes starting with `head`.
    private func sparse(_ name: String, size: UInt64, head: [UInt8]) throws -> String {
        let path = dir.file(name)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(head)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
        return path
    }

    @Test("a FIFO is refused at once, with or without a writer")
    func fifo() {
        let path = dir.file("pipe.png")
        #expect(mkfifo(path, 0o600) == 0)
        #expect(
            readError(path) == .unreadable(path: path, reason: "it is a pipe (FIFO), not a regular file; save the image to a file first"))
    }

    @Test("devices that never end are refused", arguments: ["/dev/zero", "/dev/urandom"])
    func device(path: String) {
        #expect(readError(path) == .unreadable(path: path, reason: "it is a device, not a regular file"))
    }

    @Test("a 6 GB file that is no image is called so from its first bytes")
    func hugeWrongKind() throws {
        let path = try sparse("six.png", size: 6 << 30, head: Array("not an image".utf8))
        guard case .unreadable(_, let reason)? = readError(path) else {
            Issue.record("a file over the limit should be refused by its size"); return
        }
        #expect(reason == "it is \(6 << 30) bytes, more than the \(ImageFile.maximumFileSize)-byte limit for an input image")
        // Under the size limit, the first bytes decide before the rest is read.
        let small = try sparse("zeros.png", size: 900 << 20, head: [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(readError(small) == .unknownFormat(path: small, reason: "it starts with the bytes 00 00 00 00 00 00 00 00"))
    }

    @Test("a PNG header on a file over the limit is refused by size, not decoded")
    func tooLargePNG() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let path = try sparse("big.png", size: UInt64(ImageFile.maximumFileSize) + 1, head: png)
        #expect(
            readError(path)
                == .unreadable(
                    path: path,
                    reason:
                        "it is \(ImageFile.maximumFileSize + 1) bytes, more than the \(ImageFile.maximumFileSize)-byte limit for an input image"
                ))
    }
}
