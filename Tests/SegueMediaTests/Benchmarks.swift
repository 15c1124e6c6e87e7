import Foundation
import SegueCore
import SegueMedia
import SegueTools
import Testing

/// Timings for the report, not assertions: run with `SEGUE_BENCH=1 swift test -c release --filter Benchmarks`.
@Suite("Benchmarks", .enabled(if: ProcessInfo.processInfo.environment["SEGUE_BENCH"] != nil))
struct Benchmarks {
    private func time(_ label: String, repeat count: Int = 5, _ body: () throws -> Void) rethrows {
        var best = Double.infinity
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        print("bench \(label): \(String(format: "%.1f", best)) ms (best of \(count))")
    }

    @Test func fullHDStills() throws {
        let home = SampleScreens.home()
        let ui = Image(width: 1920, height: 1080) { x, y in home[x % 390, y % 844] }
        var noise = UInt64(1)
        let photo = Image(width: 1920, height: 1080) { x, y in
            noise = noise &* 6364136223846793005 &+ 1442695040888963407
            let n = Int(noise >> 61)
            return Pixel(UInt8((x / 8 + n) & 0xFF), UInt8((y / 5 + n) & 0xFF), UInt8(((x + y) / 12) & 0xFF))
        }
        for (name, image) in [("ui", ui), ("photo", photo)] {
            var png = [UInt8](), fast = [UInt8](), jpeg = [UInt8]()
            try time("1080p \(name) PNG encode (default)") { png = try ImageFile.encodePNG(image) }
            try time("1080p \(name) PNG encode (fast)") { fast = try ImageFile.encodePNG(image, compression: .fast) }
            try time("1080p \(name) PNG decode") { _ = try ImageFile.decode(data: png) }
            try time("1080p \(name) JPEG encode q92") { jpeg = try ImageFile.encodeJPEG(image) }
            try time("1080p \(name) JPEG decode") { _ = try ImageFile.decode(data: jpeg) }
            print(
                "bench 1080p \(name) sizes: PNG \(png.count / 1024) KiB, fast PNG \(fast.count / 1024) KiB, JPEG \(jpeg.count / 1024) KiB")
        }
        let translucent = Image(width: 1920, height: 1080) { x, _ in Pixel(UInt8(x / 16), 0, UInt8(x / 16), UInt8(x / 8 + 15)) }
        try time("1080p translucent PNG encode (default)") { _ = try ImageFile.encodePNG(translucent) }
    }

    @Test func sampleScreens() {
        for screen in SampleScreens.all {
            time("sample screen \(screen.name) @1x") { _ = screen.render(1) }
            time("sample screen \(screen.name) @3x", repeat: 2) { _ = screen.render(3) }
        }
    }
}
