// What can go wrong writing frei0r plugins, in terms of files and settings (the command line adds
// the flags that give them).
import SegueMath

/// Why plugins could not be written.
public enum Frei0rError: SegueError, Equatable {
    /// The plugin template is missing or is not Segue's.
    case template(path: String, reason: String)
    /// libsegue is not where the plugins would load it from.
    case library(path: String)
    /// An effect's configuration does not fit the template's block.
    case configurationTooLarge(bytes: Int, capacity: Int)
    /// More frei0r parameters than a plugin holds.
    case tooManyParameters(effect: String, count: Int, limit: Int)
    /// The effect has more parameters than a plugin can set.
    case tooManyTargets(effect: String, count: Int, limit: Int)
    /// A file that is neither a `.glsl` file nor a stitchable `FILE.metal[:FUNCTION]`.
    case unsupportedFile(String)
    /// Two effects would get the same plugin name.
    case clash(name: String, first: String, second: String)
    /// A plugin of that name in the directory belongs to another effect.
    case occupied(path: String, effect: String, newEffect: String)
    /// A directory cannot be made or written.
    case unwritable(path: String, reason: String)
    /// A path the plugin would load (an effect file, libsegue) holds a control character.
    case controlCharacter(path: String)

    public var description: String {
        switch self {
        case let .template(path, reason):
            return
                "cannot use the frei0r plugin template '\(path)': \(reason); install Segue with scripts/install.sh (which builds it) or give the template's path"
        case let .library(path):
            return
                "libsegue is not at '\(path)': the plugins load it from there; install Segue with scripts/install.sh or give the library's path"
        case let .configurationTooLarge(bytes, capacity):
            return
                "the effect's plugin configuration takes \(bytes) bytes, more than the template's \(capacity): the effect has too many parameters for a frei0r plugin"
        case let .tooManyParameters(effect, count, limit):
            return "'\(effect)' needs \(count) frei0r parameters, more than a plugin holds (\(limit))"
        case let .tooManyTargets(effect, count, limit):
            return "'\(effect)' has \(count) parameters, more than a plugin can set (\(limit))"
        case let .unsupportedFile(file):
            return "'\(file)' is not an effect file a plugin can be made of: give a .glsl file or FILE.metal:FUNCTION"
        case let .clash(name, first, second):
            return "\(second) would be installed as \(name), the plugin name of \(first); rename one of the files"
        case let .occupied(path, effect, newEffect):
            return "\(path) is the plugin of \(effect), and \(newEffect) would replace it; remove it first if that is meant"
        case let .unwritable(path, reason):
            return "cannot write '\(path)': \(reason)"
        case let .controlCharacter(path):
            let shown = String(path.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
            return
                "'\(MessageText.excerpt(shown))' holds a line break, tab or other control character (shown as ?), which a plugin cannot name a file by; rename the file or move it"
        }
    }
}
