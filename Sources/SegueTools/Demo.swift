import FoundationEssentials
import Segue
import SegueCore
import SegueMedia
import SegueShaders
import SegueSystem
import SegueVulkan

// The demo: every Segue transition between the two sample screens as a video (PNG frames when
// ffmpeg or ffprobe is missing), a contact sheet of them at five progress values, and the home screen
// through each mesh effect.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders the demo into a directory.
public struct Demo {
    /// One line of the report: what was written and how fast.
    public struct Item: Sendable {
        /// The effect.
        public let effect: String
        /// The file or directory written.
        public let path: String
        /// Frames rendered.
        public let frames: Int
        /// Frames per second achieved.
        public let framesPerSecond: Double
    }

    /// The directory written into.
    public let directory: String
    /// Pixels per point of the sample screens.
    public let scale: Double
    /// Frames per second of the videos.
    public let fps: Double
    /// The device.
    public let context: GPUContext
    /// Stops the demo from outside (its files being written and encoders are registered with it).
    public let cancellation: Cancellation?

    /// Progress values of the contact sheet's columns.
    public static let contactSheetColumns = [0, 0.25, 0.5, 0.75, 1.0]

    /// The scales the demo draws its sample screens at: [0.1, 4] (far below 0.1, at about 0.001,
    /// the 390 × 844-point screens round to no pixels at all).
    public static let scales = ScaleRange(minimum: 0.1, maximum: 4)

    /// A demo.
    /// - Throws: `ImageScaleError` for a scale outside `scales`, `RenderError.invalidValue` for
    ///   an fps outside `FrameRate.range`.
    public init(directory: String, scale: Double = 1, fps: Double = 30, context: GPUContext, cancellation: Cancellation? = nil) throws {
        try Image.validateScale(scale, in: Self.scales)
        if let problem = FrameRate.problem(fps) { throw RenderError.invalidValue("fps \(problem)") }
        try Self.checkDirectory(directory)
        (self.directory, self.scale, self.fps, self.context) = (directory, scale, fps, context)
        self.cancellation = cancellation
    }

    /// The names the demo writes in its folder: the sample screens, each transition's video (or
    /// frame directory), the contact sheet and the meshes.
    public static var fileNames: Set<String> {
        Set(["sample-from.png", "sample-to.png", "contact-sheet.png", "meshes.png"] + transitions.flatMap { [$0.name + ".mp4", $0.name] })
    }

    /// Checks that `directory` may take the demo, which replaces its files by name: a new folder,
    /// or one that holds only what the demo writes (an earlier demo, and temporaries one left).
    /// - Throws: `MediaError.unwritable` for an empty path or a folder holding anything else.
    public static func checkDirectory(_ directory: String) throws(MediaError) {
        if directory.isEmpty { throw MediaError(SystemError.emptyPath) }
        // A file in the way is reported when the folder is made, as every command words it.
        guard FileIO.isDirectory(directory), let entries = FileIO.directoryEntries(directory) else { return }
        let names = fileNames
        if let other = entries.sorted().first(where: { !names.contains($0) && AtomicPublish.owner(ofTemporary: $0, among: names) == nil }) {
            throw .unwritable(
                path: directory,
                reason: "the folder holds '\(other)', which the demo does not write, and the demo replaces its files by name: "
                    + "give a new or empty folder, or one an earlier demo wrote")
        }
    }

    /// The transitions the demo renders: Segue's own.
    public static var transitions: [Effect] { EffectCatalog.transitions.filter { $0.family == .segue } }
    /// The mesh effects shown in `meshes.png`.
    public static var meshEffects: [MeshEffectDefinition] { MeshEffects.all.filter { !$0.isTransition && $0.effect.name != "flat" } }

    /// Whether videos can be written (ffmpeg and ffprobe found); otherwise PNG frame directories are.
    public var writesVideos: Bool { FFmpeg.videoToolsProblem(for: directory) == nil }

    /// Renders everything, calling `report` after each transition.
    /// - Throws: `MediaError` (the directory cannot be created or written), GPU errors.
    public func run(report: (Item) -> Void = { _ in }) throws {
        // A directory this run makes holds only what it writes: a failure (a full disk, Ctrl-C)
        // takes it away again. In one that was there, each file is whole or not written.
        do {
            try FileIO.withDirectories(directory, cancellation: cancellation) { try render(report: report) }
        } catch let error as SystemError {
            throw MediaError(error)
        }
    }

    private func render(report: (Item) -> Void) throws {
        let from = SampleScreens.home(scale: scale), to = SampleScreens.detail(scale: scale)
        try ImageFile.write(from, to: directory + "/sample-from.png", cancellation: cancellation)
        try ImageFile.write(to, to: directory + "/sample-to.png", cancellation: cancellation)
        let videos = writesVideos
        var rows: [[Image]] = []
        for effect in Self.transitions {
            let destination = videos ? directory + "/\(effect.name).mp4" : directory + "/\(effect.name)"
            let renderer = try TransitionRenderer(effect: effect, from: from, to: to, context: context)
            let timeline = try Timeline(timing: try TransitionTiming(defaultFor: effect), fps: fps)
            let sink = try makeFrameSink(
                try RenderOutput(path: destination), width: renderer.width, height: renderer.height, fps: fps,
                cancellation: cancellation)
            let watch = Stopwatch()
            try renderer.render(timeline, to: sink)
            let seconds = watch.elapsed
            report(
                Item(
                    effect: effect.name, path: destination, frames: timeline.frameCount,
                    framesPerSecond: Double(timeline.frameCount) / max(seconds, 1e-9)))
            // Contact-sheet row: a third of the size, at five progress values.
            let small = try TransitionRenderer(
                effect: effect, from: from, to: to, width: from.width / 3, height: from.height / 3,
                context: context, framesInFlight: 1)
            rows.append(
                try Self.contactSheetColumns.map { p in
                    try small.frame(progress: p, time: p * effect.defaultDuration, duration: effect.defaultDuration)
                })
        }
        try ImageFile.write(ContactSheet.compose(rows), to: directory + "/contact-sheet.png", cancellation: cancellation)

        let small = SampleScreens.home(scale: scale / 2)
        let meshRenderer = try MeshSceneRenderer(from: small, context: context, framesInFlight: 1, antialiasing: true)
        let row = try Self.meshEffects.map { definition in
            let scene = try definition.scene(width: meshRenderer.layerWidth, height: meshRenderer.layerHeight)
            return try meshRenderer.frame(mesh: scene.mesh, appearance: scene.appearance)
        }
        try ImageFile.write(ContactSheet.compose([row]), to: directory + "/meshes.png", cancellation: cancellation)
    }
}
