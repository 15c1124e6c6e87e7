// `segue frei0r install` as a user runs it: the default directory under HOME, files added, Kdenlive
// descriptions, and every refusal (a clash, a shader that does not compile, a plugin of another
// effect in the way, a missing template) leaving the directory as it was.
import Foundation
import Segue
import SegueFrei0r
import SegueTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("segue frei0r install")
struct Frei0rInstallCommandTests {
    @Test("without --dir the plugins go to ~/.frei0r-1/lib; FILEs add plugins named after them; the output names them in MLT and GStreamer")
    func defaultDirectory() throws {
        let dir = try TemporaryDirectory("cli-home")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let home = dir.file("home")
        let metal = repositoryRoot + "/Tests/SegueRenderTests/Fixtures/LibraryTransitions.metal:streaks"
        let run = try installation.runSegue(
            ["frei0r", "install", repositoryRoot + "/Tests/segueTests/Fixtures/gallery/tint.glsl", metal],
            environment: ["HOME": home])
        #expect(run.status == 0, "\(run.stderr)")
        let target = home + "/.frei0r-1/lib"
        let count = EffectCatalog.builtIns.count
        #expect(
            run.stdout == """
                \(target): \(count + 2) frei0r plugins (\(count - 7 + 2) transitions, 7 effects on one image)
                  segue_tint: MLT frei0r.segue_tint, GStreamer frei0r-mixer-segue-tint
                  segue_streaks: MLT frei0r.segue_streaks, GStreamer frei0r-mixer-segue-streaks

                """)
        let files = try FileManager.default.contentsOfDirectory(atPath: target)
        #expect(
            files.count == count + 2 && files.contains("segue_tint.so") && files.contains("segue_streaks.so")
                && files.contains("segue_doom_melt.so"))
        // Written as the template with the configuration in place: same size, mode 755.
        let size = try FileManager.default.attributesOfItem(atPath: installation.template)[.size] as? Int
        let attributes = try FileManager.default.attributesOfItem(atPath: target + "/segue_tint.so")
        #expect(attributes[.size] as? Int == size && (attributes[.posixPermissions] as? Int) == 0o755)
        let configuration = try #require(Frei0rTemplate.configuration(ofPlugin: target + "/segue_streaks.so"))
        #expect(
            configuration.contains("\neffect\t\(metal)\n") && configuration.contains("\nlibrary\t\(installation.library)\n"),
            "\(configuration)")
        // Again: the same plugins are replaced in place.
        let again = try installation.runSegue(
            ["frei0r", "install", repositoryRoot + "/Tests/segueTests/Fixtures/gallery/tint.glsl"], environment: ["HOME": home])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test("--kdenlive writes a transition description per mixer and an effect description per filter, progress animated 0 → 1")
    func kdenlive() throws {
        let dir = try TemporaryDirectory("cli-kdenlive")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let kdenlive = dir.file("kdenlive")
        let run = try installation.runSegue(["frei0r", "install", "--dir", dir.file("plugins"), "--kdenlive", kdenlive])
        #expect(run.status == 0, "\(run.stderr)")
        let transitions = try FileManager.default.contentsOfDirectory(atPath: kdenlive + "/transitions")
        let effects = try FileManager.default.contentsOfDirectory(atPath: kdenlive + "/effects")
        #expect(transitions.count + effects.count == EffectCatalog.builtIns.count && effects.count == 7)
        let text = try String(contentsOfFile: kdenlive + "/transitions/frei0r_segue_doom_melt.xml", encoding: .utf8)
        #expect(
            text == """
                <?xml version="1.0"?>
                <!DOCTYPE kpartgui>
                <transition tag="frei0r.segue_doom_melt" id="frei0r.segue_doom_melt" type="short">
                    <name>Segue doom melt</name>
                    <description>Doom&apos;s screen melt: columns of from slide down at pseudo-random speeds, revealing to.</description>
                    <author>Segue</author>
                    <parameter type="animated" name="progress" default="0=0;-1=1" min="0" max="100" factor="100">
                        <name>Progress</name>
                        <comment>transition progress: 0 shows the first input, 1 the second (animate it)</comment>
                    </parameter>
                    <parameter type="animated" name="startSpeed" default="0.27" min="0" max="10" factor="10" offset="0" decimals="3">
                        <name>startSpeed</name>
                        <comment>how fast a column reaches full melting speed (1/s) (0…1 is 0…10)</comment>
                    </parameter>
                    <parameter type="animated" name="meltSpeed" default="0.5" min="0" max="2" factor="2" offset="0" decimals="3">
                        <name>meltSpeed</name>
                        <comment>how fast columns fall once melting (screen heights/s) (0…1 is 0…2)</comment>
                    </parameter>
                    <parameter type="animated" name="spread" default="0.35" min="0" max="1" factor="1" offset="0" decimals="3">
                        <name>spread</name>
                        <comment>largest head start of a column (screen heights)</comment>
                    </parameter>
                </transition>

                """)
        // Every file is well-formed XML whose parameters are the plugin's.
        for (folder, names) in [("transitions", transitions), ("effects", effects)] {
            for name in names {
                let document = try XMLDocument(contentsOf: URL(fileURLWithPath: "\(kdenlive)/\(folder)/\(name)"))
                #expect(document.rootElement()?.name == (folder == "transitions" ? "transition" : "effect"), "\(name)")
            }
        }
        let cube = try String(contentsOfFile: kdenlive + "/transitions/frei0r_segue_cube.xml", encoding: .utf8)
        #expect(cube.contains("<parameter type=\"bool\" name=\"pop\" default=\"0\">"), "\(cube)")
        let bulge = try String(contentsOfFile: kdenlive + "/effects/frei0r_segue_bulge.xml", encoding: .utf8)
        #expect(bulge.contains("<effect tag=\"frei0r.segue_bulge\" id=\"frei0r.segue_bulge\">") && !bulge.contains("progress"), "\(bulge)")
    }

    @Test(
        "refusals: a clash names both effects, a shader that does not compile shows the compiler, another effect's plugin in the way, a missing template; nothing is written"
    )
    func refusals() throws {
        let dir = try TemporaryDirectory("cli-refusals")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let target = dir.file("plugins")
        let source = "vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }\n"
        try FileManager.default.createDirectory(atPath: dir.file("a"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.file("b"), withIntermediateDirectories: true)
        try source.write(toFile: dir.file("a/Fade.glsl"), atomically: true, encoding: .utf8)
        try source.write(toFile: dir.file("a/mine.glsl"), atomically: true, encoding: .utf8)
        try source.write(toFile: dir.file("b/mine.glsl"), atomically: true, encoding: .utf8)
        let syntax = repositoryRoot + "/Tests/Fixtures/gl-transitions/syntax-error.glsl"

        let clash = try installation.runSegue(["frei0r", "install", "--dir", target, dir.file("a/Fade.glsl")])
        #expect(clash.status == 1)
        #expect(
            clash.stderr
                == "error: '\(dir.file("a/Fade.glsl"))' would be installed as segue_fade, the plugin name of the built-in 'fade'; rename one of the files\n"
        )
        let compile = try installation.runSegue(["frei0r", "install", "--dir", target, syntax])
        #expect(compile.status == 1)
        #expect(compile.stderr.hasPrefix("error: shader '\(syntax)' does not compile:\n\(syntax):7: error:"), "\(compile.stderr)")
        let template = try installation.runSegue(["frei0r", "install", "--dir", target, "--template", dir.file("none.so")])
        #expect(template.status == 1)
        #expect(
            template.stderr
                == "error: cannot use the frei0r plugin template '\(dir.file("none.so"))': there is no such file; install Segue with scripts/install.sh (which builds it) or give the template's path with --template\n"
        )
        // A path with a line break: the plugin's configuration (lines of fields) would name
        // another file, which it would never find.
        try FileManager.default.createDirectory(atPath: dir.file("new\nline"), withIntermediateDirectories: true)
        try source.write(toFile: dir.file("new\nline/odd.glsl"), atomically: true, encoding: .utf8)
        let broken = try installation.runSegue(["frei0r", "install", "--dir", target, dir.file("new\nline/odd.glsl")])
        #expect(broken.status == 1)
        #expect(
            broken.stderr
                == "error: '\(dir.file("new?line/odd.glsl"))' holds a line break, tab or other control character (shown as ?), which a plugin cannot name a file by; rename the file or move it\n",
            "\(broken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target), "a refused install wrote \(target)")
        // A Kdenlive folder that cannot be made (a file in the way): no plugin is written, and the
        // folders the install made for them are gone again.
        try Data().write(to: URL(fileURLWithPath: dir.file("in-the-way")))
        let blocked = try installation.runSegue([
            "frei0r", "install", "--dir", dir.file("made/plugins"), "--kdenlive", dir.file("in-the-way"),
        ])
        #expect(blocked.status == 1 && blocked.stderr.contains("a file is in the way"), "\(blocked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("made")), "a failed install left \(dir.file("made"))")

        // mine.glsl from a/, then from b/: the plugin in the way belongs to the other file.
        let first = try installation.runSegue(["frei0r", "install", "--dir", target, dir.file("a/mine.glsl")])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: target + "/segue_mine.so"))
        let second = try installation.runSegue(["frei0r", "install", "--dir", target, dir.file("b/mine.glsl")])
        #expect(second.status == 1)
        #expect(
            second.stderr
                == "error: \(target)/segue_mine.so is the plugin of '\(dir.file("a/mine.glsl"))', and '\(dir.file("b/mine.glsl"))' would replace it; remove it first if that is meant\n"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: target + "/segue_mine.so")) == before)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: target)).contains { $0.contains("segue-tmp") })

        // A plugin would be written over the library the plugins load (or the template): refused,
        // naming both, before anything is written.
        let fresh = dir.file("fresh")
        try FileManager.default.createDirectory(atPath: fresh, withIntermediateDirectories: true)
        let library = fresh + "/segue_fade.so"
        try FileManager.default.copyItem(atPath: installation.template, toPath: library)
        let libraryBytes = try Data(contentsOf: URL(fileURLWithPath: library))
        let over = try installation.runSegue(["frei0r", "install", "--dir", fresh, "--library", library])
        #expect(over.status == 1)
        #expect(
            over.stderr
                == "error: \(library): cannot write the output: it is the library (\(library)); writing it would destroy that input: choose another output\n",
            "\(over.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: library)) == libraryBytes)
        let templates = dir.file("template")
        try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: installation.template, toPath: templates + "/segue_wipe.so")
        let overTemplate = try installation.runSegue(["frei0r", "install", "--dir", templates, "--template", templates + "/segue_wipe.so"])
        #expect(overTemplate.status == 1 && overTemplate.stderr.contains("it is the plugin template"), "\(overTemplate.stderr)")
    }
}

