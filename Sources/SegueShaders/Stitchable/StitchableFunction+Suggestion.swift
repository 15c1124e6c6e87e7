// How a stitchable function is suggested to run as a transition: which argument to animate, the
// effect values of each screen, and — for libraries that pair a left-to-right function with a
// right-to-left one (`crosswarpLTR`/`crosswarpRTL`, `…In`/`…Out`) — the function for the removed
// screen. The suggestion reads names only; it is a starting point that a front end words its own
// way (`segue info` prints it as flags, with the ranges swapped for functions where 1 is the
// unchanged view).
import SegueSystem

/// Settings that apply a stitchable function as a transition.
public struct StitchableSuggestion: Sendable, Equatable {
    /// The argument to animate; nil when the function has no `float` to animate.
    public let animated: String?
    /// The inserted screen's effect values at progress 0 and 1, as `A:B`.
    public let insertion: String
    /// The removed screen's effect values, as `A:B`.
    public let removal: String
    /// A sibling function for the removed screen, when the file has the mirrored name.
    public let removalFunction: String?
}

extension StitchableFunction {
    /// Name parts that mark a function's mirror image.
    static let mirroredNames: [(String, String)] = [
        ("LTR", "RTL"), ("Ltr", "Rtl"), ("ltr", "rtl"), ("Left", "Right"), ("left", "right"), ("Insertion", "Removal"),
        ("insertion", "removal"), ("Forward", "Backward"), ("forward", "backward"), ("In", "Out"), ("Up", "Down"),
        ("Appear", "Disappear"), ("Show", "Hide"),
    ]

    /// The suggested transition flags.
    public var suggestion: StitchableSuggestion {
        let animated = try? animatedArgument(StitchableConfiguration())
        var mirror: String?
        for (a, b) in Self.mirroredNames {
            for (x, y) in [(a, b), (b, a)] where mirror == nil && name.contains(x) {
                let candidate = name.replacingAll(x, with: y)
                if candidate != name, siblings.contains(candidate) { mirror = candidate }
            }
        }
        let symmetric = animated?.name == "effectValue"
        return StitchableSuggestion(
            animated: animated?.name, insertion: "1:0", removal: symmetric ? "0:-1" : "0:1", removalFunction: mirror)
    }
}
