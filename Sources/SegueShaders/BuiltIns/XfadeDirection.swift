// The directions and corners that xfade's families come in. A family's GLSL is written once, in
// terms of the axis a direction moves along and whether it counts pixels from the far edge; these
// types say what that is for each direction, in GLSL and in words.

/// One of the four directions of an xfade family (`wipeleft` … `wipedown`).
struct XfadeDirection {
    /// The name's suffix: `left`, `right`, `up` or `down`.
    let name: String
    /// The short form in `hlslice`, `vdwind`: `hl`, `hr`, `vu`, `vd`.
    let letters: String
    /// Whether the motion runs towards larger pixel indices (right, down).
    let isForward: Bool
    /// The side the motion heads for: `left`, `right`, `top`, `bottom`.
    let side: String
    /// The side it comes from.
    let origin: String

    /// The four, in xfade's order.
    static let all = [
        XfadeDirection(name: "left", letters: "hl", isForward: false, side: "left", origin: "right"),
        XfadeDirection(name: "right", letters: "hr", isForward: true, side: "right", origin: "left"),
        XfadeDirection(name: "up", letters: "vu", isForward: false, side: "top", origin: "bottom"),
        XfadeDirection(name: "down", letters: "vd", isForward: true, side: "bottom", origin: "top"),
    ]

    /// The GLSL component of the axis the motion runs along: `x` or `y`.
    var axis: String { letters.hasPrefix("h") ? "x" : "y" }

    /// The orientation of an edge that moves this way: `vertical` or `horizontal`.
    var edge: String { axis == "x" ? "vertical" : "horizontal" }

    /// The way the motion goes, in words: `right to left` …
    var travel: String { origin + " to " + side }

    /// The pixel's index along the axis as a float, counted from the edge the motion starts at:
    /// `float(p.x)`, or `(n - 1.0 - float(p.x))` for a forward motion (`n` the GLSL name of the
    /// extent along the axis).
    func position(extent n: String) -> String {
        isForward ? "(\(n) - 1.0 - float(p.\(axis)))" : "float(p.\(axis))"
    }

    /// The share of the extent that has moved: `P` or, forward, `(1.0 - P)`.
    var share: String { isForward ? "(1.0 - P)" : "P" }
}

/// One of the four corners of xfade's corner families (`wipetl`, `diagbr`, …).
struct XfadeCorner {
    /// The name's suffix: `tl`, `tr`, `bl`, `br`.
    let name: String
    /// Whether the corner is on the right.
    let isRight: Bool
    /// Whether the corner is at the bottom.
    let isBottom: Bool

    /// The four, in xfade's order.
    static let all = [
        XfadeCorner(name: "tl", isRight: false, isBottom: false), XfadeCorner(name: "tr", isRight: true, isBottom: false),
        XfadeCorner(name: "bl", isRight: false, isBottom: true), XfadeCorner(name: "br", isRight: true, isBottom: true),
    ]

    /// The corner in words: `top-left` …
    var words: String { (isBottom ? "bottom" : "top") + "-" + (isRight ? "right" : "left") }

    /// The opposite corner in words.
    var opposite: String { (isBottom ? "top" : "bottom") + "-" + (isRight ? "left" : "right") }

    /// The horizontal and vertical directions towards the corner.
    var directions: (x: XfadeDirection, y: XfadeDirection) {
        (XfadeDirection.all[isRight ? 1 : 0], XfadeDirection.all[isBottom ? 3 : 2])
    }
}
