// The window layer's one error type.
import SegueMath

/// Why a window could not be opened or used.
public enum WindowError: SegueError, Sendable, Equatable {
    /// No display to open a window on (no `DISPLAY`, or the X server refused the connection).
    case noDisplay(detail: String)
    /// The window could not be created.
    case creationFailed(String)
    /// SDL found no Vulkan loader, or the window cannot make a Vulkan surface.
    case noVulkanSurface(String)
    /// A window size that is not positive or too large.
    case invalidSize(width: Int, height: Int)

    public var description: String {
        switch self {
        case let .noDisplay(detail):
            return "no display to open a window on (\(detail)); set DISPLAY, or run under a virtual X server: xvfb-run -a segue …"
        case let .creationFailed(why):
            return "the window could not be created: \(why)"
        case let .noVulkanSurface(why):
            return
                "the window cannot show Vulkan rendering: \(why); install the Vulkan loader and a driver (Debian: libvulkan1 mesa-vulkan-drivers)"
        case let .invalidSize(width, height):
            return "a window must be 1×1 to \(Window.maximumSide)×\(Window.maximumSide) points, got \(width)×\(height)"
        }
    }
}
