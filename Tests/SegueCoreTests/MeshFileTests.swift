import Foundation
import SegueCore
import SegueMath
import SegueTestSupport
import Testing

@Suite("Mesh files")
struct MeshFileTests {
    let examples = meshRepositoryRoot.appendingPathComponent("Examples/meshes")

    @Test("Examples/meshes/skew.json is the reference skew mesh")
    func skewExample() throws {
        let file = try MeshFile(contentsOfFile: examples.appendingPathComponent("skew.json").path)
        #expect(file.mesh == MeshTransform.skew())
        #expect(file.appearance == MeshAppearance())
    }

    @Test("Examples/meshes/fold.json: panels, lighting and an operation list")
    func foldExample() throws {
        let file = try MeshFile(contentsOfFile: examples.appendingPathComponent("fold.json").path)
        #expect(file.mesh.vertices.count == 10 && file.mesh.faces.count == 4 && file.mesh.depthNormalization == .width)
        #expect(file.mesh.vertices[3] == MeshVertex(from: Vector2(0.75, 0), to: Vector3(0.7, 0, 0.15)))
        #expect(file.mesh.faces[2] == MeshFace(2, 3, 8, 7))
        #expect(file.appearance.diffuseLightFactor == 0.6)
        // [perspective 1000, rotate 10° about x]: the rotation acts first, then the perspective
        // (CATransform3DRotate(perspective, …)): M = R·P, so m34 = cos 10°·(−1/1000) and
        // m24 = sin 10°·(−1/1000) (R's row 2 is (0, cos, sin, 0)).
        let m = file.appearance.supplementaryTransform
        let angle = 10.0 * .pi / 180
        #expect(close(m.m34, -cos(angle) / 1000) && close(m.m24, -sin(angle) / 1000) && close(m.m14, 0))
        #expect(close(m.m22, cos(angle)) && close(m.m23, sin(angle)) && close(m.m32, -sin(angle)))
    }

    @Test("the complete example in Docs/MeshFiles.md reads as documented")
    func documentedExample() throws {
        let doc = try String(contentsOf: meshRepositoryRoot.appendingPathComponent("Docs/MeshFiles.md"), encoding: .utf8)
        let section = try #require(doc.range(of: "### A complete example"))
        let rest = doc[section.upperBound...]
        let start = try #require(rest.range(of: "```json\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        let file = try MeshFile(json: String(rest[start.upperBound..<end.lowerBound]))
        #expect(file.mesh.vertices.count == 6 && file.mesh.faces.count == 2)
        #expect(file.mesh.faces[1] == MeshFace(1, 2, 5, 4, texture: .to))
        #expect(file.appearance.lightDirection == Vector3(0.3, 0, 1) && file.appearance.diffuseLightFactor == 0.7)
        // T·R·P: a point is translated, rotated 15° about x, then put in perspective (d = 1500).
        let point = Vector3(10, 20, 0)
        let angle = 15.0 * .pi / 180
        let (y, z) = (20 * cos(angle) - (-20) * sin(angle), 20 * sin(angle) + (-20) * cos(angle))
        let w = 1 - z / 1500
        #expect(close(file.appearance.supplementaryTransform.project(point).x, 10 / w, 1e-9))
        #expect(close(file.appearance.supplementaryTransform.project(point).y, y / w, 1e-9))
    }

    @Test("writing and reading back gives the same file")
    func roundTrip() throws {
        var builder = try MeshTransform.curtain(touchPoint: Vector2(100, 50), layerWidth: 320, layerHeight: 480).builder
        builder.replaceFace(at: 7, with: MeshFace(7, 8, 59, 58, texture: .to))
        let appearance = MeshAppearance(
            lightDirection: Vector3(1, 2, 3), diffuseLightFactor: 0.35,
            supplementaryTransform: Transform3D.perspective(distance: 800).rotated(by: 0.3, x: 0, y: 1, z: 0),
            subdivisionSteps: 2)
        let file = MeshFile(mesh: try builder.build(), appearance: appearance)
        let text = file.jsonString
        #expect(text.contains("{\"indices\": [7, 8, 59, 58], \"texture\": \"to\"}"))
        #expect(try MeshFile(json: text) == file)
        let scratch = try TemporaryDirectory("mesh"), path = scratch.file("mesh.json")
        try file.write(toFile: path)
        #expect(try MeshFile(contentsOfFile: path) == file)
    }

