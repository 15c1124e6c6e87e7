import FoundationEssentials
import Segue
import SegueCore
import SegueFrei0r
import SegueMedia

// `segue bench --hosts`: one transition rendered three ways, each as its own process the way a user
// runs it: by MLT's `melt` through the frei0r plugin (frei0r.segue_NAME on two render threads, as
// Shotcut and Kdenlive render, and on one; the frames discarded by MLT's null consumer in RGBA),
// by `segue render` (raw RGBA8 frames into a pipe that is drained), and by `melt` with MLT's own
// `luma` dissolve on the same project (two threads). Each
// is timed for the whole transition and for its first two frames; the difference, divided by the
// frames between, is the time a frame costs once the process is up (MLT's start-up — loading its modules
// — and Segue's — opening the GPU, compiling the shader — left out). The plugin path's overhead
// per frame is melt+frei0r's cost per frame minus `segue render`'s.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timings of a transition in MLT through the frei0r plugin, in `segue render`, and MLT's luma.
public struct HostBenchmark {
    /// One way of rendering the transition.
    public struct Measurement: Sendable {
        /// What was measured.
        public let name: String
        /// Frames in the whole transition.
        public let frames: Int
        /// Seconds for the whole transition, process start to exit (median of the runs).
        public let total: Double
        /// Seconds for a two-frame run of the same (start-up and two frames).
        public let start: Double

        /// Frames per second of the whole run.
        public var framesPerSecond: Double { Double(frames) / total }
        /// Milliseconds a frame costs once the process is up: (total − start) / (frames − 2).
        public var steadyMilliseconds: Double { max(0, total - start) * 1000 / Double(max(frames - 2, 1)) }
        /// Milliseconds of start-up and the first two frames.
        public var startupMilliseconds: Double { start * 1000 }
    }

    /// Frame size.
    public let width: Int, height: Int
    /// Frames per second of the project; the transition lasts `frames` frames.
    public let fps: Int, frames: Int
    /// The built-in transition.
    public let effect: String
    /// Runs per measurement (the median is kept).
    public let runs: Int
    /// The `segue` executable (`segue render`, and `segue frei0r install`'s plugin writer's paths).
    public let segue: String
    /// The plugin template and libsegue the plugins are written with.
    public let template: String, library: String
    /// The two screens.
    public let from: Image, to: Image
    /// Stops the benchmark from outside (its scratch directory and the programs it runs are
    /// registered with it).
    public let cancellation: Cancellation?

    /// A benchmark of `effect` over `seconds` at `fps`.
    /// - Throws: `RenderError.invalidValue` for fewer than 3 frames; `RenderError.outOfRange` for
    ///   runs out of range.
    public init(
        from: Image, to: Image, effect: String = "fade", seconds: Double = 2, fps: Int = 25, runs: Int = 3,
        segue: String, template: String, library: String, cancellation: Cancellation? = nil
    ) throws {
        let frames = Int((seconds * Double(fps)).rounded())
        guard frames >= 3, frames <= 100_000 else {
            throw RenderError.invalidValue("a host benchmark needs 3 to 100000 frames, got \(frames)")
        }
        try TransitionBenchmark.checkRuns(runs)
        (self.from, self.to, self.width, self.height) = (from, to, from.width, from.height)
        (self.effect, self.fps, self.frames, self.runs) = (effect, fps, frames, runs)
        (self.segue, self.template, self.library) = (segue, template, library)
        self.cancellation = cancellation
    }

    /// Whether `melt` is on PATH.
    public static func meltAvailable() -> Bool {
        FileIO.findExecutable("melt") != nil
    }

    /// Measures, in this order: melt through the plugin on two threads and on one, segue render,
    /// melt with luma.
    /// - Throws: `Frei0rError` (writing the plugins), `MediaError`, `RenderError.invalidValue`
    ///   when a process fails; `SystemError.cancelled` when `cancellation` stops it.
    public func run() throws -> [Measurement] {
        try FileIO.withScratchDirectory(prefix: "segue-host-bench", cancellation: cancellation) { try run(in: $0) }
    }

