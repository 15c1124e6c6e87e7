// The on-disk shader cache: damaged, truncated and swapped entries are detected, the right
// picture is rendered and the entry is repaired; failed writes leave nothing behind.
import Foundation
import SegueCore
import SegueTestSupport
import Testing

@testable import SegueVulkan

@Suite("Shader cache")
struct ShaderCacheTests {
    /// Two effects' pictures at progress 0.25: mix is grey 64, gradient is (64, 191, 255).
    private static let mixPixel: [UInt8] = [64, 64, 64, 255]
    private static let gradientPixel: [UInt8] = [64, 191, 255, 255]

    private func expectPixels(_ pixels: [UInt8], _ expected: [UInt8], _ what: String) {
        for p in 0..<(pixels.count / 4) {
            let got = Array(pixels[(4 * p)..<(4 * p + 4)])
            #expect(zip(got, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(what), pixel \(p): \(got) vs \(expected)")
        }
    }

    /// A context caching into `dir`, the entry files of the two effects' fragment shaders, and
    /// their keys.
    private func setUp(_ dir: String) throws -> (GPUContext, mix: (URL, [UInt8]), gradient: (URL, [UInt8])) {
        let context = try GPUContext(configuration: .init(shaderCacheDirectory: dir))
        let cache = try #require(context.compiler.cache)
        func entry(_ source: String, _ name: String) -> (URL, [UInt8]) {
            let key = ShaderCache.key(compilerIdentity: context.compiler.identity, stage: .fragment, fileName: name, source: source)
            return (URL(fileURLWithPath: cache.path(for: key)), key)
        }
        return (context, entry(mixShader, "mix.frag"), entry(gradientShader, "gradient.frag"))
    }

    /// Renders both effects with a fresh context on `dir` (so nothing comes from memory) and
    /// checks the pictures and that both entries on disk are valid again.
    private func renderAndCheckRepaired(_ dir: String, _ what: String) throws {
        let (context, mix, gradient) = try setUp(dir)
        expectPixels(try renderFullScreen(context, mixShader, fileName: "mix.frag", progress: 0.25), Self.mixPixel, "\(what): mix")
        expectPixels(
            try renderFullScreen(context, gradientShader, fileName: "gradient.frag", progress: 0.25), Self.gradientPixel,
            "\(what): gradient")
        for (url, key) in [mix, gradient] {
            let data = try Data(contentsOf: url)
            #expect(ShaderCache.decode(data, key: key) != nil, "\(what): \(url.lastPathComponent) repaired")
        }
        #expect(!listing(dir).contains { $0.contains(".segue-tmp-") }, "\(what): no temporary files")
    }

