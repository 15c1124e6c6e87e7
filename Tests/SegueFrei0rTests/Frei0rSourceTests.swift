// A fill (a stitchable `half4 f(float2 position, …)`) as a frei0r source plugin: `segue frei0r
// install FILE.metal:NAME` writes an F0R_PLUGIN_TYPE_SOURCE plugin, which MLT runs as the
// producer frei0r.segue_NAME and GStreamer as frei0r-src-segue-NAME; every frame equals `segue
// effect --size WxH --time T` at the frame's time.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("frei0r source plugins (fills) in MLT and GStreamer")
struct Frei0rSourceTests {
    static let fills = """
        #include <metal_stdlib>
        #include <SwiftUI/SwiftUI_Metal.h>
        using namespace metal;
        /// x across in red, y down in blue, green pulsing with the time.
        [[ stitchable ]] half4 pulse(float2 position, float4 bounds, float time) {
            return half4(half(position.x / bounds.z), half(0.5 + 0.5 * sin(time * 6.0)), half(position.y / bounds.w), 1.0h);
        }
        """

    /// Installs the fill's plugin into DIR/extra; returns the plugin path for hosts.
    private func install(_ dir: TemporaryDirectory, _ installation: Installation) throws -> String {
        try Self.fills.write(toFile: dir.file("fills.metal"), atomically: true, encoding: .utf8)
        let added = try installation.installFiles([dir.file("fills.metal") + ":pulse"], into: dir.file("extra"))
        try #require(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdout.contains("1 fill (sources)")
                && added.stdout.contains("segue_pulse: MLT frei0r.segue_pulse, GStreamer frei0r-src-segue-pulse"),
            "\(added.stdout)")
        return installation.plugins + ":" + dir.file("extra")
    }

    /// `segue effect` of the fill at `time`, 40×20.
    private func reference(_ dir: TemporaryDirectory, _ installation: Installation, time: Double) throws -> Image {
        let file = dir.file("ref-\(time).png")
        let cli = try installation.runSegue([
            "effect", "--effect", dir.file("fills.metal") + ":pulse", "--size", "40x20", "--time", String(time), "-o", file,
        ])
        try #require(cli.status == 0, "\(cli.stderr)")
        return try ImageFile.read(path: file)
    }

    @Test("melt: the producer frei0r.segue_pulse gives frames 0, 1, 2 at 0, 0.04, 0.08 s as segue effect's")
    func melt() throws {
        let dir = try TemporaryDirectory("melt-source")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let pluginPath = try install(dir, installation)
        let project = """
            <?xml version="1.0" encoding="utf-8"?>
            <mlt LC_NUMERIC="C" version="7.12.0">
              <profile description="segue test" width="40" height="20" progressive="1" sample_aspect_num="1" sample_aspect_den="1" display_aspect_num="2" display_aspect_den="1" frame_rate_num="25" frame_rate_den="1" colorspace="709"/>
              <producer id="producer0" in="0" out="2">
                <property name="length">3</property>
                <property name="mlt_service">frei0r.segue_pulse</property>
              </producer>
              <playlist id="playlist0"><entry producer="producer0" in="0" out="2"/></playlist>
              <tractor id="tractor0" in="0" out="2"><track producer="playlist0"/></tractor>
            </mlt>

            """
        // MeltTests.melt: melt on two threads, tried again when Debian's melt stalls under load.
        let (run, out) = try MeltTests.melt(project, in: dir, name: "pulse", installation: installation, pluginPath: pluginPath, frames: 3)
        #expect(run.status == 0 && run.signal == nil, "\(run.stderr)")
        for i in 0..<3 {
            let worst = largestDifference(
                try ImageFile.read(path: String(format: "%@/out%03d.png", out, i + 1)),
                try reference(dir, installation, time: Double(i) / 25))
            #expect(worst.difference <= 1, "frame \(i): differs by \(worst.difference)/255 at (\(worst.x), \(worst.y))")
        }
    }

    @Test("gst-launch-1.0: frei0r-src-segue-pulse gives frames 0, 1, 2 at 0, 0.04, 0.08 s as segue effect's")
    func gstreamer() throws {
        let dir = try TemporaryDirectory("gst-source")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let pluginPath = try install(dir, installation)
        let out = dir.file("gst")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let run = try runProgram(
            "gst-launch-1.0",
            [
                "-q", "frei0r-src-segue-pulse", "num-buffers=3", "!", "video/x-raw,format=RGBA,width=40,height=20,framerate=25/1",
                "!", "videoconvert", "!", "pngenc", "!", "multifilesink", "location=\(out)/g%03d.png",
            ],
            environment: installation.hostEnvironment(pluginPath: pluginPath), timeout: 240)
        #expect(run.status == 0 && run.signal == nil, "\(run.stderr)")
        let frames = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(frames == ["g000.png", "g001.png", "g002.png"], "\(frames)")
        for (i, frame) in frames.enumerated() {
            let worst = largestDifference(
                try ImageFile.read(path: out + "/" + frame), try reference(dir, installation, time: Double(i) / 25))
            #expect(worst.difference <= 1, "\(frame): differs by \(worst.difference)/255 at (\(worst.x), \(worst.y))")
        }
    }

    @Test("gst-launch-1.0: a fill with a float array takes it as a string property, as segue effect --arg does")
    func arrayArgument() throws {
        let dir = try TemporaryDirectory("gst-array")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let spec = repositoryRoot + "/Tests/Fixtures/stitchable/Arrays.metal:spectrum"
        let added = try installation.installFiles([spec], into: dir.file("extra"))
        try #require(added.status == 0, "\(added.stderr)")
        let pluginPath = installation.plugins + ":" + dir.file("extra")
        let values = "0.25,0.5,0.75,1,0.125"
        let run = try runProgram(
            "gst-launch-1.0",
            [
                "-q", "frei0r-src-segue-spectrum", "num-buffers=1", "values=\(values)", "!",
                "video/x-raw,format=RGBA,width=40,height=20,framerate=25/1",
                "!", "videoconvert", "!", "pngenc", "!", "filesink", "location=\(dir.file("g.png"))",
            ],
            environment: installation.hostEnvironment(pluginPath: pluginPath), timeout: 240)
        #expect(run.status == 0 && run.signal == nil, "\(run.stderr)")
        let cli = try installation.runSegue([
            "effect", "--effect", spec, "--size", "40x20", "--time", "0", "--arg", "values=\(values)", "-o", dir.file("ref.png"),
        ])
        try #require(cli.status == 0, "\(cli.stderr)")
        let (ours, reference) = (try ImageFile.read(path: dir.file("g.png")), try ImageFile.read(path: dir.file("ref.png")))
        let worst = largestDifference(ours, reference)
        #expect(worst.difference <= 1, "differs by \(worst.difference)/255 at (\(worst.x), \(worst.y))")
        // Not the empty spectrum (count 0 is blue everywhere).
        #expect(reference[0, 19].b != 255 && reference[28, 0].r > 200, "the reference shows bars")
    }
}
