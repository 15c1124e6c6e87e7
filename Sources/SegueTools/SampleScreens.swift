// Procedural phone screens for demos and tests: every transition needs a "from" and a "to".
//
// Each screen is 390x844 points (an iPhone 14/15 portrait screen) drawn at any scale with a
// tiny rasteriser: axis-aligned rectangles with exact area coverage, and circles, rounded
// rectangles and triangles antialiased from their signed distance at pixel centres. The screens
// are deliberately asymmetric (left-aligned titles, a tab bar only at the bottom, block digits
// "1", "2", "3" with a flag and a base) so that flips, rotations and slide directions are
// obvious in every effect, and they carry a 30-point grid so that distortion shows.

import FoundationEssentials
import Segue

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A named sample screen, for listings such as the CLI's demo.
public struct SampleScreen: Sendable {
    /// A short identifier ("home", "detail", "settings").
    public let name: String
    /// One line describing the screen.
    public let summary: String
    /// Draws the screen at a scale (pixels per point).
    public let render: @Sendable (_ scale: Double) -> Image
}

/// Procedurally drawn, deterministic phone-sized screens (390x844 points, opaque).
public enum SampleScreens {
    /// Screen width in points.
    public static let pointWidth = 390.0
    /// Screen height in points.
    public static let pointHeight = 844.0
    /// Grid spacing in points.
    public static let gridSpacing = 30.0

    /// Every sample screen, in a stable order.
    public static let all: [SampleScreen] = [
        SampleScreen(name: "home", summary: "blue home screen: large title, big 1, shapes, cards, tab bar", render: { home(scale: $0) }),
        SampleScreen(name: "detail", summary: "peach detail screen: back chevron, hero card, big 2, button", render: { detail(scale: $0) }),
        SampleScreen(name: "settings", summary: "dark settings screen: big 3, toggles, list rows", render: { settings(scale: $0) }),
    ]

    /// The sample screen called `name`, if any.
    public static func named(_ name: String) -> SampleScreen? {
        all.first { $0.name == name }
    }

    /// The pixel size of a screen at `scale`: points times scale, rounded.
    public static func pixelSize(scale: Double) -> (width: Int, height: Int) {
        (Int((pointWidth * scale).rounded()), Int((pointHeight * scale).rounded()))
    }

    // MARK: - Screens

    /// A light-blue home screen: a blue navigation bar with a left-aligned "HOME" title and an
    /// avatar at the right, a big navy "1" at the upper left, a red circle, green triangle and
    /// orange rounded square at the right, three cards with coloured icons, and a tab bar.
    public static func home(scale: Double = 1) -> Image {
        var c = Canvas(scale: scale, background: CanvasColor(222, 234, 247))
        c.grid(color: CanvasColor(196, 212, 234))
        // Status and navigation bars.
        c.rect(0, 0, 390, 47, CanvasColor(16, 44, 120))
        c.rect(0, 47, 390, 64, CanvasColor(32, 96, 224))
        c.text("HOME", x: 20, y: 61, cell: 5, CanvasColor(255, 255, 255))
        c.circle(350, 79, 18, CanvasColor(255, 214, 10))
        c.circle(350, 74, 7, CanvasColor(16, 44, 120))
        // Big digit and shapes.
        c.text("1", x: 28, y: 140, cell: 24, CanvasColor(16, 44, 120))
        c.circle(300, 190, 55, CanvasColor(235, 40, 50))
        c.triangle((225, 390), (365, 390), (300, 270), CanvasColor(30, 170, 80))
        c.roundedRect(170, 300, 60, 60, radius: 14, CanvasColor(255, 140, 0))
        // Cards, each with an icon on the left and "text" bars of different lengths.
        let icons = [CanvasColor(220, 30, 160), CanvasColor(0, 170, 180), CanvasColor(255, 140, 0)]
        for (i, icon) in icons.enumerated() {
            let y = 430 + Double(i) * 100
            c.roundedRect(16, y, 358, 84, radius: 16, CanvasColor(255, 255, 255))
            c.roundedRect(30, y + 14, 56, 56, radius: 12, icon)
            c.rect(100, y + 20, 200 - Double(i) * 50, 14, CanvasColor(40, 40, 60))
            c.rect(100, y + 46, 120 + Double(i) * 60, 10, CanvasColor(150, 160, 180))
        }
        // Tab bar: a separator, four icons, the first selected.
        c.rect(0, 760, 390, 84, CanvasColor(250, 250, 252))
        c.rect(0, 760, 390, 1, CanvasColor(180, 184, 196))
        for i in 0..<4 {
            let x = 48.75 + Double(i) * 97.5
            if i == 0 {
                c.circle(x, 790, 14, CanvasColor(32, 96, 224))
            } else {
                c.roundedRect(x - 12, 778, 24, 24, radius: 6, CanvasColor(150, 156, 170))
            }
        }
        return c.image()
    }

