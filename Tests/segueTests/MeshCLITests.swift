// `segue mesh`: one image through a mesh, animations between meshes, and their errors.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue mesh", .serialized)
struct MeshCLITests {
    @Test("an image through a built-in mesh and a mesh file; an animation between two meshes")
    func renders() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try ImageFile.write(Image(width: 32, height: 16, fill: .white), to: dir + "/in.png")
        let skew = try segue(["mesh", dir + "/in.png", "--mesh", "skew", "-o", dir + "/skew.png"])
        #expect(skew.status == 0, "\(skew.stderr)")
        let image = try ImageFile.read(path: dir + "/skew.png")
        #expect(image[1, 1].a == 0 && image[30, 1] == .white && image[1, 15] == .white)
        let json = """
            {"identity": {"rows": 1, "columns": 1}, "depthNormalization": "none", "diffuseLightFactor": 0}
            """
        try json.write(toFile: dir + "/flat.json", atomically: true, encoding: .utf8)
        let file = try segue(["mesh", dir + "/in.png", "--mesh", dir + "/flat.json", "-o", dir + "/flat.png"])
        #expect(file.status == 0, "\(file.stderr)")
        #expect(try ImageFile.read(path: dir + "/flat.png") == Image(width: 32, height: 16, fill: .white))
        // The flat 1×1 file (depth normalization none, like skew) → skew: the top-left corner
        // travels from (0, 0) to (0.5, 0).
        let anim = try segue([
            "mesh", dir + "/in.png", "--mesh", dir + "/flat.json", "--to-mesh", "skew", "--duration", "1", "--fps", "2",
            "-o", dir + "/frames",
        ])
        #expect(anim.status == 0, "\(anim.stderr)")
        #expect(listing(dir + "/frames").count == 3)
        let mid = try ImageFile.read(path: dir + "/frames/frame-00001.png")
        // At progress 0.5 the corner is at x = 8 on the top row: columns 0…6 are empty.
        #expect(mid[5, 0].a == 0 && mid[10, 0].a == 255)
        // With --spring and no --duration a pass lasts the spring's settling duration, as for
        // segue render (it lasted 1 s).
        let spring = try Spring(mass: 1, stiffness: 10, damping: 2)
        let sprung = try segue([
            "mesh", dir + "/in.png", "--mesh", dir + "/flat.json", "--to-mesh", "skew", "--spring", "mass=1,stiffness=10,damping=2",
            "--fps", "5", "-o", dir + "/sprung",
        ])
        #expect(sprung.status == 0, "\(sprung.stderr)")
        #expect(spring.settlingDuration > 3 && listing(dir + "/sprung").count == Int((spring.settlingDuration * 5).rounded()) + 1)
    }

    @Test("errors: incompatible meshes name the rule; unknown meshes and bad files are clear")
    func errors() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try ImageFile.write(Image(width: 8, height: 8, fill: .white), to: dir + "/in.png")
        try #"{"vertices":[{"from":[0,0],"to":[0,0]}],"faces":[[0,0,0,0]]}"#.write(
            toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--mesh", "skew", "--to-mesh", "ripple"], "different vertex counts (4 and 2601)"),
            (["--mesh", "flat", "--to-mesh", "skew"], "depth normalization average and none differ"),
            (["--mesh", "wobble"], "unknown mesh 'wobble'; the built-in meshes are curtain, bulge, jelly, ripple, ellipse, skew, flat"),
            (["--mesh", "curtian"], "unknown mesh 'curtian'; did you mean 'curtain'? The built-in meshes are curtain, bulge,"),
            (["--mesh", "bulge", "--param", "size=3"], "no parameter 'size'"),
            // --mesh-file, the older spelling of --mesh FILE (hidden from the help), still reads files.
            (["--mesh-file", dir + "/bad.json"], "vertices[0].to: expected 3 numbers, found a list of 2 items"),
            (["--mesh", "skew", "--mesh-file", dir + "/bad.json"], "give the mesh once: --mesh-file is the older spelling of --mesh FILE"),
            ([], "give the mesh: --mesh NAME (a built-in, see 'segue list') or --mesh FILE.json"),
            // --mesh takes a file as --to-mesh does: the file's own error, not "unknown mesh".
            (["--mesh", dir + "/bad.json"], "bad.json: vertices[0].to: expected 3 numbers, found a list of 2 items"),
            (["--mesh-file", dir + "/missing.json"], "missing.json"),
        ]
        for (extra, message) in cases {
            let r = try segue(["mesh", dir + "/in.png"] + extra + ["-o", dir + "/out.png"])
            #expect(r.status == 1 && r.stderr.hasPrefix("error: ") && r.stderr.contains(message), "\(extra): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
        }
    }
}
