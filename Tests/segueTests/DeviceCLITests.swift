// `--device`: an explicit device on every GPU command exits cleanly (its context outlives the
// renderers that use it), an all-digits selector is an index only, and the shader cache lands
// where the environment says.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue --device")
struct DeviceCLITests {
    /// The environment of every run: the shader cache in the test's own directory.
    private func environment(_ dir: String) -> [String: String] { ["SEGUE_CACHE_DIR": dir + "/cache"] }

    @Test("frame, render and mesh with --device 0 exit 0 with the right pixels", arguments: ["0", "00"])
    func explicitDevice(selector: String) throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        let env = environment(dir)

        let frame = try segue(
            [
                "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade", "--progress", "0.5",
                "--device", selector, "-o", dir + "/mid.png",
            ], environment: env)
        #expect(frame.status == 0, "\(frame.stderr)")
        #expect(!frame.stderr.contains("Fatal error"))
        let mid = try ImageFile.read(path: dir + "/mid.png")
        #expect(abs(Int(mid[3, 3].r) - 128) <= 1)

        let render = try segue(
            [
                "render", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "wipe", "--duration", "0.5",
                "--fps", "10", "--device", selector, "-o", dir + "/frames",
            ], environment: env)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(listing(dir + "/frames") == (0...5).map { String(format: "frame-%05d.png", $0) })
        #expect(try ImageFile.read(path: dir + "/frames/frame-00000.png") == Image(width: 16, height: 8, fill: .black))
        #expect(try ImageFile.read(path: dir + "/frames/frame-00005.png") == Image(width: 16, height: 8, fill: .white))

        try ImageFile.write(Image(width: 32, height: 16, fill: .white), to: dir + "/in.png")
        let mesh = try segue(["mesh", dir + "/in.png", "--mesh", "skew", "--device", selector, "-o", dir + "/skew.png"], environment: env)
        #expect(mesh.status == 0, "\(mesh.stderr)")
        let skew = try ImageFile.read(path: dir + "/skew.png")
        #expect(skew[1, 1].a == 0 && skew[30, 1] == .white && skew[1, 15] == .white)

        // The compiled shaders were cached where SEGUE_CACHE_DIR points.
        #expect(listing(dir + "/cache").contains { $0.hasSuffix(".spv") })
    }

    @Test("an all-digits --device is an index only: no device has index 15, even where a name contains 15")
    func digitSelector() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        let r = try segue(
            [
                "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", "fade", "--progress", "0.5",
                "--device", "15", "-o", dir + "/mid.png",
            ], environment: environment(dir))
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: no Vulkan device has the index 15 (available: 0: "), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/mid.png"))
    }

    @Test("an unknown --device or SEGUE_DEVICE fails up front with the devices there are, even where nothing needs the GPU")
    func unknownDeviceUpFront() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try writeInputs(dir)
        let available = try GPUContext.listDevices().map { "\($0.index): \($0.name)" }.joined(separator: ", ")
        // Hard cuts between stills: a concat that never opens the GPU.
        let concat = ["concat", dir + "/from.png", dir + "/to.png", "--transition", "none", "-o", dir + "/out.mp4"]
        let named = try segue(concat + ["--device", "bogus"], environment: environment(dir))
        #expect(named.status == 1)
        #expect(
            named.stderr
                == "error: no Vulkan device name contains 'bogus' (available: \(available)); choose a device by its index or part of its name (see 'segue concat --help')\n"
        )
        let fromEnvironment = try segue(concat, environment: environment(dir).merging(["SEGUE_DEVICE": "99"]) { $1 })
        #expect(fromEnvironment.status == 1)
        #expect(
            fromEnvironment.stderr
                == "error: SEGUE_DEVICE=99: no Vulkan device has the index 99 (available: \(available)); choose one of these indices or part of a device name (see 'segue concat --help')\n"
        )
        #expect(listing(dir).sorted() == ["cache", "from.png", "to.png"] || listing(dir).sorted() == ["from.png", "to.png"])
        // The same hard-cut concat with a device that exists runs.
        let ok = try segue(concat + ["--device", "0"], environment: environment(dir))
        #expect(ok.status == 0, "\(ok.stderr)")
    }
}
