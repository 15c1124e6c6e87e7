// Procedural phone screens for demos and tests: every transition needs a "from" and a "to".
//
// Each screen is 390x844 points (an iPhone 14/15 portrait screen) drawn at any scale with a
// tiny rasteriser: axis-aligned rectangles with exact area coverage, and circles, rounded
// rectangles and triangles antialiased from their signed distance at pixel centres. The screens
// are deliberately asymmetric (left-aligned titles, a tab bar only at the bottom, block digits
// "1", "2", "3" with a flag and a base) so that flips, rotations and slide directions are
// obvious in every effect, and they carry a 30-point grid so that distortion shows.

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
        var c = SampleCanvas(scale: scale, background: SampleRGB(222, 234, 247))
        c.grid(color: SampleRGB(196, 212, 234))
        // Status and navigation bars.
        c.rect(0, 0, 390, 47, SampleRGB(16, 44, 120))
        c.rect(0, 47, 390, 64, SampleRGB(32, 96, 224))
        c.text("HOME", x: 20, y: 61, cell: 5, SampleRGB(255, 255, 255))
        c.circle(350, 79, 18, SampleRGB(255, 214, 10))
        c.circle(350, 74, 7, SampleRGB(16, 44, 120))
        // Big digit and shapes.
        c.text("1", x: 28, y: 140, cell: 24, SampleRGB(16, 44, 120))
        c.circle(300, 190, 55, SampleRGB(235, 40, 50))
        c.triangle((225, 390), (365, 390), (300, 270), SampleRGB(30, 170, 80))
        c.roundedRect(170, 300, 60, 60, radius: 14, SampleRGB(255, 140, 0))
        // Cards, each with an icon on the left and "text" bars of different lengths.
        let icons = [SampleRGB(220, 30, 160), SampleRGB(0, 170, 180), SampleRGB(255, 140, 0)]
        for (i, icon) in icons.enumerated() {
            let y = 430 + Double(i) * 100
            c.roundedRect(16, y, 358, 84, radius: 16, SampleRGB(255, 255, 255))
            c.roundedRect(30, y + 14, 56, 56, radius: 12, icon)
            c.rect(100, y + 20, 200 - Double(i) * 50, 14, SampleRGB(40, 40, 60))
            c.rect(100, y + 46, 120 + Double(i) * 60, 10, SampleRGB(150, 160, 180))
        }
        // Tab bar: a separator, four icons, the first selected.
        c.rect(0, 760, 390, 84, SampleRGB(250, 250, 252))
        c.rect(0, 760, 390, 1, SampleRGB(180, 184, 196))
        for i in 0..<4 {
            let x = 48.75 + Double(i) * 97.5
            if i == 0 {
                c.circle(x, 790, 14, SampleRGB(32, 96, 224))
            } else {
                c.roundedRect(x - 12, 778, 24, 24, radius: 6, SampleRGB(150, 156, 170))
            }
        }
        return c.image()
    }

    /// A peach detail screen: a purple navigation bar with a back chevron and "DETAIL", a
    /// magenta hero card with a white "2" at its left, a yellow circle at the lower left, a teal
    /// triangle pointing right, bars of decreasing length, and an orange button at the bottom.
    public static func detail(scale: Double = 1) -> Image {
        var c = SampleCanvas(scale: scale, background: SampleRGB(250, 230, 210))
        c.grid(color: SampleRGB(234, 200, 170))
        c.rect(0, 0, 390, 47, SampleRGB(70, 20, 110))
        c.rect(0, 47, 390, 56, SampleRGB(120, 50, 190))
        c.triangle((16, 75), (32, 59), (32, 91), SampleRGB(255, 255, 255))  // back chevron, pointing left
        c.text("DETAIL", x: 48, y: 61, cell: 4, SampleRGB(255, 255, 255))
        // Hero card with the big digit on its left half.
        c.roundedRect(20, 123, 350, 240, radius: 24, SampleRGB(210, 30, 120))
        c.text("2", x: 44, y: 147, cell: 24, SampleRGB(255, 255, 255))
        c.circle(300, 200, 34, SampleRGB(255, 220, 0))
        c.rect(200, 300, 150, 18, SampleRGB(255, 180, 210))
        // Bars of decreasing length (a bar chart that reads left to right, top to bottom).
        for i in 0..<5 {
            c.roundedRect(20, 390 + Double(i) * 28, 330 - Double(i) * 60, 16, radius: 8, SampleRGB(60, 60, 80))
        }
        c.circle(100, 640, 70, SampleRGB(250, 190, 0))
        c.triangle((240, 560), (240, 720), (360, 640), SampleRGB(0, 160, 170))  // pointing right
        c.roundedRect(20, 760, 350, 56, radius: 28, SampleRGB(255, 110, 20))
        c.rect(150, 783, 90, 10, SampleRGB(255, 255, 255))
        return c.image()
    }

    /// A dark settings screen: a big green "3" at the upper right, toggle rows (on ones green,
    /// off ones grey, knobs at the matching end), and a red destructive row at the bottom.
    public static func settings(scale: Double = 1) -> Image {
        var c = SampleCanvas(scale: scale, background: SampleRGB(26, 26, 34))
        c.grid(color: SampleRGB(46, 46, 60))
        c.rect(0, 0, 390, 103, SampleRGB(0, 0, 0))
        c.text("SETTINGS", x: 20, y: 61, cell: 4, SampleRGB(255, 255, 255))
        c.text("3", x: 230, y: 130, cell: 20, SampleRGB(50, 215, 90))
        c.circle(80, 200, 50, SampleRGB(90, 120, 255))
        c.roundedRect(30, 270, 90, 40, radius: 20, SampleRGB(255, 60, 140))
        let states = [true, false, true, true, false]
        for (i, on) in states.enumerated() {
            let y = 320 + Double(i) * 72
            c.roundedRect(16, y, 358, 60, radius: 12, SampleRGB(44, 44, 56))
            c.roundedRect(32, y + 18, 24, 24, radius: 6, [SampleRGB(255, 150, 0), SampleRGB(0, 190, 255), SampleRGB(255, 70, 70)][i % 3])
            c.rect(70, y + 24, 130 + Double(i % 3) * 30, 12, SampleRGB(200, 200, 210))
            c.roundedRect(298, y + 15, 60, 30, radius: 15, on ? SampleRGB(50, 215, 90) : SampleRGB(90, 90, 100))
            c.circle(on ? 343 : 313, y + 30, 12, SampleRGB(255, 255, 255))
        }
        c.roundedRect(16, 700, 358, 60, radius: 12, SampleRGB(44, 44, 56))
        c.rect(32, 724, 120, 12, SampleRGB(255, 69, 58))
        return c.image()
    }
}

