// The library speaks of parameters and values (a C host or a Python script has no flags); the
// command line words the errors whose remedy is one of its flags as that flag.
import Segue
import SegueFrei0r

enum FlagWording {
    /// `error.message`, with the flag that mends it where the library's words name a setting.
    static func message(for error: SegueError) -> String {
        switch error {
        case let render as RenderError:
            switch render {
            case let .missingTexture(name, effect):
                return "effect '\(effect)' needs the texture '\(name)': give it with --texture \(name)=PATH"
            case let .notATransition(effect):
                return "'\(effect)' is a mesh effect, not a transition: render an image through it with 'segue mesh IMAGE --mesh \(effect)'"
            case let .notAnImageEffect(effect):
                return "'\(effect)' is a mesh effect: apply it to an image with 'segue mesh IMAGE --mesh \(effect)'"
            case .outOfRange:
                return "--" + render.message  // the settings are named as the flags that set them
            default:
                return render.message
            }
        case let scale as ImageScaleError:
            return "--" + scale.message  // every scale a command takes is its --scale
        case let parameter as ParameterError:
            if case let .notSettable(name, _) = parameter {
                return "parameter '\(name)' is a texture: give it with --texture \(name)=PATH"
            }
            if case let .notKeyframable(name, type) = parameter {
                return "'\(name)' is an array argument (\(type.rawValue)); it cannot be keyframed: set it with --arg"
            }
            return parameter.message
        case let lookup as EffectLookupError:
            if case .unknown = lookup { return lookup.message + " (run 'segue list' to see them all)" }
            return lookup.message
        case let stitchable as StitchableConfigurationError:
            switch stitchable.reason {
            case let .notStitchable(effect, kind):
                return
                    "--function, --arg, --animate, --insertion, --removal, --removal-function and --max-sample-offset apply to stitchable shader effects (.metal files, shift); '\(effect)' is a \(kind) effect: use --param"
            case let .animatedArgumentAssigned(name):
                return "'\(name)' is the animated argument; set its range with --insertion and --removal instead of --arg"
            case nil:
                return stitchable.message
            }
        case let settings as VideoSettingsError:
            return flagWording(settings)
        case let MediaError.invalidSettings(_, settings):
            return flagWording(settings)
        case let frei0r as Frei0rError:
            switch frei0r {
            case .template: return frei0r.message + " with --template"
            case .library: return frei0r.message + " with --library"
            default: return frei0r.message
            }
        default:
            return error.message
        }
    }

    /// The settings every command that encodes takes as the flags of the same names.
    private static func flagWording(_ error: VideoSettingsError) -> String {
        switch error.setting {
        case .codec: "--codec \(error.rule)"
        case .preset: "--preset \(error.rule)"
        case .crf: "--crf \(error.rule)"
        case .audioBitrate: error.message
        }
    }
}
