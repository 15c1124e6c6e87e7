import Foundation
import SegueCore
import SegueTestSupport
import Testing

@Suite("Mesh size limits")
struct MeshLimitTests {
    @Test(
        "identity grids past the limit are refused before anything is built",
        arguments: [
            (100_000, 100_000), (20_000, 20_000), (1_000, 1_000), (1, 1_000_001), (999_999_999_999, 2),
        ])
    func hugeIdentity(rows: Int, columns: Int) {
        let json = #"{"identity":{"rows":\#(rows),"columns":\#(columns)}}"#
        do {
            _ = try MeshFile(data: Data(json.utf8))
            Issue.record("\(rows) × \(columns) should be refused")
        } catch let error as MeshError {
            #expect(error.message.hasPrefix("identity: \(rows) × \(columns) faces"), "\(error.message)")
            #expect(error.message.contains("at most 1000000 vertices and 1000000 faces"), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("the largest identity grid within the limit is accepted")
    func largestIdentity() throws {
        // 999 × 999 faces: 1000² = 1,000,000 vertices.
        let file = try MeshFile(data: Data(#"{"identity":{"rows":999,"columns":999}}"#.utf8))
        #expect(file.mesh.vertices.count == 1_000_000)
        #expect(file.mesh.faces.count == 998_001)
    }

    @Test("vertex and face lists past the limit are refused by their counts")
    func longLists() {
        #expect(throws: MeshError.self) { try MeshTransform.checkSize(vertices: 1_000_001, faces: 1) }
        #expect(throws: MeshError.self) { try MeshTransform.checkSize(vertices: 4, faces: 1_000_001) }
        #expect(throws: Never.self) { try MeshTransform.checkSize(vertices: 1_000_000, faces: 1_000_000) }
    }

    @Test("a mesh file that is not a regular file, or is too large, is refused without reading it")
    func notRegular() throws {
        let scratch = try TemporaryDirectory("mesh-limit"), dir = URL(fileURLWithPath: scratch.path)
        let fifo = dir.appendingPathComponent("fifo.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        do {
            _ = try MeshFile(contentsOfFile: fifo.path)
            Issue.record("a FIFO should be refused")
        } catch let error as MeshError {
            #expect(
                error.message
                    == "cannot read mesh file \(fifo.path): it is a pipe (FIFO), not a regular file; save the mesh to a file first")
        }
        // A sparse file past the limit: no disk is used.
        let big = dir.appendingPathComponent("big.json")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(MeshFile.maximumFileSize) + 1)
        try handle.close()
        do {
            _ = try MeshFile(contentsOfFile: big.path)
            Issue.record("a file past the limit should be refused")
        } catch let error as MeshError {
            #expect(
                error.message.hasSuffix(
                    "it is \(MeshFile.maximumFileSize + 1) bytes, more than the \(MeshFile.maximumFileSize)-byte limit for an input mesh"),
                "\(error.message)"
            )
        }
    }
}
