import FoundationEssentials
import SegueSystem

// Where an installation of segue keeps the libsegue that plugins load and the compiled plugin
// template, relative to the folder of the `segue` executable: scripts/install.sh's PREFIX/lib, the
// .deb's /usr/lib/TRIPLET (Debian's multiarch folder) and /usr/lib/segue, or a build folder where
// SwiftPM puts libSegueC.so beside the executable. `segue frei0r install` and `segue bench --hosts`
// both look here.

extension Frei0rInstaller {
    /// Where libsegue may be, relative to the executable's folder, in the order looked at: the
    /// SONAME link in PREFIX/lib (scripts/install.sh), in /usr/lib/TRIPLET (the .deb), then a
    /// build folder's product.
    public static let libraryCandidates = ["../lib/libsegue.so.0", "../lib/\(multiarch)/libsegue.so.0", "libSegueC.so"]

    /// Where the plugin template may be, relative to the executable's folder: PREFIX/lib/segue
    /// (scripts/install.sh and the .deb), then a build folder.
    public static let templateCandidates = ["../lib/segue/segue-frei0r.so", "segue-frei0r.so"]

    /// The libsegue installed with an executable in `directory`: the first of `libraryCandidates`
    /// there is, else the first (which the installer's check then names as missing).
    public static func installedLibrary(besideExecutableIn directory: String) -> String {
        firstExisting(libraryCandidates, in: directory)
    }

    /// The plugin template installed with an executable in `directory`: the first of
    /// `templateCandidates` there is, else the first.
    public static func installedTemplate(besideExecutableIn directory: String) -> String {
        firstExisting(templateCandidates, in: directory)
    }

    /// Debian's multiarch triplet of this machine, the folder under /usr/lib the .deb installs
    /// libsegue in.
    static var multiarch: String {
        #if arch(arm64)
        "aarch64-linux-gnu"
        #else
        "x86_64-linux-gnu"
        #endif
    }

    private static func firstExisting(_ candidates: [String], in directory: String) -> String {
        // `..` removed by text: resolving links would also resolve the SONAME link, which must
        // keep naming the library after an upgrade replaces the file it points to.
        let paths = candidates.map { FileIO.standardizedAbsolute(FileIO.joining(directory, $0)) }
        return paths.first(where: FileIO.exists) ?? paths[0]
    }
}
