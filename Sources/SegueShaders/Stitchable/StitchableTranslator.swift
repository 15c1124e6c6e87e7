// SwiftUI `[[ stitchable ]]` functions as Segue effects: the Metal front end (SegueMetal's
// `MetalTranslator`) translates the file, and each function it finds becomes a
// `StitchableFunction`, from which transitions and effects on one image are built.
import SegueMetal

/// Translates stitchable Metal sources to GLSL and their functions to `StitchableFunction`s.
public enum StitchableTranslator {
    /// The most tokens of a file after its macros are expanded (`MetalTranslator.maximumTokens`).
    public static let maximumTokens = MetalTranslator.maximumTokens

    /// The result of translating one file: the translation, and its functions ready to render.
    public struct Module: Sendable, Equatable {
        /// The GLSL of the file, the helpers it uses and its length.
        public let metal: MetalTranslator.Module
        /// The `[[ stitchable ]]` functions, in source order.
        public let functions: [StitchableFunction]

        /// The `[[ stitchable ]]` functions that cannot be used and why (`metal.refused`).
        public var refused: [StitchableRefusal] { metal.refused }

        /// Every `[[ stitchable ]]` function's name, the refused ones' too, in the order of their lines.
        public var names: [String] { byLine.map(\.name) }

        /// The name that picks each function, the refused ones' too, in the order of their lines:
        /// its name, or its name and types (`glow(float4,float)`) where the name has overloads.
        public var pickingNames: [String] {
            let found = byLine
            let uses = Dictionary(found.map { ($0.name, 1) }, uniquingKeysWith: +)
            return found.map { uses[$0.name, default: 0] > 1 ? StitchableTranslator.spelled($0.name, $0.types) : $0.name }
        }

        /// Every function's line, name and argument types after position, in the order of their lines.
        private var byLine: [(line: Int, name: String, types: [String])] {
            (functions.map { ($0.line, $0.name, $0.parameterTypes) } + refused.map { ($0.line, $0.name, $0.parameterTypes) })
                .sorted { $0.0 < $1.0 }
        }
    }

    /// A function named by its types after position, as `FILE.metal:NAME(types)` picks an
    /// overload: `glow(float4,float)`.
    public static func spelled(_ name: String, _ types: [String]) -> String { "\(name)(\(types.joined(separator: ",")))" }

    /// Translates `text`.
    /// - Parameters:
    ///   - file: the name used in error messages (the path, or `shift.metal` for a built-in).
    /// - Throws: `ShaderSourceError` naming the first unsupported construct or type error and its line.
    public static func translate(_ text: String, file: String) throws(ShaderSourceError) -> Module {
        let module = try MetalTranslator.translate(text, file: file)
        // One array of names, shared by every function (a copy each would grow with the square
        // of the number of functions).
        let siblings = module.functions.map(\.name)
        return Module(
            metal: module,
            functions: module.functions.map { f in
                StitchableFunction(
                    name: f.name, kind: f.kind, arguments: f.arguments, line: f.line, file: file,
                    glslName: f.glsl, moduleGLSL: module.glsl, preludeGLSL: module.prelude, lineCount: module.lineCount,
                    siblings: siblings)
            })
    }
}
