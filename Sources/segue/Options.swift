// Option groups shared by the rendering commands.
import ArgumentParser
import FoundationEssentials
import Segue

/// `--effect` and its parameters.
struct EffectOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: "Effect name (see 'segue list'), path to a .glsl transition file, or a stitchable shader file.metal[:NAME].")
    var effect: String

    @OptionGroup var values: ParameterOptions

    @Option(parsing: .unconditional, help: "Duration in seconds (default: the effect's own).")
    var duration: Double?

    /// The effect request these options describe (without stitchable options).
    func request() throws -> EffectRequest {
        try values.request(effect: effect)
    }
}

/// `--param` and `--texture`: values for an effect's parameters, for every command that runs
/// a named effect.
struct ParameterOptions: ParsableArguments {
    @Option(name: .customLong("param"), help: ArgumentHelp("Set an effect parameter.", valueName: "name=value"))
    var params: [String] = []

    @Option(name: .customLong("texture"), help: ArgumentHelp("Image for a sampler2D parameter of the effect.", valueName: "name=path"))
    var textures: [String] = []

    /// A request for `effect` with these values (and `stitchable`'s, when given).
    func request(effect: String, stitchable: StitchableRequest? = nil) throws -> EffectRequest {
        EffectRequest(
            effect: effect,
            parameters: try parseAssignments(params, flag: "--param"),
            textures: try parseTextures(textures), stitchable: stitchable)
    }
}

/// `--job-seconds`: how much output one segment job of a concat plan renders at the most
/// (`segue concat --plan`, and `segue bench --concat --jobs`).
struct JobSecondsOption: ParsableArguments {
    @Option(
        name: .customLong("job-seconds"), parsing: .unconditional,
        help: ArgumentHelp("The most seconds of output a segment job of a plan renders (default 10).", valueName: "S"))
    var given: Double?

    func validate() throws {
        try validateSeconds(given, option: "--job-seconds")
    }

    /// The seconds given, else the plans' default.
    var seconds: Double { given ?? ConcatPlan.defaultJobSeconds }
}

/// `name=value` options (`--param`, `--arg`, `--texture`) as pairs; one without a name or a
/// value is a usage error naming `flag`.
func parseAssignments(_ options: [String], flag: String) throws -> [(name: String, value: String)] {
    try options.map { text in
        do { return try parseAssignment(text) } catch { throw ValidationError("\(flag): \(error)") }
    }
}

/// An `--fps` as text: a number ("29.97") or a ratio as ffmpeg's `-r` takes one ("30000/1001",
/// NTSC's exactly), for every command that takes a rate (`transform:` of its option).
func parseFPS(_ text: String) throws -> Double {
    guard let fps = FrameRate.parse(text) else {
        throw ValidationError("expected a number or a ratio such as 30000/1001")
    }
    return fps
}

/// `--fps` of the commands that render frames at one rate (render, effect, mesh, demo); concat's
/// own defaults to its first video's.
struct RateOptions: ParsableArguments {
    @Option(
        parsing: .unconditional, help: "Frames per second: a number or a ratio such as 30000/1001 (default: 30).",
        transform: parseFPS)
    var fps: Double = 30

    func validate() throws { try validateFPS(fps) }
}

/// `--texture NAME=PATH` options as pairs; one without a name or a path is a usage error.
func parseTextures(_ options: [String]) throws -> [(name: String, path: String)] {
    try parseAssignments(options, flag: "--texture").map { texture in
        guard !texture.value.isEmpty else { throw ValidationError("--texture: expected NAME=PATH, got '\(texture.name)='") }
        return (texture.name, path: texture.value)
    }
}

/// Refuses an `--fps` outside `FrameRate.range`, the one check every command makes before it
/// opens anything (call from `validate()`).
func validateFPS(_ fps: Double) throws {
    if let problem = FrameRate.problem(fps) { throw ValidationError("--fps \(problem)") }
}

/// Refuses a length of time (`--duration`, `--job-seconds`, named by `option`) that is not a
/// finite number of seconds above 0; nil (not given) passes.
func validateSeconds(_ seconds: Double?, option: String) throws {
    if let seconds, !(seconds.isFinite && seconds > 0) {
        throw ValidationError("\(option) must be a positive number of seconds, got \(MessageText.number(seconds))")
    }
}

