import FoundationEssentials
import Segue
import SegueCore
import SegueMath

// The mesh pipeline's suite, as `segue bench --meshes` prints it: a 100×100 grid uploaded once,
// re-uploaded every frame, and rebuilt on the CPU every frame (a new MeshTransform, its normals
// and geometry, then the upload), readback included; where a static frame's time goes (the same
// frame without readback, and the same pixels from one quad instead of 20,000 triangles); and a
// fade of the same size, for the ratio.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MeshBenchmark {
    /// One measurement of the suite.
    public enum Measurement: Sendable, CaseIterable {
        /// The 100×100 grid uploaded once.
        case staticGrid
        /// The grid re-uploaded every frame.
        case reuploaded
        /// The static grid without readback.
        case withoutReadback
        /// The same pixels from a 1×1 grid: what the geometry costs.
        case oneQuad
        /// A full-screen fade of the same size, with readback.
        case fade
        /// A rippling grid rebuilt on the CPU every frame.
        case rebuilt
    }

    /// Measures the suite in the order of `Measurement.allCases`, `frames` frames each at
    /// `width` × `height` pixels, the median of `runs` measurements, handing each result (frames
    /// per second) to `measured` as soon as it is known. (One measurement a row swung by half on
    /// the H200, whose clocks change between runs of a tenth of a second.)
    /// - Throws: `RenderError.outOfRange` for `runs` outside 1…100 (before anything is
    ///   measured); `VulkanError`, `RenderError`, `MeshError`; what `measured` throws.
    public static func suite(
        context: GPUContext, width: Int, height: Int, frames: Int, runs: Int = 1, cancellation: Cancellation? = nil,
        measured: (Measurement, Double) throws -> Void
    ) throws {
        try TransitionBenchmark.checkRuns(runs)
        let image = SampleScreens.home(scale: Double(width) / 390)
        let texture = try GPUTexture(context: context, image: image)
        func median(_ measure: () throws -> Double) throws -> Double { try Statistics.median(of: runs, measure) }
        for (measurement, streaming) in [(Measurement.staticGrid, false), (.reuploaded, true)] {
            try measured(
                measurement,
                try median {
                    try framesPerSecond(
                        context: context, width: width, height: height, frames: frames, streaming: streaming, textures: [texture])
                })
        }
        try measured(
            .withoutReadback,
            try median {
                try framesPerSecond(
                    context: context, width: width, height: height, frames: frames, streaming: false, textures: [texture],
                    options: MeshRenderer.Options(readback: false))
            })
        try measured(
            .oneQuad,
            try median {
                try framesPerSecond(
                    context: context, width: width, height: height, rows: 1, columns: 1, frames: frames, streaming: false,
                    textures: [texture])
            })
        let fade = try TransitionBenchmark(
            width: width, height: height, frames: frames, runs: runs, context: context, cancellation: cancellation)
        try measured(.fade, try fade.framesPerSecond(EffectCatalog.builtIn(named: "fade")!, mode: .readback))
        try measured(.rebuilt, try median { try rebuiltFramesPerSecond(context: context, width: width, height: height, frames: frames) })
    }

    /// Frames per second of a 100×100 grid rippling in depth, its `MeshTransform` rebuilt every
    /// frame, rendered lit and in perspective with readback.
    static func rebuiltFramesPerSecond(context: GPUContext, width: Int, height: Int, frames: Int) throws -> Double {
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
        try renderer.render(count: 3, scene: scene) { _, _ in }  // warm-up
        return Double(frames) / (try Stopwatch.time { try renderer.render(count: frames, scene: scene) { _, _ in } })
    }
}
