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

// `segue navigate` as a library call: a window showing a navigation stack of screens, pushed and
// popped with an effect, the edge-drag pop following the finger. Each frame: read the window's
// events into the `NavigationSession`, ask it what to show, render that on the GPU at the
// window's pixel size (no readback) and present it (FIFO: the display's rate).
//
// Renderers are made per (from, to, effect) pair when first needed and kept in a small
// most-recently-used cache, so a push or pop only uploads its two screens once.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A live navigation stack in a window.
public final class LiveNavigator {
    /// The screens, in push order.
    public let screens: [Image]
    /// The push effect.
    public let effect: ResolvedEffect
    /// The pop effect when the push effect has its own reverse (ios-push → ios-pop).
    public let reverse: ResolvedEffect?
    /// The state machine.
    public let session: NavigationSession
    /// The window.
    public let view: LiveView

    private var cache = RecentCache<RendererKey, TransitionRenderer>(capacity: 4)
    /// A renderer's screens and direction (a value, not a string made every frame).
    private struct RendererKey: Equatable {
        let from: Int, to: Int, reverse: Bool
    }

    /// Opens a window of the first screen's size in points (its pixels / `scale`).
    /// - Parameters:
    ///   - screens: at least one image; all are fitted to the window (`cover`).
    ///   - effect: the push effect; `reverse`, when given, plays pops.
    ///   - timing: the push's (and a key pop's) timing; an interactive pop completes with a spring.
    /// - Throws: `WindowError` (no display), `VulkanError`, `RenderError`.
    public init(
        screens: [Image], effect: ResolvedEffect, reverse: ResolvedEffect?, timing: TransitionTiming,
        scale: Double, configuration: GPUContext.Configuration = .init(), title: String
    ) throws {
        guard let first = screens.first else { throw RenderError.invalidValue("navigate needs at least one screen") }
        try effect.checkTextures()
        try reverse?.checkTextures()
        self.screens = screens
        self.effect = effect
        self.reverse = reverse
        session = NavigationSession(screenCount: screens.count, timing: timing, hasReverse: reverse != nil)
        let points = try LiveView.points(width: first.width, height: first.height, scale: scale)
        view = try LiveView(
            title: LiveStatus.windowTitle(title, effect.effect.name), width: points.width, height: points.height,
            configuration: configuration)
    }

    /// Runs until the window is closed or Escape is pressed, or after `frames` presented frames.
    /// - Parameter clock: seconds on a monotonic clock (any origin).
    public func run(frames: Int? = nil, clock: () -> Double) throws {
        try view.run(frames: frames) { event in
            if case .resized = event { cache.removeAll() } else { session.handle(event, now: clock(), width: view.window.width) }
        } frame: {
            (try source(for: session.frame(at: clock())), nil)
        }
    }

    /// Renders what `frame` shows.
    func source(for frame: NavigationFrame) throws -> PresentationSource {
        switch frame {
        case let .screen(i):
            // At progress 0 every transition shows exactly its `from`.
            return try renderer(from: i, to: i, reverse: false).presentationSource(
                progress: 0, time: 0, duration: session.timing.totalDuration)
        case let .transition(from, to, progress, time, reverse):
            return try renderer(from: from, to: to, reverse: reverse)
                .presentationSource(progress: progress, time: time, duration: session.timing.totalDuration)
        }
    }

    private func renderer(from: Int, to: Int, reverse useReverse: Bool) throws -> TransitionRenderer {
        try cache.value(for: RendererKey(from: from, to: to, reverse: useReverse)) {
            try view.transitionRenderer(useReverse ? (reverse ?? effect) : effect, from: screens[from], to: screens[to])
        }
    }
}
