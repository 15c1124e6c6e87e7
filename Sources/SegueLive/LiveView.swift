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

// A window that shows Segue's GPU rendering directly: SegueWindow opens the window and makes the
// Vulkan surface, SegueVulkan presents into it (FIFO, the display's rate, no readback). The
// window's extensions decide how the GPU context is opened, so the view owns its context.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A window presenting frames rendered on the GPU.
public final class LiveView {
    /// The window.
    public let window: Window
    /// The GPU context, opened for presenting to the window.
    public let context: GPUContext
    /// Frame-to-frame intervals of presented frames, in seconds (for `--stats`).
    public private(set) var frameIntervals: [Double] = []

    private let presenter: SwapchainPresenter
    private var lastPresent: Double?
    /// Started when the view opened.
    private let opened = Stopwatch()
    /// Seconds between frames at the display's refresh rate.
    private let period: Double

    /// Opens a `width` × `height`-point window titled `title` and a context on the device
    /// `configuration` selects, with the window's presentation extensions.
    /// - Throws: `WindowError` (no display, no Vulkan surface), `VulkanError`.
    public init(title: String, width: Int, height: Int, configuration: GPUContext.Configuration = .init()) throws {
        let window = try Window(title: title, width: width, height: height)
        var configuration = configuration
        configuration.presentationExtensions = try window.vulkanInstanceExtensions()
        let context = try GPUContext(configuration: configuration)
        let surface = try window.makeVulkanSurface(instance: context.instanceHandle)
        let pixels = window.pixelSize
        presenter = try SwapchainPresenter(context: context, surface: surface, width: pixels.width, height: pixels.height)
        self.window = window
        self.context = context
        period = 1 / window.refreshRate
    }

    /// The size in points (at least 1 × 1) of a window showing an image of `width` × `height`
    /// pixels at `scale` pixels per point.
    /// - Throws: `ImageScaleError` for a scale that is not a positive finite number;
    ///   `RenderError.invalidValue` for a window larger than `Window.maximumSide` points on a side.
    public static func points(width: Int, height: Int, scale: Double) throws -> (width: Int, height: Int) {
        try Image.validateScale(scale)
        let size = (width: (Double(width) / scale).rounded(), height: (Double(height) / scale).rounded())
        guard size.width <= Double(Window.maximumSide), size.height <= Double(Window.maximumSide) else {
            throw RenderError.invalidValue(
                "a \(width)×\(height)-pixel image at scale \(MessageText.number(scale)) needs a window larger than \(Window.maximumSide) points; give a larger scale"
            )
        }
        return (max(1, Int(size.width)), max(1, Int(size.height)))
    }

    /// The window's drawable size in pixels.
    public var pixelSize: (width: Int, height: Int) { window.pixelSize }

    /// The loop of every live window: each turn hands the events since the last one to `handle`
    /// (a resize after the swapchain follows it), then presents what `frame` returns. Ends when the
    /// window is closed or Escape is pressed, or after `frames` presented frames.
    public func run(
        frames: Int? = nil, handle: (WindowEvent) throws -> Void,
        frame: () throws -> (source: PresentationSource, overlay: PresentationSource?)
    ) throws {
        var shown = 0
        while true {
            for event in events() {
                switch event {
                case .quit, .keyDown(.escape, _, _): return
                default: try handle(event)
                }
            }
            let (source, overlay) = try frame()
            if try present(source, overlay: overlay) { shown += 1 }
            if let frames, shown >= frames { return }
        }
    }

    /// Events since the last call (waiting up to `timeout` seconds for one); a resize also
    /// resizes the swapchain.
    public func events(timeout: Double = 0) -> [WindowEvent] {
        let events = window.pollEvents(timeout: timeout)
        for case let .resized(_, _, w, h) in events { presenter.resize(width: w, height: h) }
        return events
    }

    /// Shows `source` (with `overlay` across the top, e.g. a `MessageCard`) at the display's rate: FIFO presentation waits for the display, and where
    /// the window system does not (a virtual X server has no vertical blank) frames are spaced by
    /// the display's refresh period, so a live view never spins faster than the screen shows.
    /// Records the interval since the previous frame (for `frameStatistics`).
    /// - Returns: false when the frame was skipped while the swapchain was rebuilt.
    @discardableResult
    public func present(_ source: PresentationSource, overlay: PresentationSource? = nil) throws -> Bool {
        // Intervals are measured between the starts of presents: the cadence the display sees.
        // With a window system that paces by itself they are a period already, and nothing waits.
        if let lastPresent {
            let wait = period - (seconds() - lastPresent)
            if wait > 0.0005 { FileIO.sleep(seconds: wait) }
        }
        let start = seconds()
        let shown = try presenter.present(source, overlay: overlay)
        if shown {
            if let lastPresent { frameIntervals.append(start - lastPresent) }
            lastPresent = start
        }
        return shown
    }

    /// Seconds on a monotonic clock since the view opened.
    private func seconds() -> Double { opened.elapsed }

    /// `frames N  p50 … ms  p90 … ms  p99 … ms  max … ms`: the frame-interval statistics as one
    /// line (nil before two frames were shown).
    public var statisticsLine: String? {
        frameStatistics.map {
            String(cFormat: "frames %d  p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms", $0.count, $0.p50, $0.p90, $0.p99, $0.max)
        }
    }

    /// The 50th, 90th, 99th percentiles and the maximum of the frame intervals, in milliseconds.
    public var frameStatistics: (count: Int, p50: Double, p90: Double, p99: Double, max: Double)? {
        guard !frameIntervals.isEmpty else { return nil }
        let ms = Statistics.percentiles([0.5, 0.9, 0.99, 1], of: frameIntervals).map { $0 * 1000 }
        return (frameIntervals.count, ms[0], ms[1], ms[2], ms[3])
    }
}
