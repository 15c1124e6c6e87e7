// GLSL → SPIR-V with shaderc, cached on disk by a hash of the source.
//
// Cache: `$SEGUE_CACHE_DIR`, else `$XDG_CACHE_HOME/segue/spirv`, else `~/.cache/segue/spirv`;
// one `<hash>.spv` a shader, written atomically. The key hashes (FNV-1a, 64 bit) the compiler
// identity, stage, file name and source, so a changed file recompiles. A cache that cannot be
// written is skipped silently; a corrupt entry is recompiled.
import CSegueVulkan
import Foundation

/// A shader stage.
enum ShaderStage: String {
    case vertex, fragment
}

/// Compiles GLSL to SPIR-V words.
final class ShaderCompiler: @unchecked Sendable {
    private let compiler: shaderc_compiler_t
    private let lock = NSLock()
    private let cacheDirectory: URL?
    /// Bumped when compile options change, to invalidate old cache entries.
    private static let identity = "segue-spirv-1 vulkan1.3 O"

    init() {
        compiler = shaderc_compiler_initialize()
        cacheDirectory = ShaderCompiler.defaultCacheDirectory()
    }

    deinit { shaderc_compiler_release(compiler) }

    static func defaultCacheDirectory() -> URL? {
        let env = ProcessInfo.processInfo.environment
        if let dir = env["SEGUE_CACHE_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        if let xdg = env["XDG_CACHE_HOME"], !xdg.isEmpty { return URL(fileURLWithPath: xdg).appendingPathComponent("segue/spirv") }
        if let home = env["HOME"], !home.isEmpty { return URL(fileURLWithPath: home).appendingPathComponent(".cache/segue/spirv") }
        return nil
    }

    /// SPIR-V for `source`, from the cache or freshly compiled.
    /// - Throws: `VulkanError.shaderCompilation` with the compiler's messages.
    func compile(_ source: String, stage: ShaderStage, fileName: String) throws(VulkanError) -> [UInt32] {
        let key = fnv1a64([ShaderCompiler.identity, stage.rawValue, fileName, source].joined(separator: "\u{0}"))
        let cacheFile = cacheDirectory?.appendingPathComponent(String(format: "%016llx.spv", key))
        if let cacheFile, let data = try? Data(contentsOf: cacheFile), data.count >= 20, data.count % 4 == 0 {
            let words = data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
            if words[0] == 0x0723_0203 { return words }
        }
        let words = try compileUncached(source, stage: stage, fileName: fileName)
        if let cacheFile { store(words, at: cacheFile) }
        return words
    }

    private func compileUncached(_ source: String, stage: ShaderStage, fileName: String) throws(VulkanError) -> [UInt32] {
        let options = shaderc_compile_options_initialize()
        defer { shaderc_compile_options_release(options) }
        shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan, UInt32(shaderc_env_version_vulkan_1_3.rawValue))
        shaderc_compile_options_set_optimization_level(options, shaderc_optimization_level_performance)
        shaderc_compile_options_set_source_language(options, shaderc_source_language_glsl)
        let kind = stage == .vertex ? shaderc_glsl_vertex_shader : shaderc_glsl_fragment_shader
        let utf8 = Array(source.utf8)
        lock.lock()
        let result = utf8.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { chars in
                shaderc_compile_into_spv(compiler, chars.baseAddress, chars.count, kind, fileName, "main", options)
            }
        }
        lock.unlock()
        defer { shaderc_result_release(result) }
        guard shaderc_result_get_compilation_status(result) == shaderc_compilation_status_success else {
            let log = shaderc_result_get_error_message(result).map { String(cString: $0) } ?? "unknown shaderc error"
            throw .shaderCompilation(file: fileName, log: log.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let length = shaderc_result_get_length(result)
        guard let bytes = shaderc_result_get_bytes(result), length % 4 == 0, length > 0 else {
            throw .shaderCompilation(file: fileName, log: "shaderc returned no SPIR-V")
        }
        return Array(UnsafeRawBufferPointer(start: bytes, count: length).bindMemory(to: UInt32.self))
    }

    private func store(_ words: [UInt32], at url: URL) {
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let tmp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
            try words.withUnsafeBytes { Data($0) }.write(to: tmp)
            if rename(tmp.path, url.path) != 0 { try? fm.removeItem(at: tmp) }
        } catch {
            // The cache is an optimisation only.
        }
    }
}

/// FNV-1a, 64 bit.
func fnv1a64(_ text: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in text.utf8 {
        h ^= UInt64(b)
        h = h &* 0x100_0000_01b3
    }
    return h
}
