// The mesh renderer on lavapipe: projection, depth, lighting, textures and streaming meshes on
// small images, against values computed here from the formulas in
// shared/reference/mesh-transforms.md.
import Foundation
import SegueCore
import SegueMath
import SegueTestSupport
import SegueVulkan
import Testing

private let red = Pixel(255, 0, 0), blue = Pixel(0, 0, 255), white = Pixel.white

@Suite("Mesh renderer: projection")
struct MeshProjectionTests {
    @Test(
        "a skewed quad (top-left moved to (0.5, 0)) covers the rows and columns the formula gives, within 1 px",
        arguments: [false, true])
    func skew(antialiasing: Bool) throws {
        let context = try TestGPU.context()
        // A 32×24-point layer at scale 2: 64×48 pixels.
        let (w, h, scale) = (32.0, 24.0, 2.0)
        let to: [(Double, Double)] = [(0.5, 0), (1, 0), (1, 1), (0, 1)]
        var mesh = MeshBuilder()
        mesh.quad(to.map { ((($0.0 - 0.5) * w), ($0.1 - 0.5) * h, 0) })
        let frame = try renderMesh(
            mesh.geometry, layer: (w, h), pixels: (64, 48), textures: [try solidTexture(context, white)],
            antialiasing: antialiasing)
        let polygon = to.map { ($0.0 * w * scale, $0.1 * h * scale) }
        for y in 0..<48 {
            let expected = expectedCoverage(polygon, y, horizontal: true, limit: 64, antialiasing: antialiasing)
            #expect(abs(frame.rowCoverage(y) - expected) <= 1, "row \(y): \(frame.rowCoverage(y)) vs \(expected)")
        }
        for x in 0..<64 {
            let expected = expectedCoverage(polygon, x, horizontal: false, limit: 48, antialiasing: antialiasing)
            #expect(abs(frame.columnCoverage(x) - expected) <= 1, "column \(x): \(frame.columnCoverage(x)) vs \(expected)")
        }
        // Opaque white inside, transparent outside.
        #expect(frame[60, 4] == [255, 255, 255, 255])
        #expect(frame[4, 4] == [0, 0, 0, 0])
    }

    @Test(
        "a quad rotated 30° about y with m34 = −1/500 projects where the formula puts it, within 1 px",
        arguments: [false, true])
    func perspective(antialiasing: Bool) throws {
        let context = try TestGPU.context()
        // 200×150 points at scale 0.5: 100×75 pixels.
        let (w, h, scale, d) = (200.0, 150.0, 0.5, 500.0)
        let theta = 30.0 * Double.pi / 180
        let (c, s) = (cos(theta), sin(theta))
        // Rotation about y (CATransform3DMakeRotation) followed by the perspective m34 = −1/d.
        let m = Transform3D(rowMajor: [
            c, 0, -s, s / d,
            0, 1, 0, 0,
            s, 0, c, -c / d,
            0, 0, 0, 1,
        ])
        var mesh = MeshBuilder()
        let corners: [P3] = [(-w / 2, -h / 2, 0), (w / 2, -h / 2, 0), (w / 2, h / 2, 0), (-w / 2, h / 2, 0)]
        mesh.quad(corners)
        let frame = try renderMesh(
            mesh.geometry, layer: (w, h), pixels: (100, 75), textures: [try solidTexture(context, white)],
            transform: m, antialiasing: antialiasing)
        // x' = x·cos θ, y' = y, w' = 1 + x·sin θ / d for points in the z = 0 plane.
        let polygon = corners.map { p -> (Double, Double) in
            let wp = 1 + p.x * s / d
            return ((w / 2 + p.x * c / wp) * scale, (h / 2 + p.y / wp) * scale)
        }
        for y in 0..<75 {
            let expected = expectedCoverage(polygon, y, horizontal: true, limit: 100, antialiasing: antialiasing)
            #expect(abs(frame.rowCoverage(y) - expected) <= 1, "row \(y): \(frame.rowCoverage(y)) vs \(expected)")
        }
        for x in 0..<100 {
            let expected = expectedCoverage(polygon, x, horizontal: false, limit: 75, antialiasing: antialiasing)
            #expect(abs(frame.columnCoverage(x) - expected) <= 1, "column \(x): \(frame.columnCoverage(x)) vs \(expected)")
        }
        // The near (left, x < 0 has w' < 1) edge is taller than the far one.
        #expect(frame.columnCoverage(Int(polygon[0].0) + 2) > frame.columnCoverage(Int(polygon[1].0) - 2) + 5)
    }

