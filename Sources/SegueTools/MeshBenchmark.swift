import FoundationEssentials
import Segue
import SegueCore
import SegueMath

// Throughput of the mesh renderer on a regular grid, static (uploaded once) or streamed
// (re-uploaded every frame), with readback, as `segue bench` or a user can measure it.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures mesh rendering frames per second.
public enum MeshBenchmark {
    /// A `rows × columns` grid of quads covering a `layerWidth × layerHeight`-point layer, waved
    /// in z (`z = A·sin(k·x + phase)`, A = 5% of the smaller side, one period across the width)
    /// with exact normals, texture 0 on the left half and 1 on the right.
    public static func grid(rows: Int, columns: Int, layerWidth: Double, layerHeight: Double, phase: Double = 0) -> MeshGeometry {
        precondition(rows > 0 && columns > 0 && layerWidth > 0 && layerHeight > 0)
        let amplitude = 0.05 * min(layerWidth, layerHeight), k = 2 * Double.pi / layerWidth
        var vertices: [Float] = []
        vertices.reserveCapacity((rows + 1) * (columns + 1) * MeshGeometry.floatsPerVertex)
        for r in 0...rows {
            for c in 0...columns {
                let u = Double(c) / Double(columns), v = Double(r) / Double(rows)
                let x = (u - 0.5) * layerWidth, y = (v - 0.5) * layerHeight
                let z = amplitude * sin(k * x + phase)
                let slope = amplitude * k * cos(k * x + phase)
                let n = 1 / (1 + slope * slope).squareRoot()
                vertices += [Float(x), Float(y), Float(z), Float(u), Float(v), Float(-slope * n), 0, Float(n), u < 0.5 ? 0 : 1]
            }
        }
        var indices: [UInt32] = []
        indices.reserveCapacity(rows * columns * 6)
        for r in 0..<rows {
            for c in 0..<columns {
                let tl = UInt32(r * (columns + 1) + c), tr = tl + 1, bl = tl + UInt32(columns + 1), br = bl + 1
                indices += [tl, tr, br, br, bl, tl]
            }
        }
        return MeshGeometry(vertices: vertices, indices: indices)
    }

    /// Renders `frames` frames of a `rows × columns` grid at `width × height` pixels (scale 1)
    /// with a gentle perspective and returns frames per second, readback included. `streaming`
    /// re-uploads the mesh every frame (cycling four precomputed phases), else it is uploaded once.
    /// - Throws: `VulkanError`.
    public static func framesPerSecond(
        context: GPUContext, width: Int = 1920, height: Int = 1080, rows: Int = 100, columns: Int = 100,
        frames: Int = 60, streaming: Bool, textures: [GPUTexture],
        options: MeshRenderer.Options = MeshRenderer.Options()
    ) throws -> Double {
        let renderer = try MeshRenderer(context: context, width: width, height: height, textures: textures, options: options)
        let (w, h) = (Double(width), Double(height))
        let meshes = (0..<4).map { grid(rows: rows, columns: columns, layerWidth: w, layerHeight: h, phase: Double($0) * Double.pi / 2) }
        try renderer.setMesh(meshes[0])
        let perspective = Transform3D.perspective(distance: 2 * max(w, h))
        func run(_ count: Int) throws {
            try renderer.render(
                count: count,
                draw: { i in
                    MeshDraw(
                        layerWidth: w, layerHeight: h, transform: perspective, diffuseLightFactor: 0.5,
                        geometry: streaming ? meshes[i % meshes.count] : nil)
                }, consume: { _, _ in })
        }
        try run(min(frames, 3))  // warm-up
        return Double(frames) / (try Stopwatch.time { try run(frames) })
    }
}
