// swift-tools-version: 6.2
// Segue: GPU view transitions, mesh transforms and Core-Animation-style animation, rendered with Vulkan.
import PackageDescription

/// The package's directory, so that linker flags naming its files hold from any working
/// directory (`swift build --package-path …`).
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "Segue",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Segue", targets: ["Segue"]),
        .executable(name: "segue", targets: ["segue"]),
        // The C API: libSegueC.so, installed as libsegue.so with include/segue.h by
        // scripts/install.sh (a product may not share the executable's name "segue").
        .library(name: "SegueC", type: .dynamic, targets: ["SegueC"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // MARK: - The system layer: the building blocks every module needs (standard library, Glibc, FoundationEssentials)
        .target(name: "SegueSystem"),

        // MARK: - Pure Swift layers
        .target(name: "SegueMath", dependencies: ["SegueSystem"]),
        .target(name: "SegueAnimation", dependencies: ["SegueMath"]),
        .target(name: "SegueCore", dependencies: ["SegueMath", "SegueAnimation"]),
        .target(name: "SegueMetal", dependencies: ["SegueCore"]),
        .target(name: "SegueShaders", dependencies: ["SegueCore", "SegueMetal"]),

        // MARK: - C system libraries (Debian packages)
        .systemLibrary(name: "CSegueVulkan", path: "Sources/CSegueVulkan"),
        .systemLibrary(name: "CSeguePNG", path: "Sources/CSeguePNG"),
        .systemLibrary(name: "CSegueJPEG", path: "Sources/CSegueJPEG"),
        .systemLibrary(name: "CSegueSDL", path: "Sources/CSegueSDL"),

        // MARK: - Back ends
        .target(name: "SegueVulkan", dependencies: ["SegueCore", "CSegueVulkan"]),
        .target(name: "SegueMedia", dependencies: ["SegueCore", "CSeguePNG", "CSegueJPEG"]),
        .target(name: "SegueWindow", dependencies: ["SegueMath", "CSegueSDL"]),

        // MARK: - Capability modules (each a whole feature; nothing process-wide)
        .target(name: "SegueRender", dependencies: ["SegueCore", "SegueShaders", "SegueVulkan", "SegueMedia"]),
        .target(name: "SegueConcat", dependencies: ["SegueRender"]),
        .target(name: "SegueLive", dependencies: ["SegueRender", "SegueWindow"]),
        // frei0r plugins (the C template in plugins/frei0r, compiled by scripts/install.sh) written
        // per effect, and Kdenlive's descriptions of them.
        .target(name: "SegueFrei0r", dependencies: ["SegueRender"]),

        // MARK: - Umbrella, executable-only tools and CLI
        .target(
            name: "Segue",
            dependencies: [
                "SegueSystem", "SegueMath", "SegueAnimation", "SegueCore", "SegueMetal", "SegueShaders", "SegueVulkan", "SegueMedia",
                "SegueWindow", "SegueRender", "SegueConcat", "SegueLive",
            ]),
        .target(name: "SegueTools", dependencies: ["Segue", "SegueFrei0r"]),
        .executableTarget(
            name: "segue",
            dependencies: [
                "Segue", "SegueTools", "SegueFrei0r", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // MARK: - C API (libsegue.so; header in Sources/SegueC/include, pkg-config template beside it)
        .target(
            name: "SegueC", dependencies: ["SegueRender"], exclude: ["include", "segue.pc.in", "exports.map", "abi"],
            linkerSettings: [
                .unsafeFlags([
                    "-static-stdlib", "-use-ld=lld", "-Xlinker", "--version-script=\(packageDirectory)/Sources/SegueC/exports.map",
                    "-Xlinker", "-soname=libsegue.so.0",
                    "-Xlinker", "-z", "-Xlinker", "defs",
                    "-Xlinker", "--gc-sections",
                    "-Xlinker", "-l:lib_FoundationCollections.a", "-Xlinker", "-l:libswiftSynchronization.a", "-Xlinker",
                    "-l:lib_FoundationCShims.a",
                ])
            ]),

        // MARK: - Examples (built and tested with the package)
        .executableTarget(
            name: "AnimatedTriangle",
            dependencies: [
                "Segue", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Examples/AnimatedTriangle"),

        // MARK: - Tests (one target per module, and what the tests share)
        .target(name: "SegueTestSupport", dependencies: ["Segue", "SegueTools"], path: "Tests/SegueTestSupport"),
        .testTarget(name: "SegueSystemTests", dependencies: ["SegueSystem", "SegueTestSupport"]),
        .testTarget(name: "SegueMathTests", dependencies: ["SegueMath"]),
        .testTarget(name: "SegueAnimationTests", dependencies: ["SegueAnimation"]),
        .testTarget(name: "SegueCoreTests", dependencies: ["SegueCore", "SegueTestSupport"]),
        .testTarget(name: "SegueMetalTests", dependencies: ["SegueMetal", "SegueShaders", "SegueTestSupport"]),
        .testTarget(name: "SegueShadersTests", dependencies: ["SegueShaders", "SegueMetal", "SegueTestSupport"]),
        .testTarget(name: "SegueVulkanTests", dependencies: ["SegueVulkan", "SegueTestSupport"]),
        .testTarget(name: "SegueMediaTests", dependencies: ["SegueMedia", "SegueTools", "SegueTestSupport"]),
        .testTarget(
            name: "SegueRenderTests", dependencies: ["Segue", "SegueTools", "SegueTestSupport"], exclude: ["__Snapshots__", "Fixtures"]),
        .testTarget(name: "SegueConcatTests", dependencies: ["Segue", "SegueTestSupport"]),
        .testTarget(name: "SegueLiveTests", dependencies: ["Segue", "SegueTestSupport"]),
        .testTarget(name: "SegueToolsTests", dependencies: ["Segue", "SegueTools", "SegueTestSupport"]),
        .testTarget(name: "segueTests", dependencies: ["Segue", "SegueTools", "SegueTestSupport"], exclude: ["Fixtures"]),
        // Builds C programs against the installed libsegue (scripts/install.sh), so it links no
        // SegueC code itself.
        .testTarget(name: "SegueCTests", dependencies: ["Segue", "SegueTestSupport"], exclude: ["Fixtures"]),
        // The frei0r plugins in MLT (melt) and GStreamer, installed by scripts/install.sh.
        .testTarget(name: "SegueFrei0rTests", dependencies: ["Segue", "SegueFrei0r", "SegueTestSupport"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

// Segue's own Swift code builds without warnings: a warning fails the build (the C targets and
// the argument parser, a dependency, are not affected).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
}
