// `segue mesh --window` in a real window on a private X server, driven by real pointer and key
// events from xdotool (XTEST) and judged from screenshots: frames are compared with the offline
// `segue mesh` renders (composited over black) pixel by pixel, within 2/255 on 99 % of the
// window's pixels. Waits poll the screen with bounds, so a loaded machine only makes them slower;
// the timing of the spring and the toggle is asserted exactly in MeshSessionTests.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue mesh --window (Xvfb)")
struct MeshWindowTests {

    /// The share of the window's pixels within `tolerance` (per channel) of `expected`
    /// composited over black (its premultiplied colour).
    static func agreement(_ shot: Image, _ g: Geometry, _ expected: Image, tolerance: Int = 2) -> Double {
        guard expected.width == g.width, expected.height == g.height else { return 0 }
        var close = 0
        for y in 0..<g.height {
            for x in 0..<g.width {
                let a = shot[g.x + x, g.y + y], b = expected[x, y]
                if abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance {
                    close += 1
                }
            }
        }
        return Double(close) / Double(g.width * g.height)
    }

    /// A textured, opaque image: gradients under a checkerboard, so a mesh drawn differently
    /// shows.
    static func photo(width: Int, height: Int) -> Image {
        Image(width: width, height: height) { x, y in
            let check = (x / 16 + y / 16) % 2 == 0
            return Pixel(UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), check ? 230 : 40)
        }
    }

    /// The offline render of `segue mesh IMAGE ARGS -o …`.
    static func offline(_ dir: String, _ args: [String]) throws -> Image {
        let path = dir + "/offline-\(UUID().uuidString).png"
        let r = try segue(["mesh"] + args + ["-o", path], cwd: dir)
        guard r.status == 0 else { throw SetupFailure("offline render failed: \(r.stderr)") }
        return try ImageFile.read(path: path)
    }

    @Test("a drag shows the offline frames at the touch points; on release the touch springs back through the frames between to rest")
    func drag() throws {
        guard let display = try VirtualDisplay() else { return }
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try ImageFile.write(Self.photo(width: 200, height: 300), to: dir + "/photo.png")
        let rest = try Self.offline(dir, ["photo.png", "--mesh", "curtain"])
        let a = try Self.offline(dir, ["photo.png", "--mesh", "curtain", "--param", "touch=0.2,0.5"])
        let b = try Self.offline(dir, ["photo.png", "--mesh", "curtain", "--param", "touch=0.75,0.2"])
        // The three frames are told apart by the comparison.
        for (x, y) in [(a, rest), (b, rest), (a, b)] { #expect(Self.agreement(x, (0, 0, 200, 300), y) < 0.9) }

        // A slow, critically damped release (about 6 s to settle) so the frames between show.
        let live = try LiveProcess(
            ["mesh", "photo.png", "--mesh", "curtain", "--window", "--spring", "response=3,damping-fraction=1"],
            display: display, cwd: dir)
        let (id, g) = try #require(try Self.openedWindow(display, live), "no window appeared: \(live.stderr)")
        #expect(g.width == 200 && g.height == 300, "the window is the image's size: \(g)")
        let (first, atRest) = try display.waitForScreen { Self.agreement($0, g, rest) >= 0.99 }
        #expect(atRest, "at rest it shows the offline curtain: \(Self.agreement(first, g, rest))")

        // Press, drag to (40, 150) = touch (0.2, 0.5), then to (150, 60) = (0.75, 0.2).
        try display.run("xdotool", ["mousemove", "--window", id, "100", "150", "mousedown", "1"])
        try display.run("xdotool", ["mousemove", "--window", id, "40", "150"])
        let (shotA, isA) = try display.waitForScreen { Self.agreement($0, g, a) >= 0.99 }
        #expect(isA, "at (0.2, 0.5) the offline frame shows: \(Self.agreement(shotA, g, a))")
        try display.run("xdotool", ["mousemove", "--window", id, "150", "60"])
        let (shotB, isB) = try display.waitForScreen { Self.agreement($0, g, b) >= 0.99 }
        #expect(isB, "at (0.75, 0.2) the offline frame shows: \(Self.agreement(shotB, g, b))")

        // Released (after resting: no flick), the touch leaves (0.75, 0.2) without jumping to rest…
        Thread.sleep(forTimeInterval: 0.2)
        try display.run("xdotool", ["mouseup", "1"])
        let (moving, left) = try display.waitForScreen { Self.agreement($0, g, b) < 0.95 }
        #expect(left, "the release animates")
        #expect(Self.agreement(moving, g, rest) < 0.95, "a frame between the touch and rest shows (not a jump)")
        // …and settles exactly on the rest frame.
        let (settled, isSettled) = try display.waitForScreen(timeout: 40) { Self.agreement($0, g, rest) >= 0.99 }
        #expect(isSettled, "it settles at rest: \(Self.agreement(settled, g, rest))")

        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit() == 0, "\(live.stderr)")
        #expect(live.stderr.isEmpty, "\(live.stderr)")
    }

    // MARK: - Toggle

    /// Two compatible one-quad meshes: the whole layer, and the layer shrunk to its middle half.
    static func writeQuads(_ dir: String) throws {
        func quad(_ inset: Double) -> String {
            let lo = inset, hi = 1 - inset
            return """
                {"depthNormalization": "none", "diffuseLightFactor": 0,
                 "vertices": [{"from": [0, 0], "to": [\(lo), \(lo), 0]}, {"from": [1, 0], "to": [\(hi), \(lo), 0]},
                              {"from": [1, 1], "to": [\(hi), \(hi), 0]}, {"from": [0, 1], "to": [\(lo), \(hi), 0]}],
                 "faces": [[0, 1, 2, 3]]}
                """
        }
        try quad(0).write(toFile: dir + "/full.json", atomically: true, encoding: .utf8)
        try quad(0.25).write(toFile: dir + "/half.json", atomically: true, encoding: .utf8)
    }

    /// The blend shown between full.json (0) and half.json (1) on a white 200-point image: the
    /// black margin on the middle row is 50 points at 1.
    static func fraction(_ shot: Image, _ g: Geometry) -> Double {
        var margin = 0
        while margin < g.width / 2, shot[g.x + margin, g.y + g.height / 2].r < 128 { margin += 1 }
        return Double(margin) / 50
    }

    @Test("a click toggles to --to-mesh as the offline animation does; space toggles back; a click mid-way reverses from where it was")
    func toggle() throws {
        guard let display = try VirtualDisplay() else { return }
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try ImageFile.write(Image(width: 200, height: 200, fill: .white), to: dir + "/white.png")
        try Self.writeQuads(dir)
        let full = try Self.offline(dir, ["white.png", "--mesh", "full.json"])
        let half = try Self.offline(dir, ["white.png", "--mesh", "half.json"])
        let live = try LiveProcess(
            ["mesh", "white.png", "--mesh", "full.json", "--to-mesh", "half.json", "--window", "--duration", "4"],
            display: display, cwd: dir)
        let (id, g) = try #require(try Self.openedWindow(display, live), "no window appeared: \(live.stderr)")
        let (_, isFull) = try display.waitForScreen { Self.agreement($0, g, full) >= 0.99 }
        #expect(isFull, "the first mesh shows")

        // A click: the animation runs to the second mesh, through frames between.
        try display.run("xdotool", ["mousemove", "--window", id, "100", "100", "click", "1"])
        let (between, isBetween) = try display.waitForScreen { (0.1...0.9).contains(Self.fraction($0, g)) }
        #expect(isBetween, "a frame between the meshes shows, saw \(Self.fraction(between, g))")
        let (_, isHalf) = try display.waitForScreen(timeout: 40) { Self.agreement($0, g, half) >= 0.99 }
        #expect(isHalf, "it ends on the second mesh, as the offline render shows it")

        // Space toggles back; at or past half way a click reverses from where it was.
        try display.run("xdotool", ["key", "--window", id, "space"])
        let (_, isBack) = try display.waitForScreen { Self.fraction($0, g) <= 0.6 }
        #expect(isBack, "space animates back")
        try display.run("xdotool", ["click", "1"])
        var seen = [Self.fraction(try display.screenshot(), g)]
        let deadline = Date().addingTimeInterval(40)
        while seen.last ?? 0 < 1, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            seen.append(Self.fraction(try display.screenshot(), g))
        }
        #expect((0.1...0.9).contains(seen[0]), "right after the click it is still mid-way (no jump): \(seen)")
        #expect(seen.allSatisfy { $0 >= seen[0] - 0.1 }, "it turns back toward the second mesh from there: \(seen)")
        #expect(seen.last == 1, "and ends on it: \(seen)")
        #expect(Self.agreement(try display.screenshot(), g, half) >= 0.99)
        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit() == 0, "\(live.stderr)")
    }

    // MARK: - Watch, phases, errors

    @Test("--watch: a rewritten mesh file shows; a broken one is reported across the top while the last good mesh keeps running")
    func watch() throws {
        guard let display = try VirtualDisplay() else { return }
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try ImageFile.write(Image(width: 200, height: 200, fill: .white), to: dir + "/white.png")
        try Self.writeQuads(dir)
        let mesh = dir + "/mesh.json"
        try FileManager.default.copyItem(atPath: dir + "/full.json", toPath: mesh)
        let live = try LiveProcess(["mesh", "white.png", "--mesh", mesh, "--window", "--watch"], display: display, cwd: dir)
        let (id, g) = try #require(try Self.openedWindow(display, live), "no window appeared: \(live.stderr)")
        let (_, isFull) = try display.waitForScreen { Self.fraction($0, g) == 0 && $0[g.x + 1, g.y + 1] == .white }
        #expect(isFull, "the file's mesh shows")

        try String(contentsOfFile: dir + "/half.json", encoding: .utf8).write(toFile: mesh, atomically: true, encoding: .utf8)
        let (_, isHalf) = try display.waitForScreen { Self.fraction($0, g) == 1 }
        #expect(isHalf, "the rewritten mesh shows")
        #expect(live.waitForStderr("reloaded \(mesh)"), "\(live.stderr)")

        try #"{"vertices": [{"from": [0, 0], "to": [0, 0]}], "faces": [[0, 0, 0, 0]]}"#.write(
            toFile: mesh, atomically: true, encoding: .utf8)
        #expect(live.waitForStderr("error: "), "no error reported: \(live.stderr)")
        #expect(live.stderr.contains("error: \(mesh): vertices[0].to: expected 3 numbers, found a list of 2 items"), "\(live.stderr)")
        let (card, isCard) = try display.waitForScreen { $0[g.x + 1, g.y + 1] == Pixel(120, 16, 24, 255) }
        #expect(isCard, "the error shows across the top, saw \(card[g.x + 1, g.y + 1])")
        let top = (0..<g.width).flatMap { x in (0..<(g.height / 2)).map { y in card[g.x + x, g.y + y] } }
        #expect(top.contains(.white), "the card has text")
        #expect(card[g.x + 100, g.y + 140] == .white && card[g.x + 10, g.y + 190] == .black, "the last good mesh keeps running below")
        #expect(try display.window(named: "error in \(mesh)", timeout: 10) == id, "the title names the file in error")
        #expect(live.isRunning)

        // Fixed again: the card goes, the new mesh shows.
        try String(contentsOfFile: dir + "/full.json", encoding: .utf8).write(toFile: mesh, atomically: true, encoding: .utf8)
        let (_, isFixed) = try display.waitForScreen { $0[g.x + 1, g.y + 1] == .white && Self.fraction($0, g) == 0 }
        #expect(isFixed, "the fixed mesh shows without the card")
        #expect(try display.window(named: "segue mesh .* mesh.json$", timeout: 10) == id, "the title names the mesh again")
        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit() == 0, "\(live.stderr)")
    }

    @Test("a held phase shows the offline frame")
    func heldPhase() throws {
        guard let display = try VirtualDisplay() else { return }
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try ImageFile.write(Self.photo(width: 160, height: 160), to: dir + "/photo.png")
        let ripple = try Self.offline(dir, ["photo.png", "--mesh", "ripple", "--param", "phase=1"])
        let live = try LiveProcess(
            ["mesh", "photo.png", "--mesh", "ripple", "--param", "phase=1", "--window", "--phase-rate", "0"],
            display: display, cwd: dir)
        let (id, g) = try #require(try Self.openedWindow(display, live), "no window appeared: \(live.stderr)")
        let (shot, isRipple) = try display.waitForScreen { Self.agreement($0, g, ripple) >= 0.99 }
        #expect(isRipple, "ripple at phase 1: \(Self.agreement(shot, g, ripple))")
        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit() == 0, "\(live.stderr)")
    }

    @Test("a running phase moves the jelly by itself; --scale sizes the window in points")
    func runningPhase() throws {
        guard let display = try VirtualDisplay() else { return }
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        // At --scale 2 the window is the image's size in points: 320×320 pixels → 160×160.
        try ImageFile.write(Self.photo(width: 320, height: 320), to: dir + "/photo@2x.png")
        let live = try LiveProcess(
            ["mesh", "photo@2x.png", "--scale", "2", "--mesh", "jelly", "--param", "magnitude=0.2", "--window"],
            display: display, cwd: dir)
        let (id, g) = try #require(try Self.openedWindow(display, live), "no window appeared: \(live.stderr)")
        #expect(g.width == 160 && g.height == 160, "\(g)")
        let (shown, _) = try display.waitForScreen { $0[g.x + g.width / 2, g.y + g.height / 2] != .black }
        let before = Image(width: g.width, height: g.height, premultipliedRGBA: Self.crop(shown, g))
        let (after, moved) = try display.waitForScreen { Self.agreement($0, g, before) < 0.97 }
        #expect(moved, "the jelly wobbles: \(Self.agreement(after, g, before))")
        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit() == 0, "\(live.stderr)")
    }

    /// The `segue mesh` window and its settled geometry; nil when none appears.
    static func openedWindow(_ display: VirtualDisplay, _ live: LiveProcess) throws -> (String, Geometry)? {
        try display.openedWindow(named: "segue mesh", of: live)
    }

    /// The window's pixels of a screenshot.
    static func crop(_ shot: Image, _ g: Geometry) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(g.width * g.height * 4)
        for y in 0..<g.height {
            for x in 0..<g.width {
                let p = shot[g.x + x, g.y + y]
                bytes += [p.r, p.g, p.b, p.a]
            }
        }
        return bytes
    }

    @Test("the display going away under the window: one error line, exit 1")
    func displayLost() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try ImageFile.write(Image(width: 64, height: 48, fill: .white), to: dir + "/in.png")
        try expectDisplayLossReported(["mesh", "in.png", "--mesh", "curtain", "--window"], window: "segue mesh", cwd: dir)
    }

    @Test("no display: one error line, exit 1; bad combinations of options are named")
    func errors() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try ImageFile.write(Image(width: 8, height: 8, fill: .white), to: dir + "/in.png")
        let r = try segue(["mesh", "in.png", "--mesh", "curtain", "--window"], environment: ["DISPLAY": ":59999"], cwd: dir)
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "error: no display to open a window on (x11 not available); set DISPLAY, or run under a virtual X server: xvfb-run -a segue …\n"
        )
        let cases: [([String], String)] = [
            (["--window", "-o", "out.png"], "error: --window shows the mesh in a window; it takes no -o"),
            ([], "error: give -o/--output (or --window to show the mesh live)"),
            (["--watch", "-o", "out.png"], "error: --watch, --stats, --frames and --phase-rate apply to --window"),
            (["--window", "--watch"], "error: --watch needs a mesh file (--mesh FILE.json or --to-mesh FILE.json)"),
            (["--window", "--repeat", "2"], "error: --repeat and --autoreverse do not apply to --window"),
            (["--window", "--phase-rate", "nan"], "error: --phase-rate must be a finite number"),
            // A window's scale range, as preview's and navigate's.
            (["--window", "--scale", "20"], "error: --scale must be in [0.1, 8], got 20"),
            (["-o", "out.png", "--param-keyframes", "a=0@0,1@1"], "error: --param-keyframes applies to effects, not to meshes"),
            (["--window", "--param", "size=3"], "no parameter 'size'"),
            // A touch spring that never settles, refused as a transition's is without a duration.
            (
                ["--window", "--spring", "stiffness=100,damping=0"],
                "this spring never settles (damping 0): a released touch would never come to rest"
            ),
            (["--window", "--scale", "0.0001"], "error: --scale must be in [0.1, 8], got 0.0001"),
        ]
        // Within the range, an image too wide for a window at its scale.
        try ImageFile.write(Image(width: 1700, height: 8, fill: .white), to: dir + "/wide.png")
        let wide = try segue(
            ["mesh", "wide.png", "--mesh", "curtain", "--window", "--scale", "0.1"], environment: ["DISPLAY": ":59999"], cwd: dir)
        #expect(
            wide.status == 1
                && wide.stderr == "error: a 1700×8-pixel image at scale 0.1 needs a window larger than 16384 points; give a larger scale\n",
            "\(wide.stderr)")
        // A mesh file's error names the file once, as given.
        try #"{"vertices": [{"from": [0, 0], "to": [0, 0]}], "faces": [[0, 0, 0, 0]]}"#.write(
            toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        let bad = try segue(["mesh", "in.png", "--mesh", "bad.json", "--window"], environment: ["DISPLAY": ":59999"], cwd: dir)
        #expect(
            bad.status == 1 && bad.stderr == "error: bad.json: vertices[0].to: expected 3 numbers, found a list of 2 items\n",
            "\(bad.stderr)")
        // --mesh takes a file too, and --watch watches it (it was refused as "needs a mesh file").
        let watched = try segue(
            ["mesh", "in.png", "--mesh", "bad.json", "--window", "--watch"], environment: ["DISPLAY": ":59999"], cwd: dir)
        #expect(watched.status == 1 && watched.stderr == bad.stderr, "\(watched.stderr)")
        let missing = try segue(["mesh", "in.png", "--mesh", "missing.json", "-o", "out.png"], cwd: dir)
        #expect(missing.status == 1 && missing.stderr.hasPrefix("error: cannot read mesh file missing.json: "), "\(missing.stderr)")
        for (extra, message) in cases {
            let r = try segue(["mesh", "in.png", "--mesh", "curtain"] + extra, environment: ["DISPLAY": ":59999"], cwd: dir)
            #expect(
                r.status == 1 && r.stderr.hasPrefix("error: ") && r.stderr.contains(message) && r.stderr.split(separator: "\n").count == 1,
                "\(extra): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
        }
    }
}
