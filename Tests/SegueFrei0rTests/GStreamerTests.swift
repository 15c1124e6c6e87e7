// The plugins in GStreamer 1.22 (gstreamer1.0-plugins-bad's frei0r module, which registers
// frei0r-mixer-NAME and frei0r-filter-NAME elements from FREI0R_PATH): two still sources mixed by
// gst-launch-1.0 through frei0r-mixer-segue-fade and a .glsl file's plugin, a filter, listing with
// gst-inspect-1.0, and bad input. Each test has its own registry (GST_REGISTRY).
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("frei0r plugins in GStreamer")
struct GStreamerTests {
    /// `filesrc ! pngdec ! imagefreeze` of a PNG as RGBA at 25 fps, `buffers` frames.
    static func source(_ png: String, buffers: Int = 3) -> [String] {
        [
            "filesrc", "location=\(png)", "!", "pngdec", "!", "imagefreeze", "num-buffers=\(buffers)", "!", "videoconvert", "!",
            "video/x-raw,format=RGBA,framerate=25/1",
        ]
    }

    /// Mixes from.png and to.png of `inputs` through `element` (with `properties`) into OUT/g000.png….
    static func mix(
        _ element: String, _ properties: [String], inputs: String, out: String, installation: Installation,
        pluginPath: String? = nil
    ) throws -> ProgramResult {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let arguments =
            ["-q", element, "name=mix"] + properties + [
                "!", "videoconvert", "!", "pngenc", "!", "multifilesink", "location=\(out)/g%03d.png",
            ]
            + source(inputs + "/from.png") + ["!", "mix.sink_0"] + source(inputs + "/to.png") + ["!", "mix.sink_1"]
        return try runProgram("gst-launch-1.0", arguments, environment: installation.hostEnvironment(pluginPath: pluginPath), timeout: 240)
    }

    @Test(
        "gst-launch-1.0 mixes two sources through frei0r-mixer-segue-fade, .glsl files' plugins with a colour and a texture, and a filter: every frame as segue's"
    )
    func pipelines() throws {
        let dir = try TemporaryDirectory("gst")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let pluginPath = try installation.pluginPathWithFiles()
        let inputs = try writeInputs(dir, translucent: true)

        let cases: [(element: String, properties: [String], reference: [String])] = [
            ("frei0r-mixer-segue-fade", ["progress=0.5"], ["--effect", "fade", "--progress", "0.5"]),
            (
                "frei0r-mixer-segue-tint", ["progress=0.25", "tint-r=0", "tint-g=1", "tint-b=0"],
                ["--effect", EffectFiles.tint, "--progress", "0.25", "--param", "tint=0,1,0,1"]
            ),
            // A texture: a string property holding the image's path.
            (
                "frei0r-mixer-segue-luma-mask", ["progress=0.5", "luma=\(inputs)/from.png"],
                ["--effect", EffectFiles.luma, "--progress", "0.5", "--texture", "luma=\(inputs)/from.png"]
            ),
        ]
        for (element, properties, reference) in cases {
            let out = dir.file(element)
            let run = try Self.mix(element, properties, inputs: inputs, out: out, installation: installation, pluginPath: pluginPath)
            #expect(run.status == 0 && run.signal == nil, "\(element): \(run.stderr)")
            let file = dir.file(element + "-segue.png")
            let cli = try installation.runSegue(
                ["frame", "--from", inputs + "/from.png", "--to", inputs + "/to.png", "-o", file] + reference)
            try #require(cli.status == 0, "\(cli.stderr)")
            let expected = try ImageFile.read(path: file)
            let frames = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(frames == ["g000.png", "g001.png", "g002.png"], "\(element): \(frames)")
            for frame in frames {
                let worst = largestDifference(try ImageFile.read(path: out + "/" + frame), expected)
                #expect(worst.difference <= 1, "\(element) \(frame): differs by \(worst.difference)/255 at (\(worst.x), \(worst.y))")
            }
        }

        // A filter on one stream: the bulge, radius 0.06 of its stated 1…500 points.
        let out = dir.file("bulge")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let run = try runProgram(
            "gst-launch-1.0",
            ["-q"] + Self.source(inputs + "/from.png", buffers: 2)
                + [
                    "!", "frei0r-filter-segue-bulge", "radius=0.06", "!", "videoconvert", "!", "pngenc", "!", "multifilesink",
                    "location=\(out)/g%03d.png",
                ],
            environment: installation.hostEnvironment(), timeout: 240)
        #expect(run.status == 0 && run.signal == nil, "bulge: \(run.stderr)")
        let cli = try installation.runSegue([
            "mesh", inputs + "/from.png", "--mesh", "bulge", "--param", "radius=30.94", "-o", dir.file("bulge-segue.png"),
        ])
        try #require(cli.status == 0, "\(cli.stderr)")
        let worst = largestDifference(try ImageFile.read(path: out + "/g001.png"), try ImageFile.read(path: dir.file("bulge-segue.png")))
        #expect(worst.difference <= 1, "bulge: differs by \(worst.difference)/255 at (\(worst.x), \(worst.y))")
    }

