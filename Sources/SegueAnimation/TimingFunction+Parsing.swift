// Parsing timing functions from text, with CSS-style names.
import SegueMath
import SegueSystem

extension TimingFunction {
    /// The largest |y1| and |y2| a parsed curve takes: 1,000.
    public static let maximumControlY = 1_000.0

    /// Parses a timing function: `linear`, `ease-in`, `ease-out`, `ease-in-out`, `default`
    /// (also `ease`, and Core Animation's `easeIn`, `easeOut`, `easeInEaseOut`), or
    /// `cubic-bezier(x1, y1, x2, y2)` with `x1`, `x2` in [0, 1] and `y1`, `y2` in
    /// ±``maximumControlY``. Case and surrounding
    /// whitespace are ignored.
    ///
    /// - Throws: ``AnimationError`` (`.invalidSyntax`, or `.invalidParameter` for an `x`
    ///   outside [0, 1] or a `y` beyond ±1,000) with a message naming what is wrong.
    public init(parsing text: String) throws {
        let source = text.trimmingWhitespaceAndNewlines()
        let lowered = source.lowercased()
        switch lowered {
        case "linear":
            self = .linear
            return
        case "ease-in", "easein":
            self = .easeIn
            return
        case "ease-out", "easeout":
            self = .easeOut
            return
        case "ease-in-out", "easeineaseout", "easeinout":
            self = .easeInEaseOut
            return
        case "default", "ease":
            self = .default
            return
        default:
            break
        }
        let prefix = "cubic-bezier("
        guard lowered.hasPrefix(prefix) else {
            throw AnimationError(
                .invalidSyntax,
                "unknown timing function '\(MessageText.excerpt(source))'; expected linear, ease-in, ease-out, ease-in-out, default or cubic-bezier(x1, y1, x2, y2)"
            )
        }
        guard lowered.hasSuffix(")") else {
            throw AnimationError(
                .invalidSyntax, "'\(MessageText.excerpt(source))' is missing the closing parenthesis of cubic-bezier(x1, y1, x2, y2)")
        }
        let inner = lowered.dropFirst(prefix.count).dropLast()
        let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespaceAndNewlines() }
        guard parts.count == 4 else {
            throw AnimationError(
                .invalidSyntax, "cubic-bezier needs 4 numbers (x1, y1, x2, y2), got \(parts.count) in '\(MessageText.excerpt(source))'")
        }
        let names = ["x1", "y1", "x2", "y2"]
        var numbers: [Double] = []
        for (name, part) in zip(names, parts) {
            guard let number = Double(part), number.isFinite else {
                throw AnimationError(.invalidSyntax, "cubic-bezier \(name) '\(MessageText.excerpt(part))' is not a finite number")
            }
            numbers.append(number)
        }
        for index in [0, 2] where !(0...1).contains(numbers[index]) {
            throw AnimationError(
                .invalidParameter,
                "cubic-bezier \(names[index]) = \(numbers[index]) is outside [0, 1]; the x coordinates of the control points must lie in [0, 1]"
            )
        }
        // CSS sets no bound on y; past ±1,000 the overshoot is beyond any screen, and near 1e308
        // the curve's polynomial overflows to NaN.
        for index in [1, 3] where abs(numbers[index]) > TimingFunction.maximumControlY {
            throw AnimationError(
                .invalidParameter,
                "cubic-bezier \(names[index]) = \(MessageText.number(numbers[index])) is outside [-1000, 1000]; a control point that far overshoots beyond any screen"
            )
        }
        self.init(controlPoints: numbers[0], numbers[1], numbers[2], numbers[3])
    }
}
