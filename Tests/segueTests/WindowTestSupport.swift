// Window tests as a person would run them: a private X server (Xvfb) per test, the real `segue`
// binary in it, real input events from `xdotool`, and screenshots of the X server's screen taken
// with ImageMagick's `import`. Nothing here touches the test process's own environment: the
// display is passed to children explicitly. Every wait is bounded.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// Finds a tool on PATH.
func tool(_ name: String) -> String? { FileIO.findExecutable(name) }

/// A private Xvfb server, stopped when the value is released.
final class VirtualDisplay {
    let number: Int
    let width: Int, height: Int
    private let server: ChildProcess
    var name: String { ":\(number)" }

    /// Starts Xvfb on a free display number; nil (with an issue recorded) when Xvfb, xdotool or
    /// import is missing: `scripts/install-deps.sh` installs them.
    init?(width: Int = 800, height: Int = 900) throws {
        guard let xvfb = tool("Xvfb"), tool("xdotool") != nil, tool("import") != nil else {
            Issue.record("window tests need Xvfb, xdotool and ImageMagick's import: apt-get install xvfb xdotool imagemagick")
            return nil
        }
        self.width = width
        self.height = height
        var chosen: Int?
        var started: ChildProcess?
        for _ in 0..<20 {
            let n = Int.random(in: 200...60000)
            if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") || FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock")
            {
                continue
            }
            let p = try ChildProcess(
                executable: xvfb, arguments: [":\(n)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"],
                pipeInput: false, output: .discard, path: "Xvfb")
            // Ready when its socket appears (bounded).
            let deadline = Date().addingTimeInterval(10)
            while !p.hasExited && Date() < deadline && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") {
                Thread.sleep(forTimeInterval: 0.02)
            }
            if !p.hasExited && FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") {
                chosen = n
                started = p
                break
            }
            p.kill()
            p.wait()
        }
        guard let chosen, let started else { throw SetupFailure("could not start Xvfb") }
        number = chosen
        server = started
    }

    deinit {
        // Children of the test process may inherit a blocked SIGTERM (Xvfb then ignores
        // terminate()), so the wait is bounded and SIGKILL follows; the server's lock and socket
        // are removed by hand after a kill.
        server.send(SIGTERM)
        let deadline = Date().addingTimeInterval(3)
        while !server.hasExited && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if !server.hasExited {
            server.kill()
            server.wait()
            try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
        }
    }

    /// Kills the X server now, as when a display goes away under a running window.
    func killServer() {
        guard !server.hasExited else { return }
        server.kill()
        server.wait()
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    }

    /// The environment for a child on this display.
    var environment: [String: String] { ["DISPLAY": name] }

    /// Runs a tool on this display and returns its stdout.
    @discardableResult
    func run(_ name: String, _ arguments: [String]) throws -> ToolResult {
        try runProduct(tool(name) ?? name, arguments, environment: environment, timeout: 30)
    }

    /// A screenshot of the whole screen.
    func screenshot() throws -> Image {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let r = try run("import", ["-window", "root", dir + "/shot.png"])
        guard r.status == 0 else { throw SetupFailure("import failed: \(r.stderr)") }
        return try ImageFile.read(path: dir + "/shot.png")
    }

    /// The id of the first window whose name contains `title`, waiting up to `timeout` seconds.
    func window(named title: String, timeout: Double = 30) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // Only a mapped window takes input: events sent before it is viewable are lost.
            let r = try run("xdotool", ["search", "--onlyvisible", "--name", title])
            if let id = r.text.split(separator: "\n").first { return String(id) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    /// The window named `title` that `live` opened, and its settled geometry, looked up again
    /// while the X server reports no size for it (bounded); nil when none appears or `live` ends.
    func openedWindow(named title: String, of live: LiveProcess, timeout: Double = 30) throws -> (id: String, geometry: Geometry)? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, live.isRunning {
            guard let id = try window(named: title, timeout: max(1, deadline.timeIntervalSinceNow)) else { return nil }
            let g = try settledGeometry(of: id)
            if g.width > 0 && g.height > 0 { return (id, g) }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return nil
    }

    /// The window's position and size once they stop changing (SDL may move a new window to the
    /// centre after mapping it): two readings 0.2 s apart agree (bounded).
    func settledGeometry(of window: String, timeout: Double = 10) throws -> Geometry {
        var last = try geometry(of: window)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            let now = try geometry(of: window)
            if now == last { return now }
            last = now
        }
        return last
    }

    /// The window's position and size on the screen.
    func geometry(of window: String) throws -> Geometry {
        let text = try run("xdotool", ["getwindowgeometry", "--shell", window]).text
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2, let v = Int(parts[1]) { values[String(parts[0])] = v }
        }
        return (values["X"] ?? 0, values["Y"] ?? 0, values["WIDTH"] ?? 0, values["HEIGHT"] ?? 0)
    }

    /// Polls screenshots until `condition` holds (bounded); returns the last screenshot.
    func waitForScreen(timeout: Double = 20, _ condition: (Image) -> Bool) throws -> (Image, Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        var shot = try screenshot()
        while !condition(shot) {
            if Date() > deadline { return (shot, false) }
            Thread.sleep(forTimeInterval: 0.1)
            shot = try screenshot()
        }
        return (shot, true)
    }
}

