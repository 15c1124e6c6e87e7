// Built-in effects written as SwiftUI stitchable Metal shaders, translated like a user's file.
import SegueCore

/// Segue's stitchable built-ins.
enum StitchableBuiltIns {
    /// A built-in: its Metal source and how it is presented.
    struct Entry {
        /// The file name used in messages.
        let file: String
        /// The stitchable function.
        let function: String
        /// The Metal source.
        let source: String
        /// One line for `segue list`.
        let summary: String
        /// Default timing curve name.
        let timing: String
    }

    /// shared/reference/effects.md, "Shift transition". A distortion returns where to sample, so
    /// sampling at x + value·width moves the content the other way: the inserted screen (value
    /// 1 → 0) slides in from the left while the removed one (0 → −1) slides out to the right,
    /// each skewed mid-travel.
    static let shift = Entry(
        file: "shift.metal", function: "shift",
        source: #"""
            #include <metal_stdlib>
            #include <SwiftUI/SwiftUI_Metal.h>
            using namespace metal;

            // effectValue runs 1 → 0 on the inserted view and 0 → −1 on the removed one.
            [[ stitchable ]] float2 shift(float2 position, float2 size, float effectValue) {
                float skewF = 0.1 * size.x;
                float yRatio = position.y / size.y;
                float skewProgress = min(0.5 - abs(abs(effectValue) - 0.5), 0.2) / 0.2;
                float skew = effectValue > 0 ? yRatio * skewF * skewProgress
                                             : (1 - yRatio) * skewF * skewProgress;
                float offset = effectValue * size.x;
                return float2(position.x + offset + skew * sign(effectValue), position.y);
            }
            """#, summary: "Shift: to slides in from the left, pushing from out to the right, skewed mid-way (SwiftUI shader).",
        timing: "ease-in-out")

    /// Every stitchable built-in.
    static let all: [Entry] = [shift]

    /// The built-in's translated function.
    static func function(_ entry: Entry) -> StitchableFunction {
        // Built-in sources are fixed and tested; a translation failure is a programming error.
        do {
            let module = try StitchableTranslator.translate(entry.source, file: entry.file)
            guard let f = module.functions.first(where: { $0.name == entry.function }) else {
                fatalError("built-in \(entry.file) has no stitchable function \(entry.function)")
            }
            return f
        } catch {
            fatalError("built-in \(entry.file) failed to translate: \(error)")
        }
    }

    /// The built-in as a transition with the default configuration.
    static func effect(_ entry: Entry) -> Effect {
        do {
            return try function(entry).effect(summary: entry.summary, source: .builtIn, defaultTiming: entry.timing)
        } catch {
            fatalError("built-in \(entry.file) cannot run as a transition: \(error)")
        }
    }
}
