// Which plugin each effect becomes, its names in the hosts, the configuration written into the
// template, the template's block, and Kdenlive's description. No GPU, no host.
import Foundation
import Segue
import SegueFrei0r
import SegueTestSupport
import Testing

@Suite("frei0r plugins")
struct Frei0rPluginTests {
    @Test("names: segue_ and the built-in's name with - as _; a file's base name lowercased, other characters as _")
    func names() throws {
        #expect(Frei0rPlugin.pluginName(builtIn: "doom-melt") == "segue_doom_melt")
        #expect(Frei0rPlugin.pluginName(file: "My Tint-2.v1") == "segue_my_tint_2_v1")
        #expect(Frei0rPlugin.pluginName(file: "Élan") == "segue__lan")
        let melt = try Frei0rPlugin.builtIn(#require(EffectCatalog.builtIn(named: "doom-melt")))
        #expect(melt.mltService == "frei0r.segue_doom_melt")
        #expect(melt.gstreamerElement == "frei0r-mixer-segue-doom-melt")
        let bulge = try Frei0rPlugin.builtIn(#require(EffectCatalog.builtIn(named: "bulge")))
        #expect(bulge.type == .filter && bulge.gstreamerElement == "frei0r-filter-segue-bulge")
    }

    @Test("every built-in is a plugin: transitions (shader, stitchable, mesh) mixers, one-image meshes filters")
    func builtIns() throws {
        let plugins = try Frei0rInstaller.plugins(files: [])
        #expect(plugins.count == EffectCatalog.builtIns.count)
        #expect(Set(plugins.map(\.name)).count == plugins.count)
        let filters = plugins.filter { $0.type == .filter }.map(\.name)
        #expect(filters == ["segue_curtain", "segue_bulge", "segue_jelly", "segue_ripple", "segue_ellipse", "segue_skew", "segue_flat"])
        for name in ["segue_fade", "segue_cube", "segue_page_curl", "segue_shift", "segue_wipeleft", "segue_ios_push"] {
            #expect(plugins.first { $0.name == name }?.type == .mixer2, "\(name)")
        }
        // Every xfade name is there.
        for xfade in EffectCatalog.xfadeNames { #expect(plugins.contains { $0.name == "segue_" + xfade }, "\(xfade)") }
    }

    @Test("files: a .glsl reading getToColor is a mixer, one reading only getFromColor a filter; .metal functions by their arguments")
    func fileKinds() throws {
        let dir = try TemporaryDirectory("kinds")
        defer { dir.remove() }
        let tint = try Frei0rPlugin.file(repositoryRoot + "/Tests/segueTests/Fixtures/gallery/tint.glsl")
        #expect(
            tint.type == .mixer2 && tint.name == "segue_tint"
                && tint.effect == repositoryRoot + "/Tests/segueTests/Fixtures/gallery/tint.glsl")
        try "uniform float amount; // = 0.5\nvec4 transition(vec2 uv) { return getFromColor(uv) * amount; }\n"
            .write(toFile: dir.file("Dim Me.glsl"), atomically: true, encoding: .utf8)
        let dim = try Frei0rPlugin.file(dir.file("Dim Me.glsl"))
        #expect(dim.type == .filter && dim.name == "segue_dim_me" && dim.parameters.map(\.name) == ["amount"])
        let fixtures = repositoryRoot + "/Tests/SegueRenderTests/Fixtures/"
        let streaks = try Frei0rPlugin.file(fixtures + "LibraryTransitions.metal:streaks")
        #expect(
            streaks.type == .mixer2 && streaks.name == "segue_streaks" && streaks.effect == fixtures + "LibraryTransitions.metal:streaks")
        let ripple = try Frei0rPlugin.file(fixtures + "LibraryEffects.metal:ripple")
        #expect(ripple.type == .filter && ripple.name == "segue_ripple" && !ripple.parameters.contains { $0.name == "time" })
        #expect(throws: Frei0rError.unsupportedFile("notes.txt")) { try Frei0rPlugin.file("notes.txt") }
    }

    @Test("an effect with more parameters than the template's tables is refused, naming which table, before anything is written")
    func tableLimits() throws {
        let dir = try TemporaryDirectory("tables")
        defer { dir.remove() }
        /// A filter with `count` uniforms of `type`.
        func effect(_ name: String, _ count: Int, _ type: String) throws -> String {
            let uniforms = (0..<count).map { "uniform \(type) p\($0);\n" }.joined()
            try (uniforms + "vec4 transition(vec2 uv) { return getFromColor(uv); }\n").write(
                toFile: dir.file(name), atomically: true, encoding: .utf8)
            return dir.file(name)
        }
        try Data(Self.fakeTemplate()).write(to: URL(fileURLWithPath: dir.file("t.so")))
        func refusal(_ file: String) -> Frei0rError? {
            do {
                try Frei0rInstaller(directory: dir.file("plugins"), library: file, template: dir.file("t.so"), files: [file]).install()
                return nil
            } catch {
                return error as? Frei0rError
            }
        }
        let floats = try effect("floats.glsl", Frei0rTemplate.maximumTargets + 1, "float")
        #expect(refusal(floats) == .tooManyTargets(effect: floats, count: 129, limit: 128))
        #expect(
            Frei0rError.tooManyTargets(effect: "e", count: 129, limit: 128).message
                == "'e' has 129 parameters, more than a plugin can set (128)")
        // 17 matrices are 17 effect parameters but 272 frei0r ones (one per element).
        let matrices = try effect("matrices.glsl", 17, "mat4")
        #expect(refusal(matrices) == .tooManyParameters(effect: matrices, count: 272, limit: 256))
        #expect(!FileManager.default.fileExists(atPath: dir.file("plugins")))
        // At the limits, a plugin is made.
        #expect(try Frei0rPlugin.file(try effect("fits.glsl", 16, "mat4")).parameters.count == 256)
        #expect(try Frei0rPlugin.file(try effect("fits2.glsl", 128, "float")).targets.count == 128)
    }