    @Test("geometry entirely behind the eye (w' < 0) is clipped; a quad larger than the layer is clipped to the image")
    func clipping() throws {
        let context = try TestGPU.context()
        let texture = try solidTexture(context, white)
        var behind = MeshBuilder()
        behind.rect(-10, -10, 10, 10, z: 600)
        let none = try renderMesh(
            behind.geometry, layer: (20, 20), pixels: (20, 20), textures: [texture],
            transform: .perspective(distance: 500))
        #expect(none.bytes.allSatisfy { $0 == 0 })
        var big = MeshBuilder()
        big.rect(-100, -100, 100, 100)
        let all = try renderMesh(big.geometry, layer: (20, 20), pixels: (20, 20), textures: [texture])
        #expect(all.bytes.allSatisfy { $0 == 255 })
    }
}

@Suite("Mesh renderer: depth")
struct MeshDepthTests {
    /// (z of the red quad, z of the blue quad, m34).
    static let cases: [(Double, Double, Double)] = [
        (10, -10, 0), (-10, 10, 0), (10, -10, -1.0 / 500), (-10, 10, -1.0 / 500),
        (-20, -60, -1.0 / 500), (-60, -20, 0), (90_000, -90_000, 0), (1000.5, 1000, 0), (-99_999, -99_999.5, 0),
    ]

    @Test("the nearer of two overlapping quads (larger z) is in front, whatever the draw order", arguments: cases)
    func nearerWins(zRed: Double, zBlue: Double, m34: Double) throws {
        let context = try TestGPU.context()
        let textures = [try solidTexture(context, red), try solidTexture(context, blue)]
        var transform = Transform3D.identity
        transform.m34 = m34
        for redFirst in [true, false] {
            var mesh = MeshBuilder()
            let quads = [(-30.0, 10.0, zRed, Float(0)), (-10.0, 30.0, zBlue, Float(1))]
            for (x0, x1, z, t) in redFirst ? quads : quads.reversed() { mesh.rect(x0, -20, x1, 20, z: z, texture: t) }
            let frame = try renderMesh(mesh.geometry, layer: (60, 40), pixels: (60, 40), textures: textures, transform: transform)
            let nearer = zRed > zBlue ? [255, 0, 0, 255] : [0, 0, 255, 255]
            #expect(frame[30, 20] == nearer, "overlap, red z \(zRed), blue z \(zBlue), red drawn first: \(redFirst)")
            #expect(frame[5, 20] == [255, 0, 0, 255])
            #expect(frame[55, 20] == [0, 0, 255, 255])
        }
    }
}

@Suite("Mesh renderer: lighting")
struct MeshLightingTests {
    static let alpha = 60.0 * Double.pi / 180

    /// A 32-point-wide quad turned by `alpha` about y, with its normal.
    static func tilted() -> MeshGeometry {
        let (c, s) = (cos(alpha), sin(alpha))
        var mesh = MeshBuilder()
        mesh.quad([(-16 * c, -16, 16 * s), (16 * c, -16, -16 * s), (16 * c, 16, -16 * s), (-16 * c, 16, 16 * s)], normal: (s, 0, c))
        return mesh.geometry
    }

