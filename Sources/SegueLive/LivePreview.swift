import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan
import SegueWindow

// `segue preview` as a library call: a transition looping in a window (`PreviewSession` decides
// what shows when), drag to scrub, space to pause, `s` to save the frame as a PNG at the inputs'
// size. With a watched effect file the effect is reloaded whenever the file changes on disk; a
// compile error is reported (with the file's own line numbers) and shown across the top of the
// window as a `MessageCard`, while the last good version keeps running. A frame that cannot be
// saved (no such folder, a full disk) is reported and shown the same way; the session goes on.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A looping, scrubbable, hot-reloading preview of a transition in a window.
public final class LivePreview {
    /// What the preview needs of an effect: the resolved effect, its timing and its timeline
    /// (keyframed parameters), made again on every reload.
    public struct Program {
        /// The effect and its parameters.
        public var effect: ResolvedEffect
        /// The loop's transition timing.
        public var timing: TransitionTiming
        /// Keyframed parameters over the transition.
        public var timeline: Timeline

        /// The parts of a program.
        public init(effect: ResolvedEffect, timing: TransitionTiming, timeline: Timeline) {
            self.effect = effect
            self.timing = timing
            self.timeline = timeline
        }
    }

    /// The window.
    public let view: LiveView
    /// The frames saved with `s`, in order.
    public private(set) var saved: [String] = []

    private let from: Image, to: Image
    private let load: () throws -> Program
    private let watched: String?
    private let saveDirectory: String
    private var program: Program
    private var renderer: TransitionRenderer
    /// The title, report and card of the last reload's and the last save's errors.
    private var status: LiveStatus

    /// Opens a window of `from`'s size in points.
    /// - Parameters:
    ///   - load: makes the program; called once now and again whenever `watch` changes.
    ///   - watch: a file whose changes reload the program (nil: no reloading).
    ///   - saveDirectory: where `s` writes `segue-preview-NNN.png`.
    ///   - title: the window title's first part; the effect's name (or the error) follows it.
    ///   - report: receives one line for each reload, saved frame and error (for stderr).
    /// - Throws: what `load` throws; `ImageScaleError` (a scale that is not positive),
    ///   `RenderError` (a window too large); `WindowError`, `VulkanError`.
    public init(
        from: Image, to: Image, scale: Double, load: @escaping () throws -> Program, watch: String? = nil,
        saveDirectory: String = ".", configuration: GPUContext.Configuration = .init(), title: String,
        report: @escaping (String) -> Void = { _ in }
    ) throws {
        let program = try load()
        try program.effect.checkTextures()
        status = LiveStatus(title: title, report: report)
        let points = try LiveView.points(width: from.width, height: from.height, scale: scale)
        view = try LiveView(
            title: status.windowTitle(program.effect.effect.name), width: points.width, height: points.height,
            configuration: configuration)
        self.from = from
        self.to = to
        self.load = load
        self.watched = watch
        self.saveDirectory = saveDirectory
        self.program = program
        renderer = try view.transitionRenderer(program.effect, from: from, to: to)
    }

    /// Runs until the window is closed or Escape is pressed, or after `frames` presented frames.
    /// - Parameter clock: seconds on a monotonic clock (any origin).
    public func run(frames: Int? = nil, clock: () -> Double) throws {
        var session = PreviewSession(timing: program.timing, start: clock())
        var watch = FileWatch(watched.map { [$0] } ?? [])
        try view.run(frames: frames) { event in
            if case .resized = event {
                renderer = try view.transitionRenderer(program.effect, from: from, to: to)
                try status.redraw(on: view)
            } else if session.handle(event, now: clock(), width: view.window.width) {
                try saveFrame(session.moment(at: clock()))
            }
        } frame: {
            if let watched, watch.changed() { try reload(watched, session: &session) }
            let moment = session.moment(at: clock())
            let source = try renderer.presentationSource(
                progress: moment.progress, time: moment.time, duration: program.timeline.duration,
                overrides: program.timeline.parameters(at: moment.time))
            return (source, status.card?.source)
        }
    }

    /// Loads the watched file again; on a user-facing error keeps the running version and shows
    /// the error.
    private func reload(_ path: String, session: inout PreviewSession) throws {
        do {
            let next = try load()
            let nextRenderer = try view.transitionRenderer(next.effect, from: from, to: to)
            (program, renderer) = (next, nextRenderer)
            session.timing = next.timing
            try status.succeeded(.reload, "reloaded \(path)", subject: next.effect.effect.name, on: view)
        } catch let error as SegueError {
            try status.failed(.reload, error, subject: "error in \(path)", on: view)
        }
    }

    /// Saves the frame at `moment`; a failure is reported and shown on the card, and the preview
    /// goes on (a later save that works takes the message away).
    private func saveFrame(_ moment: (progress: Double, time: Double)) throws {
        do {
            let path = try save(moment)
            saved.append(path)
            try status.succeeded(.save, "saved \(path)", on: view)
        } catch let error as SegueError {
            try status.failed(.save, error, on: view)
        }
    }

    /// Renders the current moment at the inputs' size and writes it as a PNG.
    private func save(_ moment: (progress: Double, time: Double)) throws -> String {
        let r = program.effect
        let renderer = try TransitionRenderer(
            effect: r.effect, from: from, to: to, parameters: r.parameters, textures: r.textures,
            context: view.context, framesInFlight: 1)
        let image = try renderer.frame(
            progress: moment.progress, time: moment.time, duration: program.timeline.duration,
            overrides: program.timeline.parameters(at: moment.time))
        let path = FileIO.joining(saveDirectory, String(cFormat: "segue-preview-%03d.png", saved.count + 1))
        try ImageFile.write(image, to: path)
        return path
    }
}