    @Test("the identity shortcut and operation lists")
    func shortcuts() throws {
        let identity = try MeshFile(json: #"{"identity": {"rows": 2, "columns": 3}}"#)
        #expect(identity.mesh == MeshTransform.identity(rows: 2, columns: 3))
        let flat = try MeshFile(json: #"{"identity": {"rows": 1, "columns": 1}, "depthNormalization": "none", "subdivisionSteps": 3}"#)
        #expect(flat.mesh.depthNormalization == .none && flat.appearance.subdivisionSteps == 3)
        let ops = try MeshFile(
            json:
                #"{"identity": {"rows": 1, "columns": 1}, "supplementaryTransform": [{"translate": [10, 20, 30]}, {"scale": [2, 3]}, {"rotate": 90}]}"#
        )
        // Applied to a point: rotate 90° about z first, then scale, then translate.
        let p = ops.appearance.supplementaryTransform.project(Vector3(1, 0, 0))
        #expect(close(p, Vector3(10 + 0 * 2, 20 + 1 * 3, 30)))
        let matrix = try MeshFile(
            json: #"{"identity": {"rows": 1, "columns": 1}, "supplementaryTransform": [1,0,0,0, 0,1,0,0, 0,0,1,-0.002, 5,0,0,1]}"#)
        #expect(matrix.appearance.supplementaryTransform.m34 == -0.002 && matrix.appearance.supplementaryTransform.m41 == 5)
    }

    static let quad =
        #""vertices": [{"from": [0, 0], "to": [0, 0, 0]}, {"from": [1, 0], "to": [1, 0, 0]}, {"from": [1, 1], "to": [1, 1, 0]}, {"from": [0, 1], "to": [0, 1, 0]}]"#

    @Test(
        "validation errors name the offending entry",
        arguments: [
            (
                #"{"vertices": [{"from": [0, 0], "to": [0, 0, 0]}, {"from": [1, 0], "to": [1, 0]}], "faces": [[0, 1, 1, 0]]}"#,
                "vertices[1].to: expected 3 numbers, found a list of 2 items"
            ),
            (#"{\#(quad), "faces": [[0, 1, 40, 3]]}"#, "faces[0][2]: vertex index 40 out of range (4 vertices)"),
            (#"{\#(quad), "faces": [{"indices": [0, 1.5, 2, 3]}]}"#, "faces[0].indices[1]: expected a whole number, found the number 1.5"),
            (
                #"{\#(quad), "faces": [{"indices": [0, 1, 2, 3], "texture": "back"}]}"#,
                #"faces[0].texture: expected one of "from", "to", found the string "back""#
            ),
            (#"{\#(quad), "faces": [[0, 1, 2]]}"#, "faces[0]: expected 4 vertex indices, found a list of 3 items"),
            (#"{\#(quad), "faces": []}"#, "faces: a mesh needs at least one face"),
            (#"{\#(quad)}"#, #"missing "faces""#),
            (#"{"vertexes": [], "faces": []}"#, "unknown key 'vertexes' in the mesh file; did you mean 'vertices'?"),
            (
                #"{"vertices": [{"form": [0, 0], "to": [0, 0, 0]}], "faces": [[0, 0, 0, 0]]}"#,
                "unknown key 'form' in vertices[0]; did you mean 'from'?"
            ),
            (
                #"{"identity": {"rows": 2, "columns": 2}, "diffuseLightFactor": "bright"}"#,
                #"diffuseLightFactor: expected a number, found the string "bright""#
            ),
            (#"{"identity": {"rows": 2, "columns": 2}, "subdivisionSteps": true}"#, "subdivisionSteps: expected a number, found true"),
            (#"{"identity": {"rows": 2, "columns": 2}, "subdivisionSteps": 9}"#, "subdivisionSteps: must be between 0 and 5, got 9"),
            (#"{"identity": {"rows": 0, "columns": 2}}"#, "identity.rows: must be at least 1, got 0"),
            (#"{"identity": {"rows": 2, "columns": 2}, \#(quad)}"#, #"identity: cannot be combined with "vertices" or "faces""#),
            (
                #"{"identity": {"rows": 2, "columns": 2}, "depthNormalization": "avg"}"#,
                #"depthNormalization: expected one of "none", "width", "height", "min", "max", "average", found the string "avg""#
            ),
            (#"{"identity": {"rows": 2, "columns": 2}, "lightDirection": [0, 0, 0]}"#, "lightDirection: must not be the zero vector"),
            (
                #"{"identity": {"rows": 2, "columns": 2}, "supplementaryTransform": [1, 2, 3]}"#,
                "supplementaryTransform: expected 16 numbers, found a list of 3 items"
            ),
            (
                #"{"identity": {"rows": 2, "columns": 2}, "supplementaryTransform": [{"rotat": 3}]}"#,
                "unknown key 'rotat' in supplementaryTransform[0]; did you mean 'rotate'?"
            ),
            (
                #"{"identity": {"rows": 2, "columns": 2}, "supplementaryTransform": [{"perspective": -5}]}"#,
                "supplementaryTransform[0].perspective: the eye distance must be positive, got -5"
            ),
            (#"{"identity": {"rows": 2, "columns": 2}, "comment": 3}"#, "comment: expected a string, found the number 3"),
            (
                #"{"identity": {"rows": 2, "columns": 2}, "lightDirection": "up"}"#,
                #"lightDirection: expected 3 numbers, found the string "up""#
            ),
            (#"[1, 2]"#, "a mesh file's top level must be an object, found a list of 2 items"),
        ] as [(String, String)])
    func validation(json: String, message: String) {
        let error = meshError { _ = try MeshFile(json: json) }
        #expect(error?.kind == .invalidFile)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
    }

    @Test("a JSONSerialization tree reads as the text does: its 0 and 1 are numbers, not booleans")
    func foundationObjects() throws {
        let texts = [
            #"{"identity": {"rows": 1, "columns": 1}, "diffuseLightFactor": 1, "subdivisionSteps": 0, "lightDirection": [0, 1, 0]}"#,
            try String(contentsOf: examples.appendingPathComponent("skew.json"), encoding: .utf8),
        ]
        for text in texts {
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
            #expect(try MeshFile(jsonObject: object) == MeshFile(json: text))
        }
        // Its true and false are booleans still.
        let flag = try JSONSerialization.jsonObject(with: Data(#"{"identity": {"rows": 2, "columns": true}}"#.utf8))
        #expect(meshError { _ = try MeshFile(jsonObject: flag) }?.message == "identity.columns: expected a number, found true")
    }

    @Test("invalid JSON gives the line and column; non-finite numbers and unreadable files are named")
    func otherErrors() {
        let json = meshError { _ = try MeshFile(json: "{\n  \"faces\": [1 2]\n}") }
        #expect(json?.kind == .invalidJSON)
        // The offending "2" is the 15th character of line 2.
        #expect(json?.message == "the mesh file is not valid JSON at line 2, column 15: unexpected character '2'", "\(json?.message ?? "")")

        let huge = meshError { _ = try MeshFile(json: #"{"identity": {"rows": 1, "columns": 1}, "diffuseLightFactor": 1e999}"#) }
        #expect(huge?.kind == .invalidJSON && huge?.message.contains("1e999") == true, "\(huge?.message ?? "")")

        let infinite = meshError {
            _ = try MeshFile(jsonObject: ["identity": ["rows": 1, "columns": 1], "diffuseLightFactor": Double.infinity] as [String: Any])
        }
        #expect(infinite?.message == "diffuseLightFactor: must be finite, got infinity")

        let path = "/nonexistent/segue/mesh.json"
        let missing = meshError { _ = try MeshFile(contentsOfFile: path) }
        #expect(missing?.kind == .unreadableFile && missing?.message.hasPrefix("cannot read mesh file \(path): ") == true)

        let appearance = MeshAppearance(lightDirection: .zero)
        #expect(meshError { try appearance.validate() }?.message == "lightDirection must not be the zero vector")
        #expect(meshError { try MeshAppearance(subdivisionSteps: 6).validate() }?.kind == .invalidParameter)
        #expect(meshError { try MeshAppearance(diffuseLightFactor: .nan).validate() }?.kind == .nonFiniteValue)
        #expect((try? MeshAppearance.curtain.validate()) != nil)
    }
}