    @Test("a tilted quad shades at (1 − f) + f·|cos α| of its texel within 1/255", arguments: [0.0, 0.25, 0.5, 0.8, 1.0])
    func tiltedQuad(f: Double) throws {
        let context = try TestGPU.context()
        let light = (1 - f) + f * cos(Self.alpha)
        let frame = try renderMesh(
            Self.tilted(), layer: (40, 40), pixels: (40, 40), textures: [try solidTexture(context, white)], diffuse: f)
        let px = frame[20, 20]
        for ch in 0..<3 { #expect(abs(Double(px[ch]) - 255 * light) <= 1, "f \(f): \(px) vs \(255 * light)") }
        #expect(px[3] == 255)
    }

    @Test("light × texel scales premultiplied colour and leaves alpha alone; an oblique light uses |dot(n, L̂)|")
    func colouredAndOblique() throws {
        let context = try TestGPU.context()
        let (c, s) = (cos(Self.alpha), sin(Self.alpha))
        // L = (1, 0, 1): |dot(n, L̂)| = (sin α + cos α)/√2.
        let facing = (s + c) / 2.0.squareRoot()
        for texel in [Pixel(200, 100, 50), Pixel(100, 50, 25, 128)] {
            let frame = try renderMesh(
                Self.tilted(), layer: (40, 40), pixels: (40, 40), textures: [try solidTexture(context, texel)],
                light: Vector3(1, 0, 1), diffuse: 0.5)
            let light = 0.5 + 0.5 * facing
            let px = frame[20, 20]
            let expected = [Double(texel.r), Double(texel.g), Double(texel.b)].map { $0 * light }
            for ch in 0..<3 { #expect(abs(Double(px[ch]) - expected[ch]) <= 1, "\(texel): \(px) vs \(expected)") }
            #expect(px[3] == Int(texel.a))
        }
    }

    @Test("the supplementary transform turns normals by the inverse transpose of its 3×3")
    func transformedNormals() throws {
        let context = try TestGPU.context()
        let texture = try solidTexture(context, white)
        let (c, s) = (cos(Self.alpha), sin(Self.alpha))
        // A flat quad (normal +z) rotated by alpha about y faces the viewer at cos α.
        var flat = MeshBuilder()
        flat.rect(-16, -16, 16, 16)
        let rotated = try renderMesh(
            flat.geometry, layer: (40, 40), pixels: (40, 40), textures: [texture],
            transform: Transform3D(rotationAngle: Self.alpha, x: 0, y: 1, z: 0), diffuse: 1)
        #expect(abs(Double(rotated[20, 20][0]) - 255 * c) <= 1, "rotated: \(rotated[20, 20]) vs \(255 * c)")
        // The tilted quad stretched ×2 along x: n' ∝ (sin α / 2, 0, cos α), not (2 sin α, 0, cos α).
        let stretched = try renderMesh(
            Self.tilted(), layer: (40, 40), pixels: (40, 40), textures: [texture],
            transform: Transform3D(scaleX: 2, y: 1), diffuse: 1)
        let expected = 255 * c / (s * s / 4 + c * c).squareRoot()
        #expect(abs(Double(stretched[20, 20][0]) - expected) <= 1, "stretched: \(stretched[20, 20]) vs \(expected)")
    }
}

@Suite("Mesh renderer: textures")
struct MeshTextureTests {
    @Test("faces with texture 0 sample from, texture 1 sample to; one texture serves both")
    func twoTextures() throws {
        let context = try TestGPU.context()
        var mesh = MeshBuilder()
        mesh.rect(-20, -10, 0, 10, texture: 0)
        mesh.rect(0, -10, 20, 10, texture: 1)
        let both = try renderMesh(
            mesh.geometry, layer: (40, 20), pixels: (40, 20),
            textures: [try solidTexture(context, red), try solidTexture(context, blue)])
        #expect(both[5, 10] == [255, 0, 0, 255])
        #expect(both[35, 10] == [0, 0, 255, 255])
        let one = try renderMesh(mesh.geometry, layer: (40, 20), pixels: (40, 20), textures: [try solidTexture(context, blue)])
        #expect(one[5, 10] == [0, 0, 255, 255])
        #expect(one[35, 10] == [0, 0, 255, 255])
    }

    @Test("texture coordinates outside [0, 1] are transparent")
    func outsideIsTransparent() throws {
        let context = try TestGPU.context()
        var mesh = MeshBuilder()
        mesh.quad([(-20, -20, 0), (20, -20, 0), (20, 20, 0), (-20, 20, 0)], uv: [(-0.5, -0.5), (1.5, -0.5), (1.5, 1.5), (-0.5, 1.5)])
        let frame = try renderMesh(mesh.geometry, layer: (40, 40), pixels: (40, 40), textures: [try solidTexture(context, white)])
        // u = −0.5 + 2(x + 0.5)/40 lies in [0, 1] for pixel centres x + 0.5 in [10, 30].
        for y in 0..<40 {
            let expected = (10..<30).contains(y) ? 20.0 : 0
            #expect(abs(frame.rowCoverage(y) - expected) <= 1, "row \(y): \(frame.rowCoverage(y))")
        }
        #expect(frame[5, 20] == [0, 0, 0, 0])
        #expect(frame[20, 20] == [255, 255, 255, 255])
    }
}

@Suite("Mesh renderer: streaming")
struct MeshStreamingTests {
    @Test("a mesh changing every frame (and growing) gives each frame its own mesh; static frames interleave")
    func dynamicMeshes() throws {
        let context = try TestGPU.context()
        let renderer = try MeshRenderer(
            context: context, width: 64, height: 16,
            textures: [try solidTexture(context, red), try solidTexture(context, blue)])
        var full = MeshBuilder()
        full.rect(-32, -8, 32, 8, texture: 0)
        try renderer.setMesh(full.geometry)
        let count = 12
        var seen: [Int] = []
        try renderer.render(
            count: count,
            draw: { i in
                guard i % 4 != 3 else { return MeshDraw(layerWidth: 64, layerHeight: 16) }
                // Frame i: 4(i + 1) points wide, split into 20(i + 1) columns (the buffers must grow),
                // texture 1 on odd frames.
                var mesh = MeshBuilder()
                let columns = 20 * (i + 1), width = 4.0 * Double(i + 1)
                for k in 0..<columns {
                    let x0 = -32 + width * Double(k) / Double(columns), x1 = -32 + width * Double(k + 1) / Double(columns)
                    mesh.rect(x0, -8, x1, 8, texture: Float(i % 2))
                }
                return MeshDraw(layerWidth: 64, layerHeight: 16, geometry: mesh.geometry)
            },
            consume: { i, pixels in
                seen.append(i)
                let frame = Frame(width: 64, height: 16, bytes: Array(pixels))
                let staticFrame = i % 4 == 3
                let expectedWidth = staticFrame ? 64.0 : 4.0 * Double(i + 1)
                #expect(abs(frame.rowCoverage(8) - expectedWidth) <= 1, "frame \(i): \(frame.rowCoverage(8)) vs \(expectedWidth)")
                let colour = staticFrame || i % 2 == 0 ? [255, 0, 0, 255] : [0, 0, 255, 255]
                #expect(frame[1, 8] == colour, "frame \(i)")
            })
        #expect(seen == Array(0..<count))
        // After the stream, the static mesh still draws; an empty mesh draws nothing.
        #expect(try renderer.renderFrame(MeshDraw(layerWidth: 64, layerHeight: 16)).allSatisfy { $0 == 255 || $0 == 0 })
        let empty = try renderer.renderFrame(MeshDraw(layerWidth: 64, layerHeight: 16, geometry: MeshGeometry(vertices: [], indices: [])))
        #expect(empty.allSatisfy { $0 == 0 })
    }
}
