import FoundationEssentials
import Segue
import SegueFrei0r
import SegueTools

// `segue bench --hosts`: the frei0r plugin in melt beside `segue render` and MLT's luma.
struct HostBench {
    let width: Int, height: Int, runs: Int, effect: String
    let context: GPUContext

    func run() throws {
        guard HostBenchmark.meltAvailable() else { throw CLIFailure(message: "--hosts needs melt (Debian: apt install melt)") }
        let inputs = try TransitionBenchmark(
            width: width, height: height, frames: 2, runs: 1, context: context, cancellation: InterruptHandler.cancellation)
        let bench = try HostBenchmark(
            from: inputs.from, to: inputs.to, effect: effect, runs: runs,
            segue: Executable.path,
            template: Frei0rInstaller.installedTemplate(besideExecutableIn: Executable.directory),
            library: Frei0rInstaller.installedLibrary(besideExecutableIn: Executable.directory),
            cancellation: InterruptHandler.cancellation)
        print(
            "Segue bench --hosts: \(effect), \(width)x\(height), \(bench.frames) frames (\(bench.frames / bench.fps) s at \(bench.fps) fps), median of \(runs) runs, device \(context.info.name), \(ProcessInfo.processInfo.activeProcessorCount) CPU cores"
        )
        let results: [HostBenchmark.Measurement]
        do {
            results = try bench.run()
        } catch let Frei0rError.template(path, reason) {
            // The library's advice ends "or give the template's path", which bench has no flag for.
            throw CLIFailure(
                message: "--hosts needs the frei0r plugin template installed with segue ('\(path)': \(reason)); "
                    + "install Segue with scripts/install.sh, which builds it")
        } catch let Frei0rError.library(path) {
            throw CLIFailure(
                message: "--hosts needs libsegue installed with segue (it is not at '\(path)'); install Segue with scripts/install.sh")
        }
        print("path (melt: real_time=-2 unless noted)".padding(toLength: 41) + "  total s     fps  2 frames ms  ms/frame  ×segue render")
        let reference = results.first { $0.name == "segue render" }?.steadyMilliseconds ?? 0
        for m in results {
            let ratio = reference > 0 ? String(cFormat: "%13.2f", m.steadyMilliseconds / reference) : "            -"
            print(
                m.name.padding(toLength: 41)
                    + String(cFormat: "%9.2f %7.1f %12.0f %9.1f", m.total, m.framesPerSecond, m.startupMilliseconds, m.steadyMilliseconds)
                    + ratio)
        }
        if let plugin = results.first, let segue = results.first(where: { $0.name == "segue render" }) {
            print(
                String(
                    cFormat: "frei0r plugin path (2 threads): %+.1f ms a frame over segue render (%.2fx; target ≤ 1.3x)",
                    plugin.steadyMilliseconds - segue.steadyMilliseconds, plugin.steadyMilliseconds / max(segue.steadyMilliseconds, 1e-9)))
        }
    }
}