// MARK: - Rasteriser

/// An opaque 8-bit colour.
struct SampleRGB {
    var r, g, b: UInt8
    init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }
}

/// A tiny software rasteriser over an opaque RGBA8 buffer; coordinates are in points.
struct SampleCanvas {
    let width: Int
    let height: Int
    let scale: Double
    var pixels: [UInt8]

    /// A sample screen's canvas (390 × 844 points) at `scale`.
    init(scale: Double, background: SampleRGB) {
        let size = SampleScreens.pixelSize(scale: scale)
        self.init(width: size.width, height: size.height, scale: scale, background: background)
    }

    /// A canvas of `width` × `height` pixels at `scale` pixels per point.
    init(width: Int, height: Int, scale: Double, background: SampleRGB) {
        precondition(scale.isFinite && scale > 0, "scale must be positive and finite")
        precondition((try? Image.validateSize(width: width, height: height)) != nil, "\(width)x\(height) is too large")
        self.width = width
        self.height = height
        self.scale = scale
        pixels = [UInt8](repeating: 255, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                p[i] = background.r; p[i + 1] = background.g; p[i + 2] = background.b
                i += 4
            }
        }
    }

    func image() -> Image {
        Image(width: width, height: height, scale: scale, premultipliedRGBA: pixels)
    }

    /// Mixes `color` into pixel (x, y) with `coverage` in 0...1.
    @inline(__always)
    private mutating func blend(_ x: Int, _ y: Int, _ color: SampleRGB, _ coverage: Double) {
        guard coverage > 0 else { return }
        let i = (y * width + x) * 4
        if coverage >= 1 {
            pixels[i] = color.r; pixels[i + 1] = color.g; pixels[i + 2] = color.b
            return
        }
        func mix(_ d: UInt8, _ s: UInt8) -> UInt8 {
            UInt8((Double(d) + (Double(s) - Double(d)) * coverage).rounded())
        }
        pixels[i] = mix(pixels[i], color.r)
        pixels[i + 1] = mix(pixels[i + 1], color.g)
        pixels[i + 2] = mix(pixels[i + 2], color.b)
    }

    /// Pixel ranges covering the point box, clipped to the canvas.
    private func pixelBounds(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> (Range<Int>, Range<Int>) {
        let px0 = max(0, Int((x0 * scale).rounded(.down))), px1 = min(width, Int((x1 * scale).rounded(.up)))
        let py0 = max(0, Int((y0 * scale).rounded(.down))), py1 = min(height, Int((y1 * scale).rounded(.up)))
        return (px0..<max(px0, px1), py0..<max(py0, py1))
    }

    // MARK: Shapes

    /// A rectangle, with exact area coverage at its edges.
    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ color: SampleRGB) {
        let (xs, ys) = pixelBounds(x, y, x + w, y + h)
        let left = x * scale, right = (x + w) * scale, top = y * scale, bottom = (y + h) * scale
        for py in ys {
            let cy = min(Double(py + 1), bottom) - max(Double(py), top)
            for px in xs {
                let cx = min(Double(px + 1), right) - max(Double(px), left)
                blend(px, py, color, cx * cy)
            }
        }
    }

    /// A circle centred at (cx, cy) with radius r.
    mutating func circle(_ cx: Double, _ cy: Double, _ r: Double, _ color: SampleRGB) {
        let (xs, ys) = pixelBounds(cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1)
        let ccx = cx * scale, ccy = cy * scale, rr = r * scale
        for py in ys {
            let dy = Double(py) + 0.5 - ccy
            for px in xs {
                let dx = Double(px) + 0.5 - ccx
                blend(px, py, color, min(1, max(0, rr - (dx * dx + dy * dy).squareRoot() + 0.5)))
            }
        }
    }

    /// A rectangle with corners rounded to `radius`.
    mutating func roundedRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double, _ color: SampleRGB) {
        let (xs, ys) = pixelBounds(x, y, x + w, y + h)
        let r = min(radius, w / 2, h / 2) * scale
        let cx = (x + w / 2) * scale, cy = (y + h / 2) * scale
        let hx = w / 2 * scale - r, hy = h / 2 * scale - r
        for py in ys {
            let qy = abs(Double(py) + 0.5 - cy) - hy
            for px in xs {
                let qx = abs(Double(px) + 0.5 - cx) - hx
                // Signed distance to a rounded box (Inigo Quilez's sdRoundBox).
                let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
                let distance = outside + min(max(qx, qy), 0) - r
                blend(px, py, color, min(1, max(0, 0.5 - distance)))
            }
        }
    }

    /// A filled triangle (any winding).
    mutating func triangle(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ color: SampleRGB) {
        let p = [a, b, c].map { ($0.0 * scale, $0.1 * scale) }
        let area = (p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[1].1 - p[0].1) * (p[2].0 - p[0].0)
        guard area != 0 else { return }
        let sign = area > 0 ? 1.0 : -1.0
        // Each edge as a unit normal and offset, so the edge function is a distance in pixels.
        let edges = (0..<3).map { i -> (Double, Double, Double) in
            let (x0, y0) = p[i], (x1, y1) = p[(i + 1) % 3]
            let length = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot()
            let nx = -(y1 - y0) / length * sign, ny = (x1 - x0) / length * sign
            return (nx, ny, -(nx * x0 + ny * y0))
        }
        let xsP = p.map(\.0), ysP = p.map(\.1)
        let (xs, ys) = pixelBounds(xsP.min()! / scale - 1, ysP.min()! / scale - 1, xsP.max()! / scale + 1, ysP.max()! / scale + 1)
        for py in ys {
            let sy = Double(py) + 0.5
            for px in xs {
                let sx = Double(px) + 0.5
                var inside = Double.infinity
                for (nx, ny, d) in edges { inside = min(inside, nx * sx + ny * sy + d) }
                blend(px, py, color, min(1, max(0, inside + 0.5)))
            }
        }
    }

    /// One-point lines every `SampleScreens.gridSpacing` points, vertical and horizontal.
    mutating func grid(color: SampleRGB) {
        var x = 0.0
        while x < SampleScreens.pointWidth { rect(x, 0, 1, SampleScreens.pointHeight, color); x += SampleScreens.gridSpacing }
        var y = 0.0
        while y < SampleScreens.pointHeight { rect(0, y, SampleScreens.pointWidth, 1, color); y += SampleScreens.gridSpacing }
    }

    /// Block letters from a 5x7 bitmap font, each lit cell a `cell`-point square, left to right.
    mutating func text(_ string: String, x: Double, y: Double, cell: Double, _ color: SampleRGB) {
        var left = x
        for character in string {
            guard let rows = BlockFont.rows(character) else { left += 6 * cell; continue }
            for (row, bits) in rows.enumerated() {
                for (column, bit) in bits.enumerated() where bit == "#" {
                    rect(left + Double(column) * cell, y + Double(row) * cell, cell, cell, color)
                }
            }
            left += 6 * cell
        }
    }
}
