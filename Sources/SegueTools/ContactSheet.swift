// A grid of images on one canvas, for looking at many frames at once.

import FoundationEssentials
import Segue

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lays images out in rows on a background.
public enum ContactSheet {
    /// Images in rows (each row left to right), `spacing` pixels apart and around, on `background`.
    /// Cells are as large as the largest image; smaller images sit at their cell's top-left.
    public static func compose(_ rows: [[Image]], spacing: Int = 8, background: Pixel = Pixel(32, 32, 36)) -> Image {
        let cellW = rows.flatMap { $0 }.map(\.width).max() ?? 1
        let cellH = rows.flatMap { $0 }.map(\.height).max() ?? 1
        let columns = rows.map(\.count).max() ?? 1
        let width = spacing + columns * (cellW + spacing)
        let height = spacing + rows.count * (cellH + spacing)
        var sheet = Image(width: width, height: height, fill: background)
        var bytes = sheet.pixels
        for (r, row) in rows.enumerated() {
            for (c, image) in row.enumerated() {
                let x0 = spacing + c * (cellW + spacing), y0 = spacing + r * (cellH + spacing)
                image.pixels.withUnsafeBufferPointer { src in
                    for y in 0..<image.height {
                        let s = y * image.width * 4
                        let d = ((y0 + y) * width + x0) * 4
                        for i in 0..<(image.width * 4) { bytes[d + i] = src[s + i] }
                    }
                }
            }
        }
        sheet = Image(width: width, height: height, premultipliedRGBA: bytes)
        return sheet
    }
}
