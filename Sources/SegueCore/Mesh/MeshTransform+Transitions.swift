import SegueMath

// Mesh transitions: meshes over both textures whose shape follows the transition's progress.
//
// Cube (shared/reference/effects.md): `from` is the front face, `to` the face to its right (push)
// or left (pop) of a cube W deep; the cube turns θ = 90°·progress about the vertical axis through
// its centre (0, 0, −W/2), seen in perspective (m34 = −1/d) and lit from the viewer, so turning
// faces darken by |cos|. The faces share no vertices, so each is lit by its own flat normal. At
// θ = 0 the front face lies at z = 0 facing the viewer (exactly `from`); at 90° the other does
// (exactly `to`).
//
// Page curl: `from` is a grid that wraps around a cylinder of radius R whose axis sweeps across
// the page. With n the unit direction the curl travels (pointing back across the page) and s the
// distance of a point past the axis, points with s ≤ 0 stay flat; for 0 < s ≤ πR the page lies
// on the cylinder, p + (R·sin(s/R) − s)·n at height R·(1 − cos(s/R)); beyond, the flipped-over back
// of the page lies flat at height 2R, travelling back: p − (2s − πR)·n. `to` is a flat face just
// behind (z = −0.5 pt). The axis starts past the page's far corner (exactly `from`) and ends far
// enough beyond the near corner that the whole page, flap included, has left the layer (exactly
// `to`). Orthographic, lit from the viewer, so the curl shades by its slope and the back of the
// page is visible.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MeshTransform {
    /// The cube transition at `progress` (0…1) for a `width` × `height`-point layer.
    /// - Parameters:
    ///   - pop: false: `to` comes from the right (push); true: from the left (pop).
    ///   - eyeDistance: the viewer's distance in layer widths (`m34 = −1/(eyeDistance·W)`).
    public static func cube(
        progress: Double, width: Double, height: Double, pop: Bool = false,
        eyeDistance: Double = 2
    ) -> (mesh: MeshTransform, appearance: MeshAppearance) {
        let angle = (pop ? -1.0 : 1.0) * Double.pi / 2 * progress
        let (c, s) = (cos(angle), sin(angle))
        // A point (x, z) in points relative to the layer centre, turned about (0, −W/2).
        func turn(_ x: Double, _ z: Double) -> (Double, Double) {
            let zc = z + width / 2
            return (x * c - zc * s, x * s + zc * c - width / 2)
        }
        var vertices: [MeshVertex] = []
        func face(_ corners: [(Double, Double)], texture: MeshFace.Texture) -> MeshFace {
            // Corners TL, TR, BR, BL as (x, z) with y = −H/2 on top and +H/2 below.
            let base = vertices.count
            let uvs = [Vector2(0, 0), Vector2(1, 0), Vector2(1, 1), Vector2(0, 1)]
            for (k, corner) in corners.enumerated() {
                let (x, z) = turn(corner.0, corner.1)
                let y = k < 2 ? 0.0 : 1.0
                vertices.append(MeshVertex(from: uvs[k], to: Vector3(x / width + 0.5, y, z / width)))
            }
            return MeshFace(base, base + 1, base + 2, base + 3, texture: texture)
        }
        let w = width / 2
        let front = face([(-w, 0), (w, 0), (w, 0), (-w, 0)], texture: .from)
        let side =
            pop
            ? face([(-w, -width), (-w, 0), (-w, 0), (-w, -width)], texture: .to)
            : face([(w, 0), (w, -width), (w, -width), (w, 0)], texture: .to)
        // A solid cube shows no face from behind. A face W/2 from the centre with unit normal n
        // faces the eye, (d + 1/2)·W in front of the centre, when n·(0, d + 1/2) > 1/2: the front
        // face's normal is (−s, c), the side's (±c, ±s). Drawn from behind, a face showed through a
        // translucent one — at progress 1 the from face, edge-on, darkened `to` (1 must show `to`).
        let facing = 1 / (2 * eyeDistance + 1)
        let faces = [c > facing ? front : nil, (pop ? -s : s) > facing ? side : nil].compactMap { $0 }
        let mesh = MeshTransform(unchecked: vertices, faces: faces, depthNormalization: .width)
        return (mesh, MeshAppearance(supplementaryTransform: .perspective(distance: eyeDistance * width)))
    }

    /// The page-curl transition at `progress` (0…1) for a `width` × `height`-point layer.
    /// - Parameters:
    ///   - angle: direction the curl travels, in degrees from "right to left" (0: a vertical
    ///     axis moving left; 30: lifting the bottom-right corner first).
    ///   - radius: the cylinder's radius as a fraction of the layer width.
    ///   - rows, columns: the page grid.
    public static func pageCurl(
        progress: Double, width: Double, height: Double, angle: Double = 30,
        radius: Double = 0.12, rows: Int = 48, columns: Int = 48
    )
        -> (mesh: MeshTransform, appearance: MeshAppearance)
    {
        let a = angle * Double.pi / 180
        // n: the direction the axis travels, in points (x right, y down).
        let n = Vector2(-cos(a), -sin(a))
        let r = radius * width
        let corners = [
            Vector2(-width / 2, -height / 2), Vector2(width / 2, -height / 2),
            Vector2(width / 2, height / 2), Vector2(-width / 2, height / 2),
        ]
        let projections = corners.map { $0.dot(n) }
        let start = projections.min()!  // the far corner: nothing curled
        let end = projections.max()! + max(r, Double.pi * r / 2) + 1  // the whole page off the layer
        let axis = start + (end - start) * progress
        var vertices: [MeshVertex] = []
        var faces: [MeshFace] = []
        for row in 0...rows {
            for column in 0...columns {
                let u = Double(column) / Double(columns), v = Double(row) / Double(rows)
                let p = Vector2((u - 0.5) * width, (v - 0.5) * height)
                // s > 0 once the axis has passed the point (the axis moves along n).
                let s = axis - p.dot(n)
                var q = p, z = 0.0
                if s > 0 {
                    if s <= Double.pi * r {
                        q = p + n * (s - r * sin(s / r))
                        z = r * (1 - cos(s / r))
                    } else {
                        q = p + n * (2 * s - Double.pi * r)
                        z = 2 * r
                    }
                }
                vertices.append(MeshVertex(from: Vector2(u, v), to: Vector3(q.x / width + 0.5, q.y / height + 0.5, z / width)))
            }
        }
        for row in 0..<rows {
            for column in 0..<columns {
                let i = row * (columns + 1) + column
                faces.append(MeshFace(i, i + 1, i + columns + 2, i + columns + 1))
            }
        }
        // `to`, flat, half a point behind the page.
        let base = vertices.count
        for uv in [Vector2(0, 0), Vector2(1, 0), Vector2(1, 1), Vector2(0, 1)] {
            vertices.append(MeshVertex(from: uv, to: Vector3(uv, z: -0.5 / width)))
        }
        faces.append(MeshFace(base, base + 1, base + 2, base + 3, texture: .to))
        return (MeshTransform(unchecked: vertices, faces: faces, depthNormalization: .width), MeshAppearance())
    }
}
