// The mesh benchmark's grid, and (with SEGUE_MESH_BENCH=1) its frames per second at 1920×1080.
import Foundation
import Segue
import SegueTestSupport
import SegueTools
import SegueVulkan
import Testing

@Suite("Mesh renderer: benchmark")
struct MeshRendererBenchmarkTests {
    @Test("the benchmark grid has (r+1)(c+1) vertices, 6rc indices, the wave's z and unit normals")
    func grid() {
        let g = MeshBenchmark.grid(rows: 3, columns: 4, layerWidth: 40, layerHeight: 20)
        #expect(g.vertexCount == 20)
        #expect(g.indices.count == 72)
        // Vertex (row 1, column 1): x = (1/4 − 1/2)·40 = −10, y = (1/3 − 1/2)·20, z = 1·sin(2π·(−10)/40) = −1.
        let v = Array(g.vertices[6 * 9..<7 * 9]).map(Double.init)
        #expect(abs(v[0] + 10) < 1e-5 && abs(v[1] + 20.0 / 6) < 1e-5 && abs(v[2] + 1) < 1e-5)
        for i in 0..<g.vertexCount {
            let n = Array(g.vertices[i * 9 + 5..<i * 9 + 8]).map(Double.init)
            #expect(abs((n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).squareRoot() - 1) < 1e-5)
        }
    }

    @Test(
        "frames per second at 1920×1080 for a 100×100 grid, static and streamed",
        .enabled(if: ProcessInfo.processInfo.environment["SEGUE_MESH_BENCH"] != nil))
    func framesPerSecond() throws {
        let context = try TestGPU.context()
        let from = try GPUTexture(
            context: context, image: Image(width: 1920, height: 1080) { x, y in Pixel(UInt8(x % 256), UInt8(y % 256), 128) })
        let to = try GPUTexture(context: context, image: Image(width: 1920, height: 1080, fill: Pixel(30, 60, 90)))
        for antialiasing in [false, true] {
            for streaming in [false, true] {
                let fps = try MeshBenchmark.framesPerSecond(
                    context: context, frames: 30, streaming: streaming, textures: [from, to],
                    options: .init(antialiasing: antialiasing))
                print(
                    "mesh 100x100 grid 1920x1080 \(streaming ? "streamed" : "static") antialiasing \(antialiasing): \(String(format: "%.1f", fps)) fps"
                )
                #expect(fps > 0)
            }
        }
    }
}
