// The URL and Data forms of mesh file reading and writing (the library modules take paths and
// bytes: they link no Foundation).
import FoundationEssentials
import SegueCore

extension MeshFile {
    /// Reads and validates the mesh file at `url` (see ``MeshFile/init(contentsOfFile:)``).
    public init(contentsOf url: URL) throws {
        try self.init(contentsOfFile: url.path)
    }

    /// Writes the file atomically to `url` (see ``MeshFile/write(toFile:)``).
    public func write(to url: URL) throws {
        try write(toFile: url.path)
    }

    /// The file as UTF-8 JSON data.
    public var jsonData: Data { Data(jsonString.utf8) }
}
