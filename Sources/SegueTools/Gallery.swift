import FoundationEssentials
import Segue
import SegueCore
import SegueMedia
import SegueShaders
import SegueSystem
import SegueVulkan

// `segue gallery`: a static web page of every effect — the built-ins and the effect files of
// some folders — each with a looping preview between the sample screens, its kind, parameters
// and defaults, and its source; a filter box narrows the grid. The page is plain HTML, CSS and a
// few lines of script with no outside resources, so it works from the file system.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One effect on the gallery page.
public struct GalleryEntry: Sendable {
    /// The name users type (`doom-melt`, `waves.metal:wave`).
    public let name: String
    /// `full-screen`, `mesh`, `stitchable`, or `file` for one that did not load.
    public let kind: String
    /// `Segue built-ins`, `ffmpeg xfade equivalents`, or the file's path.
    public let origin: String
    /// One line about it.
    public let summary: String
    /// (name, type, default) of each parameter.
    public let parameters: [(name: String, type: String, defaultValue: String)]
    /// The source shown under the preview.
    public let source: String
    /// The preview's file name inside the site's `previews/` folder; nil when there is none.
    public let preview: String?
    /// Why there is no preview (a file that does not load, a function that cannot animate).
    public let note: String?
}

/// Builds the gallery site.
public struct Gallery {
    /// Folders whose `.glsl` and `.metal` files join the built-ins.
    public let folders: [String]
    /// The site's folder (`index.html`, `previews/`).
    public let output: String
    /// The device.
    public let context: GPUContext
    /// Pixels per point of the sample screens in the previews (0.5: 195 × 422 pixels).
    public let scale: Double
    /// Frames per second of the previews.
    public let fps: Double

    /// Stops the gallery from outside: its `cancel()` kills the encoders and removes the staged site.
    public let cancellation: Cancellation?

    /// The scales the previews' sample screens are drawn at: 0.1 to 2.
    public static let scales = ScaleRange(minimum: 0.1, maximum: 2)

    /// A gallery.
    /// - Throws: `ImageScaleError` for a scale outside `scales`, `RenderError.invalidValue` for
    ///   an fps outside `FrameRate.range`.
    public init(
        folders: [String], output: String, context: GPUContext, scale: Double = 0.5, fps: Double = 15,
        cancellation: Cancellation? = nil
    ) throws {
        try Image.validateScale(scale, in: Self.scales)
        if let problem = FrameRate.problem(fps) { throw RenderError.invalidValue("fps \(problem)") }
        (self.folders, self.output, self.context, self.scale, self.fps) = (folders, output, context, scale, fps)
        self.cancellation = cancellation
    }

    /// The effect files of the folders, sorted: `.glsl` transitions and `.metal` stitchable shaders.
    /// - Throws: `MediaError.unreadable` for a folder that cannot be listed.
    public func effectFiles() throws -> [String] {
        if let folder = folders.first(where: { FileIO.directoryEntries($0) == nil }) {
            throw MediaError.unreadable(path: folder, reason: "it is not a folder that can be listed")
        }
        return Self.effectFiles(in: folders)
    }

    /// The effect files of those of `folders` that can be listed, sorted within each.
    static func effectFiles(in folders: [String]) -> [String] {
        folders.flatMap { folder in
            (FileIO.directoryEntries(folder) ?? []).filter { $0.hasSuffix(".glsl") || $0.hasSuffix(".metal") }.sorted()
                .map { FileIO.joining(folder, $0) }
        }
    }

    /// Renders every preview and writes `index.html` and the marker file (`markerName`);
    /// `report` gets each entry as it is done. The site is assembled in a temporary folder and
    /// moved into place at the end, replacing only a folder the gallery wrote or an empty one
    /// (see `checkOutput(_:folders:)`, checked before the work and again before the move).
    /// - Throws: `GalleryError` (the output), `MediaError` (folders, writing), `VulkanError`.
    public func run(report: (GalleryEntry) -> Void = { _ in }) throws -> [GalleryEntry] {
        let target = try Self.checkOutput(output, folders: folders)
        guard target != "/" else { throw GalleryError.foreignOutput(path: output) }
        // Missing parent folders are made, and taken away again when the gallery fails.
        let parent = FileIO.directory(of: target)
        do {
            return try FileIO.withDirectories(parent, cancellation: cancellation) {
                let site = try StagedOutput(directory: target, cancellation: cancellation)
                do {
                    return try build(site, report: report)
                } catch {
                    throw MediaError.naming(output, insteadOf: site.temporaryPath, error)
                }
            }
        } catch let error as SystemError {
            throw MediaError(error)
        }
    }

    private func build(_ site: StagedOutput, report: (GalleryEntry) -> Void) throws -> [GalleryEntry] {
        let staging = site.temporaryPath
        if let problem = FileIO.directoryCreationProblem(staging + "/previews") {
            throw MediaError.unwritable(path: output, reason: problem)
        }
        let from = SampleScreens.home(scale: scale), to = SampleScreens.detail(scale: scale)
        var entries: [GalleryEntry] = []
        for effect in EffectCatalog.builtIns {
            let entry = try entry(
                for: effect, name: effect.name, origin: effect.family?.title ?? "built-in",
                source: effect.glsl ?? "// \(effect.name) is a mesh built in Swift (SegueCore/Mesh/MeshEffects.swift).",
                from: from, to: to, staging: staging)
            report(entry)
            entries.append(entry)
        }
        for file in try effectFiles() {
            for entry in try fileEntries(file, from: from, to: to, staging: staging) {
                report(entry)
                entries.append(entry)
            }
        }
        try StagedOutput.write(Array(GalleryPage.html(entries).utf8), to: staging + "/index.html")
        try StagedOutput.write(
            Array("This folder was written by segue gallery, which replaces it whole.\n".utf8), to: staging + "/" + Self.markerName)
        // Replace the site whole (only a site the gallery wrote, checked again now).
        try Self.checkOutput(output, folders: folders)
        try MediaError.converting { () throws(SystemError) in try site.publish() }
        return entries
    }

