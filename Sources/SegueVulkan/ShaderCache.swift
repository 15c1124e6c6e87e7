// Compiled SPIR-V kept on disk between runs, one file per shader, with integrity checks.
//
// Entry format (32-bit little-endian words):
//   0      magic 0x50534753 ("SGSP")
//   1      format version (`ShaderCache.formatVersion`)
//   2      SPIR-V word count n
//   3      header word count (20)
//   4…11   SHA-256 of the key material (compiler identity, stage, file name, source)
//   12…19  SHA-256 of the SPIR-V bytes
//   20…    the n SPIR-V words
// The file is named after the first 16 bytes of the key hash. An entry is used only when every
// check passes: file length, magic, version, the key hash (an entry of another shader stored
// under this name is refused), the content checksum, and the SPIR-V header (magic 0x07230203,
// a 1.x version word, 0 < id bound ≤ word count, a well-formed instruction stream). Anything
// else is treated as a miss: the shader is recompiled and the entry overwritten.
//
// Writes go through `StagedOutput` (SegueSystem): a temporary file in the same directory, flushed
// and renamed over the entry; when any step fails the temporary file is removed. (Its temporaries
// are not registered for removal on Ctrl-C: the registry lives in SegueMedia, above this module.) The cache is an optimisation only: failures to read
// or write it are never errors.
import SegueCore
import SegueSystem

#if canImport(Glibc)
import Glibc
#endif

/// The on-disk cache of compiled shaders (SPIR-V).
public struct ShaderCache: Sendable {
    /// The directory holding the entries.
    let directory: String

    /// Bumped when the entry format changes.
    static let formatVersion: UInt32 = 1
    static let magic: UInt32 = 0x5053_4753
    static let headerWords = 20
    /// Entries larger than this are not read (no shader of Segue's comes close).
    static let maxEntryBytes = 16 << 20

    init(directory: String) {
        self.directory = directory
    }

    /// The default cache directory for an environment: `SEGUE_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/segue/spirv`, else `$HOME/.cache/segue/spirv`; nil when none is set
    /// (empty values count as unset). The library never reads the process environment itself:
    /// an executable passes `ProcessInfo.processInfo.environment`.
    public static func defaultDirectory(environment: [String: String]) -> String? {
        defaultDirectory { environment[$0] }
    }

    /// `defaultDirectory(environment:)` with each variable asked of `variable`.
    static func defaultDirectory(variable: (String) -> String?) -> String? {
        func value(_ name: String) -> String? { variable(name).flatMap { $0.isEmpty ? nil : $0 } }
        if let dir = value("SEGUE_CACHE_DIR") { return dir }
        if let xdg = value("XDG_CACHE_HOME") { return FileIO.standardizedAbsolute(xdg + "/segue/spirv") }
        if let home = value("HOME") { return FileIO.standardizedAbsolute(home + "/.cache/segue/spirv") }
        return nil
    }

    // MARK: - Keys

    /// The SHA-256 of everything that determines a shader's SPIR-V.
    static func key(compilerIdentity: String, stage: ShaderStage, fileName: String, source: String) -> [UInt8] {
        var h = SHA256()
        for field in ["segue-shader-cache", compilerIdentity, stage.rawValue, fileName, source] { h.update(field: field) }
        return h.finalize()
    }

    /// The entry file for a key.
    func path(for key: [UInt8]) -> String {
        FileIO.joining(directory, key.prefix(16).hexDigits + ".spv")
    }

    // MARK: - Reading

    /// The SPIR-V stored for `key`, or nil when the entry is missing or fails any check.
    func load(_ key: [UInt8]) -> [UInt32]? {
        let path = path(for: key)
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= ShaderCache.maxEntryBytes,
            let data = try? FileIO.readAll(path: path, limit: ShaderCache.maxEntryBytes, noun: "shader cache entry")
        else { return nil }
        return ShaderCache.decode(data, key: key)
    }

    /// The SPIR-V of an entry's bytes when every check passes.
    static func decode(_ entry: some Collection<UInt8>, key: [UInt8]) -> [UInt32]? {
        let data = Array(entry)
        guard data.count % 4 == 0, data.count >= 4 * headerWords else { return nil }
        let words = data.withUnsafeBytes { raw in
            (0..<raw.count / 4).map { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)) }
        }
        guard words[0] == magic, words[1] == formatVersion, words[3] == UInt32(headerWords),
            Int(words[2]) == words.count - headerWords
        else { return nil }
        guard bytes(words[4..<12]) == key else { return nil }
        let spirv = Array(words[headerWords...])
        guard bytes(words[12..<20]) == checksum(spirv), SPIRVModule.isWellFormed(spirv) else { return nil }
        return spirv
    }

    /// The SHA-256 of SPIR-V words (as little-endian bytes).
    static func checksum(_ spirv: [UInt32]) -> [UInt8] {
        var h = SHA256()
        for w in spirv { h.update(withUnsafeBytes(of: w.littleEndian, Array.init)) }
        return h.finalize()
    }

    private static func bytes(_ words: ArraySlice<UInt32>) -> [UInt8] {
        words.flatMap { withUnsafeBytes(of: $0.bigEndian, Array.init) }
    }

    private static func words(_ bytes: [UInt8]) -> [UInt32] {
        stride(from: 0, to: bytes.count, by: 4).map { (i: Int) -> UInt32 in
            let high: UInt32 = UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16
            let low: UInt32 = UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
            return high | low
        }
    }

    /// An entry's bytes.
    static func encode(_ spirv: [UInt32], key: [UInt8]) -> [UInt8] {
        let header: [UInt32] = [magic, formatVersion, UInt32(spirv.count), UInt32(headerWords)] + words(key) + words(checksum(spirv))
        return (header + spirv).flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
    }

    // MARK: - Writing

    /// Writes the entry for `key` atomically (`StagedOutput`: a temporary file flushed and
    /// renamed). Returns whether the entry was written; on failure no temporary file is left behind.
    @discardableResult
    func store(_ spirv: [UInt32], key: [UInt8]) -> Bool {
        let target = path(for: key)
        guard FileIO.makeDirectories(directory) == nil else { return false }
        do {
            try StagedOutput.write(ShaderCache.encode(spirv, key: key), to: target)
        } catch {
            return false
        }
        return true
    }
}
