// The C API as hosts use it: a C program built against the installed header and pkg-config file
// (Fixtures/api_test.c), and Python's ctypes. Frames are compared with what the installed `segue`
// CLI renders for the same effect, parameters, progress and time.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("C API")
struct CAPIRenderTests {
    /// The C program's frames, as its manifest describes them.
    struct Frame {
        let name: String, kind: String, effect: String
        let width: Int, height: Int
        let progress: String, time: String, duration: String
        let parameters: [String]

        init?(line: Substring) {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 9, let w = Int(f[3]), let h = Int(f[4]) else { return nil }
            (name, kind, effect, width, height) = (f[0], f[1], f[2], w, h)
            (progress, time, duration) = (f[5], f[6], f[7])
            parameters = f[8] == "-" ? [] : f[8].split(separator: ";").map(String.init)
        }

        /// The `segue` command line that renders the same frame to `output`.
        func command(inputs: String, output: String) -> [String] {
            let from = "\(inputs)/from-\(width)x\(height).png", to = "\(inputs)/to-\(width)x\(height).png"
            if kind == "transition" {
                return [
                    "frame", "--from", from, "--to", to, "--effect", effect, "--progress", progress, "--duration", duration, "-o", output,
                ]
                    + parameters.flatMap { ["--param", $0] }
            }
            if MeshEffects.named(effect) != nil {
                return ["mesh", from, "--mesh", effect, "-o", output] + parameters.flatMap { ["--param", $0] }
            }
            return ["effect", "--input", from, "--effect", effect, "--time", time, "-o", output] + parameters.flatMap { ["--arg", $0] }
        }
    }

