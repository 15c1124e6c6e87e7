// `segue preview` in a real window on a private X server, driven by real input events and judged
// from screenshots: a drag scrubs the fade to the pointer's x, `s` saves the frame, Escape quits,
// --watch shows a rewritten effect and keeps the last good one when the file breaks.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue preview (window, Xvfb)")
struct PreviewWindowTests {
    /// `segue preview` between black and white inputs of `size` written into `scratch` (a fresh
    /// directory if none), with `arguments`; the directory, the process, its window and the
    /// window's settled geometry.
    private func openPreview(
        _ arguments: [String], size: (width: Int, height: Int) = (200, 100), in scratch: TemporaryDirectory? = nil,
        on display: VirtualDisplay
    ) throws -> (TemporaryDirectory, LiveProcess, String, Geometry) {
        let scratch = try scratch ?? TemporaryDirectory("cli")
        try writeInputs(scratch.path, width: size.width, height: size.height)
        let live = try LiveProcess(["preview", "--from", "from.png", "--to", "to.png"] + arguments, display: display, cwd: scratch.path)
        let (id, g) = try #require(try display.openedWindow(named: "segue preview", of: live), "no window appeared: \(live.stderr)")
        return (scratch, live, id, g)
    }

    @Test("a drag scrubs the fade to the pointer's x; s saves the frame; Escape quits")
    func scrubSaveQuit() throws {
        guard let display = try VirtualDisplay() else { return }
        let (scratch, live, id, g) = try openPreview(["--effect", "fade", "--duration", "1"], on: display)
        let dir = scratch.path
        #expect(g.width == 200 && g.height == 100, "window \(g)")

        // The loop runs where the window is: a frame part-way through the fade shows.
        let (running, isRunning) = try display.waitForScreen(timeout: 60) { (10...245).contains(centreGrey($0, g)) }
        #expect(isRunning, "the loop should show the fade part-way, saw \(centreGrey(running, g))")
        // Press at a quarter of the width: the fade shows progress 0.25 (grey 64 of 255).
        try display.run("xdotool", ["mousemove", "--window", id, "50", "50", "mousedown", "1"])
        let (quarter, ok1) = try display.waitForScreen { abs(centreGrey($0, g) - 64) <= 2 }
        #expect(ok1, "expected grey 64 at progress 0.25, saw \(centreGrey(quarter, g))")
        // Held there (the loop alone would have moved on by 0.3 of the way).
        Thread.sleep(forTimeInterval: 0.3)
        #expect(abs(centreGrey(try display.screenshot(), g) - 64) <= 2, "the press holds the preview at 0.25")
        // Drag to three quarters: 191.
        try display.run("xdotool", ["mousemove", "--window", id, "150", "50"])
        let (threeQuarters, ok2) = try display.waitForScreen { abs(centreGrey($0, g) - 191) <= 2 }
        #expect(ok2, "expected grey 191 at progress 0.75, saw \(centreGrey(threeQuarters, g))")
        try display.run("xdotool", ["mouseup", "1"])
        // Released, it stays paused where the finger left it.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(abs(centreGrey(try display.screenshot(), g) - 191) <= 2)

        // s saves the frame at the input's size.
        try display.run("xdotool", ["key", "--window", id, "s"])
        let saved = dir + "/segue-preview-001.png"
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: saved) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let image = try ImageFile.read(path: saved)
        #expect(image.width == 200 && image.height == 100)
        #expect(abs(Int(image[100, 50].r) - 191) <= 1)

        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit() == 0, "\(live.stderr)")
    }

    @Test("--watch: a rewritten effect shows at once; a broken one is reported with its line and the last good one keeps running")
    func watch() throws {
        guard let display = try VirtualDisplay() else { return }
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let effect = dir + "/solid.glsl"
        func write(_ body: String) throws {
            try "// Name: solid\n\(body)\n".write(toFile: effect, atomically: true, encoding: .utf8)
        }
        try write("vec4 transition(vec2 uv) {\n    return vec4(1.0, 0.0, 0.0, 1.0);\n}")
        let (_, live, id, g) = try openPreview(["--effect", effect, "--watch"], size: (120, 80), in: scratch, on: display)
        let centre = { (shot: Image) in shot[g.x + g.width / 2, g.y + g.height / 2] }
        let (red, isRed) = try display.waitForScreen { centre($0) == Pixel(255, 0, 0, 255) }
        #expect(isRed, "expected red, saw \(centre(red))")

        try write("vec4 transition(vec2 uv) {\n    return vec4(0.0, 1.0, 0.0, 1.0);\n}")
        let (green, isGreen) = try display.waitForScreen { centre($0) == Pixel(0, 255, 0, 255) }
        #expect(isGreen, "expected green after the rewrite, saw \(centre(green))")
        #expect(live.waitForStderr("reloaded \(effect)"))

        // Line 4 of the file (after the header line) has the mistake.
        try write("vec4 transition(vec2 uv) {\n    vec4 c = vec4(0.0, 0.0, 1.0, 1.0)\n    return c;\n}")
        #expect(live.waitForStderr("error: "), "no error reported: \(live.stderr)")
        let report = live.stderr
        #expect(report.contains("\(effect):4: error:"), "the error should name the file's own line 4: \(report)")
        // The error shows across the top of the window as white text on dark red; below it the
        // last good version keeps running.
        let (card, isCard) = try display.waitForScreen { $0[g.x + 1, g.y + 1] == Pixel(120, 16, 24, 255) }
        #expect(isCard, "the error card should show at the top, saw \(card[g.x + 1, g.y + 1])")
        let top = (0..<g.width).flatMap { x in (0..<(g.height / 2)).map { y in card[g.x + x, g.y + y] } }
        #expect(top.contains(Pixel(255, 255, 255, 255)), "the card has text")
        #expect(card[g.x + g.width / 2, g.y + g.height - 10] == Pixel(0, 255, 0, 255), "the last good version keeps running")
        #expect(try display.window(named: "segue preview .* error in \(effect)$", timeout: 10) == id, "the title names the file in error")
        #expect(live.isRunning)
    }

    @Test("--watch with FILE.metal:NAME watches FILE.metal: a rewrite shows at once")
    func watchStitchable() throws {
        guard let display = try VirtualDisplay() else { return }
        let scratch = try TemporaryDirectory("cli")
        let file = scratch.file("solid.metal")
        func write(_ colour: String) throws {
            try """
            #include <metal_stdlib>
            using namespace metal;

            [[ stitchable ]] half4 solid(float2 position, half4 color, float amount) {
                return half4(\(colour));
            }
            """.write(toFile: file, atomically: true, encoding: .utf8)
        }
        try write("1.0, 0.0, 0.0, 1.0")
        let (_, live, id, g) = try openPreview(["--effect", file + ":solid", "--watch"], size: (120, 80), in: scratch, on: display)
        let centre = { (shot: Image) in shot[g.x + g.width / 2, g.y + g.height / 2] }
        let (red, isRed) = try display.waitForScreen { centre($0) == Pixel(255, 0, 0, 255) }
        #expect(isRed, "expected red, saw \(centre(red))")
        try write("0.0, 1.0, 0.0, 1.0")
        let (green, isGreen) = try display.waitForScreen { centre($0) == Pixel(0, 255, 0, 255) }
        #expect(isGreen, "expected green after the rewrite, saw \(centre(green)): \(live.stderr)")
        #expect(live.waitForStderr("reloaded \(file)\n"), "\(live.stderr)")
        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit() == 0, "\(live.stderr)")
    }

    @Test("s into a missing save directory: the error is reported and shown in the window, the session goes on; a later save works")
    func failedSave() throws {
        guard let display = try VirtualDisplay() else { return }
        let (scratch, live, id, g) = try openPreview(["--effect", "fade", "--save-directory", "shots"], on: display)
        let dir = scratch.path
        let card = Pixel(120, 16, 24, 255)
        try display.run("xdotool", ["key", "--window", id, "s"])
        let message = "error: shots/segue-preview-001.png: cannot write the output: the directory shots does not exist\n"
        #expect(live.waitForStderr(message), "\(live.stderr)")
        let (shot, shown) = try display.waitForScreen { $0[g.x + 1, g.y + 1] == card }
        #expect(shown, "the error card should show at the top, saw \(shot[g.x + 1, g.y + 1])")
        #expect(live.isRunning, "the session must go on: \(live.stderr)")
        // The loop still runs below the card.
        let (_, moving) = try display.waitForScreen { (10...245).contains(centreGrey($0, g)) }
        #expect(moving)

        // With the folder made, s saves, and the card goes.
        try FileManager.default.createDirectory(atPath: dir + "/shots", withIntermediateDirectories: false)
        try display.run("xdotool", ["key", "--window", id, "s"])
        #expect(live.waitForStderr("saved shots/segue-preview-001.png\n"), "\(live.stderr)")
        let (after, gone) = try display.waitForScreen { $0[g.x + 1, g.y + 1] != card }
        #expect(gone, "the card should go after a save that works, saw \(after[g.x + 1, g.y + 1])")
        #expect(try ImageFile.read(path: dir + "/shots/segue-preview-001.png").width == 200)
        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit() == 0, "\(live.stderr)")
    }

    @Test("the display going away under the window: one error line, exit 1")
    func displayLost() throws {
        try expectDisplayLossReported(["preview", "--effect", "fade"], window: "segue preview")
    }

    @Test("--watch with a built-in (a fade, the stitchable shift) is refused before a window opens: there is no file to watch")
    func watchBuiltIn() throws {
        for effect in ["fade", "shift", "cube"] {
            let r = try segue(["preview", "--effect", effect, "--watch", "--frames", "1"], environment: ["DISPLAY": ":59999"])
            #expect(r.status == 1)
            #expect(
                r.stderr
                    == "error: --watch reloads an effect file (FILE.glsl or FILE.metal[:NAME]); '\(effect)' is a built-in effect (see 'segue preview --help')\n"
            )
        }
    }

    @Test("no display: one error line naming DISPLAY and Xvfb, exit 1")
    func noDisplay() throws {
        let r = try segue(["preview", "--effect", "fade", "--frames", "1"], environment: ["DISPLAY": ":59999"])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "error: no display to open a window on (x11 not available); set DISPLAY, or run under a virtual X server: xvfb-run -a segue …\n"
        )
    }
}
