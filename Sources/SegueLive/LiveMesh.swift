import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueSystem
import SegueVulkan
import SegueWindow

// `segue mesh --window` as a library call: an image through a mesh in a window, live. Each frame:
// read the window's events into the `MeshSession`, ask it for the live parameters (touch, phase,
// the blend between two meshes), build the meshes through the same `MeshTemplate`s the offline
// `segue mesh` uses, render at the window's pixel size (no readback) and present (FIFO: the
// display's rate). The layer is the window's size in points, so at the window's initial size a
// frame is the offline render of the same parameters, composited over black.
//
// A frame whose parameters did not change is presented again without rendering. With `watch`, the
// request's mesh files are read again when they change on disk; an error shows across the top of
// the window as a `MessageCard` while the last good meshes keep running.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An image through a mesh (or a toggle between two meshes) in a window, following the pointer.
public final class LiveMesh {
    /// How the live parameters move.
    public struct Options: Sendable {
        /// The spring a released touch returns along (nil: `response` 0.5, `dampingFraction` 0.7).
        public var spring: Spring?
        /// The toggle's timing between the two meshes (nil: linear over 1 s).
        public var toggle: TransitionTiming?
        /// Radians per second a mesh's `phase` runs at.
        public var phaseRate: Double
        /// 4× multisampled mesh edges.
        public var antialiasing: Bool
        /// Whether the request's mesh files are read again when they change on disk.
        public var watch: Bool

        /// Options.
        public init(
            spring: Spring? = nil, toggle: TransitionTiming? = nil, phaseRate: Double = 2 * .pi,
            antialiasing: Bool = false, watch: Bool = false
        ) {
            self.spring = spring
            self.toggle = toggle
            self.phaseRate = phaseRate
            self.antialiasing = antialiasing
            self.watch = watch
        }
    }

    /// The window.
    public let view: LiveView
    /// The state machine (made again when `run` starts, so its phase starts then).
    public private(set) var session: MeshSession
    /// The meshes shown now (the last good ones after a failed reload).
    public private(set) var templates: (start: MeshTemplate, end: MeshTemplate?)

    private let image: Image
    private let request: MeshRequest
    private let options: Options
    private let clock = ManualClock()
    private var renderer: MeshSceneRenderer
    private var shown: (frame: MeshFrame, source: PresentationSource)?
    /// The title, report and card of the last reload's error.
    private var status: LiveStatus

    /// Opens a window of `image`'s size in points (its pixels / its scale) showing `request`'s
    /// first mesh.
    /// - Parameters:
    ///   - title: the window title's first part; the mesh's name (or the error) follows it.
    ///   - report: receives one line for each reload and reload error (for stderr).
    /// - Throws: `AnimationError` for a touch spring that does not settle; `MeshError`,
    ///   `ParameterError` (the request), `WindowError` (no display),
    ///   `VulkanError`, `RenderError`.
    public init(
        image: Image, request: MeshRequest, options: Options = Options(), configuration: GPUContext.Configuration = .init(),
        title: String, report: @escaping (String) -> Void = { _ in }
    ) throws {
        let templates = try request.templates()
        session = try MeshSession(configuration: Self.sessionConfiguration(templates, options), clock: clock)
        let points = try LiveView.points(width: image.width, height: image.height, scale: image.scale)
        // Every check of the meshes happens before a window opens.
        _ = try MeshRequest.scenes(templates.start, templates.end, width: Double(points.width), height: Double(points.height))
        status = LiveStatus(title: title, report: report)
        view = try LiveView(
            title: status.windowTitle(Self.name(of: request)), width: points.width, height: points.height,
            configuration: configuration)
        self.image = image
        self.request = request
        self.options = options
        self.templates = templates
        renderer = try Self.makeRenderer(image: image, view: view, antialiasing: options.antialiasing)
    }

    private static func name(of request: MeshRequest) -> String {
        let start = URL(fileURLWithPath: request.start.text).lastPathComponent
        return request.end.map { "\(start) ⇄ \(URL(fileURLWithPath: $0.text).lastPathComponent)" } ?? start
    }