    @Test("gst-inspect-1.0 lists every plugin as frei0r-mixer-segue-… or frei0r-filter-segue-…, and describes one without loading libsegue")
    func listing() throws {
        let dir = try TemporaryDirectory("gst-inspect")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let all = try runProgram("gst-inspect-1.0", [], environment: installation.hostEnvironment(), timeout: 240)
        #expect(all.status == 0)
        let listed = Set(
            all.stdout.split(separator: "\n").compactMap { line -> String? in
                let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
                return parts.count >= 2 && parts[0] == "frei0r" && parts[1].contains("-segue-") ? parts[1] : nil
            })
        let plugins = try SegueFrei0rListing.installed(installation.plugins)
        let expected = Set(
            plugins.mixers.map { "frei0r-mixer-" + $0.replacingOccurrences(of: "_", with: "-") }
                + plugins.filters.map { "frei0r-filter-" + $0.replacingOccurrences(of: "_", with: "-") })
        #expect(listed == expected, "\(listed.symmetricDifference(expected).sorted())")
        #expect(listed.count == EffectCatalog.builtIns.count)

        var env = installation.hostEnvironment()
        env["LD_DEBUG"] = "files"
        let melt = try runProgram("gst-inspect-1.0", ["frei0r-mixer-segue-doom-melt"], environment: env, timeout: 240)
        #expect(melt.status == 0, "\(melt.stderr.suffix(2000))")
        #expect(melt.stdout.contains("startspeed"), "\(melt.stdout)")
        #expect(melt.stdout.contains("how fast a column reaches full melting speed (1/s) (0…1 is 0…10)"))
        #expect(melt.stdout.contains("Default:            0.27"), "\(melt.stdout)")
        #expect(!melt.stderr.contains("libsegue.so"), "describing an element loaded libsegue")
    }

    @Test(
        "bad input in GStreamer: a vanished file leaves its element out (gst-launch fails), a shader edited into one that does not compile shows the first input, a zero-sized frame fails negotiation; messages, no crash"
    )
    func badInput() throws {
        let dir = try TemporaryDirectory("gst-bad")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let bad = try BrokenEffects(dir, installation)
        let inputs = try writeInputs(dir)
        let pluginPath = installation.plugins + ":" + bad.plugins

        let gone = try Self.mix(
            "frei0r-mixer-segue-gone", ["progress=0.5"], inputs: inputs, out: dir.file("gone"), installation: installation,
            pluginPath: pluginPath)
        #expect(gone.status == 1 && gone.signal == nil, "\(gone.status) \(gone.stderr)")
        #expect(gone.stderr.contains(bad.goneMessage), "\(gone.stderr)")
        #expect(
            gone.stdout.contains("no element \"frei0r-mixer-segue-gone\"")
                || gone.stderr.contains("no element \"frei0r-mixer-segue-gone\""),
            "\(gone.stdout)\(gone.stderr)")

        let broken = try Self.mix(
            "frei0r-mixer-segue-broken", ["progress=0.5"], inputs: inputs, out: dir.file("broken"), installation: installation,
            pluginPath: pluginPath)
        #expect(broken.status == 0 && broken.signal == nil, "\(broken.status) \(broken.stderr)")
        #expect(broken.stderr.components(separatedBy: bad.brokenMessage).count - 1 == 1, "\(broken.stderr)")
        let from = try ImageFile.read(path: inputs + "/from.png")
        for frame in ["g000.png", "g002.png"] {
            #expect(largestDifference(try ImageFile.read(path: dir.file("broken/" + frame)), from).difference == 0, "\(frame)")
        }

        let zero = try runProgram(
            "gst-launch-1.0",
            [
                "-q", "frei0r-mixer-segue-fade", "name=mix", "!", "fakesink",
                "videotestsrc", "num-buffers=2", "!", "video/x-raw,format=RGBA,width=0,height=48", "!", "mix.sink_0",
                "videotestsrc", "num-buffers=2", "!", "video/x-raw,format=RGBA,width=0,height=48", "!", "mix.sink_1",
            ],
            environment: installation.hostEnvironment(pluginPath: pluginPath), timeout: 240)
        #expect(zero.status == 1 && zero.signal == nil, "\(zero.status) \(zero.stderr)")
        #expect((zero.stdout + zero.stderr).contains("width=(int)0"), "\(zero.stdout)\(zero.stderr)")
    }
}
