// A window with a Vulkan-capable drawable and its input events, through SDL2. The only file of
// SegueWindow that calls SDL. It never uses Vulkan itself: it reports the instance extensions a
// surface needs and makes the surface from an instance handle given as an opaque pointer, so
// SegueVulkan can present into it.
//
// Coordinates are points: SDL gives window sizes and mouse positions in screen coordinates,
// which are points on HiDPI displays; the drawable is `scale` times larger in pixels.
import CSegueSDL
import SegueSystem

/// A window on the display. Create and use it on one thread (SDL's video functions are not
/// thread-safe); events are read with `pollEvents()`.
public final class Window {
    /// The window's size in points.
    public private(set) var width: Double
    /// The window's height in points.
    public private(set) var height: Double

    private let window: OpaquePointer

    /// The most points a window may have on a side.
    public static let maximumSide = 16384

    /// Opens a window of `width` × `height` points, titled `title`.
    /// - Throws: `WindowError.noDisplay` without a display, `.invalidSize`, `.creationFailed`,
    ///   `.noVulkanSurface` when no Vulkan loader is found.
    public init(title: String, width: Int, height: Int, resizable: Bool = true) throws(WindowError) {
        guard (1...Window.maximumSide).contains(width), (1...Window.maximumSide).contains(height) else {
            throw .invalidSize(width: width, height: height)
        }
        try Window.startVideo()
        var flags = SDL_WINDOW_VULKAN.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue | SDL_WINDOW_SHOWN.rawValue
        if resizable { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        let centered = Int32(0x2FFF_0000)  // SDL_WINDOWPOS_CENTERED
        guard let window = SDL_CreateWindow(title, centered, centered, Int32(width), Int32(height), flags) else {
            let why = Window.lastError
            if why.lowercased().contains("vulkan") { throw .noVulkanSurface(why) }
            throw .creationFailed(why)
        }
        self.window = window
        self.width = Double(width)
        self.height = Double(height)
    }

    deinit { SDL_DestroyWindow(window) }

    // MARK: - Size

    /// The drawable's size in pixels (larger than the point size on HiDPI displays).
    public var pixelSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_Vulkan_GetDrawableSize(window, &w, &h)
        return (Int(w), Int(h))
    }

    /// Pixels per point of the drawable.
    public var scale: Double {
        let pixels = pixelSize
        return width > 0 && pixels.width > 0 ? Double(pixels.width) / width : 1
    }

    /// The refresh rate of the display the window is on, in hertz; 60 when the display does not
    /// say (virtual X servers report none).
    public var refreshRate: Double {
        var mode = SDL_DisplayMode()
        guard SDL_GetWindowDisplayMode(window, &mode) == 0, mode.refresh_rate > 0 else { return 60 }
        return Double(mode.refresh_rate)
    }

    /// The title shown by the window manager.
    public var title: String {
        get { String(cString: SDL_GetWindowTitle(window)) }
        set { SDL_SetWindowTitle(window, newValue) }
    }

    // MARK: - Events

    /// The events that arrived since the last call, in order; waits up to `timeout` seconds for
    /// the first one when there is none (0: do not wait).
    public func pollEvents(timeout: Double = 0) -> [WindowEvent] {
        var events: [WindowEvent] = []
        var event = SDL_Event()
        if timeout > 0, SDL_WaitEventTimeout(&event, Int32(min(timeout, 60) * 1000)) == 1 {
            if let e = translate(event) { events.append(e) }
        }
        while SDL_PollEvent(&event) == 1 {
            if let e = translate(event) { events.append(e) }
        }
        return events
    }