    @Test("a file named like a built-in, or two files of one name, is an error naming both")
    func clashes() throws {
        let dir = try TemporaryDirectory("clash")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("other"), withIntermediateDirectories: true)
        let source = "vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }\n"
        for path in ["Fade.glsl", "mine.glsl", "other/MINE.glsl"] {
            try source.write(toFile: dir.file(path), atomically: true, encoding: .utf8)
        }
        #expect(throws: Frei0rError.clash(name: "segue_fade", first: "the built-in 'fade'", second: "'\(dir.file("Fade.glsl"))'")) {
            try Frei0rInstaller.plugins(files: [dir.file("Fade.glsl")])
        }
        #expect(
            throws: Frei0rError.clash(name: "segue_mine", first: "'\(dir.file("mine.glsl"))'", second: "'\(dir.file("other/MINE.glsl"))'")
        ) {
            try Frei0rInstaller.plugins(files: [dir.file("mine.glsl"), dir.file("other/MINE.glsl")])
        }
        let message = Frei0rError.clash(name: "segue_fade", first: "the built-in 'fade'", second: "'x/Fade.glsl'").message
        #expect(
            message == "'x/Fade.glsl' would be installed as segue_fade, the plugin name of the built-in 'fade'; rename one of the files")
    }

    @Test("the configuration text: header, effect, library, targets with defaults, parameters with ranges")
    func configuration() throws {
        let wipe = try Frei0rPlugin.builtIn(#require(EffectCatalog.builtIn(named: "wipe")))
        let text = wipe.configuration(library: "/opt/segue/lib/libsegue.so")
        #expect(
            text == """
                segue-frei0r\t1
                name\tsegue_wipe
                type\tmixer2
                effect\twipe
                explanation\tA straight edge sweeps across the screen, revealing to behind it.
                library\t/opt/segue/lib/libsegue.so
                target\tdirection\tf\t2\t1,0
                target\tsmoothness\tf\t1\t0
                param\tprogress\tdouble\t-1\t0\t0\t1\t0\ttransition progress: 0 shows the first input, 1 the second (animate it)
                param\tdirection_x\tdouble\t0\t0\t-1\t1\t1\tdirection the edge travels (x right, y down): x (0…1 is -1…1)
                param\tdirection_y\tdouble\t0\t1\t-1\t1\t0.5\tdirection the edge travels (x right, y down): y (0…1 is -1…1)
                param\tsmoothness\tdouble\t1\t0\t0\t1\t0\twidth of the soft edge, as a fraction of the sweep

                """)
    }

    /// A fake template: bytes, the block (BEGIN marker, 32768 bytes, END marker), bytes.
    static func fakeTemplate(blocks: Int = 1) -> [UInt8] {
        func marker(_ text: String) -> [UInt8] { Array(text.utf8) + [UInt8](repeating: 0, count: 32 - text.utf8.count) }
        var bytes: [UInt8] = Array("ELF-ish header".utf8)
        for _ in 0..<blocks {
            bytes += marker("SEGUE-FREI0R-CONFIG-BEGIN-V1") + [UInt8](repeating: 0, count: 32768) + marker("SEGUE-FREI0R-CONFIG-END-V1")
        }
        return bytes + Array("trailer".utf8)
    }

    @Test("the template's block is found between its markers and rewritten in place; a plugin's configuration reads back")
    func templatePatching() throws {
        let dir = try TemporaryDirectory("template")
        defer { dir.remove() }
        let original = Self.fakeTemplate()
        try Data(original).write(to: URL(fileURLWithPath: dir.file("t.so")))
        let template = try Frei0rTemplate(path: dir.file("t.so"))
        let plugin = try template.plugin(configuration: "segue-frei0r\t1\neffect\tfade\n")
        #expect(plugin.count == original.count)
        #expect(plugin.prefix(14 + 32) == original.prefix(14 + 32))
        #expect(plugin.suffix(32 + 7) == original.suffix(32 + 7))
        #expect(Array(plugin[46..<46 + 24]) == Array("segue-frei0r\t1\neffect\tfade\n".utf8.prefix(24)))
        try Data(plugin).write(to: URL(fileURLWithPath: dir.file("p.so")))
        #expect(Frei0rTemplate.configuration(ofPlugin: dir.file("p.so")) == "segue-frei0r\t1\neffect\tfade\n")
        #expect(throws: Frei0rError.configurationTooLarge(bytes: 32768, capacity: 32767)) {
            try template.plugin(configuration: String(repeating: "x", count: 32768))
        }
        try Data(Self.fakeTemplate(blocks: 2)).write(to: URL(fileURLWithPath: dir.file("two.so")))
        #expect(
            throws: Frei0rError.template(
                path: dir.file("two.so"), reason: "it is not Segue's frei0r plugin template (no configuration block)")
        ) {
            try Frei0rTemplate(path: dir.file("two.so"))
        }
        #expect(throws: Frei0rError.template(path: dir.file("none.so"), reason: "there is no such file")) {
            try Frei0rTemplate(path: dir.file("none.so"))
        }
    }

    @Test("a template or plugin that is a directory, a named pipe or too large is refused at once, without reading it")
    func templateKinds() throws {
        let dir = try TemporaryDirectory("template-kinds")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("folder.so"), withIntermediateDirectories: false)
        #expect(throws: Frei0rError.template(path: dir.file("folder.so"), reason: "it is a directory, not a file")) {
            try Frei0rTemplate(path: dir.file("folder.so"))
        }
        #expect(mkfifo(dir.file("pipe.so"), 0o600) == 0)
        // A FIFO without a writer: opened without blocking and refused from its kind.
        #expect(
            throws: Frei0rError.template(
                path: dir.file("pipe.so"), reason: "it is a pipe (FIFO), not a regular file; save the plugin template to a file first")
        ) {
            try Frei0rTemplate(path: dir.file("pipe.so"))
        }
        #expect(Frei0rTemplate.configuration(ofPlugin: dir.file("pipe.so")) == nil)
        #expect(Frei0rTemplate.configuration(ofPlugin: dir.file("folder.so")) == nil)
        let big = open(dir.file("big.so"), O_WRONLY | O_CREAT, 0o600)
        #expect(big >= 0 && ftruncate(big, off_t(Frei0rTemplate.maximumFileSize + 1)) == 0)
        close(big)
        #expect(
            throws: Frei0rError.template(
                path: dir.file("big.so"),
                reason:
                    "it is \(Frei0rTemplate.maximumFileSize + 1) bytes, more than the \(Frei0rTemplate.maximumFileSize)-byte limit for an input plugin template"
            )
        ) {
            try Frei0rTemplate(path: dir.file("big.so"))
        }
    }
}
