// The classic "animate Metal content with Core Animation" demo, on Segue: a triangle drawn on the
// GPU whose `scale` is a custom animatable property that needs display.
//
//   1. Inside a transaction of 2 s with easeInEaseOut, `scale` is set from 1 to 2: the property's
//      default action is an implicit animation from the current presentation value.
//   2. When that transaction completes, a keyframe animation runs `scale` through
//      [1, −1, 2, −2, 1] at key times [0, 0.2, 0.5, 0.8, 1], easeInEaseOut on each segment, for 8 s.
//
// The engine never reads the wall clock: a FrameClock steps it at i/fps. Each frame the context
// updates the presentation values; when the layer needs display, the triangle is redrawn on the
// GPU with the presentation scale, otherwise the previous picture is repeated. Frames go to a
// video (ffmpeg) or a directory of PNGs, or, with --window, to the screen: then the clock is set
// from a monotonic clock once per displayed frame (the display link of Core Animation), the
// triangle is drawn straight into the window's swapchain (no readback) at the display's rate,
// and the last frame stays until Escape or the window is closed.
//
//   swift run AnimatedTriangle triangle.mp4 [--fps 30] [--size 640x360]
//   swift run AnimatedTriangle --window [--size 640x360]
import ArgumentParser
import Foundation
import Segue

/// A layer with one custom animatable property, `scale`, that needs display when it changes.
final class TriangleLayer: AnimationHost {
    /// Seconds of the implicit scale-up and of the keyframe animation.
    static let scaleUpDuration = 2.0
    static let keyframeDuration = 8.0

    override init(context: AnimationContext) {
        super.init(context: context)
        addProperty("scale", initialValue: 1.0, needsDisplay: true, defaultAction: .implicitAnimation)
    }

    /// The model value; setting it runs the property's action (an implicit animation).
    var scale: Double {
        get { modelValue(forKey: "scale") }
        set { setValue(newValue, forKey: "scale") }
    }

    /// What is on screen now.
    var presentationScale: Double { presentationValue(forKey: "scale") }
}

/// Draws the triangle: apex up at scale > 0, flipped through the centre at scale < 0. In points
/// relative to the centre (y down) its corners are (0, −h), (−h, h), (h, h) times the scale, with
/// h = 0.15 × the height; corners red, green and blue, edges antialiased by their distance in
/// pixels, on a transparent background (black in videos).
let triangleShader = """
    // Name: animated-triangle
    // Origin: top-left
    uniform float triangleScale; // = 1.0; the layer's presentation scale
    vec4 transition(vec2 uv) {
        float s = abs(triangleScale);
        if (s < 1e-6) return vec4(0.0);
        float h = 0.15 * resolution.y;
        vec2 q = (uv * resolution - 0.5 * resolution) / triangleScale;
        // Signed distances to the base and to the slanted sides, in pixels (positive inside).
        float base = (h - q.y) * s;
        float side = (q.y + h - 2.0 * abs(q.x)) / sqrt(5.0) * s;
        float coverage = clamp(min(base, side) + 0.5, 0.0, 1.0);
        float top = clamp((h - q.y) / (2.0 * h), 0.0, 1.0);
        float left = clamp((h - q.x) / (2.0 * h) - 0.5 * top, 0.0, 1.0);
        vec3 color = vec3(top, left, max(1.0 - top - left, 0.0));
        return vec4(color * coverage, coverage);
    }
    """

/// The triangle shader as a full-screen effect (the two transition textures are unused placeholders).
func triangleEffect() throws -> Effect {
    try TransitionSourceParser.parse(triangleShader, name: "animated-triangle", source: .builtIn, defaultOrigin: .topLeft)
}

