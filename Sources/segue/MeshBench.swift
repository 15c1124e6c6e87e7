import Dispatch
import FoundationEssentials
import Segue
import SegueTools

// `segue bench --meshes`: frames per second of the mesh pipeline at the bench size with a 100×100
// grid: uploaded once, re-uploaded every frame, and rebuilt on the CPU every frame (a new
// MeshTransform, its normals and geometry, then the upload), readback included; the static
// frame without readback and as one quad, and a fade of the same size in the same run.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct MeshBench {
    let width: Int
    let height: Int
    let frames: Int
    let context: GPUContext

    func run() throws {
        print("Mesh pipeline: \(width)x\(height), 100x100-quad grid, \(frames) frames, readback on, device \(context.info.name)")
        let image = SampleScreens.home(scale: Double(width) / 390)
        let texture = try GPUTexture(context: context, image: image)
        var staticFPS = 0.0
        for (label, streaming) in [("static", false), ("re-uploaded", true)] {
            let fps = try MeshBenchmark.framesPerSecond(
                context: context, width: width, height: height, frames: frames,
                streaming: streaming, textures: [texture])
            if !streaming { staticFPS = fps }
            print(line(label, fps))
        }
        // Where a static frame's time goes: without the readback; the same pixels from 2 triangles
        // instead of 20,000 (what the geometry costs); and a fade of the same size for the ratio.
        let noReadback = try MeshBenchmark.framesPerSecond(
            context: context, width: width, height: height, frames: frames, streaming: false,
            textures: [texture], options: MeshRenderer.Options(readback: false))
        print(line("  no readback", noReadback))
        let oneQuad = try MeshBenchmark.framesPerSecond(
            context: context, width: width, height: height, rows: 1, columns: 1, frames: frames,
            streaming: false, textures: [texture])
        print(line("  1x1 grid", oneQuad))
        let fade = try TransitionBenchmark(
            width: width, height: height, frames: frames, runs: 1, context: context, cancellation: InterruptHandler.cancellation
        )
        .framesPerSecond(EffectCatalog.builtIn(named: "fade")!, mode: .readback)
        print(line("fade (readback)", fade) + String(cFormat: "   static mesh / fade: %.2fx the time", fade / staticFPS))
        // Rebuilt every frame: a rippling grid whose vertices are recomputed each frame.
        let renderer = try MeshSceneRenderer(from: Image(width: width, height: height, fill: .white), context: context)
        let grid = MeshTransform.identity(rows: 100, columns: 100)
        let appearance = MeshAppearance(
            diffuseLightFactor: 0.5, supplementaryTransform: .perspective(distance: 2 * Double(max(width, height))))
        func scene(_ i: Int) throws -> (mesh: MeshTransform, appearance: MeshAppearance) {
            let phase = Double(i) * 0.2
            let mesh = try grid.mappingVertices { v, _ in
                var v = v
                let dx = v.from.x - 0.5, dy = v.from.y - 0.5
                v.to.z = 0.02 * sin(20 * (dx * dx + dy * dy).squareRoot() - phase)
                return v
            }
            return (mesh, appearance)
        }
        try renderer.render(count: 3, scene: scene) { _, _ in }
        let start = DispatchTime.now()
        try renderer.render(count: frames, scene: scene) { _, _ in }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let rebuilt = Double(frames) / seconds
        print(line("rebuilt", rebuilt) + String(cFormat: "   rebuilt / static: %.2fx the time", staticFPS / rebuilt))
    }

    private func line(_ label: String, _ fps: Double) -> String {
        label.padding(toLength: 17) + String(cFormat: "%8.1f fps %9.2f ms/frame", fps, 1000 / fps)
    }
}
