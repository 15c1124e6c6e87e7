// The plugins driven by a minimal C host (Fixtures/frei0r_host.c) as MLT and GStreamer drive
// them, with every call visible: listing without libsegue, frames equal to the CLI's at several
// sizes and from several threads at once, parameters of each frei0r type, and every failure
// giving NULL (after one placeholder) and a message, never a crash.
import Foundation
import Segue
import SegueFrei0r
import SegueTestSupport
import Testing

@Suite("frei0r plugins in a C host")
struct Frei0rHostTests {
    @Test("a plugin is a small C object linking only libc, exporting only f0r_*, listed without loading libsegue")
    func listing() throws {
        let dir = try TemporaryDirectory("listing")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let host = try installation.buildHost()
        let files = try FileManager.default.contentsOfDirectory(atPath: installation.plugins).filter { $0.hasSuffix(".so") }
        #expect(files.count == EffectCatalog.builtIns.count)
        let exports: Set<String> = [
            "f0r_init", "f0r_deinit", "f0r_get_plugin_info", "f0r_get_param_info", "f0r_construct", "f0r_destruct",
            "f0r_set_param_value", "f0r_get_param_value", "f0r_update", "f0r_update2",
        ]
        for name in ["segue_fade.so", "segue_doom_melt.so", "segue_cube.so", "segue_bulge.so"] {
            let path = installation.plugins + "/" + name
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            #expect(size > 0 && size < 128 * 1024, "\(name): \(size) bytes")
            let ldd = try runProgram("/usr/bin/ldd", [path])
            let libraries = ldd.stdout.split(separator: "\n")
                .compactMap { $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) }
                .filter { !$0.hasPrefix("linux-vdso") && !$0.contains("ld-linux") }
            #expect(libraries == ["libc.so.6"], "\(name) links \(libraries)")
            let nm = try runProgram("/usr/bin/nm", ["-D", "--defined-only", path])
            let defined = Set(
                nm.stdout.split(separator: "\n").compactMap { line -> String? in
                    let parts = line.split(separator: " ")
                    return parts.count == 3 && parts[1] == "T" ? String(parts[2]) : nil
                })
            #expect(defined == exports, "\(name) exports \(defined.sorted())")
        }
        let info = try runProgram(
            host, ["info", installation.plugins + "/segue_doom_melt.so"], environment: installation.hostEnvironment())
        #expect(info.status == 0, "\(info.stderr)")
        #expect(
            info.stdout == """
                name segue_doom_melt
                type mixer2
                model rgba8888
                params 4
                param 0 progress double
                param 1 startSpeed double
                param 2 meltSpeed double
                param 3 spread double
                libsegue not-loaded

                """)
        let bulge = try runProgram(host, ["info", installation.plugins + "/segue_bulge.so"], environment: installation.hostEnvironment())
        #expect(
            bulge.stdout.hasPrefix("name segue_bulge\ntype filter\nmodel rgba8888\nparams 3\nparam 0 touch_x double\n"), "\(bulge.stdout)")
        #expect(bulge.stdout.hasSuffix("libsegue not-loaded\n"))
    }

    /// A frame the host renders and the `segue` command line that renders the same.
    struct Job {
        let plugin: String, width: Int, height: Int, progress: Double, time: Double
        let parameters: [String]
        let reference: [String]
        let translucent: Bool
    }

    @Test(
        "frames equal the CLI's: built-ins, a mesh, a time-based melt, a .glsl file, a filter; two sizes; four instances at once on threads"
    )
    func fidelity() throws {
        let dir = try TemporaryDirectory("fidelity")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let host = try installation.buildHost()
        let tint = repositoryRoot + "/Tests/segueTests/Fixtures/gallery/tint.glsl"
        let extra = dir.file("extra")
        let added = try installation.installFiles([tint], into: extra)
        try #require(added.status == 0, "\(added.stderr)")
        for (w, h, translucent) in [(64, 48, false), (37, 23, false), (64, 48, true)] {
            let sub = dir.file("in-\(w)x\(h)\(translucent ? "-a" : "")")
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            try TestFrames.writePair(width: w, height: h, translucent: translucent, into: sub)
        }
        let jobs = [
            Job(
                plugin: "segue_fade", width: 64, height: 48, progress: 0.3, time: 0.3, parameters: [], reference: ["--progress", "0.3"],
                translucent: true),
            Job(
                plugin: "segue_fade", width: 37, height: 23, progress: 0.7, time: 0.7, parameters: [], reference: ["--progress", "0.7"],
                translucent: false),
            Job(
                plugin: "segue_wipe", width: 64, height: 48, progress: 0.4, time: 0.4,
                parameters: ["direction_x=0.5", "direction_y=1", "smoothness=0.2"],
                reference: ["--progress", "0.4", "--param", "direction=0,1", "--param", "smoothness=0.2"], translucent: false),
            // The direction's 0…1 is its stated -1…1; pop is a bool; eyeDistance's 0…1 is 1…5.
            Job(
                plugin: "segue_cube", width: 64, height: 48, progress: 0.6, time: 0.3, parameters: ["pop=1", "eyeDistance=0.5"],
                reference: ["--progress", "0.6", "--param", "pop=true", "--param", "eyeDistance=3"], translucent: false),
            // The host's time drives the melt: 0.48 s at progress 0.5 is segue's progress 0.5 of 0.96 s.
            Job(
                plugin: "segue_doom_melt", width: 64, height: 48, progress: 0.5, time: 0.48, parameters: [],
                reference: ["--progress", "0.5", "--duration", "0.96"], translucent: false),
            Job(
                plugin: "segue_page_curl", width: 37, height: 23, progress: 0.5, time: 0.5, parameters: ["angle=0.6"],
                reference: ["--progress", "0.5", "--param", "angle=36"], translucent: false),
            // A colour: tint's rgb (its alpha stays 1).
            Job(
                plugin: extra + "/segue_tint", width: 64, height: 48, progress: 0.25, time: 0.25, parameters: ["tint=0,1,0"],
                reference: ["--progress", "0.25", "--param", "tint=0,1,0,1"], translucent: false),
            // A filter: the bulge mesh, radius 0.1 of 1…500 points.
            Job(
                plugin: "segue_bulge", width: 64, height: 48, progress: 0, time: 0, parameters: ["radius=0.1", "touch_x=0.25"],
                reference: ["--param", "radius=50.9", "--param", "touch=0.25,0.5"], translucent: false),
        ]
        func inputs(_ job: Job) -> String { dir.file("in-\(job.width)x\(job.height)\(job.translucent ? "-a" : "")") }
        func spec(_ job: Job, _ out: String) -> String {
            ([
                String(job.width), String(job.height), inputs(job) + "/from.rgba", inputs(job) + "/to.rgba", out, String(job.progress),
                String(job.time),
            ]
                + job.parameters).joined(separator: ";")
        }
        // One process per plugin, its jobs in turn (sizes change); then the fade four times at once.
        let byPlugin = Dictionary(grouping: jobs.indices, by: { jobs[$0].plugin })
        for (plugin, indices) in byPlugin {
            let path = plugin.hasPrefix("/") ? plugin + ".so" : installation.plugins + "/" + plugin + ".so"
            let run = try runProgram(
                host, ["run", path] + indices.map { spec(jobs[$0], dir.file("out-\($0).rgba")) },
                environment: installation.hostEnvironment())
            #expect(run.status == 0 && run.signal == nil, "\(plugin): \(run.stdout)\(run.stderr)")
        }
        let parallel = [0, 1, 0, 1].enumerated().map { spec(jobs[$0.element], dir.file("parallel-\($0.offset).rgba")) }
        let run = try runProgram(
            host, ["run", "--parallel", installation.plugins + "/segue_fade.so"] + parallel, environment: installation.hostEnvironment())
        #expect(run.status == 0 && run.signal == nil, "\(run.stdout)\(run.stderr)")
        for (k, j) in [0, 1, 0, 1].enumerated() {
            #expect(
                FileManager.default.contentsEqual(atPath: dir.file("parallel-\(k).rgba"), andPath: dir.file("out-\(j).rgba")),
                "parallel \(k)")
        }
        // A filter through f0r_update2, as GStreamer calls it, renders as through f0r_update.
        let bulge = try #require(jobs.firstIndex { $0.plugin == "segue_bulge" })
        let update2 = try runProgram(
            host, ["run", "--update2", installation.plugins + "/segue_bulge.so", spec(jobs[bulge], dir.file("update2.rgba"))],
            environment: installation.hostEnvironment())
        #expect(update2.status == 0, "\(update2.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: dir.file("update2.rgba"), andPath: dir.file("out-\(bulge).rgba")), "update2")

        for (i, job) in jobs.enumerated() {
            let reference = dir.file("ref-\(i).png")
            let name = job.plugin.split(separator: "/").last.map(String.init) ?? job.plugin
            let command: [String]
            if name == "segue_bulge" {
                command = ["mesh", inputs(job) + "/from.png", "--mesh", "bulge", "-o", reference] + job.reference
            } else {
                let effect = name == "segue_tint" ? tint : String(name.dropFirst("segue_".count)).replacingOccurrences(of: "_", with: "-")
                command =
                    ["frame", "--from", inputs(job) + "/from.png", "--to", inputs(job) + "/to.png", "--effect", effect, "-o", reference]
                    + job.reference
            }
            let cli = try installation.runSegue(command)
            try #require(cli.status == 0, "segue \(command.joined(separator: " ")): \(cli.stderr)")
            let ours = try image(rawStraight: dir.file("out-\(i).rgba"), width: job.width, height: job.height)
            let worst = largestDifference(ours, try ImageFile.read(path: reference))
            #expect(worst.difference <= 1, "\(name) \(job.parameters): differs by \(worst.difference)/255 at (\(worst.x), \(worst.y))")
            let from = Image(
                width: job.width, height: job.height,
                straightRGBA: TestFrames.from(width: job.width, height: job.height, translucent: job.translucent))
            #expect(largestDifference(ours, from).difference > 8, "\(name): the from frame unchanged")
        }
    }
}