    @Test("segue_context_create_default: the environment chooses the shader cache and the device, as it does for the CLI")
    func defaultContext() throws {
        let dir = try TemporaryDirectory("render")
        defer { dir.remove() }
        let program = try Installation(prefix: dir.path + "/prefix").buildAPITest(in: dir.path)
        func cached(_ folder: String) -> Int { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).count }
        // $SEGUE_CACHE_DIR first; else $XDG_CACHE_HOME/segue/spirv; else $HOME/.cache/segue/spirv.
        let (cache, xdg, home) = (dir.path + "/cache", dir.path + "/xdg", dir.path + "/home")
        for (environment, folder) in [
            (["SEGUE_CACHE_DIR": cache, "XDG_CACHE_HOME": xdg], cache),
            (["SEGUE_CACHE_DIR": "", "XDG_CACHE_HOME": xdg], xdg + "/segue/spirv"),
            (["SEGUE_CACHE_DIR": "", "XDG_CACHE_HOME": "", "HOME": home], home + "/.cache/segue/spirv"),
        ] {
            let run = try runProgram(program, ["default"], environment: environment)
            #expect(run.status == 0 && run.stdout.hasPrefix("device: "), "\(environment): \(run.stdout) \(run.stderr)")
            #expect(cached(folder) >= 1, "\(environment): nothing cached in \(folder)")
        }
        // $SEGUE_DEVICE chooses the device: one that does not exist is SEGUE_ERROR_NO_DEVICE.
        let missing = try runProgram(program, ["default"], environment: ["SEGUE_DEVICE": "no-such-gpu", "SEGUE_CACHE_DIR": cache])
        #expect(
            missing.status == 0
                && missing.stdout.hasPrefix("no context: 8 SEGUE_DEVICE=no-such-gpu: no Vulkan device name contains 'no-such-gpu'"),
            "\(missing.stdout)"
        )
    }

    @Test(
        "a C program renders built-ins, a .glsl, a stitchable .metal, the cube and single-image effects from two threads on one context as `segue frame` does"
    )
    func cProgramMatchesCLI() throws {
        let dir = try TemporaryDirectory("render")
        defer { dir.remove() }
        let installation = try Installation(prefix: dir.path + "/prefix")
        let program = try installation.buildAPITest(in: dir.path)
        let (inputs, outputs) = (dir.path + "/in", dir.path + "/out")
        for d in [inputs, outputs] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        try CAPIFrames.write(into: inputs)
        let glsl = repositoryRoot + "/Tests/segueTests/Fixtures/gallery/tint.glsl"
        let metalTransition = repositoryRoot + "/Tests/SegueRenderTests/Fixtures/LibraryTransitions.metal:streaks"
        let metalEffect = repositoryRoot + "/Tests/SegueRenderTests/Fixtures/LibraryEffects.metal:ripple"

        let run = try runProgram(program, ["render", inputs, outputs, glsl, metalTransition, metalEffect])
        #expect(run.status == 0, "api_test render: \(run.stderr)")

        let cached = (try? FileManager.default.contentsOfDirectory(atPath: outputs + "/spirv")) ?? []
        #expect(cached.count >= 8, "segue_context_create_cached kept \(cached.count) shaders")
        let manifest = try String(contentsOfFile: outputs + "/manifest.txt", encoding: .utf8)
        let frames = manifest.split(separator: "\n").compactMap(Frame.init(line:))
        #expect(
            Set(frames.map(\.name)) == [
                "fade-0", "fade-1", "fade-2", "wipe-0", "cube-0", "cube-1", "bulge",
                "doom-melt-0", "doom-melt-1", "glsl-0", "metal-0", "ripple",
            ])
        #expect(frames.first { $0.name == "doom-melt-0" }.map { ($0.time, $0.duration) } ?? ("", "") == ("1", "2"))
        #expect(frames.first { $0.name == "fade-1" }.map { ($0.width, $0.height) } ?? (0, 0) == (37, 23))

        let segue = installation.prefix + "/bin/segue"
        let cache = dir.path + "/cache"
        for frame in frames {
            let reference = "\(dir.path)/\(frame.name)-cli.png"
            let cli = try runProgram(segue, frame.command(inputs: inputs, output: reference), environment: ["SEGUE_CACHE_DIR": cache])
            try #require(cli.status == 0, "segue \(frame.command(inputs: inputs, output: reference).joined(separator: " ")): \(cli.stderr)")
            let ours = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(outputs)/\(frame.name).rgba")))
            try #require(ours.count == frame.width * frame.height * 4, "\(frame.name): \(ours.count) bytes")
            let expected = try ImageFile.read(path: reference)
            let worst = largestDifference(Image(width: frame.width, height: frame.height, straightRGBA: ours), expected)
            #expect(
                worst.difference <= 1,
                "\(frame.name) (\(frame.effect) at \(frame.progress)): differs by \(worst.difference)/255 at (\(worst.x), \(worst.y))")
            // Not trivially an input: every frame here shows the effect at work.
            let from = TestFrames.from(width: frame.width, height: frame.height, translucent: true)
            #expect(ours != from, "\(frame.name) is the from frame unchanged")
        }
    }

    @Test("every bad input returns -1 or NULL with a message naming the problem; handles outlive their context handle")
    func badInputs() throws {
        let dir = try TemporaryDirectory("errors")
        defer { dir.remove() }
        let program = try Installation(prefix: dir.path + "/prefix").buildAPITest(in: dir.path)
        let run = try runProgram(program, ["errors", repositoryRoot + "/Tests/Fixtures/gl-transitions/luma-mask.glsl"])
        #expect(run.status == 0, "api_test errors: \(run.stderr)")
        #expect(run.stdout.isEmpty, "the library printed: \(run.stdout)")
        #expect(run.stderr.isEmpty, "the library printed: \(run.stderr)")
    }

    @Test("a float array argument set as text: 16 values and 3 against a computation in C, count 0, a list past the limit refused")
    func arrayArgument() throws {
        let dir = try TemporaryDirectory("arrays")
        defer { dir.remove() }
        let program = try Installation(prefix: dir.path + "/prefix").buildAPITest(in: dir.path)
        let run = try runProgram(program, ["arrays", repositoryRoot + "/Tests/Fixtures/stitchable/Arrays.metal"])
        #expect(run.status == 0, "api_test arrays: \(run.stderr)")
    }

    @Test(
        "across fork(): inherited handles fail at once naming fork, destroying them returns, a new context in the child renders the parent's pixels"
    )
    func fork() throws {
        let dir = try TemporaryDirectory("fork")
        defer { dir.remove() }
        let program = try Installation(prefix: dir.path + "/prefix").buildAPITest(in: dir.path)
        let run = try runProgram(program, ["fork"], timeout: 120)
        #expect(run.status == 0, "api_test fork: \(run.stderr)")
        #expect(!run.stderr.contains("FAIL"), "api_test fork: \(run.stderr)")
    }

    @Test("timing curves and springs, reverse effects and interactive transitions follow their closed forms from C")
    func timingAndInteraction() throws {
        let dir = try TemporaryDirectory("timing")
        defer { dir.remove() }
        let program = try Installation(prefix: dir.path + "/prefix").buildAPITest(in: dir.path)
        let run = try runProgram(program, ["timing"])
        #expect(run.status == 0, "api_test timing: \(run.stderr)")
    }

    @Test("effects are listed and described: kinds, durations, parameter types, defaults and ranges")
    func listing() throws {
        let dir = try TemporaryDirectory("info")
        defer { dir.remove() }
        let program = try Installation(prefix: dir.path + "/prefix").buildAPITest(in: dir.path)
        let run = try runProgram(
            program,
            [
                "info", repositoryRoot + "/Tests/segueTests/Fixtures/gallery/tint.glsl",
                repositoryRoot + "/Tests/SegueRenderTests/Fixtures/LibraryTransitions.metal:streaks",
            ])
        #expect(run.status == 0, "api_test info: \(run.stderr)")
    }

    @Test("Python loads the installed library with ctypes and renders a fade")
    func pythonCtypes() throws {
        let dir = try TemporaryDirectory("python")
        defer { dir.remove() }
        let installation = try Installation(prefix: dir.path + "/prefix")
        let run = try runProgram("/usr/bin/python3", [fixture("ctypes_test.py"), installation.prefix + "/lib/libsegue.so"])
        #expect(run.status == 0, "ctypes_test.py: \(run.stderr)")
        #expect(run.stdout == "0.2.0 [64, 64, 64, 255]\n")
    }
}