/// Refuses more than one of `flags` (a name and whether it was given): "give either --a or --b,
/// not both", or for more "give one of --a, --b and --c, not --a and --c".
func validateOneOf(_ flags: KeyValuePairs<String, Bool>) throws {
    let given = flags.filter(\.value).map(\.key)
    guard given.count > 1 else { return }
    let names = flags.map(\.key)
    if names.count == 2 { throw ValidationError("give either \(names[0]) or \(names[1]), not both") }
    throw ValidationError(
        "give one of \(names.dropLast().joined(separator: ", ")) and \(names.last!), not \(given.joined(separator: " and "))")
}

/// Refuses a `--time` (seconds into an animation) that is negative or not finite; nil passes.
func validateTime(_ time: Double?) throws {
    if let time, !(time.isFinite && time >= 0) {
        throw ValidationError("--time must be a finite number of seconds ≥ 0, got \(MessageText.number(time))")
    }
}

/// Refuses a `--scale` (pixels per point) outside `range` (default: any finite number above 0;
/// a window's and the gallery's allow less), the one check of every command's `--scale` (call
/// from `validate()`).
func validateScale(_ scale: Double, in range: ScaleRange = .positive) throws {
    if let problem = range.problem(scale) { throw ValidationError("--scale \(problem)") }
}

/// A `--size WxH` read by the library's one reader (`Image.parseSize`), text of another form
/// worded as the flag; a size past the limits is refused with the library's words.
func parseSize(_ text: String) throws -> (width: Int, height: Int) {
    do {
        return try Image.parseSize(text)
    } catch {
        if case .malformed = error { throw ValidationError("--size must look like 1920x1080, got '\(text)'") }
        throw error
    }
}

/// `--from`, `--to` and how they are fitted to the output.
struct InputOptions: ParsableArguments {
    @Option(help: "The outgoing screen (PNG or JPEG).")
    var from: String

    @Option(help: "The incoming screen (PNG or JPEG).")
    var to: String

    @Option(parsing: .unconditional, help: "Pixels per point of the inputs (like UIScreen.scale); geometry in points is multiplied by it.")
    var scale: Double = 1

    @Option(help: "Fit inputs of another size: cover, contain or stretch.")
    var resize: ResizeMode = .cover

    @Option(help: ArgumentHelp("Output size in pixels (default: the from image's size).", valueName: "WxH"))
    var size: String?

    func validate() throws {
        try validateScale(scale)
        if let size { _ = try parseSize(size) }
    }

    /// The two screens, for the output check (`OutputGuard`).
    var files: [OutputGuard.Input] { [OutputGuard.Input("the from image", from), OutputGuard.Input("the to image", to)] }

    /// Reads both images.
    func load() throws -> (from: Image, to: Image, width: Int, height: Int) {
        let a = try ImageFile.read(path: from, scale: scale)
        let b = try ImageFile.read(path: to, scale: scale)
        let (w, h) = try size.map(parseSize) ?? (a.width, a.height)
        return (a, b, w, h)
    }
}

/// The video encoder's speed and quality, for commands that can write a movie.
struct EncoderOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Encoder speed preset (x264 names: ultrafast … veryslow; default medium).", valueName: "P"))
    var preset: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Quality (constant rate factor; lower is better; default: the codec's own, 23 for H.264).", valueName: "N"))
    var crf: Int?

    /// Refuses the options for an output they do not apply to (call from `validate()`): one that
    /// is not a video, or a video whose codec takes no preset or CRF, by the library's rule
    /// (`VideoSettings.validate`), as `segue concat` is.
    func validate(output: String) throws {
        guard preset != nil || crf != nil else { return }
        guard let format = VideoFormat(pathExtensionOf: output) else {
            throw ValidationError(
                "--preset and --crf apply to a video output (.\(VideoFormat.extensions.joined(separator: ", ."))), not '\(output)'")
        }
        do { try settings.validate(for: format) } catch { throw ValidationError(FlagWording.message(for: error)) }
    }

    /// The settings (checked against the output by `validate(output:)`).
    var settings: VideoSettings { VideoSettings(preset: preset, crf: crf) }
}

extension ResizeMode: ExpressibleByArgument {}
