// The files a render request reads, for the check every command makes before it writes: an
// output must not be one of them (`OutputGuard`).
import SegueMedia
import SegueShaders
import SegueSystem

extension EffectRequest {
    /// The files the request reads: the effect's file (`.glsl`, `.metal`) and the texture images.
    public var inputFiles: [OutputGuard.Input] { requestFiles(effect: effect, textures: textures) }
}

extension ImageEffectRequest {
    /// The files the request reads: the effect's file (`.glsl`, `.metal`) and the texture images.
    public var inputFiles: [OutputGuard.Input] { requestFiles(effect: effect, textures: textures) }
}

extension MeshRequest {
    /// The mesh files the request reads.
    public var inputFiles: [OutputGuard.Input] {
        [start, end].compactMap { source in
            guard case let .file(path)? = source else { return nil }
            return OutputGuard.Input("the mesh file", path)
        }
    }
}

extension RenderOutput {
    /// Checks that writing this output destroys none of `inputs`: a file output that is one of
    /// them, or a directory output (replaced whole) that holds one, is refused, as is a directory
    /// `FileIO.replaceableDirectory` refuses (an empty path, `.`, `..`, the current directory).
    /// - Throws: `MediaError.unwritable` naming the output and the input.
    public func check(against inputs: [OutputGuard.Input]) throws(MediaError) {
        switch self {
        case let .directory(path):
            do { _ = try FileIO.replaceableDirectory(path) } catch { throw MediaError(error) }
            try OutputGuard.check(output: path, inputs: inputs, replacesDirectory: true)
        case let .video(path, _): try OutputGuard.check(output: path, inputs: inputs)
        case .standardOutput: return
        }
    }
}

/// The effect file of `effect` (nil for a built-in) and the texture images, as inputs.
private func requestFiles(effect: String, textures: [(name: String, path: String)]) -> [OutputGuard.Input] {
    var files = EffectCatalog.file(ofEffect: effect).map { [OutputGuard.Input("the effect file", $0)] } ?? []
    files += textures.map { OutputGuard.Input("the texture '\($0.name)'", $0.path) }
    return files
}