/// Opens the window of `segue arguments` (run in `cwd`), kills the X server as soon as the window
/// shows (the moment a display is lost under a window that has just started drawing), and expects
/// one error line and status 1: no Xlib sentence, no SIGPIPE, no crash in the driver.
func expectDisplayLossReported(_ arguments: [String], window title: String, cwd: String? = nil) throws {
    guard let display = try VirtualDisplay() else { return }
    let live = try LiveProcess(arguments, display: display, cwd: cwd)
    _ = try #require(try display.window(named: title), "no window appeared: \(live.stderr)")
    display.killServer()
    #expect(live.waitForExit() == 1, "\(live.stderr)")
    #expect(live.stderr == "error: the display connection was lost\n")
}

/// A window's position and size on the screen, in pixels.
typealias Geometry = (x: Int, y: Int, width: Int, height: Int)

/// The grey level (red channel) in the middle of a window in a screenshot.
func centreGrey(_ shot: Image, _ g: Geometry) -> Int {
    Int(shot[g.x + g.width / 2, g.y + g.height / 2].r)
}

/// A running `segue` (or example) child with a live window, killed when released.
final class LiveProcess {
    private let process: ChildProcess
    private let cacheDirectory: TemporaryDirectory

    init(_ arguments: [String], display: VirtualDisplay, cwd: String? = nil, binary: String = segueBinary) throws {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display.name
        // Shaders cached in this run's own directory, never in ~/.cache.
        cacheDirectory = try TemporaryDirectory("live-cache")
        env["SEGUE_CACHE_DIR"] = cacheDirectory.path
        process = try ChildProcess(
            executable: binary, arguments: arguments, environment: env, directory: cwd,
            pipeInput: false, output: .collect, path: binary, errorLimit: .max)
    }

    deinit { stop() }

    var isRunning: Bool { !process.hasExited }
    var stderr: String { process.collectedErrors }
    var stdout: String { String(decoding: process.collectedOutput, as: UTF8.self) }

    /// Waits (bounded) until stderr contains `text`.
    func waitForStderr(_ text: String, timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stderr.contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return stderr.contains(text)
    }

    /// Waits (bounded) until the process exits; returns its status, or nil if it did not.
    func waitForExit(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return isRunning ? nil : process.wait().status
    }

    func stop() {
        if isRunning { process.send(SIGTERM) }
        if waitForExit(timeout: 5) == nil {
            process.kill()
            process.wait()
        }
    }
}
