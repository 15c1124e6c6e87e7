// A small anti-aliased rasteriser of points-sized shapes and block text into RGBA8 pixels:
// what the sample screens and the message cards are drawn with.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An opaque 8-bit colour.
package struct CanvasColor {
    package var r, g, b: UInt8
    package init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }
}

/// A tiny software rasteriser over an opaque RGBA8 buffer; coordinates are in points.
package struct Canvas {
    package let width: Int
    package let height: Int
    package let scale: Double
    package var pixels: [UInt8]

    /// A canvas of `width` × `height` pixels at `scale` pixels per point.
    /// - Precondition: the size passes `Image.validateSize` and the scale `Image.validateScale`
    ///   (a caller's numbers are checked with them first).
    package init(width: Int, height: Int, scale: Double, background: CanvasColor) {
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

    package func image() -> Image {
        Image(width: width, height: height, scale: scale, premultipliedRGBA: pixels)
    }

    /// Mixes `color` into pixel (x, y) with `coverage` in 0...1.
    @inline(__always)
    private mutating func blend(_ x: Int, _ y: Int, _ color: CanvasColor, _ coverage: Double) {
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
    package mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ color: CanvasColor) {
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
    package mutating func circle(_ cx: Double, _ cy: Double, _ r: Double, _ color: CanvasColor) {
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
    package mutating func roundedRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double, _ color: CanvasColor) {
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
    package mutating func triangle(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ color: CanvasColor) {
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

    /// Block letters from a 5x7 bitmap font, each lit cell a `cell`-point square, left to right.
    package mutating func text(_ string: String, x: Double, y: Double, cell: Double, _ color: CanvasColor) {
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
