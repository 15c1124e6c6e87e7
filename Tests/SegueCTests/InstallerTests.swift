// scripts/install.sh and the installed library: the layout under a prefix, the pkg-config file,
// the library's dependencies and its exported functions.
import Foundation
import SegueTestSupport
import Testing

@Suite("Installer")
struct InstallerTests {
    @Test("install.sh --no-build puts segue, libsegue.so, segue.h and segue.pc under the prefix; pkg-config names it")
    func layout() throws {
        let dir = try TemporaryDirectory("layout")
        defer { dir.remove() }
        let installation = try Installation(prefix: dir.path + "/usr")
        let prefix = installation.prefix
        let fm = FileManager.default
        #expect(fm.isExecutableFile(atPath: prefix + "/bin/segue"))
        #expect(fm.isExecutableFile(atPath: prefix + "/lib/libsegue.so"))
        #expect(fm.contentsEqual(atPath: prefix + "/include/segue.h", andPath: repositoryRoot + "/Sources/SegueC/include/segue.h"))
        #expect(fm.contentsEqual(atPath: prefix + "/lib/libsegue.so.0.2.0", andPath: buildDirectory + "/libSegueC.so"))

        let flags = try shell("pkg-config --cflags --libs segue", environment: installation.pkgConfigEnvironment)
        #expect(flags.status == 0, "\(flags.stderr)")
        #expect(
            flags.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "-I\(prefix)/include -L\(prefix)/lib -Wl,-rpath,\(prefix)/lib -lsegue")
        let version = try shell("pkg-config --modversion segue", environment: installation.pkgConfigEnvironment)
        let cli = try runProgram(prefix + "/bin/segue", ["--version"])
        #expect(version.stdout == cli.stdout && cli.stdout == "0.2.0\n")
    }

    @Test("a relative prefix is written into segue.pc as an absolute path")
    func relativePrefix() throws {
        let dir = try TemporaryDirectory("relative")
        defer { dir.remove() }
        let run = try shell(
            "cd '\(dir.path)' && '\(repositoryRoot)/scripts/install.sh' --prefix=here --build-dir '\(buildDirectory)' --no-build")
        #expect(run.status == 0, "\(run.stderr)")
        let pc = try String(contentsOfFile: dir.path + "/here/lib/pkgconfig/segue.pc", encoding: .utf8)
        #expect(pc.contains("\nprefix=\(dir.path)/here\n"))
    }

    @Test("install.sh refuses an unknown option and a build directory without the products")
    func refusals() throws {
        let dir = try TemporaryDirectory("refusals")
        defer { dir.remove() }
        let unknown = try runProgram(repositoryRoot + "/scripts/install.sh", ["--prefx", dir.path])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("error: unknown option '--prefx'"))
        let empty = try runProgram(
            repositoryRoot + "/scripts/install.sh", ["--prefix", dir.path + "/p", "--build-dir", dir.path, "--no-build"])
        #expect(empty.status != 0)
        #expect(empty.stderr.contains("error: \(dir.path)/segue is missing"))
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/p/lib/libsegue.so"))
    }

    @Test("the installed library finds every library it needs and exports exactly the functions segue.h declares")
    func linkage() throws {
        let dir = try TemporaryDirectory("linkage")
        defer { dir.remove() }
        let library = try Installation(prefix: dir.path + "/p").prefix + "/lib/libsegue.so"
        // -r: every symbol resolved, as a host's dlopen(RTLD_NOW) needs.
        let ldd = try runProgram("/usr/bin/ldd", ["-r", library])
        #expect(ldd.status == 0)
        #expect(!(ldd.stdout + ldd.stderr).contains("not found"), "\(ldd.stdout)")
        #expect(!(ldd.stdout + ldd.stderr).contains("undefined symbol"), "\(ldd.stderr)")
        #expect(!ldd.stdout.contains("libswift"), "the Swift runtime is linked in: \(ldd.stdout)")

        let header = try String(contentsOfFile: repositoryRoot + "/Sources/SegueC/include/segue.h", encoding: .utf8)
        let declared = Set(header.matches(of: /\b(segue_[a-z_]+)\(/).map { String($0.1) })
        let nm = try runProgram("/usr/bin/nm", ["-D", "--defined-only", library])
        let exported = Set(
            nm.stdout.split(separator: "\n").compactMap { line -> String? in
                let parts = line.split(separator: " ")
                guard parts.count == 3, parts[1] == "T", parts[2].hasPrefix("segue_") else { return nil }
                return String(parts[2].replacingOccurrences(of: "@@SEGUE_0", with: ""))
            })
        #expect(declared.count >= 30)
        #expect(
            declared == exported,
            "declared only: \(declared.subtracting(exported).sorted()); exported only: \(exported.subtracting(declared).sorted())")
    }

    @Test("a host dlopens the installed library with RTLD_NOW and nothing else set up")
    func dlopenLikeAPluginHost() throws {
        let dir = try TemporaryDirectory("dlopen")
        defer { dir.remove() }
        let prefix = try Installation(prefix: dir.path + "/p").prefix
        let library = prefix + "/lib/libsegue.so"
        let program = dir.path + "/dlopen_test"
        let cc = try runProgram("/usr/bin/cc", [fixture("dlopen_test.c"), "-ldl", "-o", program])
        try #require(cc.status == 0, "\(cc.stderr)")
        let run = try runProgram(program, [library])
        #expect(run.status == 0, "\(run.stderr)")
        // segue_version() is the CLI's --version; more than 60 built-ins are listed.
        let version = try runProgram(prefix + "/bin/segue", ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let fields = run.stdout.split(separator: " ")
        #expect(fields.count == 2 && fields[0] == version, "\(run.stdout)")
        #expect((Int(fields.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0) > 60)
    }

    @Test("the installed segue.h compiles as pedantic C99 and as C++11 with every warning an error")
    func headerCompilesStrictly() throws {
        let dir = try TemporaryDirectory("header")
        defer { dir.remove() }
        let installation = try Installation(prefix: dir.path + "/p")
        let source = dir.path + "/uses_header.c"
        try """
        #include <segue.h>
        int main(void) {
            segue_error *error = 0;
            segue_context *context = segue_context_create(0, &error);
            int kind = SEGUE_KIND_MESH_TRANSITION + SEGUE_MAX_SIDE;
            segue_context_destroy(context);
            segue_error_free(error);
            return segue_version()[0] == 0 && kind == 0;
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        for compiler in ["cc -std=c99", "c++ -x c++ -std=c++11"] {
            let run = try shell(
                "\(compiler) -pedantic -Wall -Wextra -Werror -c '\(source)' -o /dev/null $(pkg-config --cflags segue)",
                environment: installation.pkgConfigEnvironment)
            #expect(run.status == 0, "\(compiler): \(run.stderr)")
        }
    }
}
