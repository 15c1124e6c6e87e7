// This executable's own path, for what is installed beside it (libsegue, the frei0r template) and
// for commands that run it again as a child (benchmarks of distributed and host renders).
import FoundationEssentials
import Segue

enum Executable {
    /// The running `segue`: /proc/self/exe with its links resolved, else the name it was started by.
    static var path: String {
        let resolved = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        return FileManager.default.isExecutableFile(atPath: resolved) ? resolved : CommandLine.arguments[0]
    }

    /// The folder of `path`, absolute (a name it was started by is relative to the current
    /// directory).
    static var directory: String {
        FileIO.standardizedAbsolute(FileIO.directory(of: path))
    }
}
