import Foundation
import SegueCore
import SegueMath
import SegueTestSupport
import Testing

@testable import SegueMedia

#if canImport(Glibc)
import Glibc
#endif

@Suite("Bad image input and output")
struct ImageFileErrorTests {
    private let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory("media") }

    private func readError(_ path: String) -> MediaError? {
        mediaError { () throws(MediaError) in try ImageFile.read(path: path) }
    }

    private func decodeError(_ bytes: [UInt8], _ name: String) -> MediaError? {
        mediaError { () throws(MediaError) in try ImageFile.decode(data: bytes, path: name) }
    }

    // MARK: - Reading

    @Test func missingFile() {
        let path = dir.file("nope.png")
        let error = readError(path)
        #expect(error == .fileNotFound(path: path))
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("no such file") == true)
    }

    @Test func directoryInsteadOfFile() {
        let error = readError(dir.path)
        guard case .unreadable(let path, let reason)? = error else {
            Issue.record("expected .unreadable, got \(String(describing: error))"); return
        }
        #expect(path == dir.path && reason.contains("directory"))
    }

    @Test("a scale that is not a positive finite number is an error naming the file and the scale, never a trap")
    func badScale() throws {
        let path = dir.file("ok.png")
        try ImageFile.write(Image(width: 2, height: 2, fill: .white), to: path)
        let bytes = try ImageFile.encodePNG(Image(width: 2, height: 2, fill: .white))
        for scale in [0, -1, .nan, .infinity] {
            let read = mediaError { () throws(MediaError) in try ImageFile.read(path: path, scale: scale) }
            #expect(read?.description == "\(path): scale must be a positive number, got \(MessageText.number(scale))")
            let decoded = mediaError { () throws(MediaError) in try ImageFile.decode(data: bytes, scale: scale, path: "mem.png") }
            #expect(decoded?.description == "mem.png: scale must be a positive number, got \(MessageText.number(scale))")
        }
        #expect(
            mediaError { () throws(MediaError) in try ImageFile.read(path: path, scale: -1) }
                == .invalidScale(path: path, ImageScaleError(scale: -1, range: .positive)))
        // Checked before the file is opened: a missing file at a bad scale names the scale.
        #expect(
            mediaError { () throws(MediaError) in try ImageFile.read(path: dir.file("nope.png"), scale: 0) }?.description
                == "\(dir.file("nope.png")): scale must be a positive number, got 0")
        #expect(try ImageFile.read(path: path, scale: 3).scale == 3)
    }

    @Test func emptyFile() {
        writeFixture([], to: dir.file("empty.png"))
        let error = readError(dir.file("empty.png"))
        #expect(error == .unknownFormat(path: dir.file("empty.png"), reason: "the file is empty"))
        #expect(error?.description.contains("not a PNG or JPEG") == true)
    }

    @Test func randomBytes() {
        var generator = SplitMix64(seed: 7)
        let bytes = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        writeFixture(bytes, to: dir.file("noise.png"))
        let error = readError(dir.file("noise.png"))
        guard case .unknownFormat(let path, let reason)? = error else {
            Issue.record("expected .unknownFormat, got \(String(describing: error))"); return
        }
        #expect(path == dir.file("noise.png"))
        #expect(reason.contains("starts with the bytes"))
    }

    @Test func truncatedPNG() throws {
        let image = Image(width: 40, height: 30, straightRGBA: straightPattern(width: 40, height: 30, alpha: true))
        let bytes = try ImageFile.encodePNG(image)
        for cut in [20, 40, bytes.count / 2, bytes.count - 20] {
            let error = decodeError(Array(bytes.prefix(cut)), "cut.png")
            guard case .corrupt(let path, let format, let message)? = error else {
                Issue.record("cut at \(cut): expected .corrupt, got \(String(describing: error))"); continue
            }
            #expect(path == "cut.png" && format == "PNG" && !message.isEmpty)
            #expect(error?.description.contains("corrupt or truncated") == true)
        }
    }

    @Test func truncatedJPEG() throws {
        let image = Image(width: 64, height: 64) { x, y in Pixel(UInt8(x * 3), UInt8(y * 2), 90) }
        let bytes = try ImageFile.encodeJPEG(image)
        for cut in [3, 40, bytes.count / 2, bytes.count - 10] {
            let error = decodeError(Array(bytes.prefix(cut)), "cut.jpg")
            guard case .corrupt(_, let format, let message)? = error else {
                Issue.record("cut at \(cut): expected .corrupt, got \(String(describing: error))"); continue
            }
            #expect(format == "JPEG" && !message.isEmpty)
        }
    }

    @Test func pngHeaderTooWideIsRefusedFromTheHeader() {
        let path = dir.file("wide.png")
        writeFixture(craftedPNG(width: 20_000, height: 10), to: path)
        let error = readError(path)
        #expect(error == .imageTooLarge(path: path, .sideTooLarge(width: 20_000, height: 10, limit: Image.maximumSide)))
        #expect(error?.description.contains("too large") == true)
    }

    @Test func pngHeaderOfFortyGigabytesIsRefusedBeforeAllocating() {
        // 100000 x 100000 RGBA8 would need 40 GB: reaching the allocation would crash the test.
        let error = decodeError(craftedPNG(width: 100_000, height: 100_000), "huge.png")
        guard case .imageTooLarge(_, .sideTooLarge(100_000, 100_000, _))? = error else {
            Issue.record("expected .imageTooLarge, got \(String(describing: error))"); return
        }
    }

    @Test func pngWithBadChecksum() {
        var bytes = craftedPNG(width: 4, height: 4)
        bytes[29] ^= 0xFF  // corrupt the IHDR CRC
        guard case .corrupt(_, "PNG", _)? = decodeError(bytes, "crc.png") else {
            Issue.record("expected .corrupt"); return
        }
    }

    @Test func jpegHeaderTooLargeIsRefusedFromTheHeader() throws {
        var bytes = try ImageFile.encodeJPEG(Image(width: 16, height: 16, fill: .white))
        // Patch the SOF0 frame header (FF C0, length, precision, height, width) to 60000 x 50000.
        let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = UInt8(50_000 >> 8); bytes[sof + 6] = UInt8(50_000 & 0xFF)
        bytes[sof + 7] = UInt8(60_000 >> 8); bytes[sof + 8] = UInt8(60_000 & 0xFF)
        let error = decodeError(bytes, "huge.jpg")
        #expect(error == .imageTooLarge(path: "huge.jpg", .sideTooLarge(width: 60_000, height: 50_000, limit: Image.maximumSide)))
    }

    // MARK: - Writing

    @Test func missingOutputDirectory() {
        let path = dir.file("missing/sub/out.png")
        let error = mediaError { () throws(MediaError) in try ImageFile.write(Image(width: 1, height: 1, fill: .white), to: path) }
        guard case .unwritable(path, let reason)? = error else {
            Issue.record("expected .unwritable, got \(String(describing: error))"); return
        }
        #expect(reason.contains("does not exist"))
        #expect(error?.description.contains(path) == true)
    }

    @Test(.enabled(if: geteuid() != 0, "root ignores directory permissions"))
    func readOnlyOutputDirectory() throws {
        let locked = dir.file("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        chmod(locked, 0o555)
        defer { chmod(locked, 0o755) }
        let error = mediaError { () throws(MediaError) in
            try ImageFile.write(Image(width: 1, height: 1, fill: .white), to: locked + "/out.png")
        }
        guard case .unwritable(_, let reason)? = error else { Issue.record("expected .unwritable"); return }
        #expect(reason.contains("permission denied"))
    }

    @Test func directoryInTheWayOfTheOutput() throws {
        try FileManager.default.createDirectory(atPath: dir.file("out.png"), withIntermediateDirectories: false)
        let error = mediaError { () throws(MediaError) in
            try ImageFile.write(Image(width: 1, height: 1, fill: .white), to: dir.file("out.png"))
        }
        guard case .unwritable(_, let reason)? = error else { Issue.record("expected .unwritable"); return }
        #expect(reason.contains("directory"))
        #expect(dir.contents == ["out.png"])
    }

    @Test func unknownOutputExtension() {
        let error = mediaError { () throws(MediaError) in
            try ImageFile.write(Image(width: 1, height: 1, fill: .white), to: dir.file("out.tiff"))
        }
        #expect(error == .unknownOutputFormat(path: dir.file("out.tiff"), supported: ["png", "jpg", "jpeg"]))
        #expect(error?.description.contains(".png") == true)
        #expect(dir.contents.isEmpty)
    }
}
