// Parsing springs from text: comma-separated `name=value` pairs in one of three families.
import SegueMath
import SegueSystem

extension Spring {
    /// Parses a spring from comma-separated `name=value` pairs of ONE family:
    /// - physical: `mass`, `stiffness`, `damping`, `velocity` (also `initial-velocity`),
    ///   `allows-overdamping` (`true`/`false`); missing ones take CASpringAnimation's defaults
    ///   (1, 100, 10, 0, false);
    /// - SwiftUI response: `response`, `damping-fraction`, `velocity` (defaults 0.55, 0.825, 0);
    /// - perceptual: `duration`, `bounce`, `velocity` (defaults 0.5, 0, 0).
    ///
    /// Also the names `default` (the physical defaults) and `uikit-navigation-push`. An
    /// empty string is the default spring. Names are case-insensitive; spaces are ignored.
    ///
    /// - Throws: ``AnimationError``: `.invalidSyntax` for unknown or repeated names, missing
    ///   `=`, values that are not numbers or names from two families; `.invalidParameter` for
    ///   values out of range.
    public init(parsing text: String) throws {
        let source = text.trimmingWhitespaceAndNewlines().lowercased()
        switch source {
        case "", "default":
            try self.init()
            return
        case "uikit-navigation-push", "uikit-push":
            self = .uikitNavigationPush
            return
        default:
            break
        }
        let families: [String: Set<String>] = [
            "physical (mass, stiffness, damping)": ["mass", "stiffness", "damping", "allows-overdamping"],
            "response (response, damping-fraction)": ["response", "damping-fraction"],
            "perceptual (duration, bounce)": ["duration", "bounce"],
        ]
        let shared: Set<String> = ["velocity", "initial-velocity"]
        let known = families.values.reduce(shared) { $0.union($1) }

        var values: [String: String] = [:]
        var family: String?
        for item in source.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else {
                throw AnimationError(
                    .invalidSyntax,
                    "spring parameter '\(MessageText.excerpt(String(item).trimmingWhitespaceAndNewlines()))' needs the form name=value")
            }
            var name = String(pair[0]).trimmingWhitespaceAndNewlines()
            let value = String(pair[1]).trimmingWhitespaceAndNewlines()
            guard known.contains(name) else {
                throw AnimationError(
                    .invalidSyntax,
                    "unknown spring parameter '\(MessageText.excerpt(name))'; expected mass, stiffness, damping, velocity, allows-overdamping, response, damping-fraction, duration or bounce"
                )
            }
            if name == "initial-velocity" { name = "velocity" }
            guard values[name] == nil else {
                throw AnimationError(.invalidSyntax, "spring parameter '\(MessageText.excerpt(name))' is given twice")
            }
            if let owner = families.first(where: { $0.value.contains(name) })?.key {
                if let current = family, current != owner {
                    throw AnimationError(
                        .invalidSyntax,
                        "spring parameter '\(MessageText.excerpt(name))' belongs to the \(owner) family and cannot be mixed with the \(current) family"
                    )
                }
                family = owner
            }
            values[name] = value
        }

        func number(_ name: String, default fallback: Double) throws -> Double {
            guard let text = values[name] else { return fallback }
            guard let value = Double(text) else {
                throw AnimationError(.invalidSyntax, "spring parameter \(name) = '\(MessageText.excerpt(text))' is not a number")
            }
            return value
        }

        let velocity = try number("velocity", default: 0)
        if values["response"] != nil || values["damping-fraction"] != nil {
            try self.init(
                response: try number("response", default: 0.55),
                dampingFraction: try number("damping-fraction", default: 0.825),
                initialVelocity: velocity)
        } else if values["duration"] != nil || values["bounce"] != nil {
            try self.init(
                perceptualDuration: try number("duration", default: 0.5),
                bounce: try number("bounce", default: 0),
                initialVelocity: velocity)
        } else {
            var overdamping = false
            if let text = values["allows-overdamping"] {
                switch text {
                case "true", "yes", "1": overdamping = true
                case "false", "no", "0": overdamping = false
                default:
                    throw AnimationError(
                        .invalidSyntax, "spring parameter allows-overdamping = '\(MessageText.excerpt(text))' must be true or false")
                }
            }
            try self.init(
                mass: try number("mass", default: 1),
                stiffness: try number("stiffness", default: 100),
                damping: try number("damping", default: 10),
                initialVelocity: velocity,
                allowsOverdamping: overdamping)
        }
    }
}
