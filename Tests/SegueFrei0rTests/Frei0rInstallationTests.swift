// Where an installed segue finds the libsegue and the plugin template it writes into plugins (and
// that `segue bench --hosts` loads): one list for scripts/install.sh's PREFIX, the .deb's
// /usr/lib/TRIPLET and a build folder.
import Foundation
import SegueFrei0r
import SegueTestSupport
import Testing

@Suite("frei0r installation layout")
struct Frei0rInstallationTests {
    /// `root/bin` (the executable's folder) with the files `installed` under `root`.
    private func tree(_ installed: [String]) throws -> (TemporaryDirectory, bin: String) {
        let root = try TemporaryDirectory("frei0r-layout")
        try FileManager.default.createDirectory(atPath: root.file("bin"), withIntermediateDirectories: true)
        for path in installed {
            let file = root.file(path)
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            writeFixture([0x7F], to: file)
        }
        return (root, root.file("bin"))
    }

    #if arch(arm64)
    static let triplet = "aarch64-linux-gnu"
    #else
    static let triplet = "x86_64-linux-gnu"
    #endif

    @Test("the .deb: libsegue.so.0 in /usr/lib/TRIPLET, the template in /usr/lib/segue")
    func debian() throws {
        let (root, bin) = try tree(["lib/\(Self.triplet)/libsegue.so.0", "lib/\(Self.triplet)/libsegue.so", "lib/segue/segue-frei0r.so"])
        #expect(Frei0rInstaller.installedLibrary(besideExecutableIn: bin) == root.file("lib/\(Self.triplet)/libsegue.so.0"))
        #expect(Frei0rInstaller.installedTemplate(besideExecutableIn: bin) == root.file("lib/segue/segue-frei0r.so"))
    }

    @Test("scripts/install.sh: PREFIX/lib/libsegue.so.0 (the SONAME link) first")
    func prefix() throws {
        let (root, bin) = try tree([
            "lib/libsegue.so.0", "lib/libsegue.so", "lib/\(Self.triplet)/libsegue.so.0", "lib/segue/segue-frei0r.so",
        ])
        #expect(Frei0rInstaller.installedLibrary(besideExecutableIn: bin) == root.file("lib/libsegue.so.0"))
        #expect(Frei0rInstaller.installedTemplate(besideExecutableIn: bin) == root.file("lib/segue/segue-frei0r.so"))
    }

    @Test("a build folder: libSegueC.so and segue-frei0r.so beside the executable; nothing found names the first place")
    func buildFolder() throws {
        let (root, bin) = try tree(["bin/libSegueC.so", "bin/segue-frei0r.so"])
        #expect(Frei0rInstaller.installedLibrary(besideExecutableIn: bin) == root.file("bin/libSegueC.so"))
        #expect(Frei0rInstaller.installedTemplate(besideExecutableIn: bin) == root.file("bin/segue-frei0r.so"))
        let (empty, nothing) = try tree([])
        #expect(Frei0rInstaller.installedLibrary(besideExecutableIn: nothing) == empty.file("lib/libsegue.so.0"))
        #expect(Frei0rInstaller.installedTemplate(besideExecutableIn: nothing + "/") == empty.file("lib/segue/segue-frei0r.so"))
    }
}
