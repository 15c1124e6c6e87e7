// Input and window events, in points (UIKit's unit) with SDL's event timestamps in seconds.

/// A key Segue's live views respond to.
public enum Key: Sendable, Hashable {
    case left, right, up, down, enter, backspace, escape, space
    /// A printable key, lower case (`s`, `r`, …).
    case character(Character)
    /// Any other key, by SDL key code.
    case other(Int32)
}

/// What happened to a window.
public enum WindowEvent: Sendable, Equatable {
    /// The user asked to quit (window closed, or the application's quit request).
    case quit
    /// The drawable area changed: its new size in points and pixels.
    case resized(width: Double, height: Double, pixelWidth: Int, pixelHeight: Int)
    /// The window needs drawing again (uncovered, restored).
    case exposed
    /// A key went down (`isRepeat` for auto-repeat).
    case keyDown(Key, isRepeat: Bool, time: Double)
    /// A key went up.
    case keyUp(Key, time: Double)
    /// A mouse button or finger went down at a point.
    case pointerDown(x: Double, y: Double, time: Double)
    /// The pointer moved (with a button down or not).
    case pointerMoved(x: Double, y: Double, isPressed: Bool, time: Double)
    /// The button or finger went up.
    case pointerUp(x: Double, y: Double, time: Double)
}