extension Frei0rHostTests {
    @Test(
        "a value the effect refuses shows the first input until the host changes a parameter, then it renders again; each failure is said once"
    )
    func refusedValueRecovers() throws {
        let dir = try TemporaryDirectory("recover")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let host = try installation.buildHost()
        // A radius below the slider (MLT passes any number; -1 is -0.98 of the stated 0.01…1)
        // disabled the instance for good, so a page curl keyframed from it showed its first input
        // even at progress 1. The bottom of the slider, 0, is a radius the curl takes.
        let run = try runProgram(
            host,
            [
                "sequence", installation.plugins + "/segue_page_curl.so", "32", "24", "progress=0.5", "render", "radius=-1", "render",
                "render",
                "angle=0.2", "render", "radius=0.5", "render", "radius=-1", "render", "radius=0", "render",
            ], environment: installation.hostEnvironment())
        #expect(run.status == 0 && run.signal == nil, "\(run.stderr)")
        #expect(run.stdout == "rendered\ncopied\ncopied\ncopied\nrendered\ncopied\nrendered\n", "\(run.stdout)")
        // Said when it fails, not again while it stays failed (the angle changed, the radius did not),
        // and again after a frame rendered.
        let message = "segue_page_curl (segue frei0r plugin): radius must be positive, got -0.98\n"
        #expect(run.stderr.components(separatedBy: message).count - 1 == 2, "\(run.stderr)")
    }

