import Foundation
import Segue
import SegueTestSupport
import SegueTools
import Testing

@Suite("Sample screens")
struct SampleScreensTests {
    /// The fraction of pixels at which two same-sized images differ.
    private func difference(_ a: Image, _ b: Image) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var differing = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] { differing += 1 }
        }
        return Double(differing) / Double(a.width * a.height)
    }

    private func mirroredLeftRight(_ image: Image) -> Image {
        Image(width: image.width, height: image.height) { x, y in image[image.width - 1 - x, y] }
    }

    private func mirroredTopBottom(_ image: Image) -> Image {
        Image(width: image.width, height: image.height) { x, y in image[x, image.height - 1 - y] }
    }

    @Test(arguments: [(1.0, 390, 844), (2.0, 780, 1688), (3.0, 1170, 2532)])
    func pixelSizeIsPointsTimesScale(scale: Double, width: Int, height: Int) {
        for screen in SampleScreens.all {
            let image = screen.render(scale)
            #expect(image.width == width && image.height == height, "\(screen.name)")
            #expect(image.scale == scale)
            #expect(image.pointWidth == 390 && image.pointHeight == 844)
        }
    }

    @Test func defaultScaleIsOne() {
        #expect(SampleScreens.home().width == 390)
        #expect(SampleScreens.detail().height == 844)
    }

    @Test func screensAreOpaqueAndDeterministic() {
        for screen in SampleScreens.all {
            let a = screen.render(1), b = screen.render(1)
            #expect(a == b, "\(screen.name) is not deterministic")
            #expect(a.isOpaque, "\(screen.name)")
        }
    }

    @Test func screensDifferFromEachOther() {
        let images = SampleScreens.all.map { $0.render(1) }
        for i in images.indices {
            for j in images.indices where i < j {
                let d = difference(images[i], images[j])
                #expect(d > 0.8, "\(SampleScreens.all[i].name) vs \(SampleScreens.all[j].name): only \(d) differs")
            }
        }
        // Distinct backgrounds: the top-left cell interior of each screen has its own colour.
        let corners = Set(images.map { $0[15, 130] })
        #expect(corners.count == images.count)
    }

    @Test func screensAreNotSymmetric() {
        for screen in SampleScreens.all {
            let image = screen.render(1)
            let leftRight = difference(image, mirroredLeftRight(image))
            let topBottom = difference(image, mirroredTopBottom(image))
            #expect(leftRight > 0.1, "\(screen.name) is nearly left-right symmetric (\(leftRight))")
            #expect(topBottom > 0.3, "\(screen.name) is nearly top-bottom symmetric (\(topBottom))")
        }
    }

    @Test func gridLinesAreVisibleEveryThirtyPoints() {
        for scale in [1.0, 3.0] {
            let home = SampleScreens.home(scale: scale)
            // Between the triangle (ends at y = 390) and the first card (starts at y = 430).
            let y = Int(415 * scale)
            let line = home[Int(120 * scale), y], background = home[Int(135 * scale), y]
            #expect(line != background, "scale \(scale)")
            #expect(home[Int(150 * scale), y] == line && home[Int(165 * scale), y] == background)
            // A horizontal line at y = 420 points crosses the same gap.
            #expect(home[Int(135 * scale), Int(420 * scale)] == line)
        }
    }

    @Test func bigDigitsSitWhereExpected() {
        // Home's "1" (navy, 24-point cells from (28, 140)): its base row is full, its top row only
        // has the middle cell, so it is not symmetric about either axis.
        let home = SampleScreens.home()
        let navy = home[28 + 60, 140 + 12]  // middle cell of the top row
        #expect(navy == Pixel(16, 44, 120))
        #expect(home[28 + 12, 140 + 6 * 24 + 12] == navy)  // base, left
        #expect(home[28 + 108, 140 + 6 * 24 + 12] == navy)  // base, right
        #expect(home[28 + 12, 140 + 12] != navy)  // top-left cell is empty
        // Detail's "2" is white on the magenta card.
        let detail = SampleScreens.detail()
        #expect(detail[44 + 12, 147 + 6 * 24 + 12] == .white)
        #expect(detail[44 + 12, 147 + 2 * 24 + 12] == Pixel(210, 30, 120))
    }

    @Test func registryByName() throws {
        #expect(SampleScreens.all.map(\.name) == ["home", "detail", "settings"])
        let detail = try #require(SampleScreens.named("detail"))
        #expect(detail.render(2) == SampleScreens.detail(scale: 2))
        #expect(SampleScreens.named("nope") == nil)
        #expect(SampleScreens.all.allSatisfy { !$0.summary.isEmpty })
    }
}
