import SegueShaders
import SegueSystem

// Where the files an edit names are: the one reading of a path given relative to a spec's folder
// (clips, the soundtrack, effect files — `wipe.glsl`, `fx.metal`, `fx.metal:wave`), used alike by
// a render in one process, by planning, and by the resolved spec that a plan's jobs read again.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an edit's relative paths are read.
public enum ConcatPaths {
    /// `path` from the current directory (an absolute one unchanged).
    public static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileIO.joining(FileIO.currentDirectory, path)
    }

    /// A clip's or the soundtrack's path: a relative one is taken from `directory` (a spec's
    /// folder; nil: the current directory).
    static func file(_ path: String, in directory: String?) -> String {
        guard let directory, !path.hasPrefix("/") else { return path }
        return FileIO.joining(directory, path)
    }

    /// An effect name with its file (`EffectCatalog.file(ofEffect:)`) taken from `directory` when
    /// it is there, the rest of the name kept (`fx.metal:wave` → `DIR/fx.metal:wave`); otherwise
    /// the name as given: a built-in, an absolute path, or a file read from the current directory.
    static func effect(_ name: String, in directory: String?) -> String {
        guard let directory, !name.hasPrefix("/"), let file = EffectCatalog.file(ofEffect: name) else { return name }
        let candidate = FileIO.joining(directory, file)
        guard exists(candidate) else { return name }
        return candidate + name.dropFirst(file.count)
    }

    /// `spec` with its clips', soundtrack's and effect files' paths absolute, read as
    /// `file(_:in:)` and `effect(_:in:)` read them (an effect file that is nowhere is left as named,
    /// for the error to name it so).
    static func absolute(_ spec: ConcatSpec, directory: String?) -> ConcatSpec {
        func effect(_ cut: CutSpec) -> CutSpec {
            var cut = cut
            let name = Self.effect(cut.effect, in: directory)
            guard let file = EffectCatalog.file(ofEffect: name), exists(file) else { return cut }
            cut.effect = absolute(file) + name.dropFirst(file.count)
            return cut
        }
        var spec = spec
        spec.clips = spec.clips.map {
            var clip = $0
            clip.path = absolute(file(clip.path, in: directory))
            return clip
        }
        spec.audio = spec.audio.map { absolute(file($0, in: directory)) }
        spec.cuts = spec.cuts.map { $0.map(effect) }
        spec.transition = effect(spec.transition)
        return spec
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