    private func listing(_ dir: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] }

    /// Fills the cache in a fresh directory, damages it with `damage`, then renders and checks.
    private func damaged(_ what: String, _ damage: (_ mix: URL, _ gradient: URL) throws -> Void) throws {
        let scratch = try TemporaryDirectory("vulkan"), dir = scratch.path
        try renderAndCheckRepaired(dir, "\(what), first run")
        let (_, mix, gradient) = try setUp(dir)
        try damage(mix.0, gradient.0)
        try renderAndCheckRepaired(dir, what)
    }

    /// Rewrites 32-bit little-endian word `index` of a file.
    private func setWord(_ url: URL, _ index: Int, _ value: UInt32) throws {
        var data = try Data(contentsOf: url)
        withUnsafeBytes(of: value.littleEndian) { data.replaceSubrange((4 * index)..<(4 * index + 4), with: $0) }
        try data.write(to: url)
    }

    @Test("flipped bytes in the SPIR-V are caught by the checksum")
    func flippedBytes() throws {
        try damaged("flipped bytes") { mix, _ in
            var data = try Data(contentsOf: mix)
            for i in stride(from: 4 * ShaderCache.headerWords + 40, to: data.count, by: 97) { data[i] ^= 0x5a }
            try data.write(to: mix)
        }
    }

    @Test("an id bound of 0xffffffff, in an entry or in a bare SPIR-V file, never reaches the driver")
    func hugeIdBound() throws {
        try damaged("bound 0xffffffff") { mix, _ in try setWord(mix, ShaderCache.headerWords + 3, 0xffff_ffff) }
        try damaged("bare SPIR-V with bound 0xffffffff") { mix, _ in
            // What the cache held before entries had a header.
            var data = try Data(contentsOf: mix)
            data.removeFirst(4 * ShaderCache.headerWords)
            try data.write(to: mix)
            try setWord(mix, 3, 0xffff_ffff)
        }
        var words = [SPIRVModule.magic, 0x0001_0600, 0, 0xffff_ffff, 0]
        #expect(!SPIRVModule.isWellFormed(words))
        words[3] = 4
        #expect(SPIRVModule.isWellFormed(words))
    }

    @Test("an optimised module's id bound may exceed its word count; the spec's limit (4,194,303) is the bound")
    func idBoundAboveWordCount() {
        var words = [SPIRVModule.magic, 0x0001_0600, 0, 1846, 0]
        #expect(SPIRVModule.isWellFormed(words))
        words[3] = 4_194_303
        #expect(SPIRVModule.isWellFormed(words))
        words[3] = 4_194_304
        #expect(!SPIRVModule.isWellFormed(words))
    }

    @Test("a truncated entry is recompiled and rewritten")
    func truncated() throws {
        try damaged("truncated") { mix, gradient in
            for url in [mix, gradient] {
                let data = try Data(contentsOf: url)
                try data.prefix(data.count / 2).write(to: url)
            }
        }
        try damaged("empty") { mix, _ in try Data().write(to: mix) }
    }

    @Test("valid entries swapped between two shaders' names render the right effects")
    func swapped() throws {
        try damaged("swapped") { mix, gradient in
            let a = try Data(contentsOf: mix), b = try Data(contentsOf: gradient)
            try b.write(to: mix)
            try a.write(to: gradient)
        }
    }

    @Test("an unwritable cache (a path under a file, or an entry name taken by a directory) renders and leaves no temporary files")
    func failedWrites() throws {
        let scratch = try TemporaryDirectory("vulkan"), dir = scratch.path
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        let underFile = try GPUContext(configuration: .init(shaderCacheDirectory: dir + "/file/cache"))
        expectPixels(try renderFullScreen(underFile, mixShader, fileName: "mix.frag", progress: 0.25), Self.mixPixel, "under a file")
        #expect(listing(dir) == ["file"])

        let cacheDir = dir + "/cache"
        let (context, mix, _) = try setUp(cacheDir)
        try FileManager.default.createDirectory(at: mix.0.appendingPathComponent("occupied"), withIntermediateDirectories: true)
        expectPixels(try renderFullScreen(context, mixShader, fileName: "mix.frag", progress: 0.25), Self.mixPixel, "entry is a directory")
        #expect(!listing(cacheDir).contains { $0.hasPrefix(".") }, "\(listing(cacheDir))")
        #expect(listing(cacheDir).count == 2, "the vertex shader's entry and the directory: \(listing(cacheDir))")
        #expect(ShaderCache(directory: cacheDir).store([1, 2, 3], key: mix.1) == false)
        #expect(!listing(cacheDir).contains { $0.hasPrefix(".") })
    }

    @Test("entries round-trip and name their key; SHA-256 matches the FIPS 180-4 examples")
    func entryFormat() throws {
        #expect(
            SHA256.hash(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hash([UInt8]()).map { String(format: "%02x", $0) }.joined()
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let twoBlocks = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(
            SHA256.hash(twoBlocks).map { String(format: "%02x", $0) }.joined()
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let spirv: [UInt32] = [SPIRVModule.magic, 0x0001_0000, 0, 1, 0]
        let key = ShaderCache.key(compilerIdentity: "c", stage: .fragment, fileName: "a.frag", source: "x")
        let entry = Data(ShaderCache.encode(spirv, key: key))
        #expect(ShaderCache.decode(entry, key: key) == spirv)
        #expect(
            ShaderCache.decode(entry, key: ShaderCache.key(compilerIdentity: "c", stage: .vertex, fileName: "a.frag", source: "x")) == nil)
        #expect(ShaderCache.decode(entry + Data([0, 0, 0, 0]), key: key) == nil)
        // Key fields are length-prefixed: moving a character between fields changes the key.
        #expect(
            ShaderCache.key(compilerIdentity: "c", stage: .fragment, fileName: "ab", source: "c")
                != ShaderCache.key(compilerIdentity: "c", stage: .fragment, fileName: "a", source: "bc"))
    }
}
