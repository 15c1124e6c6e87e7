// `segue preview`: a transition looping live in a window; drag to scrub, space to pause, `s` to
// save the frame, and with --watch the effect file reloads when it changes on disk.
import ArgumentParser
import Foundation
import Segue

struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview", abstract: "Loop a transition live in a window: drag to scrub, space to pause, s to save the frame.",
        discussion: """
        The window is the from image's size in points (its pixels / --scale), rendered at the window's own pixel size
        and shown at the display's rate. Without --from and --to the built-in sample screens are used. With --watch
        the effect file is reloaded whenever it changes; a compile error is printed with the file's own line numbers
        and the last good version keeps running. Escape or closing the window quits.
        """)

    @Option(help: "The outgoing screen (PNG or JPEG; default: a sample screen).")
    var from: String?

    @Option(help: "The incoming screen (PNG or JPEG; default: a sample screen).")
    var to: String?

    @Option(parsing: .unconditional, help: "Pixels per point of the inputs; geometry in points is multiplied by it.")
    var scale: Double = 1

    @OptionGroup var effectOptions: EffectOptions
    @OptionGroup var timing: TimingOptions

    @Flag(help: "Reload the effect file when it changes on disk.")
    var watch = false

    @Flag(help: "Print frame-time percentiles at exit.")
    var stats = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Quit after this many frames (for scripts and measurements).", valueName: "N"))
    var frames: Int?

    @Option(help: ArgumentHelp("Folder for frames saved with s (default: the current directory).", valueName: "DIR"))
    var saveDirectory: String = "."

    @OptionGroup var deviceOptions: DeviceOptions

    func validate() throws {
        guard scale.isFinite, scale > 0, scale <= 8 else { throw ValidationError("--scale must be in (0, 8], got \(scale)") }
        if let frames { guard frames > 0 else { throw ValidationError("--frames must be at least 1, got \(frames)") } }
    }

    func run() throws {
        let fromImage = try from.map { try ImageFile.read(path: $0, scale: scale) } ?? SampleScreens.home(scale: scale)
        let toImage = try to.map { try ImageFile.read(path: $0, scale: scale) } ?? SampleScreens.detail(scale: scale)
        var resolved = try effectOptions.request().resolve(scale: scale)
        var timeline = try timing.timeline(for: resolved.effect, duration: effectOptions.duration, fps: 60)
        let points = (width: max(1, Int((Double(fromImage.width) / scale).rounded())), height: max(1, Int((Double(fromImage.height) / scale).rounded())))
        let configuration = GPUContext.Configuration(environment: ProcessInfo.processInfo.environment, deviceSelector: deviceOptions.device)
        let view = try LiveView(title: "segue preview — \(resolved.effect.name)", width: points.width, height: points.height,
                                configuration: configuration)
        func makeRenderer(_ r: ResolvedEffect) throws -> TransitionRenderer {
            let size = view.pixelSize
            return try TransitionRenderer(effect: r.effect, from: fromImage, to: toImage, width: size.width, height: size.height,
                                          parameters: r.parameters, textures: r.textures, context: view.context,
                                          framesInFlight: 1, readback: false)
        }
        var renderer = try makeRenderer(resolved)
        let clock = ContinuousClock()
        let start = clock.now
        func now() -> Double { let d = clock.now - start; return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
        var session = PreviewSession(timing: try timing.timing(defaultCurve: resolved.effect.defaultTiming,
                                                               defaultDuration: resolved.effect.defaultDuration,
                                                               duration: effectOptions.duration), start: now())
        let watched = watch ? effectOptions.effect : nil
        var lastModified = watched.flatMap(Self.modificationDate)
        var shown = 0, saved = 0
        defer {
            if stats, let s = view.frameStatistics {
                print(String(format: "frames %d  p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms", s.count, s.p50, s.p90, s.p99, s.max))
            }
        }
        loop: while true {
            for event in view.events() {
                switch event {
                case .quit, .keyDown(.escape, _, _):
                    break loop
                case .resized:
                    renderer = try makeRenderer(resolved)
                default:
                    if session.handle(event, now: now(), width: Double(points.width)) {
                        saved += 1
                        let path = try save(resolved, from: fromImage, to: toImage, moment: session.moment(at: now()),
                                            duration: timeline.duration, context: view.context, number: saved)
                        print("saved \(path)")
                    }
                }
            }
            if let watched, let modified = Self.modificationDate(watched), modified != lastModified {
                lastModified = modified
                do {
                    let next = try effectOptions.request().resolve(scale: scale)
                    let nextRenderer = try makeRenderer(next)
                    timeline = try timing.timeline(for: next.effect, duration: effectOptions.duration, fps: 60)
                    (resolved, renderer) = (next, nextRenderer)
                    view.window.title = "segue preview — \(next.effect.name)"
                    FileHandle.standardError.write(Data("reloaded \(watched)\n".utf8))
                } catch let error as SegueError {
                    // Keep the last good version running.
                    view.window.title = "segue preview — error in \(watched)"
                    FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
                }
            }
            let moment = session.moment(at: now())
            let source = try renderer.presentationSource(progress: moment.progress, time: moment.time, duration: timeline.duration,
                                                         overrides: timeline.parameters(at: moment.time))
            if try view.present(source) { shown += 1 }
            if let frames, shown >= frames { break }
        }
    }

    private static func modificationDate(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    /// Renders the current moment at the input's size and writes it as a PNG.
    private func save(_ r: ResolvedEffect, from: Image, to: Image, moment: (progress: Double, time: Double), duration: Double,
                      context: GPUContext, number: Int) throws -> String {
        let renderer = try TransitionRenderer(effect: r.effect, from: from, to: to, parameters: r.parameters, textures: r.textures,
                                              context: context, framesInFlight: 1)
        let image = try renderer.frame(progress: moment.progress, time: moment.time, duration: duration)
        let path = (saveDirectory as NSString).appendingPathComponent(String(format: "segue-preview-%03d.png", number))
        try ImageFile.write(image, to: path)
        return path
    }
}
