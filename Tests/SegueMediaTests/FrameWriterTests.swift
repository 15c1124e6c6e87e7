import Foundation
import SegueCore
import SegueSystem
import SegueTestSupport
import Testing

@testable import SegueMedia

#if canImport(Glibc)
import Glibc
#endif

@Suite("Frame directories and raw frame streams")
struct FrameWriterTests {
    private let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory("media") }

    private func image(_ i: Int) -> Image {
        Image(width: 6, height: 4) { x, y in Pixel(UInt8(x * 40), UInt8(y * 60), UInt8(i * 50), 255) }
    }

    @Test func writesNumberedPNGsIntoANewDirectory() throws {
        let writer = try FrameDirectoryWriter(directory: dir.file("out/frames"))
        for i in 0..<3 { try writer.append(image(i)) }
        let translucent = Image(width: 6, height: 4, fill: Pixel(10, 20, 30, 40))
        let straight = translucent.straightRGBA()
        let last = try straight.withUnsafeBytes { try writer.append(straightRGBA: $0, width: 6, height: 4) }
        #expect(last == dir.file("out/frames/frame-00003.png"))
        #expect(writer.nextIndex == 4)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.file("out/frames")).sorted()
        #expect(names == ["frame-00000.png", "frame-00001.png", "frame-00002.png", "frame-00003.png"])
        for i in 0..<3 { #expect(try ImageFile.read(path: writer.path(forFrame: i)) == image(i)) }
        #expect(try ImageFile.read(path: last) == translucent)
    }

    @Test func customNamingAndFastCompression() throws {
        let writer = try FrameDirectoryWriter(directory: dir.path, prefix: "f", digits: 3, startIndex: 998, compression: .fast)
        try writer.append(image(0))
        try writer.append(image(1))
        #expect(dir.contents == ["f998.png", "f999.png"])
        #expect(try ImageFile.read(path: dir.file("f999.png")) == image(1))
        #expect(writer.path(forFrame: 1000) == dir.file("f1000.png"))
    }

    @Test("a frame's name: the prefix, ASCII digits, .png; nothing else counts (a render replaces only a directory of frames)")
    func frameNames() {
        for name in ["frame-00000.png", "frame-7.png", "frame-123456789.png"] { #expect(FrameDirectoryWriter.isFrameName(name), "\(name)") }
        for name in ["frame-.png", "frame-½.png", "frame-٣.png", "frame-12a.png", "frame-1.PNG", "frame1.png", "notes.txt", ".png"] {
            #expect(!FrameDirectoryWriter.isFrameName(name), "\(name)")
        }
        #expect(FrameDirectoryWriter.isFrameName("shot-01.png", prefix: "shot-"))
    }

    @Test func fileInTheWayOfTheDirectory() {
        writeFixture([1], to: dir.file("frames"))
        let error = mediaError { () throws(MediaError) in try FrameDirectoryWriter(directory: dir.file("frames/sub")) }
        guard case .unwritable(_, let reason)? = error else {
            Issue.record("expected .unwritable, got \(String(describing: error))"); return
        }
        #expect(reason.contains("in the way") || reason.contains("not a directory"))
    }

    // MARK: - Raw frames

    @Test func rawFramesGoThroughAPipeWhole() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        // 1 MiB frames are bigger than a pipe's buffer: the writer must loop over partial writes.
        let frameSize = 1 << 20
        let frame = (0..<frameSize).map { UInt8($0 % 251) }
        let received = Locked([UInt8]())
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                received.withLock { $0 += chunk[0..<n] }
            }
        }
        reader.start()
        let writer = RawFrameWriter(fileDescriptor: writeEnd, name: "<pipe>")
        try frame.withUnsafeBytes { try writer.write(frame: $0) }
        try writer.write(Image(width: 2, height: 1, fill: Pixel(50, 0, 0, 128)))
        try writer.write(Image(width: 2, height: 1, fill: Pixel(50, 0, 0, 128)), premultiplied: true)
        close(writeEnd)
        while received.withLock({ $0.count }) < frameSize + 16 { Thread.sleep(forTimeInterval: 0.001) }
        close(readEnd)
        let bytes = received.withLock { $0 }
        #expect(writer.frameCount == 3)
        #expect(Array(bytes[0..<frameSize]) == frame)
        #expect(Array(bytes[frameSize...]) == [100, 0, 0, 128, 100, 0, 0, 128, 50, 0, 0, 128, 50, 0, 0, 128])
    }

    @Test func closedPipeIsAnErrorNotASignal() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        let writer = RawFrameWriter(fileDescriptor: fds[1])
        let error = mediaError { () throws(MediaError) in try writer.write(Image(width: 4, height: 4, fill: .white)) }
        #expect(error == .writeFailed(path: "<stdout>", reason: "the reading end of the pipe was closed"))
    }
}