    @Test("a texture field the host clears unsets the texture: the first input shows, as before it was set, not the old image")
    func clearedTexture() throws {
        let dir = try TemporaryDirectory("cleared")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let host = try installation.buildHost()
        let inputs = try writeInputs(dir)
        _ = try installation.pluginPathWithFiles()
        let run = try runProgram(
            host,
            [
                "sequence", dir.file("extra/segue_luma_mask.so"), "32", "24", "progress=0.5", "render", "luma=\(inputs)/from.png",
                "render", "luma=", "render", "luma=\(inputs)/to.png", "render",
            ], environment: installation.hostEnvironment())
        #expect(run.status == 0 && run.signal == nil, "\(run.stderr)")
        #expect(run.stdout == "copied\nrendered\ncopied\nrendered\n", "\(run.stdout)")
        // Said when it fails, again after a frame rendered; in a host user's words (libsegue's
        // names its C setter).
        let message = "effect 'luma-mask' needs the texture 'luma': set it to an image path with the plugin's parameter of that name\n"
        #expect(run.stderr.components(separatedBy: message).count - 1 == 2, "\(run.stderr)")
        #expect(!run.stderr.contains("segue_transition_set_param"), "\(run.stderr)")
    }

    @Test(
        "failures: a zero size and a vanished file fail construction; a shader that does not compile and a missing libsegue show the first input; each with a message"
    )
    func failures() throws {
        let dir = try TemporaryDirectory("failures")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let host = try installation.buildHost()
        let env = installation.hostEnvironment()
        let bad = try BrokenEffects(dir, installation)
        // A libsegue that moved away: the plugins were written with a copy's path.
        try FileManager.default.createDirectory(atPath: dir.file("copy"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: URL(fileURLWithPath: installation.library).resolvingSymlinksInPath().path, toPath: dir.file("copy/libsegue.so"))
        let moved = try installation.installFiles([], into: dir.file("moved"), extra: ["--library", dir.file("copy/libsegue.so")])
        try #require(moved.status == 0, "\(moved.stderr)")
        try FileManager.default.removeItem(atPath: dir.file("copy/libsegue.so"))

        let zero = try runProgram(host, ["construct", installation.plugins + "/segue_fade.so", "0", "48", "2"], environment: env)
        #expect(zero.status == 0 && zero.stdout == "null\nnull\n", "\(zero.stdout)\(zero.stderr)")
        #expect(
            zero.stderr.contains("segue_fade (segue frei0r plugin): a 0x48 frame cannot be rendered: each side must be 1 to 16384 pixels"),
            "\(zero.stderr)")

        let gone = try runProgram(host, ["construct", bad.plugins + "/segue_gone.so", "64", "48", "2"], environment: env)
        #expect(gone.status == 0 && gone.signal == nil && gone.stdout == "null\nnull\n", "\(gone.stdout)\(gone.stderr)")
        #expect(gone.stderr.contains(bad.goneMessage), "\(gone.stderr)")
        // A FIFO in the effect file's place fails construction at once (it blocked in open, and
        // GStreamer constructs every plugin when it rescans its registry).
        let piped = try runProgram(host, ["construct", bad.plugins + "/segue_piped.so", "64", "48", "2"], environment: env, timeout: 60)
        #expect(piped.status == 0 && piped.signal == nil && piped.stdout == "null\nnull\n", "\(piped.stdout)\(piped.stderr)")
        #expect(piped.stderr.contains(bad.pipedMessage), "\(piped.stderr)")

        let cases: [(plugin: String, message: String)] = [
            (bad.plugins + "/segue_broken.so", bad.brokenMessage),
            (
                dir.file("moved/segue_fade.so"),
                "segue_fade (segue frei0r plugin): cannot load libsegue: \(dir.file("copy/libsegue.so")) (the path written at install time)"
            ),
        ]
        for (plugin, message) in cases {
            let run = try runProgram(host, ["construct", plugin, "64", "48", "2"], environment: env)
            #expect(run.status == 0 && run.signal == nil, "\(plugin): \(run.stderr)")
            #expect(run.stdout == "instance\ncopied\ncopied\ninstance\ncopied\ncopied\n", "\(plugin): \(run.stdout)")
            // Reported once an instance, not on every frame.
            #expect(run.stderr.components(separatedBy: message).count - 1 == 2, "\(plugin): \(run.stderr)")
        }
        // A SEGUE_LIBRARY that does not load is the end of the search: no quiet fallback to the
        // library search path (as in Python).
        var named = env
        named["SEGUE_LIBRARY"] = dir.file("nowhere/libsegue.so")
        let typo = try runProgram(host, ["construct", dir.file("moved/segue_fade.so"), "64", "48", "1"], environment: named)
        #expect(typo.status == 0 && typo.stdout == "instance\ncopied\ncopied\n", "\(typo.stdout)\(typo.stderr)")
        #expect(typo.stderr.contains("\(dir.file("nowhere/libsegue.so")) (SEGUE_LIBRARY): "), "\(typo.stderr)")
        #expect(!typo.stderr.contains("(the library search path)"), "\(typo.stderr)")
        // A library with every symbol but another major version is refused, as Python refuses it.
        let names = [
            "segue_error_message", "segue_error_free", "segue_context_create_default", "segue_transition_create",
            "segue_transition_set_param", "segue_transition_render", "segue_transition_destroy", "segue_effect_create",
            "segue_effect_set_param", "segue_effect_render", "segue_effect_destroy",
        ]
        let stub = "const char *segue_version(void) { return \"1.0.0\"; }\n" + names.map { "void \($0)(void) {}\n" }.joined()
        try stub.write(toFile: dir.file("future.c"), atomically: true, encoding: .utf8)
        let cc = try runProgram("cc", ["-shared", "-fPIC", dir.file("future.c"), "-o", dir.file("libsegue-future.so")])
        try #require(cc.status == 0, "\(cc.stderr)")
        named["SEGUE_LIBRARY"] = dir.file("libsegue-future.so")
        let future = try runProgram(host, ["construct", dir.file("moved/segue_fade.so"), "64", "48", "1"], environment: named)
        #expect(future.status == 0 && future.stdout == "instance\ncopied\ncopied\n", "\(future.stdout)\(future.stderr)")
        #expect(
            future.stderr.contains("\(dir.file("libsegue-future.so")) (SEGUE_LIBRARY): Segue 1.0.0, and this plugin needs Segue 0.x"),
            "\(future.stderr)")
        // SEGUE_LIBRARY mends the moved library.
        var mended = env
        mended["SEGUE_LIBRARY"] = installation.library
        let run = try runProgram(host, ["construct", dir.file("moved/segue_fade.so"), "64", "48", "1"], environment: mended)
        #expect(run.status == 0 && run.stdout == "instance\nrendered\nrendered\n" && run.stderr.isEmpty, "\(run.stdout)\(run.stderr)")
    }
}
