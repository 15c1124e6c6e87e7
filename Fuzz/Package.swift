// swift-tools-version: 6.0
// libFuzzer targets for the parsers of untrusted bytes: image decoders, gl-transitions files,
// the Metal (stitchable) front end, mesh files and concat specs. Built with sanitizers by scripts/fuzz.sh:
//   swift build -c release --package-path Fuzz --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address
// Each target is an executable whose entry point is LLVMFuzzerTestOneInput.
import PackageDescription

let package = Package(
    name: "SegueFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Segue", path: "..")],
    targets: ["FuzzImage", "FuzzTransitionFile", "FuzzMetal", "FuzzMeshFile", "FuzzConcatSpec"].map { name in
        .executableTarget(
            name: name, dependencies: [.product(name: "Segue", package: "Segue")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    },
    swiftLanguageModes: [.v6]
)
