// `segue gallery` in a real browser: headless Chromium (Debian package `chromium`) loads the page
// from the file system with no console message, every preview plays, and a screenshot shows the
// grid of cards. The page's own script reports how many previews are playing in
// `<body data-playing=…>`, which `--dump-dom` prints after some virtual time.
import Foundation
import Segue
import SegueTestSupport
import SegueTools
import Testing

@Suite("segue gallery")
struct GalleryCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/gallery").path

    /// Runs headless Chromium; nil when it is not installed (`scripts/install-deps.sh` installs it).
    static func chromium(_ arguments: [String]) throws -> ToolResult? {
        guard let path = ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap({ FileIO.findExecutable($0) }).first else {
            return nil
        }
        return try runProduct(
            path,
            [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--autoplay-policy=no-user-gesture-required", "--enable-logging=stderr", "--v=0",
            ]
                + arguments, timeout: 120)
    }

    @Test("the page loads without console messages, every preview plays, the grid shows")
    func galleryInChromium() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let site = dir + "/site"
        // An empty folder may take the site; the site carries the marker that lets a later run replace it.
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: false)
        let r = try segue(["gallery", Self.fixtures, "--scale", "0.25", "-o", site])
        #expect(r.status == 0, "\(r.stderr)")
        let builtIns = EffectCatalog.builtIns.count
        // The fixtures: tint.glsl, slide.metal:slide and glow.metal's two overloads (a fill, over time,
        // and a colour function) preview; broken.glsl and glow.metal's third overload, which SwiftUI
        // could not call (an int argument), are listed with their errors.
        #expect(r.text.hasPrefix("\(site)/index.html: \(builtIns + 6) effects, \(builtIns + 4) previews\n"), "\(r.text)")
        #expect(r.text.contains("broken.glsl: "))
        #expect(r.text.contains("glow.metal:glow(half4,int): "), "\(r.text)")
        #expect(listing(dir) == ["site"])
        #expect(listing(site) == [Gallery.markerName, "index.html", "previews"])
        let page = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        #expect(!page.contains("<script>alert"), "file text must be escaped")
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("with markup in the summary &amp; quotes &quot;like this&quot;"))
        #expect(page.contains("glow.metal:glow(float4,float)") && page.contains("glow.metal:glow(half4,float)"), "the overloads' cards")
        #expect(page.contains("unsupported stitchable argument type: &apos;int&apos; of &apos;steps&apos;"), "the refused overload's card")
        #expect(page.contains("SwiftUI fill shader &apos;glow&apos;"), "the fill's card")

        let url = "file://" + site + "/index.html"
        guard let dom = try Self.chromium(["--virtual-time-budget=5000", "--dump-dom", url]) else {
            Issue.record("headless Chromium is needed for this test: apt-get install chromium (scripts/install-deps.sh does)")
            return
        }
        #expect(dom.status == 0, "\(dom.stderr)")
        let body = dom.text.range(of: "<body[^>]*>", options: .regularExpression).map { String(dom.text[$0]) } ?? ""
        #expect(body.contains("data-previews=\"\(builtIns + 4)\""), "\(body)")
        #expect(body.contains("data-playing=\"\(builtIns + 4)\""), "not every preview plays: \(body)")
        let console = dom.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "console messages: \(console)")

        let shot = dir + "/shot.png"
        let screenshot = try #require(
            try Self.chromium(["--window-size=1280,900", "--virtual-time-budget=2000", "--screenshot=\(shot)", url]))
        #expect(screenshot.status == 0, "\(screenshot.stderr)")
        let image = try ImageFile.read(path: shot)
        #expect(image.width == 1280 && image.height == 900)
        // A row of cards: along a line through the cards' text area, runs of the card colour
        // (#222226) separated by the page background (#17171a).
        let card = Pixel(0x22, 0x22, 0x26, 255), page0 = Pixel(0x17, 0x17, 0x1a, 255)
        var bestRow = 0
        for y in stride(from: 60, to: 899, by: 10) {
            var runs = 0, inCard = false
            for x in 0..<1280 {
                let p = image[x, y]
                if p == card, !inCard { runs += 1; inCard = true } else if p == page0 { inCard = false }
            }
            bestRow = max(bestRow, runs)
        }
        #expect(bestRow >= 4, "expected a row of at least 4 cards in the screenshot, found \(bestRow)")
        try? FileManager.default.removeItem(atPath: shot)

        // A site the gallery wrote is replaced whole by the next run.
        try "old".write(toFile: site + "/stale.txt", atomically: true, encoding: .utf8)
        let again = try segue(["gallery", "--scale", "0.1", "-o", site])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.text.hasPrefix("\(site)/index.html: \(builtIns) effects, \(builtIns) previews\n"), "\(again.text)")
        #expect(listing(site) == [Gallery.markerName, "index.html", "previews"])
        #expect(listing(dir) == ["site"])
    }

    @Test("-o never replaces what segue gallery did not write, nor an input folder or its parent (resolved paths), nor a file")
    func refusedOutputs() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let fm = FileManager.default
        // fx/ holds an effect; gp/ holds notes and a shaders folder; a user's folder; a file.
        try fm.createDirectory(atPath: dir + "/fx", withIntermediateDirectories: true)
        try "// Name: a\nvec4 transition(vec2 uv) { return getToColor(uv); }\n".write(
            toFile: dir + "/fx/a.glsl", atomically: true, encoding: .utf8)
        try fm.createDirectory(atPath: dir + "/gp/shaders", withIntermediateDirectories: true)
        try "mine".write(toFile: dir + "/gp/notes.txt", atomically: true, encoding: .utf8)
        try fm.createDirectory(atPath: dir + "/mine", withIntermediateDirectories: true)
        try "keep".write(toFile: dir + "/mine/keep.txt", atomically: true, encoding: .utf8)
        try "a file".write(toFile: dir + "/file.txt", atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: dir + "/link", withDestinationPath: "fx")
        let before = try snapshot(dir)

        let cases: [(args: [String], message: String)] = [
            (["mine"], "mine exists and was not written by segue gallery; choose another directory or remove it"),
            (["file.txt"], "file.txt exists and is not a folder written by segue gallery; choose another directory or remove it"),
            (["fx", "-o", "fx"], "the output fx is the input folder fx; choose another directory for the site"),
            (["fx", "-o", "./fx/"], "the output ./fx/ is the input folder fx; choose another directory for the site"),
            (["gp/shaders", "-o", "gp"], "the output gp contains the input folder gp/shaders; choose another directory for the site"),
            (["fx", "-o", "link"], "the output link is the input folder fx; choose another directory for the site"),
            (["link", "-o", "fx"], "the output fx is the input folder link; choose another directory for the site"),
            ([".", "-o", "."], "the output . is the input folder .; choose another directory for the site"),
            ([".", "-o", "./"], "the output ./ is the input folder .; choose another directory for the site"),
            (["fx", "-o", "."], "the output . contains the input folder fx; choose another directory for the site"),
            (["fx", "-o", dir + "/gp/../fx"], "the output \(dir)/gp/../fx is the input folder fx; choose another directory for the site"),
        ]
        for c in cases {
            let args = c.args.count == 1 ? ["gallery", "-o", c.args[0]] : ["gallery"] + c.args
            let r = try segue(args, cwd: dir)
            #expect(r.status == 1, "\(args): \(r.stderr)")
            #expect(r.stderr == "error: \(c.message)\n", "\(args)")
            #expect(r.stdout.isEmpty)
            #expect(try snapshot(dir) == before, "\(args) changed the files")
        }
    }

    @Test("without ffmpeg the gallery fails once, naming it, and writes nothing (it noted 'no preview' on every card and exited 0)")
    func noFFmpeg() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        let r = try segue(["gallery", "--scale", "0.1", "-o", "site"], environment: ["SEGUE_FFMPEG": "/nonexistent/ffmpeg"], cwd: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(
            r.stderr
                == "error: site: ffmpeg is needed for video but was not found (SEGUE_FFMPEG=/nonexistent/ffmpeg is not an executable file); "
                + "install the Debian package `ffmpeg` (apt-get install ffmpeg) or set SEGUE_FFMPEG to its path\n")
        #expect(listing(dir).isEmpty, "\(listing(dir))")
    }

    @Test("--scale outside [0.1, 2]: one error line worded as every --scale check, nothing written")
    func badScale() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        for (scale, shown) in [("0.05", "0.05"), ("3", "3"), ("nan", "NaN")] {
            let r = try segue(["gallery", "--scale", scale, "-o", "site"], cwd: dir)
            #expect(
                r.status == 1 && r.stderr == "error: --scale must be in [0.1, 2], got \(shown) (see 'segue gallery --help')\n",
                "\(r.stderr)")
        }
        #expect(listing(dir).isEmpty)
    }

    /// Every path under `dir` (links not followed) with its contents, for "nothing changed".
    private func snapshot(_ dir: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let fm = FileManager.default
        for case let path as String in fm.enumerator(atPath: dir)! {
            let full = dir + "/" + path
            if let target = try? fm.destinationOfSymbolicLink(atPath: full) { result[path] = "-> " + target; continue }
            var isDirectory: ObjCBool = false
            _ = fm.fileExists(atPath: full, isDirectory: &isDirectory)
            result[path] = isDirectory.boolValue ? "/" : try String(contentsOfFile: full, encoding: .utf8)
        }
        return result
    }
}
