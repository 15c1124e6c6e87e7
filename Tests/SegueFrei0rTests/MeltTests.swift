// The plugins in MLT 7, the engine of Shotcut and Kdenlive, through Debian's `melt`: a project of
// two tracks and a frei0r.segue_* transition over 25 frames, written as Kdenlive writes one
// (`progress` keyframed 0=0;-1=1), rendered headless to PNG frames on two threads (real_time=-2:
// one plugin instance per thread, sharing one GPU context), compared with `segue render` and
// `segue frame` at the same progress and time; a filter; listing; and bad input.
import Foundation
import Segue
import SegueFrei0r
import SegueTestSupport
import Testing

@Suite("frei0r plugins in MLT (melt)")
struct MeltTests {
    /// An MLT project of `width`×`height` at 25 fps: from.png on track 0 and to.png on track 1 for
    /// `frames` frames, with the transition `service` (and `properties`) over all of them, or a
    /// filter `filter` on track 0 alone.
    static func project(
        width: Int, height: Int, frames: Int = 25, inputs: String, transition service: String? = nil,
        properties: [(String, String)] = [], filter: String? = nil
    ) -> String {
        let out = frames - 1
        func producer(_ id: Int, _ file: String, filter: String?) -> String {
            var xml = """
                  <producer id="producer\(id)" in="0" out="\(out)">
                    <property name="length">\(frames)</property>
                    <property name="resource">\(inputs)/\(file)</property>
                    <property name="mlt_service">pixbuf</property>

                """
            if let filter {
                xml +=
                    "    <filter id=\"filter0\">\n      <property name=\"mlt_service\">\(filter)</property>\n"
                    + properties.map { "      <property name=\"\($0.0)\">\($0.1)</property>\n" }.joined() + "    </filter>\n"
            }
            return xml + "  </producer>\n"
        }
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <mlt LC_NUMERIC="C" version="7.12.0">
              <profile description="segue test" width="\(width)" height="\(height)" progressive="1" sample_aspect_num="1" sample_aspect_den="1" display_aspect_num="\(width)" display_aspect_den="\(height)" frame_rate_num="25" frame_rate_den="1" colorspace="709"/>

            """
        xml += producer(0, "from.png", filter: filter)
        xml += "  <playlist id=\"playlist0\"><entry producer=\"producer0\" in=\"0\" out=\"\(out)\"/></playlist>\n"
        if service != nil {
            xml += producer(1, "to.png", filter: nil)
            xml += "  <playlist id=\"playlist1\"><entry producer=\"producer1\" in=\"0\" out=\"\(out)\"/></playlist>\n"
        }
        xml += "  <tractor id=\"tractor0\" in=\"0\" out=\"\(out)\">\n    <track producer=\"playlist0\"/>\n"
        if let service {
            xml += """
                    <track producer="playlist1"/>
                    <transition id="transition0" in="0" out="\(out)">
                      <property name="a_track">0</property>
                      <property name="b_track">1</property>
                      <property name="mlt_service">\(service)</property>
                      <property name="kdenlive_id">\(service)</property>
                      <property name="progress">0=0;-1=1</property>

                """
            xml += properties.map { "      <property name=\"\($0.0)\">\($0.1)</property>\n" }.joined() + "    </transition>\n"
        }
        return xml + "  </tractor>\n</mlt>\n"
    }

    /// Renders `project` with melt to OUT/out001.png … on two threads; returns the run.
    ///
    /// Debian's melt 7.12 now and then renders nothing and exits 0, or never exits (its main loop
    /// left sleeping after the consumer's threads are gone), when several run at once — with MLT's
    /// own luma transition as with these plugins (3 of 24 runs of six at once here). Such a run
    /// (status 0 with missing frames, or killed after `timeout`) is tried again, at most three
    /// times; a crash (a signal) never is.
    static func melt(
        _ project: String, in dir: TemporaryDirectory, name: String, installation: Installation,
        pluginPath: String? = nil, frames expected: Int = 25, timeout: Double = 120
    ) throws -> (run: ProgramResult, frames: String) {
        let file = dir.file(name + ".mlt"), frames = dir.file(name)
        try project.write(toFile: file, atomically: true, encoding: .utf8)
        var run: ProgramResult?
        for _ in 0..<3 {
            try? FileManager.default.removeItem(atPath: frames)
            try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
            let attempt = try runProgram(
                "melt", ["-silent", file, "-consumer", "avformat:\(frames)/out%03d.png", "vcodec=png", "pix_fmt=rgba", "real_time=-2"],
                environment: installation.hostEnvironment(pluginPath: pluginPath), timeout: timeout)
            run = attempt
            let written = (try? FileManager.default.contentsOfDirectory(atPath: frames).count) ?? 0
            let stalled = attempt.signal == SIGKILL || (attempt.status == 0 && written < expected)
            if !stalled { break }
        }
        return (run!, frames)
    }

    @Test(
        "melt renders frei0r.segue_fade on two threads: all 25 frames as segue render's; the middle frame of cube, doom-melt and .glsl files (a colour, a texture) as segue frame's"
    )
    func transitions() throws {
        let dir = try TemporaryDirectory("melt")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let pluginPath = try installation.pluginPathWithFiles()
        let (w, h) = (64, 48)
        let inputs = try writeInputs(dir, width: w, height: h, translucent: true)

        // The fade, every frame: frame i is at i/25 s and progress i/24, as segue render's
        // frame i of 0.96 s at 25 fps.
        let fade = try Self.melt(
            Self.project(width: w, height: h, inputs: inputs, transition: "frei0r.segue_fade"), in: dir, name: "fade",
            installation: installation, pluginPath: pluginPath)
        #expect(fade.run.status == 0 && fade.run.signal == nil, "\(fade.run.stderr)")
        let rendered = dir.file("fade-segue")
        let cli = try installation.runSegue([
            "render", "--from", inputs + "/from.png", "--to", inputs + "/to.png", "--effect", "fade",
            "--duration", "0.96", "--fps", "25", "--timing", "linear", "-o", rendered,
        ])
        try #require(cli.status == 0, "\(cli.stderr)")
        for i in 0..<25 {
            let ours = try ImageFile.read(path: String(format: "%@/out%03d.png", fade.frames, i + 1))
            let reference = try ImageFile.read(path: String(format: "%@/frame-%05d.png", rendered, i))
            let worst = largestDifference(ours, reference)
            #expect(worst.difference <= 1, "fade frame \(i): differs by \(worst.difference)/255 at (\(worst.x), \(worst.y))")
        }

        // The middle frame (position 12: progress 0.5, time 0.48 s) of a mesh, a time-based effect
        // with a parameter, and a file.
        let cases: [(service: String, properties: [(String, String)], reference: [String])] = [
            ("frei0r.segue_cube", [("pop", "1")], ["--effect", "cube", "--param", "pop=true"]),
            ("frei0r.segue_doom_melt", [("spread", "0.5")], ["--effect", "doom-melt", "--duration", "0.96", "--param", "spread=0.5"]),
            ("frei0r.segue_tint", [("tint", "#00ff00")], ["--effect", EffectFiles.tint, "--param", "tint=0,1,0,1"]),
            (
                "frei0r.segue_luma_mask", [("luma", inputs + "/from.png"), ("softness", "0.2")],
                ["--effect", EffectFiles.luma, "--texture", "luma=\(inputs)/from.png", "--param", "softness=0.2"]
            ),
        ]
        for (service, properties, reference) in cases {
            let name = String(service.dropFirst("frei0r.".count))
            let run = try Self.melt(
                Self.project(width: w, height: h, inputs: inputs, transition: service, properties: properties), in: dir, name: name,
                installation: installation, pluginPath: pluginPath)
            #expect(run.run.status == 0 && run.run.signal == nil, "\(service): \(run.run.stderr)")
            let file = dir.file(name + "-segue.png")
            let cli = try installation.runSegue(
                ["frame", "--from", inputs + "/from.png", "--to", inputs + "/to.png", "--progress", "0.5", "-o", file] + reference)
            try #require(cli.status == 0, "\(cli.stderr)")
            let worst = largestDifference(try ImageFile.read(path: run.frames + "/out013.png"), try ImageFile.read(path: file))
            #expect(worst.difference <= 1, "\(service): differs by \(worst.difference)/255 at (\(worst.x), \(worst.y))")
            let first = largestDifference(
                try ImageFile.read(path: run.frames + "/out013.png"), try ImageFile.read(path: run.frames + "/out001.png"))
            #expect(first.difference > 8, "\(service): the middle frame is the first")
        }
    }

    @Test("melt runs a frei0r.segue_* filter on a track: the bulge as segue mesh draws it")
    func filter() throws {
        let dir = try TemporaryDirectory("melt-filter")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let inputs = try writeInputs(dir)
        let run = try Self.melt(
            Self.project(width: 64, height: 48, frames: 5, inputs: inputs, properties: [("radius", "0.06")], filter: "frei0r.segue_bulge"),
            in: dir, name: "bulge", installation: installation, frames: 5)
        #expect(run.run.status == 0 && run.run.signal == nil, "\(run.run.stderr)")
        let file = dir.file("bulge-segue.png")
        let cli = try installation.runSegue(["mesh", inputs + "/from.png", "--mesh", "bulge", "--param", "radius=30.94", "-o", file])
        try #require(cli.status == 0, "\(cli.stderr)")
        for frame in ["out001.png", "out005.png"] {
            let worst = largestDifference(try ImageFile.read(path: run.frames + "/" + frame), try ImageFile.read(path: file))
            #expect(worst.difference <= 1, "\(frame): differs by \(worst.difference)/255 at (\(worst.x), \(worst.y))")
        }
    }

    @Test("melt -query lists every plugin as frei0r.segue_*, and listing loads no libsegue")
    func listing() throws {
        let dir = try TemporaryDirectory("melt-query")
        defer { dir.remove() }
        let installation = try Installation(dir)
        var env = installation.hostEnvironment()
        env["LD_DEBUG"] = "files"
        let transitions = try runProgram("melt", ["-query", "transitions"], environment: env)
        #expect(transitions.status == 0)
        let listed = Set(
            transitions.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                $0.hasPrefix("- frei0r.segue_")
            })
        let plugins = try SegueFrei0rListing.installed(installation.plugins)
        #expect(
            listed == Set(plugins.mixers.map { "- frei0r." + $0 }),
            "\(listed.symmetricDifference(Set(plugins.mixers.map { "- frei0r." + $0 })))")
        #expect(listed.count > 60)
        #expect(!transitions.stderr.contains("libsegue"), "listing loaded libsegue")
        let filters = try runProgram("melt", ["-query", "filters"], environment: installation.hostEnvironment())
        for name in plugins.filters { #expect(filters.stdout.contains("- frei0r.\(name)\n"), "\(name)") }
    }

    @Test(
        "bad input in melt: a shader edited into one that does not compile and a vanished file show the first track with a message; a zero-sized frame is melt's error; no crash"
    )
    func badInput() throws {
        let dir = try TemporaryDirectory("melt-bad")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let bad = try BrokenEffects(dir, installation)
        let inputs = try writeInputs(dir)
        let from = try ImageFile.read(path: inputs + "/from.png")
        for (service, message) in [("frei0r.segue_broken", bad.brokenMessage), ("frei0r.segue_gone", bad.goneMessage)] {
            let run = try Self.melt(
                Self.project(width: 64, height: 48, frames: 5, inputs: inputs, transition: service), in: dir, name: service,
                installation: installation, pluginPath: bad.plugins, frames: 5)
            #expect(run.run.signal == nil && run.run.status == 0, "\(service): \(run.run.status) \(run.run.stderr)")
            #expect(run.run.stderr.contains(message), "\(service): \(run.run.stderr)")
            // As MLT shows a frei0r transition that cannot run: the first track.
            for frame in ["out001.png", "out003.png", "out005.png"] {
                let shown = try ImageFile.read(path: run.frames + "/" + frame)
                #expect(largestDifference(shown, from).difference == 0, "\(service) \(frame)")
            }
        }
        // A zero-sized frame: melt refuses the profile itself (status 1, its message), no crash.
        let zero = try Self.melt(
            Self.project(width: 0, height: 48, frames: 5, inputs: inputs, transition: "frei0r.segue_fade"), in: dir, name: "zero",
            installation: installation, frames: 0)
        #expect(zero.run.signal == nil && zero.run.status == 1, "\(zero.run.status) \(zero.run.stderr)")
        #expect(zero.run.stderr.contains("Picture size 0x48 is invalid"), "\(zero.run.stderr)")
    }
}

/// The plugins in a directory, by the kind their configuration names.
enum SegueFrei0rListing {
    static func installed(_ directory: String) throws -> (mixers: [String], filters: [String]) {
        var mixers: [String] = [], filters: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() where file.hasSuffix(".so") {
            let text = Frei0rTemplate.configuration(ofPlugin: directory + "/" + file) ?? ""
            let name = String(file.dropLast(3))
            if text.contains("type\tfilter\n") { filters.append(name) } else { mixers.append(name) }
        }
        return (mixers, filters)
    }
}
