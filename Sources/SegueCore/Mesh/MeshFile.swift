// Mesh files: a mesh and its appearance as JSON (format: Docs/MeshFiles.md).
//
// Reading goes through JSONDecoder (exact numbers; `JSONSyntax` finds the line and column of a
// syntax error), then a checked walk over the tree that
// names every offending entry by its JSON path (`vertices[12].to`, `faces[3][2]`). Writing
// produces the same format with stable key order, one vertex and one face per line.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import SegueMath
import SegueSystem

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

    /// Reads and validates the mesh file at `url`.
    ///
    /// - Throws: ``MeshError`` `.unreadableFile` (with the path and the reason),
    ///   `.invalidJSON` (with line and column where Foundation reports a position) or
    ///   `.invalidFile` (with the JSON path of the offending entry).
    public init(contentsOf url: URL) throws {
        let data: Data
        // A regular file of bounded size: a FIFO or device would block or never end, and a
        // file past the limit could not hold a mesh within the vertex limit anyway.
        var info = stat()
        if stat(url.path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw MeshError(.unreadableFile, "cannot read mesh file \(url.path): not a regular file")
            }
            if Int64(info.st_size) > Int64(MeshFile.maximumFileSize) {
                throw MeshError(.unreadableFile, "cannot read mesh file \(url.path): \(info.st_size) bytes is more than the limit of \(MeshFile.maximumFileSize) bytes")
            }
        }
        do {
            data = Data(try FileIO.readAll(path: url.path, limit: MeshFile.maximumFileSize, noun: "mesh file"))
        } catch {
            throw MeshError(.unreadableFile, "cannot read mesh file \(url.path): \(error.reason)")
        }
        do {
            try self.init(data: data)
        } catch let error as MeshError {
            throw MeshError(error.kind, "\(url.path): \(error.message)")
        }
    }

    /// The largest mesh file read, in bytes (256 MiB).
    public static let maximumFileSize = 256 << 20

    /// Decodes and validates a mesh file from JSON data.
    ///
    /// - Throws: ``MeshError`` `.invalidJSON` or `.invalidFile`.
    public init(data: Data) throws {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw MeshFile.jsonError(error, in: data)
        }
        self = try MeshFileDecoder.decode(value)
    }

    /// Decodes and validates a mesh file from JSON text.
    ///
    /// - Throws: ``MeshError`` `.invalidJSON` or `.invalidFile`.
    public init(json: String) throws {
        try self.init(data: Data(json.utf8))
    }

    /// Decodes and validates a mesh file from a JSON object tree (`[String: Any]` of arrays,
    /// numbers, strings and booleans, as JSONSerialization makes).
    ///
    /// - Throws: ``MeshError`` `.invalidFile` naming the offending entry by its JSON path.
    public init(jsonObject: Any) throws {
        guard let value = JSONValue(any: jsonObject) else {
            throw MeshError(.invalidFile, "the object tree holds a value JSON cannot represent (only dictionaries, arrays, numbers, strings, booleans and null)")
        }
        self = try MeshFileDecoder.decode(value)
    }

    // MARK: - Writing

    /// The file as JSON text in the documented format (every field written, the
    /// supplementary transform as 16 numbers, row-major).
    public var jsonString: String {
        MeshFileEncoder.encode(self)
    }

    /// The file as UTF-8 JSON data.
    public var jsonData: Data { Data(jsonString.utf8) }

    /// Writes the file atomically to `url`.
    ///
    /// - Throws: ``MeshError`` `.unreadableFile` with the path and the reason when it cannot be written.
    public func write(to url: URL) throws {
        do {
            try StagedOutput.write(Array(jsonString.utf8), to: url.path)
        } catch {
            throw MeshError(.unreadableFile, "cannot write mesh file \(url.path): \(error.reason)")
        }
    }

    // MARK: - Error text

    /// JSONDecoder's reason for an error, without its generic prefix.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let DecodingError.dataCorrupted(context), let DecodingError.typeMismatch(_, context),
             let DecodingError.valueNotFound(_, context), let DecodingError.keyNotFound(_, context):
            context.debugDescription
        default: String(describing: error)
        }
    }

    /// The error for data that JSONDecoder refused: `JSONSyntax` finds the position of a syntax
    /// error (a 0-based offset, which becomes a line and column) or the number out of range
    /// ("Number 1e999 is not representable in Swift.").
    static func jsonError(_ error: any Error, in data: Data) -> MeshError {
        if let problem = JSONSyntax.firstProblem(in: Array(data)) {
            return MeshError(.invalidJSON, "invalid JSON\(position(of: problem.offset, in: data)): \(problem.reason)")
        }
        return MeshError(.invalidJSON, "invalid JSON: \(reason(error))")
    }

    /// " at line L, column C" for the 0-based byte `offset` of `data`.
    static func position(of offset: Int, in data: Data) -> String {
        guard offset <= data.count else { return "" }
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return " at line \(line), column \(column)"
    }
}
