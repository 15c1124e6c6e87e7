// The C library as a versioned, stable ABI: SONAME libsegue.so.0 with the installed file named
// for its version; only the header's functions in the dynamic symbol table, each in the version
// node SEGUE_0; the header's version macros, segue_version() and the CLI agreeing; the ABI
// baseline check (scripts/abi-check.sh) passing on this build and failing on a changed header or
// a removed symbol; every error code produced by a real bad call from C.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("C ABI")
struct ABITests {
    @Test("SONAME libsegue.so.0; libsegue.so → libsegue.so.0 → libsegue.so.VERSION; only segue_* dynamic, each @@SEGUE_0")
    func sonameAndSymbols() throws {
        let dir = try TemporaryDirectory("abi-symbols")
        defer { dir.remove() }
        let lib = try Installation(prefix: dir.path + "/p").prefix + "/lib"
        let fm = FileManager.default
        #expect(try fm.destinationOfSymbolicLink(atPath: lib + "/libsegue.so") == "libsegue.so.0")
        #expect(try fm.destinationOfSymbolicLink(atPath: lib + "/libsegue.so.0") == "libsegue.so.\(SegueVersion.current)")
        let elf = try runProgram("/usr/bin/readelf", ["-d", "-W", "--dyn-syms", lib + "/libsegue.so.\(SegueVersion.current)"])
        #expect(elf.stdout.contains("Library soname: [libsegue.so.0]"), "\(elf.stdout.prefix(2000))")
        // Every defined dynamic symbol (local ones too): the header's functions, version SEGUE_0.
        let defined = elf.stdout.split(separator: "\n").compactMap { line -> [Substring]? in
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            return f.count >= 8 && f[0].hasSuffix(":") && f[0] != "Num:" && f[6] != "UND" && f[7] != "" && f[3] != "SECTION"
                && f[3] != "FILE" ? f : nil
        }
        let names = defined.map { String($0[7]) }
        let header = try String(contentsOfFile: repositoryRoot + "/Sources/SegueC/include/segue.h", encoding: .utf8)
        let declared = Set(header.matches(of: /\b(segue_[a-z_]+)\(/).map { "\($0.1)@@SEGUE_0" })
        #expect(declared.count >= 34)
        #expect(
            Set(names) == declared,
            "only in the library: \(Set(names).subtracting(declared).sorted().prefix(20)); only in the header: \(declared.subtracting(names).sorted())"
        )
        #expect(
            defined.allSatisfy { $0[4] == "GLOBAL" },
            "non-global dynamic symbols: \(defined.filter { $0[4] != "GLOBAL" }.map { $0[7] }.prefix(10))")
    }

    @Test(
        "the header's SEGUE_VERSION_*, segue_version(), SegueVersion and segue --version agree; every error code comes from a real bad call"
    )
    func versionsAndCodes() throws {
        let dir = try TemporaryDirectory("abi-codes")
        defer { dir.remove() }
        let installation = try Installation(prefix: dir.path + "/p")
        let header = try String(contentsOfFile: installation.prefix + "/include/segue.h", encoding: .utf8)
        let parts = ["MAJOR", "MINOR", "PATCH"].map { part in
            header.firstMatch(of: try! Regex("#define SEGUE_VERSION_\(part) ([0-9]+)"))?.output[1].substring.map(String.init) ?? "?"
        }
        #expect(parts.joined(separator: ".") == SegueVersion.current)
        let cli = try runProgram(installation.prefix + "/bin/segue", ["--version"])
        #expect(cli.stdout == SegueVersion.current + "\n")
        let program = try installation.buildAPITest(in: dir.path)
        let run = try runProgram(
            program,
            [
                "codes", repositoryRoot + "/Tests/Fixtures/gl-transitions/luma-mask.glsl",
                repositoryRoot + "/Tests/Fixtures/gl-transitions/syntax-error.glsl",
            ], timeout: 240)
        #expect(run.status == 0, "api_test codes: \(run.stderr)")
        // SEGUE_ERROR_DEVICE_LOST: the program runs with a 1 ns limit on every wait for the GPU,
        // given in its own environment.
        let lost = try runProgram(program, ["lost"], environment: ["SEGUE_GPU_TIMEOUT": "0.000000001"], timeout: 240)
        #expect(lost.status == 0, "api_test lost: \(lost.stderr)")
    }

    @Test("scripts/abi-check.sh: this build keeps the baseline; a changed signature, enumerator or a removed symbol fails")
    func baseline() throws {
        let dir = try TemporaryDirectory("abi-baseline")
        defer { dir.remove() }
        let library = try Installation(prefix: dir.path + "/p").prefix + "/lib/libsegue.so.0"
        let script = repositoryRoot + "/scripts/abi-check.sh"
        let ok = try runProgram(script, [library])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(
            ok.stdout.hasPrefix("abi-check: \(library) keeps the ABI of the baseline (46 symbols; 0 declarations added"), "\(ok.stdout)")
        let header = try String(contentsOfFile: repositoryRoot + "/Sources/SegueC/include/segue.h", encoding: .utf8)
        for (from, to) in [
            ("double progress, double time", "float progress, double time"),
            ("SEGUE_ERROR_BUSY = 10", "SEGUE_ERROR_BUSY = 13"),
            ("const char *segue_version(void);", ""),
        ] {
            let changed = dir.path + "/changed.h"
            #expect(header.contains(from))
            try header.replacingOccurrences(of: from, with: to).write(toFile: changed, atomically: true, encoding: .utf8)
            let run = try runProgram(script, [library, changed])
            #expect(run.status == 1 && run.stderr.contains("changes the API of the baseline"), "\(from) → \(to): \(run.stderr)")
        }
        // A baseline with one more symbol: this library has removed it.
        let baseline = dir.path + "/baseline"
        try FileManager.default.createDirectory(atPath: baseline, withIntermediateDirectories: true)
        for name in ["libsegue.so.0.abi", "segue.h.decl"] {
            try FileManager.default.copyItem(atPath: repositoryRoot + "/Sources/SegueC/abi/" + name, toPath: baseline + "/" + name)
        }
        let abi = try String(contentsOfFile: baseline + "/libsegue.so.0.abi", encoding: .utf8)
        let gone =
            "    <elf-symbol name='segue_gone' version='SEGUE_0' is-default-version='yes' type='func-type' binding='global-binding' visibility='protected-visibility' is-defined='yes'/>\n"
        let line = try #require(abi.range(of: "    <elf-symbol name='segue_version'"))
        try (abi[..<line.lowerBound] + gone + abi[line.lowerBound...]).write(
            toFile: baseline + "/libsegue.so.0.abi", atomically: true, encoding: .utf8)
        let removed = try runProgram(script, [library], environment: ["SEGUE_ABI_BASELINE": baseline])
        #expect(
            removed.status == 1 && removed.stderr.contains("segue_gone") && removed.stderr.contains("breaks the ABI"), "\(removed.stderr)")
    }
}
