import FoundationEssentials
import Segue
import SegueTools

// `segue bench --meshes`: prints the mesh suite's rows (the measuring is `MeshBenchmark.suite`'s).
struct MeshBench {
    let width: Int
    let height: Int
    let frames: Int
    let runs: Int
    let context: GPUContext

    func run() throws {
        print(
            "Mesh pipeline: \(width)x\(height), 100x100-quad grid, \(frames) frames, median of \(runs) runs, readback on, device \(context.info.name)"
        )
        var staticFPS = 0.0
        try MeshBenchmark.suite(
            context: context, width: width, height: height, frames: frames, runs: runs, cancellation: InterruptHandler.cancellation
        ) { measurement, fps in
            switch measurement {
            case .staticGrid:
                staticFPS = fps
                print(line("static", fps))
            case .reuploaded: print(line("re-uploaded", fps))
            case .withoutReadback: print(line("  no readback", fps))
            case .oneQuad: print(line("  1x1 grid", fps))
            case .fade: print(line("fade (readback)", fps) + String(cFormat: "   static mesh / fade: %.2fx the time", fps / staticFPS))
            case .rebuilt: print(line("rebuilt", fps) + String(cFormat: "   rebuilt / static: %.2fx the time", staticFPS / fps))
            }
        }
    }

    private func line(_ label: String, _ fps: Double) -> String {
        label.padding(toLength: 17) + String(cFormat: "%8.1f fps %9.2f ms/frame", fps, 1000 / fps)
    }
}