    /// The session's configuration: the touch and phase rest where the first mesh declaring them
    /// says, the toggle only with a second mesh.
    static func sessionConfiguration(_ templates: (start: MeshTemplate, end: MeshTemplate?), _ options: Options)
        -> MeshSession.Configuration
    {
        let both = [templates.start] + (templates.end.map { [$0] } ?? [])
        let touch = both.lazy.compactMap { $0.value(of: "touch") }.first.map { Vector2($0.components[0], $0.components[1]) }
        let phase = both.lazy.compactMap { $0.value(of: "phase") }.first?.scalar
        let toggle = templates.end == nil ? nil : (options.toggle ?? (try? TransitionTiming(curve: .timingFunction(.linear), duration: 1)))
        return MeshSession.Configuration(
            restTouch: touch, spring: options.spring, restPhase: phase, phaseRate: options.phaseRate, toggle: toggle)
    }

    /// A renderer at the window's pixel size whose layer is the window's size in points.
    private static func makeRenderer(image: Image, view: LiveView, antialiasing: Bool) throws -> MeshSceneRenderer {
        let size = view.pixelSize
        var texture = image
        texture.scale = view.window.width > 0 ? Double(size.width) / view.window.width : 1
        return try MeshSceneRenderer(
            from: texture, width: size.width, height: size.height, context: view.context,
            framesInFlight: 1, antialiasing: antialiasing, readback: false)
    }

    /// The layer's size in points.
    private var layer: (width: Double, height: Double) { (renderer.layerWidth, renderer.layerHeight) }

    // MARK: - Running

    /// Runs until the window is closed or Escape is pressed, or after `frames` presented frames.
    /// - Parameter clock: seconds on a monotonic clock (any origin).
    public func run(frames: Int? = nil, clock now: () -> Double) throws {
        clock.now = now()
        session = try MeshSession(configuration: session.configuration, clock: clock)
        var watch = FileWatch(watchedFiles)
        try view.run(frames: frames) { event in
            if case .resized = event {
                renderer = try Self.makeRenderer(image: image, view: view, antialiasing: options.antialiasing)
                shown = nil
                try status.redraw(on: view)
            } else {
                clock.now = now()
                session.handle(event, width: view.window.width, height: view.window.height)
            }
        } frame: {
            if watch.changed() { try reload() }
            clock.now = now()
            return (try source(for: session.frame()), status.card?.source)
        }
    }

    /// The picture of `frame`: rendered, or the last one again when nothing changed.
    func source(for frame: MeshFrame) throws -> PresentationSource {
        if let shown, shown.frame == frame { return shown.source }
        let scene = try scene(for: frame)
        let source = try renderer.presentationSource(mesh: scene.mesh, appearance: scene.appearance)
        shown = (frame, source)
        return source
    }

    /// The scene `frame` shows: the meshes built with its live parameters, blended by its
    /// fraction (exactly the first or the second mesh at 0 and 1).
    public func scene(for frame: MeshFrame) throws -> MeshScene {
        let (first, last) = try MeshRequest.scenes(
            templates.start, templates.end, width: layer.width, height: layer.height,
            overrides: frame.overrides)
        guard let last, frame.fraction != 0 else { return first }
        return frame.fraction == 1 ? last : first.interpolated(to: last, fraction: frame.fraction)
    }

    // MARK: - Watching

    /// The mesh files of the request, when watching.
    private var watchedFiles: [String] {
        guard options.watch else { return [] }
        return [request.start, request.end].compactMap { source -> String? in
            if case let .file(path)? = source { return path }
            return nil
        }
    }

    /// Reads the meshes again; on a user-facing error keeps the running ones and shows the error.
    private func reload() throws {
        let files = watchedFiles.joined(separator: ", ")
        do {
            let next = try request.templates()
            _ = try MeshRequest.scenes(next.start, next.end, width: layer.width, height: layer.height)
            templates = next
            shown = nil
            try status.succeeded(.reload, "reloaded \(files)", subject: Self.name(of: request), on: view)
        } catch let error as SegueError {
            try status.failed(.reload, error, subject: "error in \(files)", on: view)
        }
    }
}