    private func translate(_ event: SDL_Event) -> WindowEvent? {
        let time = Double(event.common.timestamp) / 1000
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_CLOSE:
                return .quit
            case SDL_WINDOWEVENT_SIZE_CHANGED:
                width = Double(event.window.data1)
                height = Double(event.window.data2)
                let pixels = pixelSize
                return .resized(width: width, height: height, pixelWidth: pixels.width, pixelHeight: pixels.height)
            case SDL_WINDOWEVENT_EXPOSED, SDL_WINDOWEVENT_RESTORED, SDL_WINDOWEVENT_SHOWN:
                return .exposed
            default:
                return nil
            }
        case SDL_KEYDOWN:
            return .keyDown(Window.key(event.key.keysym.sym), isRepeat: event.key.repeat != 0, time: time)
        case SDL_KEYUP:
            return .keyUp(Window.key(event.key.keysym.sym), time: time)
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            return .pointerDown(x: Double(event.button.x), y: Double(event.button.y), time: time)
        case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
            return .pointerUp(x: Double(event.button.x), y: Double(event.button.y), time: time)
        case SDL_MOUSEMOTION:
            let pressed = event.motion.state & UInt32(1 << (SDL_BUTTON_LEFT - 1)) != 0
            return .pointerMoved(x: Double(event.motion.x), y: Double(event.motion.y), isPressed: pressed, time: time)
        default:
            return nil
        }
    }

    private static func key(_ code: SDL_Keycode) -> Key {
        switch code {
        case SDL_Keycode(SDLK_LEFT.rawValue): return .left
        case SDL_Keycode(SDLK_RIGHT.rawValue): return .right
        case SDL_Keycode(SDLK_UP.rawValue): return .up
        case SDL_Keycode(SDLK_DOWN.rawValue): return .down
        case SDL_Keycode(SDLK_RETURN.rawValue), SDL_Keycode(SDLK_KP_ENTER.rawValue): return .enter
        case SDL_Keycode(SDLK_BACKSPACE.rawValue): return .backspace
        case SDL_Keycode(SDLK_ESCAPE.rawValue): return .escape
        case SDL_Keycode(SDLK_SPACE.rawValue): return .space
        case 33...126: return .character(Character(Unicode.Scalar(UInt8(code))))
        default: return .other(code)
        }
    }

    // MARK: - Vulkan surface

    /// The Vulkan instance extensions a surface of this window needs (`VK_KHR_surface` and the
    /// platform's, e.g. `VK_KHR_xlib_surface`).
    /// - Throws: `WindowError.noVulkanSurface`.
    public func vulkanInstanceExtensions() throws(WindowError) -> [String] {
        var count: UInt32 = 0
        guard SDL_Vulkan_GetInstanceExtensions(window, &count, nil) == SDL_TRUE else { throw .noVulkanSurface(Window.lastError) }
        var names = [UnsafePointer<CChar>?](repeating: nil, count: Int(count))
        guard SDL_Vulkan_GetInstanceExtensions(window, &count, &names) == SDL_TRUE else { throw .noVulkanSurface(Window.lastError) }
        return names.prefix(Int(count)).compactMap { $0.map { String(cString: $0) } }
    }

    /// Makes a Vulkan surface for the window.
    /// - Parameter instance: the `VkInstance`, created with ``vulkanInstanceExtensions()``.
    /// - Returns: the `VkSurfaceKHR`; its owner destroys it before the instance.
    /// - Throws: `WindowError.noVulkanSurface`.
    public func makeVulkanSurface(instance: OpaquePointer) throws(WindowError) -> OpaquePointer {
        var surface: VkSurfaceKHR?
        guard SDL_Vulkan_CreateSurface(window, instance, &surface) == SDL_TRUE, let surface else {
            throw .noVulkanSurface(Window.lastError)
        }
        return surface
    }

    // MARK: - SDL

    /// Whether SDL's video subsystem has been started.
    private static let videoStarted = Locked(false)

    /// Starts SDL's video subsystem once per process.
    private static func startVideo() throws(WindowError) {
        try videoStarted.withLock { (started) throws(WindowError) in
            if !started { try startVideoOnce() }
            started = true
        }
    }

    /// Starts SDL's video subsystem (under `videoStarted`'s lock).
    private static func startVideoOnce() throws(WindowError) {
        // X11 (XWayland on Wayland desktops, Xvfb headless): one driver to test and support.
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { throw .noDisplay(detail: lastError) }
        // Without an X11 or Wayland display SDL falls back to drivers that show nothing.
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        guard !["offscreen", "dummy", "evdev", "none"].contains(driver) else {
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
            throw .noDisplay(detail: "no X11 or Wayland display is reachable; SDL fell back to its '\(driver)' driver")
        }
    }

    private static var lastError: String { String(cString: SDL_GetError()) }
}
