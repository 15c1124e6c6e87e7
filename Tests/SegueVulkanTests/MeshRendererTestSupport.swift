// Hand-built mesh geometry and pixel measurements for the mesh renderer tests.
import Foundation
import SegueCore
import SegueMath
import SegueTestSupport
import SegueVulkan

/// A point in 3D (points, relative to the layer centre).
typealias P3 = (x: Double, y: Double, z: Double)

/// Interleaved vertices and indices built quad by quad.
struct MeshBuilder {
    var vertices: [Float] = []
    var indices: [UInt32] = []

    /// Adds a quad with corners TL, TR, BR, BL (triangles {0,1,2}, {2,3,0}), texture coordinates
    /// `uv` per corner, one normal and a texture index.
    mutating func quad(
        _ corners: [P3], uv: [(Double, Double)] = [(0, 0), (1, 0), (1, 1), (0, 1)],
        normal: P3 = (0, 0, 1), texture: Float = 0
    ) {
        let base = UInt32(vertices.count / 9)
        for (p, t) in zip(corners, uv) {
            vertices += [
                Float(p.x), Float(p.y), Float(p.z), Float(t.0), Float(t.1), Float(normal.x), Float(normal.y), Float(normal.z), texture,
            ]
        }
        indices += [base, base + 1, base + 2, base + 2, base + 3, base]
    }

    /// Adds an axis-aligned rectangle at depth z from (x0, y0) to (x1, y1) in points.
    mutating func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, z: Double = 0, texture: Float = 0) {
        quad([(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z)], texture: texture)
    }

    var geometry: MeshGeometry { MeshGeometry(vertices: vertices, indices: indices) }
}

/// A read-back frame.
struct Frame {
    let width: Int
    let height: Int
    let bytes: [UInt8]

    subscript(x: Int, y: Int) -> [Int] {
        let i = (y * width + x) * 4
        return bytes[i..<i + 4].map { Int($0) }
    }

    /// Covered pixels in row y (alpha / 255 summed: partial coverage counts partially).
    func rowCoverage(_ y: Int) -> Double { (0..<width).reduce(0) { $0 + Double(bytes[(y * width + $1) * 4 + 3]) / 255 } }

    /// Covered pixels in column x.
    func columnCoverage(_ x: Int) -> Double { (0..<height).reduce(0) { $0 + Double(bytes[($1 * width + x) * 4 + 3]) / 255 } }
}

/// The length of the line `coordinate = c` inside a convex polygon (pixel coordinates), along x
/// for `horizontal`, else along y, clipped to `0…limit`.
func chord(_ polygon: [(Double, Double)], at c: Double, horizontal: Bool, limit: Double) -> Double {
    var lo = Double.infinity, hi = -Double.infinity
    for i in polygon.indices {
        let a = polygon[i], b = polygon[(i + 1) % polygon.count]
        let (ac, bc) = horizontal ? (a.1, b.1) : (a.0, b.0)
        let (ao, bo) = horizontal ? (a.0, b.0) : (a.1, b.1)
        guard min(ac, bc) <= c, c <= max(ac, bc) else { continue }
        if ac == bc {
            lo = min(lo, ao, bo); hi = max(hi, ao, bo)
        } else {
            let o = ao + (bo - ao) * (c - ac) / (bc - ac)
            lo = min(lo, o); hi = max(hi, o)
        }
    }
    guard lo <= hi else { return 0 }
    return max(0, min(hi, limit) - max(lo, 0))
}

/// The expected coverage of pixel row (`horizontal`) or column `index`: the chord through the
/// pixel centre, or with 4× multisampling the mean chord through the standard sample offsets
/// (1/8, 3/8, 5/8, 7/8 along each axis).
func expectedCoverage(_ polygon: [(Double, Double)], _ index: Int, horizontal: Bool, limit: Double, antialiasing: Bool) -> Double {
    let offsets = antialiasing ? [0.125, 0.375, 0.625, 0.875] : [0.5]
    return offsets.reduce(0) { $0 + chord(polygon, at: Double(index) + $1, horizontal: horizontal, limit: limit) } / Double(offsets.count)
}

/// A 4×4 texture of one colour (premultiplied).
func solidTexture(_ context: GPUContext, _ pixel: Pixel) throws -> GPUTexture {
    try GPUTexture(context: context, image: Image(width: 4, height: 4, fill: pixel))
}

/// Renders one frame of `geometry` over `textures` at `width × height` pixels.
func renderMesh(
    _ geometry: MeshGeometry, layer: (Double, Double), pixels: (Int, Int), textures: [GPUTexture],
    transform: Transform3D = .identity, light: Vector3 = Vector3(0, 0, 1), diffuse: Double = 1,
    antialiasing: Bool = false
) throws -> Frame {
    let context = try TestGPU.context()
    let renderer = try MeshRenderer(
        context: context, width: pixels.0, height: pixels.1, textures: textures,
        options: .init(antialiasing: antialiasing))
    let draw = MeshDraw(
        layerWidth: layer.0, layerHeight: layer.1, transform: transform, lightDirection: light,
        diffuseLightFactor: diffuse, geometry: geometry)
    return Frame(width: pixels.0, height: pixels.1, bytes: try renderer.renderFrame(draw))
}