struct AnimatedTriangle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "AnimatedTriangle",
        abstract: "Animate a GPU triangle's scale with Segue's Core-Animation-style engine and write a video.")

    @Argument(help: "Output: a .mp4/.webm/.gif/.apng video, or a directory of PNG frames.")
    var output = "triangle.mp4"

    @Option(parsing: .unconditional, help: "Frames per second.")
    var fps: Double = 30

    @Option(help: "Output size in pixels, WxH (with --window: the window's size in points).")
    var size = "640x360"

    @Flag(help: "Animate live in a window at the display's rate instead of writing a file.")
    var window = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --window: quit after this many frames.", valueName: "N"))
    var frames: Int?

    func run() throws {
        let (width, height): (Int, Int)
        do {
            (width, height) = try Image.parseSize(size)
        } catch {
            if case .malformed = error { throw ValidationError("--size must look like 640x360") }
            throw error
        }
        guard fps.isFinite, fps > 0 else { throw ValidationError("--fps must be positive") }

        if window { return try runInWindow(width: width, height: height) }

        // The engine: a frame clock, a context, the layer.
        let clock = FrameClock(framesPerSecond: fps)
        let context = AnimationContext(clock: clock)
        let layer = TriangleLayer(context: context)

        // The GPU side.
        let effect = try triangleEffect()
        let blank = Image(width: 1, height: 1, fill: .black)
        let gpu = try GPUContext(configuration: .init(environment: ProcessInfo.processInfo.environment))
        let renderer = try TransitionRenderer(
            effect: effect, from: blank, to: blank, width: width, height: height,
            context: gpu, framesInFlight: 1)
        var picture: Image?
        final class Display: AnimationHostDelegate {
            let draw: (AnimationHost) -> Void
            init(draw: @escaping (AnimationHost) -> Void) { self.draw = draw }
            func display(_ host: AnimationHost) { draw(host) }
        }
        var drawError: Error?
        var redraws = 0
        let display = Display { _ in
            do {
                picture = try renderer.frame(
                    progress: 0, time: clock.now, duration: 1,
                    overrides: ["triangleScale": .float(layer.presentationScale)])
                redraws += 1
            } catch { drawError = error }
        }
        layer.delegate = display

        startAnimations(context: context, layer: layer)

        let total = TriangleLayer.scaleUpDuration + TriangleLayer.keyframeDuration
        let frameCount = try Timeline.frameCount(duration: total, fps: fps)
        let sink = try makeFrameSink(try RenderOutput(path: output), width: width, height: height, fps: fps)
        do {
            layer.setNeedsDisplay()
            for i in 0..<frameCount {
                clock.frame = i
                context.update()
                layer.displayIfNeeded()
                if let drawError { throw drawError }
                guard let picture else { continue }
                try picture.pixels.withUnsafeBytes { try sink.write(frame: i, pixels: $0) }
            }
            try sink.finish()
        } catch {
            sink.cancel()
            throw error
        }
        print("wrote \(output): \(frameCount) frames at \(fps) fps, \(redraws) redraws of the triangle")
    }

    /// 1. Implicit animation 1 → 2 in a 2 s easeInEaseOut transaction; 2. keyframes after it.
    func startAnimations(context: AnimationContext, layer: TriangleLayer) {
        context.perform { tx in
            tx.animationDuration = TriangleLayer.scaleUpDuration
            tx.animationTimingFunction = .easeInEaseOut
            tx.completion = {
                let keyframes = try! KeyframeAnimation(
                    values: [1.0, -1, 2, -2, 1], keyTimes: [0, 0.2, 0.5, 0.8, 1],
                    timingFunctions: Array(repeating: .easeInEaseOut, count: 4),
                    timing: MediaTiming(duration: TriangleLayer.keyframeDuration))
                context.perform { tx in
                    tx.disableActions = true
                    layer.scale = 1  // the model value the keyframes end on
                    layer.addAnimation(keyframes, forKey: "wobble", toProperty: "scale")
                }
            }
            layer.scale = 2
        }
    }

    /// The same animation live: the context's clock is set once per displayed frame from a
    /// monotonic clock, and the triangle is redrawn into the window only when it needs display.
    func runInWindow(width: Int, height: Int) throws {
        let view = try LiveView(
            title: "AnimatedTriangle", width: width, height: height,
            configuration: .init(environment: ProcessInfo.processInfo.environment))
        let clock = ManualClock()
        let context = AnimationContext(clock: clock)
        let layer = TriangleLayer(context: context)
        let effect = try triangleEffect()
        let blank = Image(width: 1, height: 1, fill: .black)
        var renderer: TransitionRenderer?
        var source: PresentationSource?
        final class Display: AnimationHostDelegate {
            let draw: (AnimationHost) -> Void
            init(draw: @escaping (AnimationHost) -> Void) { self.draw = draw }
            func display(_ host: AnimationHost) { draw(host) }
        }
        var drawError: Error?
        let display = Display { _ in
            do {
                let size = view.pixelSize
                if renderer == nil || renderer?.width != size.width || renderer?.height != size.height {
                    renderer = try TransitionRenderer(
                        effect: effect, from: blank, to: blank, width: size.width, height: size.height,
                        context: view.context, framesInFlight: 1, readback: false)
                }
                source = try renderer?.presentationSource(
                    progress: 0, time: clock.now, duration: 1,
                    overrides: ["triangleScale": .float(layer.presentationScale)])
            } catch { drawError = error }
        }
        layer.delegate = display
        let monotonic = ContinuousClock(), start = monotonic.now
        func now() -> Double { (monotonic.now - start) / .seconds(1) }
        startAnimations(context: context, layer: layer)
        layer.setNeedsDisplay()
        var shown = 0
        loop: while true {
            for event in view.events() {
                switch event {
                case .quit, .keyDown(.escape, _, _): break loop
                case .resized, .exposed: layer.setNeedsDisplay()
                default: break
                }
            }
            clock.now = now()
            context.update()
            layer.displayIfNeeded()
            if let drawError { throw drawError }
            if let source, try view.present(source) { shown += 1 }
            if let frames, shown >= frames { break }
        }
        if let line = view.statisticsLine { print(line) }
    }
}

AnimatedTriangle.main()