extension Frei0rInstallCommandTests {
    @Test(
        "segue bench --hosts times melt through the plugin (two threads, one), segue render and MLT's luma, with the plugin path's overhead"
    )
    func hostBenchmark() throws {
        let dir = try TemporaryDirectory("bench-hosts")
        defer { dir.remove() }
        let installation = try Installation(dir)
        let run = try installation.runSegue(["bench", "--hosts", "--size", "64x48", "--runs", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix("Segue bench --hosts: fade, 64x48, 50 frames (2 s at 25 fps), median of 1 runs") == true, "\(run.stdout)"
        )
        for name in ["melt + frei0r.segue_fade ", "melt + frei0r.segue_fade (1 thread)", "segue render", "melt + luma (MLT's own)"] {
            let row = lines.first { $0.hasPrefix(name) }
            // total s, fps and the first two frames' ms are positive; ms/frame is a difference of two
            // timings (at 64x48 it can be 0.0 or a little below: noise); the ratio to segue render is
            // a number, or "-" where segue render's ms/frame is not above 0.
            let columns = row?.dropFirst(41).split(separator: " ").map(String.init) ?? []
            let numbers = columns.prefix(4).compactMap { Double($0) }
            #expect(
                columns.count == 5 && numbers.count == 4 && numbers.prefix(3).allSatisfy { $0 > 0 }
                    && (Double(columns[4]) != nil || columns[4] == "-"), "\(name): \(row ?? "missing")")
        }
        #expect(
            lines.last?.hasPrefix("frei0r plugin path (2 threads): ") == true && lines.last?.hasSuffix("target ≤ 1.3x)") == true,
            "\(run.stdout)")
    }
}