    /// A peach detail screen: a purple navigation bar with a back chevron and "DETAIL", a
    /// magenta hero card with a white "2" at its left, a yellow circle at the lower left, a teal
    /// triangle pointing right, bars of decreasing length, and an orange button at the bottom.
    public static func detail(scale: Double = 1) -> Image {
        var c = Canvas(scale: scale, background: CanvasColor(250, 230, 210))
        c.grid(color: CanvasColor(234, 200, 170))
        c.rect(0, 0, 390, 47, CanvasColor(70, 20, 110))
        c.rect(0, 47, 390, 56, CanvasColor(120, 50, 190))
        c.triangle((16, 75), (32, 59), (32, 91), CanvasColor(255, 255, 255))  // back chevron, pointing left
        c.text("DETAIL", x: 48, y: 61, cell: 4, CanvasColor(255, 255, 255))
        // Hero card with the big digit on its left half.
        c.roundedRect(20, 123, 350, 240, radius: 24, CanvasColor(210, 30, 120))
        c.text("2", x: 44, y: 147, cell: 24, CanvasColor(255, 255, 255))
        c.circle(300, 200, 34, CanvasColor(255, 220, 0))
        c.rect(200, 300, 150, 18, CanvasColor(255, 180, 210))
        // Bars of decreasing length (a bar chart that reads left to right, top to bottom).
        for i in 0..<5 {
            c.roundedRect(20, 390 + Double(i) * 28, 330 - Double(i) * 60, 16, radius: 8, CanvasColor(60, 60, 80))
        }
        c.circle(100, 640, 70, CanvasColor(250, 190, 0))
        c.triangle((240, 560), (240, 720), (360, 640), CanvasColor(0, 160, 170))  // pointing right
        c.roundedRect(20, 760, 350, 56, radius: 28, CanvasColor(255, 110, 20))
        c.rect(150, 783, 90, 10, CanvasColor(255, 255, 255))
        return c.image()
    }

    /// A dark settings screen: a big green "3" at the upper right, toggle rows (on ones green,
    /// off ones grey, knobs at the matching end), and a red destructive row at the bottom.
    public static func settings(scale: Double = 1) -> Image {
        var c = Canvas(scale: scale, background: CanvasColor(26, 26, 34))
        c.grid(color: CanvasColor(46, 46, 60))
        c.rect(0, 0, 390, 103, CanvasColor(0, 0, 0))
        c.text("SETTINGS", x: 20, y: 61, cell: 4, CanvasColor(255, 255, 255))
        c.text("3", x: 230, y: 130, cell: 20, CanvasColor(50, 215, 90))
        c.circle(80, 200, 50, CanvasColor(90, 120, 255))
        c.roundedRect(30, 270, 90, 40, radius: 20, CanvasColor(255, 60, 140))
        let states = [true, false, true, true, false]
        for (i, on) in states.enumerated() {
            let y = 320 + Double(i) * 72
            c.roundedRect(16, y, 358, 60, radius: 12, CanvasColor(44, 44, 56))
            c.roundedRect(
                32, y + 18, 24, 24, radius: 6, [CanvasColor(255, 150, 0), CanvasColor(0, 190, 255), CanvasColor(255, 70, 70)][i % 3])
            c.rect(70, y + 24, 130 + Double(i % 3) * 30, 12, CanvasColor(200, 200, 210))
            c.roundedRect(298, y + 15, 60, 30, radius: 15, on ? CanvasColor(50, 215, 90) : CanvasColor(90, 90, 100))
            c.circle(on ? 343 : 313, y + 30, 12, CanvasColor(255, 255, 255))
        }
        c.roundedRect(16, 700, 358, 60, radius: 12, CanvasColor(44, 44, 56))
        c.rect(32, 724, 120, 12, CanvasColor(255, 69, 58))
        return c.image()
    }
}

extension Canvas {
    /// A sample screen's canvas (390 × 844 points) at `scale`.
    init(scale: Double, background: CanvasColor) {
        let size = SampleScreens.pixelSize(scale: scale)
        self.init(width: size.width, height: size.height, scale: scale, background: background)
    }

    /// One-point lines every `SampleScreens.gridSpacing` points, vertical and horizontal.
    mutating func grid(color: CanvasColor) {
        var x = 0.0
        while x < SampleScreens.pointWidth { rect(x, 0, 1, SampleScreens.pointHeight, color); x += SampleScreens.gridSpacing }
        var y = 0.0
        while y < SampleScreens.pointHeight { rect(0, y, SampleScreens.pointWidth, 1, color); y += SampleScreens.gridSpacing }
    }
}
