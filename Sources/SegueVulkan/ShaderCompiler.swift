// GLSL → SPIR-V with shaderc, optionally cached on disk (see `ShaderCache` for the entry format
// and its checks).
//
// The cache key covers the compiler's identity: the SPIR-V version shaderc reports, and the
// complete output of a fixed probe shader (its generator word carries the glslang version, and
// any change in code generation changes the probe), with the target environment and the
// optimisation level (performance, or none for a module that may divide a signed integer by −1:
// decided by the source, so not part of the key). Every module, cached or fresh, is checked for private-memory limits
// (`SPIRVModule.checkPrivateMemory`) before it can reach a driver.
import CSegueVulkan
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A shader stage.
enum ShaderStage: String {
    case vertex, fragment
}

/// Compiles GLSL to SPIR-V words.
// @unchecked: `identity` and the handles are set in `init` and never change; every call into
// shaderc's compiler, which is not thread-safe, is under `lock`; the disk cache is thread-safe.
final class ShaderCompiler: @unchecked Sendable {
    private let compiler: shaderc_compiler_t
    private let lock = PlainLock()
    /// The disk cache (nil: none).
    let cache: ShaderCache?
    /// What the compiled code depends on besides the source (see the file comment).
    private(set) var identity = ""

    /// `divguard=1`: modules that may divide by −1 are unoptimised and guarded (`SPIRVDivisionGuard`);
    /// a change to that rule changes the number, so no cached module of another rule is served.
    private static let targetDescription = "vulkan1.3 spirv-target-default O=performance divguard=1"
    /// The most lines of the compiler's messages kept in an error, and the longest line.
    static let maximumLogLines = 30
    static let maximumLogLineLength = 400
    private static let probeSource = "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0, 0.5, 0.25, 1.0); }\n"

    init(cache: ShaderCache?) {
        compiler = shaderc_compiler_initialize()
        self.cache = cache
        var version: UInt32 = 0, revision: UInt32 = 0
        shaderc_get_spv_version(&version, &revision)
        let probe = (try? compileUncached(ShaderCompiler.probeSource, stage: .fragment, fileName: "segue-probe.frag")) ?? []
        let probeHash = ShaderCache.checksum(probe).prefix(16).hexDigits
        identity = "shaderc-spv \(version).\(revision) probe \(probeHash) \(ShaderCompiler.targetDescription)"
    }

    deinit { shaderc_compiler_release(compiler) }

    /// SPIR-V for `source`, from the cache or freshly compiled (a missing or invalid cache entry
    /// is rewritten).
    /// - Throws: `VulkanError.shaderCompilation` with the compiler's messages,
    ///   `.shaderTooLarge` when the shader declares more private memory than allowed.
    func compile(_ source: String, stage: ShaderStage, fileName: String) throws(VulkanError) -> [UInt32] {
        let key = cache.map { _ in ShaderCache.key(compilerIdentity: identity, stage: stage, fileName: fileName, source: source) }
        if let cache, let key, let words = cache.load(key) {
            try SPIRVModule.checkPrivateMemory(words, fileName: fileName)
            return words
        }
        let words = try compileUncached(source, stage: stage, fileName: fileName)
        try SPIRVModule.checkPrivateMemory(words, fileName: fileName)
        if let cache, let key { cache.store(words, key: key) }
        return words
    }

    /// Compiles with spirv-opt's performance passes, except a module that divides signed
    /// integers by something other than a constant (`y / z`, `y / -1`): spirv-opt folds such a
    /// division when it can prove its operands on the host, and INT_MIN / −1 (or % −1) there
    /// raises SIGFPE, which no error handling can catch. Such a module is kept as glslang makes
    /// it (the driver optimises it in any case), its divisions made total for the driver's own
    /// folding (`SPIRVDivisionGuard`); divisions by constants (`n / 10`) stay optimised.
    private func compileUncached(_ source: String, stage: ShaderStage, fileName: String) throws(VulkanError) -> [UInt32] {
        let plain = try compileUncached(source, stage: stage, fileName: fileName, level: shaderc_optimization_level_zero)
        if SPIRVModule.mayDivideByMinusOne(plain) {
            // The driver folds what it can prove, in C too: every signed division is made total.
            guard let guarded = SPIRVDivisionGuard.guarded(plain) else {
                throw .shaderCompilation(file: fileName, log: "the shader has too many ids to guard its integer divisions")
            }
            return guarded
        }
        return try compileUncached(source, stage: stage, fileName: fileName, level: shaderc_optimization_level_performance)
    }

    private func compileUncached(
        _ source: String, stage: ShaderStage, fileName: String, level: shaderc_optimization_level
    ) throws(VulkanError) -> [UInt32] {
        let options = shaderc_compile_options_initialize()
        defer { shaderc_compile_options_release(options) }
        shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan, UInt32(shaderc_env_version_vulkan_1_3.rawValue))
        shaderc_compile_options_set_optimization_level(options, level)
        shaderc_compile_options_set_source_language(options, shaderc_source_language_glsl)
        let utf8 = Array(source.utf8)
        lock.lock()
        let result = utf8.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { chars in
                shaderc_compile_into_spv(compiler, chars.baseAddress, chars.count, stage.shadercKind, fileName, "main", options)
            }
        }
        lock.unlock()
        defer { shaderc_result_release(result) }
        guard shaderc_result_get_compilation_status(result) == shaderc_compilation_status_success else {
            let log = shaderc_result_get_error_message(result).map { String(cString: $0) } ?? "unknown shaderc error"
            throw .shaderCompilation(file: fileName, log: Self.trimmedLog(log.trimmingWhitespaceAndNewlines()))
        }
        let length = shaderc_result_get_length(result)
        guard let bytes = shaderc_result_get_bytes(result), length % 4 == 0, length > 0 else {
            throw .shaderCompilation(file: fileName, log: "shaderc returned no SPIR-V")
        }
        let words = Array(UnsafeRawBufferPointer(start: bytes, count: length).bindMemory(to: UInt32.self))
        guard SPIRVModule.isWellFormed(words) else {
            throw .shaderCompilation(file: fileName, log: "shaderc returned malformed SPIR-V")
        }
        return words
    }

    /// The compiler's messages for an error: the first `maximumLogLines` lines, each cut at
    /// `maximumLogLineLength` characters, and a count of the rest (a file with thousands of
    /// errors must not make a message of megabytes).
    static func trimmedLog(_ log: String) -> String {
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
        var kept = lines.prefix(maximumLogLines).map {
            $0.count > maximumLogLineLength ? $0.prefix(maximumLogLineLength) + "…" : String($0)
        }
        if lines.count > maximumLogLines { kept.append("… and \(lines.count - maximumLogLines) more lines") }
        return kept.joined(separator: "\n")
    }
}
