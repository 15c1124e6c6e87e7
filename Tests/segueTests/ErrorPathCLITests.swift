// One error path: every failure, from the command line or the library, prints exactly one
// `error: …` line and exits 1, leaving no output behind; negative numbers parse as values; frame
// counts are checked against the limit before any work. Exact texts, as swift-argument-parser's
// own tests assert them.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue CLI: one error path")
struct ErrorPathCLITests {
    /// Runs `segue` in a fresh directory holding from.png and to.png; returns the result and the
    /// directory's listing afterwards.
    private func run(_ args: [String], files: [String: String] = [:]) throws -> (ToolResult, [String]) {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        let result = try segue(args, cwd: dir)
        return (result, listing(dir))
    }

    static let limit = "the limit is 1000000 frames: shorten the duration, the repeat count or the spring's settling time, or lower the fps"

    static let cases: [(args: [String], message: String)] = [
        // A name=value option without its '=' is named by its flag, in every command that takes it.
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--param", "x", "-o", "o.mp4"],
            "--param: expected NAME=VALUE, got 'x' (see 'segue render --help')"
        ),
        (
            ["frame", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--texture", "x", "--progress", "0.5", "-o", "o.png"],
            "--texture: expected NAME=VALUE, got 'x' (see 'segue frame --help')"
        ),
        (
            ["effect", "--input", "from.png", "--effect", "invert", "--arg", "x", "--time", "0", "-o", "o.png"],
            "--arg: expected NAME=VALUE, got 'x' (see 'segue effect --help')"
        ),
        (
            ["effect", "--input", "from.png", "--effect", "invert", "--texture", "=a.png", "--time", "0", "-o", "o.png"],
            "--texture: expected NAME=VALUE, got '=a.png' (see 'segue effect --help')"
        ),
        // An argument given twice, 'auto' once included: which would win is no one's guess.
        (
            [
                "effect", "--input", "from.png", "--effect", "shift", "--arg", "size=10,10", "--arg", "size=auto", "--time", "0", "-o",
                "o.png",
            ],
            "parameter 'size' is given twice; give it once"
        ),
        (
            ["effect", "--input", "from.png", "--effect", "invert", "--texture", "t=", "--time", "0", "-o", "o.png"],
            "--texture: expected NAME=PATH, got 't=' (see 'segue effect --help')"
        ),
        (
            ["effect", "--input", "from.png", "--effect", "invert", "--time", "-1", "-o", "o.png"],
            "--time must be a finite number of seconds ≥ 0, got -1 (see 'segue effect --help')"
        ),
        (
            ["mesh", "from.png", "--mesh", "curtain", "--param", "x", "-o", "o.png"],
            "--param: expected NAME=VALUE, got 'x' (see 'segue mesh --help')"
        ),
        // Negative numbers parse as values, then are judged by the command.
        (
            ["frame", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--progress", "-5", "-o", "f.png"],
            "--progress must be a number from 0 to 1, got -5 (see 'segue frame --help')"
        ),
        (
            ["frame", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--progress", "2", "-o", "f.png"],
            "--progress must be a number from 0 to 1, got 2 (see 'segue frame --help')"
        ),
        (
            ["frame", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--progress", "1e308", "-o", "f.png"],
            "--progress must be a number from 0 to 1, got 1e+308 (see 'segue frame --help')"
        ),
        (
            ["frame", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--time", "-1", "-o", "f.png"],
            "--time must be a finite number of seconds ≥ 0, got -1 (see 'segue frame --help')"
        ),
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--fps", "-3", "-o", "out"],
            "--fps must be a number from 1 to 1000, got -3 (see 'segue render --help')"
        ),
        // One frame-rate check everywhere: 0, fractions below 1, huge and NaN are named up front, never ffmpeg's text.
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--fps", "1e-9", "-o", "out.mp4"],
            "--fps must be a number from 1 to 1000, got 1e-09 (see 'segue render --help')"
        ),
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--fps", "nan", "-o", "out.mp4"],
            "--fps must be a number from 1 to 1000, got NaN (see 'segue render --help')"
        ),
        (
            ["effect", "--input", "from.png", "--effect", "shift", "--duration", "1", "--fps", "0", "-o", "e.mp4"],
            "--fps must be a number from 1 to 1000, got 0 (see 'segue effect --help')"
        ),
        (
            ["mesh", "from.png", "--mesh", "flat", "--to-mesh", "flat", "--fps", "1e9", "-o", "m.mp4"],
            "--fps must be a number from 1 to 1000, got 1000000000 (see 'segue mesh --help')"
        ),
        (
            ["demo", "--fps", "0.5", "-o", "demo"],
            "--fps must be a number from 1 to 1000, got 0.5 (see 'segue demo --help')"
        ),
        // A ratio is a rate too, checked alike; text that is neither says what a rate looks like.
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--fps", "30000/1", "-o", "out.mp4"],
            "--fps must be a number from 1 to 1000, got 30000 (see 'segue render --help')"
        ),
        (
            ["mesh", "from.png", "--mesh", "flat", "--to-mesh", "flat", "--fps", "30000/0", "-o", "m.mp4"],
            "the value '30000/0' is invalid for '--fps <fps>': expected a number or a ratio such as 30000/1001 (see 'segue mesh --help')"
        ),
        // Command-line mistakes: lower case, one line, a pointer to help, exit 1 (not 64).
        (
            ["frame", "--from", "from.png", "--to", "to.png", "--effect", "fade", "-o", "f.png", "--progress"],
            "missing value for '--progress <progress>' (see 'segue frame --help')"
        ),
        (["bogus"], "unexpected argument 'bogus' (see 'segue --help')"),
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade"],
            "missing expected argument '--output <OUT>' (see 'segue render --help')"
        ),
        // Library errors come through the same path.
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "fadee", "-o", "out"],
            "unknown effect 'fadee'; did you mean 'fade'? (run 'segue list' to see them all)"
        ),
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--insertion", "-1:0", "-o", "out"],
            "--function, --arg, --animate, --insertion, --removal, --removal-function and --max-sample-offset apply to stitchable shader effects (.metal files, shift); 'fade' is a full-screen effect: use --param"
        ),
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "shift", "--arg", "effectValue=0.5", "-o", "out"],
            "'effectValue' is the animated argument; set its range with --insertion and --removal instead of --arg"
        ),
        // Huge lengths: checked before any work, never a trap, nothing left behind.
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--duration", "1e300", "-o", "out.mp4"],
            "the render would have 3e+301 frames (1e+300 s at 30 fps); " + limit
        ),
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--duration", "1e9", "-o", "out"],
            "the render would have 30000000001 frames (1000000000 s at 30 fps); " + limit
        ),
        (
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "fade", "--repeat", "1e300", "-o", "out"],
            "the render would have 3e+301 frames (1e+300 s at 30 fps); " + limit
        ),
        (
            // An effect file's own duration is refused where it is written (an hour at most, as a cut).
            ["render", "--from", "from.png", "--to", "to.png", "--effect", "long.glsl", "-o", "out"],
            "long.glsl:2: duration must be a positive number of seconds, at most 3600 s, got '1e300'"
        ),
        (
            ["mesh", "from.png", "--mesh", "flat", "--to-mesh", "flat", "--duration", "1e300", "-o", "m.mp4"],
            "the render would have 3e+301 frames (1e+300 s at 30 fps); " + limit
        ),
    ]

    @Test("each failure prints one exact error line, exits 1 and leaves only the inputs", arguments: 0..<cases.count)
    func exactMessage(_ index: Int) throws {
        let (args, message) = Self.cases[index]
        let header =
            "// Name: long\n// Duration: 1e300\nvec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }\n"
        let (result, files) = try run(args, files: ["long.glsl": header])
        #expect(result.status == 1, "\(args)")
        #expect(result.stderr == "error: \(message)\n", "\(args)")
        #expect(result.stdout.isEmpty)
        #expect(files == ["from.png", "long.glsl", "to.png"], "\(args)")
    }

    @Test("a spring that settles late is refused by its frame count, one that rings for ever by its settling time; neither traps")
    func slowSpring() throws {
        // ζ = 0.002 / (2·√100) = 1e-4: it settles in −ln(0.001)/(ζ·ω0) ≈ 6,900 s, 1.66 million frames at 240 fps.
        let (result, files) = try run([
            "render", "--from", "from.png", "--to", "to.png", "--effect", "fade",
            "--spring", "damping=0.002", "--fps", "240", "-o", "out",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: the render would have "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(Self.limit + "\n"))
        #expect(files == ["from.png", "to.png"])
        // ζ = 5e-302: it would ring for 1.4e303 s (it reached the frame count as the first did).
        let (ringing, left) = try run([
            "render", "--from", "from.png", "--to", "to.png", "--effect", "fade",
            "--spring", "damping=1e-300", "-o", "out",
        ])
        #expect(ringing.status == 1)
        #expect(ringing.stderr == "error: this spring oscillates for longer than 10000 s (damping ratio 5e-302); give a duration\n")
        #expect(left == ["from.png", "to.png"])
    }

    @Test("an argument that is not UTF-8 (a file named in Latin-1) is refused by its bytes, not as 'no such file'; UTF-8 names work")
    func argumentNotUTF8() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        // bash makes the bytes: a test's own arguments are Swift strings, always UTF-8.
        let latin1 = "\"$(printf 'caf\\351.png')\""
        let script = "cp from.png \(latin1) && exec \"$0\" render --from \(latin1) --to to.png -e fade -o \"$(printf 'out\\351')\""
        let result = try runProduct("/bin/bash", ["-c", script, segueBinary], cwd: dir)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: the argument 'caf\\xE9.png' is not UTF-8 text; segue reads its arguments, file names too, as UTF-8: "
                + "give the file a UTF-8 name (convmv renames files)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).count == 3, "nothing written")
        // The same file under a UTF-8 name renders.
        try FileManager.default.copyItem(atPath: dir + "/from.png", toPath: dir + "/café.png")
        let good = try segue(
            ["frame", "--from", "café.png", "--to", "to.png", "-e", "fade", "--progress", "1", "-o", "sortie-é.png"], cwd: dir)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try ImageFile.read(path: dir + "/sortie-é.png")[3, 3] == .white)
    }

    @Test("--help and --version still print and exit 0")
    func helpAndVersion() throws {
        let help = try segue(["frame", "--help"])
        #expect(help.status == 0)
        #expect(help.text.contains("USAGE: segue frame"))
        let version = try segue(["--version"])
        #expect(version.status == 0 && version.text == "0.2.0\n")
    }

    @Test("a negative value that is in range parses (an --insertion of -1:0 on a stitchable effect)")
    func negativeValuesParse() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 8, height: 8)
        let result = try segue(
            [
                "frame", "--from", "from.png", "--to", "to.png", "--effect", "shift",
                "--insertion", "-1:0", "--removal", "0:-1", "--progress", "1", "-o", "f.png",
            ], cwd: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let image = try ImageFile.read(path: dir + "/f.png")
        #expect(image[4, 4] == .white)
    }
}
