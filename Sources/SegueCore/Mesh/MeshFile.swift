// Mesh files: a mesh and its appearance as JSON (format: Docs/MeshFiles.md).
//
// Reading goes through `JSONSyntax` (exact numbers; the line and column of a syntax error),
// then a checked walk over the tree that
// names every offending entry by its JSON path (`vertices[12].to`, `faces[3][2]`). Writing
// produces the same format with stable key order, one vertex and one face per line.

import SegueMath
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mesh file: a ``MeshTransform`` and its ``MeshAppearance``, read from or written to JSON.
///
/// ```json
/// { "depthNormalization": "none",
///   "vertices": [{"from": [0, 0], "to": [0.5, 0, 0]}, {"from": [1, 0], "to": [1, 0, 0]},
///                {"from": [1, 1], "to": [1, 1, 0]}, {"from": [0, 1], "to": [0, 1, 0]}],
///   "faces": [[0, 1, 2, 3]] }
/// ```
public struct MeshFile: Sendable, Hashable {
    /// The mesh.
    public var mesh: MeshTransform
    /// Lighting, supplementary transform and subdivision.
    public var appearance: MeshAppearance

    /// The keys a mesh file's top-level object may have.
    public static let topLevelKeys = [
        "comment", "depthNormalization", "vertices", "faces", "identity", "lightDirection",
        "diffuseLightFactor", "supplementaryTransform", "subdivisionSteps",
    ]

    /// Creates a file from a mesh and an appearance.
    public init(mesh: MeshTransform, appearance: MeshAppearance = .default) {
        self.mesh = mesh
        self.appearance = appearance
    }

    // MARK: - Reading

    /// Reads and validates the mesh file at `path` (the `URL` form is in the `Segue` module).
    ///
    /// - Throws: ``MeshError`` `.unreadableFile` (with the path and the reason),
    ///   `.invalidJSON` (with line and column) or
    ///   `.invalidFile` (with the JSON path of the offending entry).
    public init(contentsOfFile path: String) throws {
        let data: [UInt8]
        // A regular file of bounded size (refused before a byte is read): a FIFO or device would
        // block or never end, and a file past the limit could not hold a mesh within the vertex
        // limit anyway.
        do {
            data = try FileIO.readAll(path: path, limit: MeshFile.maximumFileSize, noun: "mesh")
        } catch {
            throw MeshError(.unreadableFile, "cannot read mesh file \(path): \(error.reason)")
        }
        do {
            try self.init(data: data)
        } catch let error as MeshError {
            throw MeshError(error.kind, "\(path): \(error.message)")
        }
    }

    /// The largest mesh file read, in bytes (256 MiB).
    public static let maximumFileSize = 256 << 20

    /// Decodes and validates a mesh file from JSON data.
    ///
    /// - Throws: ``MeshError`` `.invalidJSON` or `.invalidFile`.
    public init<Bytes: Collection<UInt8>>(data: Bytes) throws {
        let value: JSONValue
        do throws(JSONSyntax.DocumentProblem) {
            value = try JSONSyntax.document(data, "the mesh file", limit: Self.maximumFileSize)
        } catch {
            throw MeshError(error.isSyntax ? .invalidJSON : .invalidFile, error.message)
        }
        self = try MeshFileDecoder.decode(value)
    }

    /// Decodes and validates a mesh file from JSON text.
    ///
    /// - Throws: ``MeshError`` `.invalidJSON` or `.invalidFile`.
    public init(json: String) throws {
        try self.init(data: Array(json.utf8))
    }

    /// Decodes and validates a mesh file from a JSON object tree (`[String: Any]` of arrays,
    /// numbers, strings and booleans, as JSONSerialization makes).
    ///
    /// - Throws: ``MeshError`` `.invalidFile` naming the offending entry by its JSON path.
    public init(jsonObject: Any) throws {
        guard let value = JSONValue(any: jsonObject) else {
            throw MeshError(
                .invalidFile,
                "the object tree holds a value JSON cannot represent (only dictionaries, arrays, numbers, strings, booleans and null)")
        }
        self = try MeshFileDecoder.decode(value)
    }

    // MARK: - Writing

    /// The file as JSON text in the documented format (every field written, the
    /// supplementary transform as 16 numbers, row-major).
    public var jsonString: String {
        MeshFileEncoder.encode(self)
    }

    /// Writes the file atomically to `path` (the `URL` form is in the `Segue` module).
    ///
    /// - Throws: ``MeshError`` `.unreadableFile` with the path and the reason when it cannot be written.
    public func write(toFile path: String) throws {
        do {
            try StagedOutput.write(Array(jsonString.utf8), to: path)
        } catch {
            throw MeshError(.unreadableFile, "cannot write mesh file \(path): \(error.reason)")
        }
    }
}
