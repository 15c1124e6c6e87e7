// `segue navigate` in a real window on a private X server, driven by real key and mouse events
// from xdotool and judged from screenshots as a person would: the first screen, a frame in the
// middle of a push, the pushed screen, an edge drag that springs back and one that pops.
// Screens are flat greys (0 and 255) and the effect is a linear fade, so every frame's grey level
// says where the transition is: a pop plays the fade backwards, so at pop progress p the screen
// shows 255·(1 − p).
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue navigate (window, Xvfb)")
struct NavigateWindowTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    @Test("opens on the first screen; Right pushes through a mid-push frame to the next screen; Left pops back")
    func pushAndPop() throws {
        guard let display = try VirtualDisplay() else { return }
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 160, height: 120)
        let live = try LiveProcess(["navigate", "from.png", "to.png", "--effect", "fade", "--duration", "3"], display: display, cwd: dir)
        let (id, g) = try #require(try display.openedWindow(named: "segue navigate", of: live), "no window appeared: \(live.stderr)")
        #expect(g.width == 160 && g.height == 120, "window \(g)")
        let (first, isFirst) = try display.waitForScreen { centreGrey($0, g) == 0 }
        #expect(isFirst, "the first screen (black) should show, saw \(centreGrey(first, g))")

        try display.run("xdotool", ["key", "--window", id, "Right"])
        let (mid, isMid) = try display.waitForScreen { (40...215).contains(centreGrey($0, g)) }
        #expect(isMid, "a frame in the middle of the push should mix both screens, saw \(centreGrey(mid, g))")
        let (pushed, isPushed) = try display.waitForScreen { centreGrey($0, g) == 255 }
        #expect(isPushed, "the pushed screen (white) should show, saw \(centreGrey(pushed, g))")
        // Pushing past the last screen does nothing.
        try display.run("xdotool", ["key", "--window", id, "Right"])
        Thread.sleep(forTimeInterval: 0.5)
        #expect(centreGrey(try display.screenshot(), g) == 255)

        // A resized window is filled at its new size (the swapchain and renderers follow).
        try display.run("xdotool", ["windowsize", id, "300", "200"])
        let (resized, isResized) = try display.waitForScreen { shot in
            let r = try? display.geometry(of: id)
            guard let r, r.width == 300, r.height == 200 else { return false }
            return [(1, 1), (298, 1), (1, 198), (298, 198), (150, 100)].allSatisfy {
                shot[r.x + $0.0, r.y + $0.1] == Pixel(255, 255, 255, 255)
            }
        }
        let g2 = try display.geometry(of: id)
        #expect(isResized, "the resized window should be white edge to edge: \(g2), \(centreGrey(resized, g2))")

        try display.run("xdotool", ["key", "--window", id, "Left"])
        let (popped, isPopped) = try display.waitForScreen { centreGrey($0, g2) == 0 }
        #expect(isPopped, "Left pops back to the first screen, saw \(centreGrey(popped, g2))")
        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit() == 0, "\(live.stderr)")
    }

    @Test("an edge drag follows the finger; released before half way it springs back, past half way it pops")
    func edgeDrag() throws {
        guard let display = try VirtualDisplay() else { return }
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 200, height: 100)
        let live = try LiveProcess(["navigate", "from.png", "to.png", "--effect", "fade", "--duration", "0.3"], display: display, cwd: dir)
        let (id, g) = try #require(try display.openedWindow(named: "segue navigate", of: live), "no window appeared: \(live.stderr)")
        try display.run("xdotool", ["key", "--window", id, "Return"])
        let (_, isPushed) = try display.waitForScreen { centreGrey($0, g) == 255 }
        #expect(isPushed, "Enter pushes the second screen")

        // A press away from the edge on the left half does nothing.
        try display.run(
            "xdotool",
            ["mousemove", "--window", id, "60", "50", "mousedown", "1", "mousemove", "--window", id, "150", "50", "mouseup", "1"])
        Thread.sleep(forTimeInterval: 0.4)
        #expect(centreGrey(try display.screenshot(), g) == 255)

        // From the edge (x = 5) to x = 65: 30 % of the width; the fade backwards shows 255·0.7.
        try display.run("xdotool", ["mousemove", "--window", id, "5", "50", "mousedown", "1"])
        try display.run("xdotool", ["mousemove", "--window", id, "35", "50"])
        try display.run("xdotool", ["mousemove", "--window", id, "65", "50"])
        let (held, isHeld) = try display.waitForScreen { abs(centreGrey($0, g) - 178) <= 3 }
        #expect(isHeld, "at 30 % of the way the pop shows grey 178, saw \(centreGrey(held, g))")
        // Held still, then released: no flick, under half way: it springs back.
        Thread.sleep(forTimeInterval: 0.3)
        try display.run("xdotool", ["mouseup", "1"])
        let (back, isBack) = try display.waitForScreen { centreGrey($0, g) == 255 }
        #expect(isBack, "a release before half way cancels the pop, saw \(centreGrey(back, g))")

        // Again to x = 165: 80 %; released, the pop finishes on the first screen.
        try display.run("xdotool", ["mousemove", "--window", id, "5", "50", "mousedown", "1"])
        try display.run("xdotool", ["mousemove", "--window", id, "85", "50"])
        try display.run("xdotool", ["mousemove", "--window", id, "165", "50"])
        let (far, isFar) = try display.waitForScreen { abs(centreGrey($0, g) - 51) <= 3 }
        #expect(isFar, "at 80 % the pop shows grey 51, saw \(centreGrey(far, g))")
        Thread.sleep(forTimeInterval: 0.3)
        try display.run("xdotool", ["mouseup", "1"])
        let (done, isDone) = try display.waitForScreen { centreGrey($0, g) == 0 }
        #expect(isDone, "a release past half way finishes the pop, saw \(centreGrey(done, g))")
        // The stack now holds one screen: another edge drag does nothing.
        try display.run("xdotool", ["mousemove", "--window", id, "5", "50", "mousedown", "1", "mousemove", "--window", id, "150", "50"])
        Thread.sleep(forTimeInterval: 0.4)
        #expect(centreGrey(try display.screenshot(), g) == 0)
        try display.run("xdotool", ["mouseup", "1"])

        // Closing the window (a window manager's WM_DELETE_WINDOW request) quits cleanly, also
        // mid-transition.
        try display.run("xdotool", ["key", "--window", id, "Return"])
        let close = try display.run("python3", [Self.fixtures + "/wm-close.py", id])
        #expect(close.status == 0, "\(close.stderr)")
        #expect(live.waitForExit() == 0, "\(live.stderr)")
    }

    @Test("--frames and --stats: quits by itself and prints frame-time percentiles")
    func stats() throws {
        guard let display = try VirtualDisplay() else { return }
        let live = try LiveProcess(["navigate", "--effect", "fade", "--frames", "30", "--stats"], display: display)
        #expect(live.waitForExit(timeout: 60) == 0, "\(live.stderr)")
        let line = live.stdout
        #expect(
            line.range(of: #"^frames 29  p50 [0-9.]+ ms  p90 [0-9.]+ ms  p99 [0-9.]+ ms  max [0-9.]+ ms\n$"#, options: .regularExpression)
                != nil,
            "\(line)")
    }

    @Test(
        "every effect kind runs live: built-in, mesh, .glsl and stitchable .metal",
        arguments: [
            ["--effect", "doom-melt"], ["--effect", "cube"], ["--effect", "page-curl"],
            ["--effect", "gallery/tint.glsl"], ["--effect", "gallery/slide.metal:slide", "--insertion", "1:0", "--removal", "0:-1"],
        ])
    func effectKinds(arguments: [String]) throws {
        guard let display = try VirtualDisplay() else { return }
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 120, height: 90)
        let args = arguments.map { $0.hasPrefix("gallery/") ? Self.fixtures + "/" + $0 : $0 }
        let live = try LiveProcess(["navigate", "from.png", "to.png"] + args, display: display, cwd: dir)
        let (id, g) = try #require(try display.openedWindow(named: "segue navigate", of: live), "no window appeared: \(live.stderr)")
        let (_, isFirst) = try display.waitForScreen { $0[g.x + g.width / 2, g.y + g.height / 2] == Pixel(0, 0, 0, 255) }
        #expect(isFirst, "the first screen (black) shows")
        try display.run("xdotool", ["key", "--window", id, "Right"])
        let (_, isPushed) = try display.waitForScreen(timeout: 30) {
            $0[g.x + g.width / 2, g.y + g.height / 2] == Pixel(255, 255, 255, 255)
        }
        #expect(isPushed, "the pushed screen (white) shows")
        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit(timeout: 30) == 0, "\(live.stderr)")
        #expect(live.stderr.isEmpty, "\(live.stderr)")
    }

    @Test("--texture feeds an effect's sampler2D: a luma mask left black, right white switches the left half first")
    func texture() throws {
        let mask = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gl-transitions/luma-mask.glsl").path
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir, width: 120, height: 90)
        try ImageFile.write(Image(width: 120, height: 90) { x, _ in x < 60 ? .black : .white }, to: dir + "/luma.png")
        // Checked before a window opens: with no display the texture is still what is named.
        let missing = try segue(["navigate", "from.png", "to.png", "--effect", mask], environment: ["DISPLAY": ":59999"], cwd: dir)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: effect 'luma-mask' needs the texture 'luma': give it with --texture luma=PATH\n")
        let unknown = try segue(
            ["navigate", "from.png", "to.png", "--effect", mask, "--texture", "luma=luma.png", "--texture", "lum=luma.png"],
            environment: ["DISPLAY": ":59999"], cwd: dir)
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "error: effect 'luma-mask' has no texture 'lum' (it declares: luma)\n")
        // A pop played by another effect (`// Reverse: fade`) takes none of the push's texture or
        // parameters it does not declare: the run gets as far as the display.
        let source = try String(contentsOfFile: mask, encoding: .utf8)
        try source.replacingOccurrences(of: "// License: MIT", with: "// License: MIT\n// Reverse: fade").write(
            toFile: dir + "/luma-pop.glsl", atomically: true, encoding: .utf8)
        let popped = try segue(
            ["navigate", "from.png", "to.png", "--effect", "luma-pop.glsl", "--texture", "luma=luma.png", "--param", "softness=0.1"],
            environment: ["DISPLAY": ":59999"], cwd: dir)
        #expect(popped.status == 1 && popped.stderr.hasPrefix("error: no display to open a window on"), "\(popped.stderr)")

        guard let display = try VirtualDisplay() else { return }
        let live = try LiveProcess(
            ["navigate", "from.png", "to.png", "--effect", mask, "--texture", "luma=luma.png", "--duration", "4"], display: display,
            cwd: dir)
        let (id, g) = try #require(try display.openedWindow(named: "segue navigate", of: live), "no window appeared: \(live.stderr)")
        let (left, right) = ((g.x + g.width / 4, g.y + g.height / 2), (g.x + 3 * g.width / 4, g.y + g.height / 2))
        let (_, isFirst) = try display.waitForScreen { $0[left.0, left.1] == Pixel(0, 0, 0, 255) }
        #expect(isFirst, "the first screen (black) shows")
        try display.run("xdotool", ["key", "--window", id, "Right"])
        // Under the black half of the mask the pushed screen shows at once; under the white half
        // only at the end.
        let (mid, isSplit) = try display.waitForScreen {
            $0[left.0, left.1] == Pixel(255, 255, 255, 255) && $0[right.0, right.1] == Pixel(0, 0, 0, 255)
        }
        #expect(isSplit, "mid-push: left \(mid[left.0, left.1]), right \(mid[right.0, right.1])")
        let (_, isPushed) = try display.waitForScreen(timeout: 30) { $0[right.0, right.1] == Pixel(255, 255, 255, 255) }
        #expect(isPushed, "the pushed screen (white) shows")
        try display.run("xdotool", ["key", "--window", id, "Escape"])
        #expect(live.waitForExit(timeout: 30) == 0, "\(live.stderr)")
    }

    @Test("the display going away under the window: one error line, exit 1")
    func displayLost() throws {
        try expectDisplayLossReported(["navigate", "--effect", "fade"], window: "segue navigate")
    }

    @Test("bad options: one error line, exit 1")
    func badOptions() throws {
        let r = try segue(["navigate", "--scale", "0"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: --scale must be in [0.1, 8], got 0"), "\(r.stderr)")
        let missing = try segue(["navigate", "/nonexistent/a.png"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: "), "\(missing.stderr)")
        let repeated = try segue(["navigate", "--repeat", "2"])
        #expect(repeated.status == 1)
        #expect(
            repeated.stderr.hasPrefix("error: --repeat, --autoreverse and --param-keyframes do not apply to navigate"), "\(repeated.stderr)"
        )
    }
}
