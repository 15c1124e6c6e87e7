import FoundationEssentials
import Segue
import SegueSystem

// Where `segue gallery` may write its site. The site replaces its folder whole, so the folder must
// be one the gallery wrote before (it holds the marker file `.segue-gallery`), an empty folder,
// or a new one; and it may neither be nor contain one of the input folders. Paths are compared
// after resolving them the way the kernel does (absolute, symbolic links followed, `.` and `..`
// removed), so `-o .`, `-o ./`, `-o ../x/..` and a link to an input are all recognised.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the gallery refuses its output folder.
public enum GalleryError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// The output exists, is not empty, and has no gallery marker.
    case foreignOutput(path: String)
    /// The output exists and is not a folder.
    case outputNotAFolder(path: String)
    /// The output is one of the input folders.
    case outputIsInput(output: String, input: String)
    /// The output contains one of the input folders.
    case outputContainsInput(output: String, input: String)
    /// The output holds an effect file of the input folders (reached through a symbolic link).
    case outputHoldsInputFile(output: String, input: String)
    /// The output's path cannot name a site: empty, or ending in `.` or `..`.
    case outputPath(SystemError)

    public var description: String {
        switch self {
        case let .foreignOutput(path):
            "\(path) exists and was not written by segue gallery; choose another directory or remove it"
        case let .outputNotAFolder(path):
            "\(path) exists and is not a folder written by segue gallery; choose another directory or remove it"
        case let .outputIsInput(output, input):
            "the output \(output) is the input folder \(input); choose another directory for the site"
        case let .outputContainsInput(output, input):
            "the output \(output) contains the input folder \(input); choose another directory for the site"
        case let .outputHoldsInputFile(output, input):
            "the output \(output) holds the input effect \(input) (through a symbolic link), which replacing the site "
                + "would delete; choose another directory for the site"
        case let .outputPath(error): error.description
        }
    }
}

extension Gallery {
    /// The file that marks a folder as a site the gallery wrote (and may replace).
    public static let markerName = ".segue-gallery"

    /// Checks that `output` may be replaced by a site built from `folders`, and returns its
    /// resolved path (where the site is written).
    /// - Throws: `GalleryError` for a folder the gallery did not write, a file, or an output that
    ///   is or contains an input folder.
    @discardableResult
    public static func checkOutput(_ output: String, folders: [String]) throws(GalleryError) -> String {
        let resolved = FileIO.resolvedPath(output)
        let inside = resolved == "/" ? "/" : resolved + "/"
        for folder in folders {
            let input = FileIO.resolvedPath(folder)
            if input == resolved { throw .outputIsInput(output: output, input: folder) }
            if input.hasPrefix(inside) { throw .outputContainsInput(output: output, input: folder) }
        }
        // An effect file may be a link into the old site, which the new one replaces.
        for file in effectFiles(in: folders) where FileIO.resolvedPath(file).hasPrefix(inside) {
            throw .outputHoldsInputFile(output: output, input: file)
        }
        if let problem = FileIO.directoryNameProblem(output) { throw .outputPath(problem) }
        // lstat: a dangling symbolic link is something there too (the site would replace it).
        var status = stat()
        guard lstat(resolved, &status) == 0 else { return resolved }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .outputNotAFolder(path: output) }
        guard let names = FileIO.directoryEntries(resolved),
            names.isEmpty || names.contains(markerName)
        else { throw .foreignOutput(path: output) }
        return resolved
    }

}
