// The Metal front end: a `.metal` file of SwiftUI `[[ stitchable ]]` shader functions, written in
// the part of the Metal Shading Language such shaders use, translated into GLSL 4.50.
//
// The pipeline: `MetalLexer` (tokens with lines and columns) → `MetalPreprocessor` (includes,
// `#define`, conditionals) → `MetalParser` (a syntax tree) → `MetalChecker` (Metal's types,
// implicit conversions and overloads; GLSL with every conversion explicit, each token on its
// source line). Everything outside the subset is rejected here, with `file:LINE: …` naming the
// construct, so `segue info` finds it and the GLSL compiler never sees a file it would refuse. So
// are files past the limits that keep the translator, the GLSL compiler and the driver fast and
// within their stacks (see Docs/StitchableShaders.md, "Limits"): expression height and nesting
// (`MetalParser`), macro expansion (`MetalPreprocessor`), tokens, and sizes of types, tables and
// function lists (`MetalChecker+Limits.swift`).

/// Translates stitchable Metal sources to GLSL.
public enum MetalTranslator {
    /// The most tokens of a file after its macros are expanded: half the limit for GLSL files
    /// (`GLSLSourceLimits.maximumTokens` in SegueShaders), as the translation adds conversions and
    /// a transition runs the function twice (for the removed and the inserted screen), and
    /// lavapipe's compile time grows faster than linearly with the length of the code.
    public static let maximumTokens = 16_384

    /// The result of translating one file.
    public struct Module: Sendable, Equatable {
        /// GLSL for every declaration in the file (helpers with `_m_` names), on the user's lines.
        public let glsl: String
        /// Definitions of the library helpers the file uses (`_msl_fmod`, the texture sampler),
        /// to go before `glsl`.
        public let prelude: String
        /// The `[[ stitchable ]]` functions, in source order.
        public let functions: [StitchableSignature]
        /// The `[[ stitchable ]]` functions that cannot be used and why, in source order.
        public let refused: [StitchableRefusal]
        /// Number of lines of the source.
        public let lineCount: Int
    }

    /// Translates `text`.
    /// - Parameters:
    ///   - file: the name used in error messages (the path, or `shift.metal` for a built-in).
    /// - Throws: `ShaderSourceError` naming the first unsupported construct or type error and its
    ///   line. A stitchable function whose signature SwiftUI could not call is not an error of the
    ///   file: it is listed in `refused`.
    public static func translate(_ text: String, file: String) throws(ShaderSourceError) -> Module {
        var preprocessor = MetalPreprocessor(file: file)
        let tokens = try preprocessor.run(try MetalLexer.tokenize(text, file: file))
        var parser = MetalParser(tokens: tokens, file: file)
        let declarations = try parser.parseFile()
        // After parsing (linear, and bounded in depth), so a malformed file gets its own error.
        guard tokens.count <= maximumTokens else {
            throw ShaderSourceError(
                file: file, line: tokens[maximumTokens].line,
                message:
                    "the file has more than \(maximumTokens) tokens after its macros are expanded; keep in it only the functions a transition uses, or shorten them (a macro counts at each use)"
            )
        }
        var checker = MetalChecker(file: file)
        try checker.check(declarations)
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        return Module(
            glsl: checker.out.text, prelude: checker.prelude.text, functions: checker.stitchable, refused: checker.refused,
            lineCount: lineCount)
    }
}