    // MARK: - Entries

    private func fileEntries(_ file: String, from: Image, to: Image, staging: String) throws -> [GalleryEntry] {
        var text = ""
        let readError: EffectLookupError?
        do { text = try EffectFile.read(file); readError = nil } catch { readError = error }
        func failed(_ name: String, _ error: Error) -> GalleryEntry {
            GalleryEntry(
                name: name, kind: "file", origin: file, summary: "", parameters: [], source: text, preview: nil,
                note: (error as? SegueError)?.message ?? "\(error)")
        }
        if let readError { return [failed(file, readError)] }
        if file.hasSuffix(".glsl") {
            do {
                let effect = try EffectCatalog.load(path: file)
                return [try entry(for: effect, name: file, origin: file, source: text, from: from, to: to, staging: staging)]
            } catch let error as EffectLookupError {
                return [failed(file, error)]
            }
        }
        let functions: [String]
        do {
            // Overloads of one name each get a card, named by their types (`glow(float4,float)`).
            // A function that cannot be used gets a card saying why.
            functions = try StitchableTranslator.translate(text, file: file).pickingNames
        } catch {
            return [failed(file, error)]
        }
        return try functions.map { function in
            let name = "\(file):\(function)"
            do {
                let effect = try EffectCatalog.describableEffect(name)
                return try entry(for: effect, name: name, origin: file, source: text, from: from, to: to, staging: staging)
            } catch let error as EffectLookupError {
                return failed(name, error)
            }
        }
    }

    private func entry(
        for effect: Effect, name: String, origin: String, source: String, from: Image, to: Image,
        staging: String
    ) throws -> GalleryEntry {
        let parameters = effect.parameters.map { p in
            (
                name: p.name, type: p.typeName,
                defaultValue: p.type == .sampler2D
                    ? "texture"
                    : p.type.isArray
                        ? "empty (at most \(p.type.maximumElements))"
                        : (p.effectiveDefault?.description ?? "") + (p.range.map { " in \(MessageText.range($0))" } ?? "")
            )
        }
        var file: String?
        var note: String?
        do {
            file = try renderPreview(effect, from: from, to: to, folder: staging + "/previews", base: Self.previewName(name))
        } catch let error as MediaError {
            // No ffmpeg at all is the machine's problem, not the effect's: one error, not a note on every card.
            if case .ffmpegNotFound = error { throw error }
            note = "no preview: \(error.message)"
        } catch let error as SegueError {
            note = "no preview: \(error.message)"
        }
        return GalleryEntry(
            name: name, kind: effect.kind.rawValue, origin: origin, summary: effect.summary, parameters: parameters,
            source: source, preview: file, note: note)
    }

    /// A transition forward, then its end held for half a second, as a looping WebM; a mesh
    /// that is not a transition is one still (PNG) of the home screen through it.
    /// - Returns: the file name written in `folder`.
    private func renderPreview(_ effect: Effect, from: Image, to: Image, folder: String, base: String) throws -> String {
        if let builder = effect.meshBuilder, !builder.isTransition {
            let renderer = try MeshSceneRenderer(from: from, context: context, framesInFlight: 1, antialiasing: true)
            let scene = try effect.meshScene(width: renderer.layerWidth, height: renderer.layerHeight)
            try ImageFile.write(try renderer.frame(mesh: scene.mesh, appearance: scene.appearance), to: folder + "/" + base + ".png")
            return base + ".png"
        }
        let path = folder + "/" + base + ".webm"
        let renderer = try TransitionRenderer(effect: effect, from: from, to: to, context: context)
        let timeline = try Timeline(timing: try TransitionTiming(defaultFor: effect), fps: fps)
        let sink = try makeFrameSink(
            .video(path, .webm), width: renderer.width, height: renderer.height, fps: fps, cancellation: cancellation)
        do {
            var last = 0
            try renderer.render(timeline) { i, pixels in
                try sink.write(frame: i, pixels: pixels)
                last = i
            }
            let end = try renderer.frame(progress: 1, time: timeline.duration, duration: timeline.duration)
            try end.pixels.withUnsafeBytes { raw in
                for k in 1...max(1, Int(fps / 2)) { try sink.write(frame: last + k, pixels: raw) }
            }
            try sink.finish()
        } catch {
            sink.cancel()
            // Named where it would have been in the site: the staging folder is gone after the run.
            throw MediaError.naming(FileIO.joining(output, "previews/" + base + ".webm"), insteadOf: path, error)
        }
        return base + ".webm"
    }

    /// A file name for an effect's preview: letters, digits, `-` and `_` kept, the rest `_`,
    /// with a short hash so two names never share a file.
    static func previewName(_ name: String) -> String {
        let safe = String(
            name.unicodeScalars.map { s -> Character in
                (s.properties.isAlphabetic && s.isASCII) || ("0"..."9").contains(s) || s == "-" || s == "_" ? Character(s) : "_"
            }.suffix(60))
        var h: UInt32 = 2_166_136_261
        for b in name.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        return "\(safe)-\(String(h, radix: 16))"
    }
}
