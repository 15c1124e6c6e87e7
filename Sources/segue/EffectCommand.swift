// `segue effect`: a shader effect on one image, at one time (an image) or over time (frames or a video).
import ArgumentParser
import FoundationEssentials
import Segue

struct EffectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "effect", abstract: "Apply a shader effect to one image, at one time or animated over time.",
        discussion: """
            The effect is a SwiftUI stitchable function (file.metal[:NAME]: colour, distortion or layer), a \
            single-input .glsl effect in the gl-transitions interface, or a built-in full-screen effect. \
            A stitchable function's float2 size, float4 boundingRect/bounds and float time are filled in; \
            every other argument not given takes its default from the source, else 0 (colours transparent): \
            'segue info FILE.metal:NAME' lists them. A GLSL effect gets time in seconds and progress = \
            time / duration. With --time, -o is an image; with --duration, a directory, '-' or a video.
            """)

    @Option(help: "The image (PNG or JPEG); a fill is drawn over it.")
    var input: String?

    @Option(help: ArgumentHelp("The size of a fill drawn without --input, in pixels.", valueName: "WxH"))
    var size: String?

    @Option(name: .shortAndLong, help: "file.metal[:NAME], a .glsl effect file, or a built-in effect name.")
    var effect: String

    @Option(
        name: .customLong("arg"),
        help: ArgumentHelp(
            "An argument (a parameter of a GLSL effect); 'auto' fills a float with the time, a float2 with the size, a float4 with the bounds.",
            valueName: "name=value"))
    var args: [String] = []

    @Option(
        name: .customLong("texture"), help: ArgumentHelp("Image for a texture2d argument (sampler2D parameter).", valueName: "name=path"))
    var textures: [String] = []

    @Option(parsing: .unconditional, help: "Render one image at this time in seconds.")
    var time: Double?

    @Option(parsing: .unconditional, help: "Render an animation of this many seconds (frame i at i/fps).")
    var duration: Double?

    @OptionGroup var rate: RateOptions

    @Option(parsing: .unconditional, help: "Pixels per point of the image (like UIScreen.scale); positions are in points.")
    var scale: Double = 1

    @OptionGroup var deviceOptions: DeviceOptions
    @OptionGroup(title: "Video encoding") var encoder: EncoderOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Output: an image (.png/.jpg) with --time; a directory, '-' or a video with --duration.", valueName: "OUT"))
    var output: String

    func validate() throws {
        guard (time == nil) != (duration == nil) else {
            throw ValidationError("give exactly one of --time (an image) or --duration (an animation)")
        }
        guard (input == nil) != (size == nil) else {
            throw ValidationError(
                input == nil
                    ? "give the image with --input (or, for a fill, its size with --size WxH)"
                    : "--size is the size of a fill drawn alone; with --input the fill takes the image's size")
        }
        if let size { _ = try parseSize(size) }
        try encoder.validate(output: output)
        try validateTime(time)
        try validateSeconds(duration, option: "--duration")
        try validateScale(scale)
    }

    func run() throws {
        var request = ImageEffectRequest(
            effect: effect,
            arguments: try parseAssignments(args, flag: "--arg"),
            textures: try parseTextures(textures))
        request.drawsAlone = input == nil
        let destination: RenderOutput? = duration == nil ? nil : try RenderOutput(path: output)
        let files = (input.map { [OutputGuard.Input("the input image", $0)] } ?? []) + request.inputFiles
        try destination.map { try $0.check(against: files) } ?? OutputGuard.check(output: output, inputs: files)
        let resolved = try request.resolve(scale: scale)
        let image: Image
        if let input {
            image = try ImageFile.read(path: input, scale: scale)
        } else {
            // A fill drawn alone: over a transparent image of the size asked for.
            guard resolved.isFill else {
                throw ValidationError("'\(effect)' is not a fill: give the image to apply it to with --input")
            }
            let (w, h) = try parseSize(size ?? "")
            image = Image(width: w, height: h, scale: scale, fill: .clear)
        }
        let renderer = try ImageEffectRenderer(
            resolved, input: image, context: deviceOptions.context(), framesInFlight: duration == nil ? 1 : 3)
        guard let duration, let destination else {
            try ImageFile.write(try renderer.frame(time: time!), to: output, cancellation: InterruptHandler.cancellation)
            return
        }
        let sink = try makeFrameSink(
            destination, width: renderer.width, height: renderer.height, fps: rate.fps,
            settings: encoder.settings, cancellation: InterruptHandler.cancellation)
        let progress = ProgressLine(total: try Timeline.frameCount(duration: duration, fps: rate.fps))
        defer { progress.finish() }
        try renderer.render(duration: duration, fps: rate.fps, to: sink, progress: progress.update)
    }
}