    private func run(in dir: String) throws -> [Measurement] {
        try ImageFile.write(from, to: dir + "/from.png")
        try ImageFile.write(to, to: dir + "/to.png")
        try Frei0rInstaller(directory: dir + "/plugins", library: library, template: template).install()
        let service = "frei0r." + Frei0rPlugin.pluginName(builtIn: effect)
        var environment = ProcessInfo.processInfo.environment
        environment["FREI0R_PATH"] = dir + "/plugins"
        func project(_ transition: String, frames: Int) throws -> String {
            let path = "\(dir)/\(transition)-\(frames).mlt"
            try meltProject(transition: transition, frames: frames, directory: dir).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        func melt(_ transition: String, threads: Int = 2) throws -> (Double, Double) {
            let whole = try project(transition, frames: frames), two = try project(transition, frames: 2)
            // The null consumer renders every frame (images in RGBA, what the plugin outputs) and
            // discards it; without terminate_on_pause it would render the last frame for ever.
            let consumer = ["-consumer", "null", "real_time=-\(threads)", "mlt_image_format=rgba", "terminate_on_pause=1"]
            return (
                try time("melt", ["-silent", whole] + consumer, environment: environment, frames: frames),
                try time("melt", ["-silent", two] + consumer, environment: environment, frames: 2)
            )
        }
        func render(frames: Int) throws -> Double {
            let duration = Double(frames - 1) / Double(fps)
            return try time(
                segue,
                [
                    "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", effect, "--timing", "linear",
                    "--duration", String(duration), "--fps", String(fps), "-o", "-",
                ], environment: environment, frames: frames)
        }
        let plugin = try melt(service), oneThread = try melt(service, threads: 1)
        let segueWhole = try render(frames: frames), segueTwo = try render(frames: 2)
        let luma = try melt("luma")
        let name = "melt + frei0r.\(Frei0rPlugin.pluginName(builtIn: effect))"
        return [
            Measurement(name: name, frames: frames, total: plugin.0, start: plugin.1),
            Measurement(name: name + " (1 thread)", frames: frames, total: oneThread.0, start: oneThread.1),
            Measurement(name: "segue render", frames: frames, total: segueWhole, start: segueTwo),
            Measurement(name: "melt + luma (MLT's own)", frames: frames, total: luma.0, start: luma.1),
        ]
    }

    /// Two tracks of the stills (from on track 0) and `transition` over `frames` frames, progress 0 → 1.
    func meltProject(transition: String, frames: Int, directory: String) -> String {
        let out = max(frames - 1, 0)
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <mlt LC_NUMERIC="C">
              <profile description="segue bench" width="\(width)" height="\(height)" progressive="1" sample_aspect_num="1" sample_aspect_den="1" display_aspect_num="\(width)" display_aspect_den="\(height)" frame_rate_num="\(fps)" frame_rate_den="1" colorspace="709"/>

            """
        for (i, file) in ["from.png", "to.png"].enumerated() {
            xml += """
                  <producer id="producer\(i)" in="0" out="\(out)"><property name="length">\(frames)</property><property name="resource">\(directory)/\(file)</property><property name="mlt_service">pixbuf</property></producer>
                  <playlist id="playlist\(i)"><entry producer="producer\(i)" in="0" out="\(out)"/></playlist>

                """
        }
        xml += """
              <tractor id="tractor0" in="0" out="\(out)">
                <track producer="playlist0"/>
                <track producer="playlist1"/>
                <transition id="transition0" in="0" out="\(out)">
                  <property name="a_track">0</property>
                  <property name="b_track">1</property>
                  <property name="mlt_service">\(transition)</property>
                  <property name="progress">0=0;-1=1</property>
                </transition>
              </tractor>
            </mlt>

            """
        return xml
    }

    /// The median wall-clock seconds of `runs` runs of `executable` (stdout drained). A melt run
    /// that stalls (Debian's melt 7.12 now and then never exits) is killed after a minute plus a
    /// second a frame and run again, at most twice.
    func time(_ executable: String, _ arguments: [String], environment: [String: String], frames: Int) throws -> Double {
        try Statistics.median(of: runs) {
            var seconds: Double?
            for _ in 0..<3 where seconds == nil {
                seconds = try timeOnce(executable, arguments, environment: environment, limit: 60 + Double(frames))
            }
            guard let seconds else { throw RenderError.invalidValue("\(executable) did not finish in \(60 + frames) s, three times") }
            return seconds
        }
    }

    /// Seconds one run takes, or nil when it outlived `limit` seconds (then killed).
    private func timeOnce(_ executable: String, _ arguments: [String], environment: [String: String], limit: Double) throws -> Double? {
        let run = try TransitionBenchmark.runProgram(
            executable, arguments, what: "\(FileIO.lastComponent(of: executable)) \(arguments.first ?? "")", environment: environment,
            inheriting: false, timeout: limit, cancellation: cancellation)
        return run.timedOut ? nil : run.seconds
    }
}
