// Translates a `.metal` file of SwiftUI `[[ stitchable ]]` shader functions, written in the subset
// of the Metal Shading Language such shaders use, into GLSL 4.50.
//
// The translation is token by token and keeps every token on its source line, so the GLSL has
// the user's line numbers and compiler messages point into the `.metal` file. Top level: the two
// includes SwiftUI shaders use, `using namespace metal;`, global `constant`/`constexpr` values,
// and functions (helpers and stitchable ones). Inside functions: Metal types become GLSL types,
// `metal::`/`precise::`/`fast::` prefixes are dropped, standard-library functions are renamed
// (`MetalVocabulary.functions`), half and float literal suffixes are removed, `layer.sample(p)`
// becomes a call into Segue's sampler. Anything else the subset does not cover is rejected with
// `file:LINE: unsupported <construct>: '<text>'` rather than translated into something that
// might compile and draw a wrong picture.
import SegueCore

/// Translates stitchable Metal sources to GLSL.
public enum StitchableTranslator {
    /// The includes a stitchable shader may use.
    static let allowedIncludes: Set<String> = ["<metal_stdlib>", "<SwiftUI/SwiftUI_Metal.h>", "<SwiftUI/SwiftUI.h>",
                                               "<metal_math>"]

    /// The result of translating one file.
    public struct Module: Sendable, Equatable {
        /// GLSL for every function in the file (helpers with `_m_` names), on the user's lines.
        public let glsl: String
        /// The `[[ stitchable ]]` functions, in source order.
        public let functions: [StitchableFunction]
        /// Number of lines of the source.
        public let lineCount: Int
    }

    /// Translates `text`.
    /// - Parameters:
    ///   - file: the name used in error messages (the path, or `shift.metal` for a built-in).
    /// - Throws: `ShaderSourceError` naming the first unsupported construct and its line.
    public static func translate(_ text: String, file: String) throws(ShaderSourceError) -> Module {
        var t = Translator(tokens: try MetalLexer.tokenize(text, file: file), file: file)
        try t.run()
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        return Module(glsl: t.out.text, functions: t.stitchable.map { f in
            StitchableFunction(name: f.name, kind: f.kind, arguments: f.arguments, line: f.line, file: file,
                               glslName: "_m_" + f.name, moduleGLSL: t.out.text, lineCount: lineCount)
        }, lineCount: lineCount)
    }
}

/// GLSL text that keeps each token on its source line and column where it can.
struct LineWriter {
    private(set) var text = ""
    private var line = 1

    /// Appends `s` for a token at `line`:`column` (moving down with newlines, never up), with a
    /// space before it when the source had one.
    mutating func emit(_ s: String, at token: MetalToken) {
        emit(s, line: token.line, column: token.column, space: token.spaceBefore)
    }

    /// Appends `s` at `line` and `column`, after a space when `space` is set.
    mutating func emit(_ s: String, line at: Int, column: Int = 1, space: Bool = true) {
        if at > line {
            text += String(repeating: "\n", count: at - line)
            line = at
            text += String(repeating: " ", count: max(column - 1, 0))
        } else if space, let last = text.last, last != "\n", last != " " {
            text += " "
        }
        text += s
    }
}

private struct Translator {
    struct Found { var name: String; var kind: StitchableKind; var arguments: [StitchableArgument]; var line: Int }
    struct Param { var name: String; var metalType: String; var isLayer: Bool; var isReference: Bool; var isConst: Bool; var line: Int }

    let tokens: [MetalToken]
    let file: String
    var i = 0
    var out = LineWriter()
    var stitchable: [Found] = []
    var userFunctions: Set<String> = []
    var usingSwiftUI = false

    init(tokens: [MetalToken], file: String) {
        self.tokens = tokens
        self.file = file
    }

    // MARK: - Helpers

    func unsupported(_ what: String, _ token: MetalToken) -> ShaderSourceError {
        ShaderSourceError(file: file, line: token.line, message: "unsupported \(what): '\(token.text)'")
    }

    func error(_ message: String, _ line: Int) -> ShaderSourceError { ShaderSourceError(file: file, line: line, message: message) }

    func peek(_ k: Int = 0) -> MetalToken? { i + k < tokens.count ? tokens[i + k] : nil }

    func isText(_ s: String, _ k: Int = 0) -> Bool { peek(k)?.text == s && peek(k)?.kind != .string }

    var lastLine: Int { tokens.last?.line ?? 1 }

    mutating func expect(_ s: String, _ context: String) throws(ShaderSourceError) {
        guard let t = peek() else { throw error("expected '\(s)' \(context), found the end of the file", lastLine) }
        guard t.text == s, t.kind == .punctuation else { throw error("expected '\(s)' \(context), found '\(t.text)'", t.line) }
        i += 1
    }

    /// A user identifier as it appears in GLSL (reserved GLSL words get a `_v_` prefix).
    func glslName(_ name: String) -> String {
        if userFunctions.contains(name) { return "_m_" + name }
        return MetalVocabulary.isReservedInGLSL(name) ? "_v_" + name : name
    }

    // MARK: - Top level

    mutating func run() throws(ShaderSourceError) {
        while let t = peek() {
            switch t.kind {
            case .directive:
                try directive(t)
                i += 1
            case .string:
                throw unsupported("string literal", t)
            case .number:
                throw error("unexpected number '\(t.text)' outside a function", t.line)
            case .punctuation:
                if t.text == ";" { i += 1; continue }
                if t.text == "[[" { try declaration(); continue }
                throw error("unexpected '\(t.text)' outside a function", t.line)
            case .identifier:
                if t.text == "using" { try usingDirective(); continue }
                try declaration()
            }
        }
    }

    func directive(_ t: MetalToken) throws(ShaderSourceError) {
        let words = t.text.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let head = words.first else { return }
        if head == "include", words.count == 2 {
            guard StitchableTranslator.allowedIncludes.contains(words[1]) else {
                throw error("unsupported #include: '\(words[1])' (only <metal_stdlib> and <SwiftUI/SwiftUI_Metal.h> are available)", t.line)
            }
            return
        }
        if head == "pragma", words.count == 2, words[1] == "once" { return }
        throw unsupported("preprocessor directive", t)
    }

    mutating func usingDirective() throws(ShaderSourceError) {
        let start = peek()!
        guard isText("namespace", 1), let ns = peek(2), ns.kind == .identifier, isText(";", 3),
              ns.text == "metal" || ns.text == "SwiftUI" else {
            throw unsupported("using declaration (only 'using namespace metal;')", start)
        }
        if ns.text == "SwiftUI" { usingSwiftUI = true }
        i += 4
    }

    // MARK: - Declarations

    /// Parses a Metal type at the cursor (`float2`, `metal::float2`, `SwiftUI::Layer`, `Layer`);
    /// returns its Metal spelling.
    mutating func parseType() throws(ShaderSourceError) -> String {
        guard let t = peek() else { throw error("expected a type, found the end of the file", lastLine) }
        guard t.kind == .identifier else { throw error("expected a type, found '\(t.text)'", t.line) }
        if t.text == "metal", isText("::", 1) { i += 2; return try parseType() }
        if t.text == "SwiftUI", isText("::", 1), isText("Layer", 2) { i += 3; return "SwiftUI::Layer" }
        if t.text == "Layer", usingSwiftUI { i += 1; return "SwiftUI::Layer" }
        if let what = MetalVocabulary.rejected[t.text] { throw unsupported(what, t) }
        guard MetalVocabulary.types[t.text] != nil else {
            if isText("<", 1) { throw unsupported("template type", t) }
            throw unsupported("type", t)
        }
        i += 1
        if isText("<") { throw unsupported("template type", t) }
        return t.text
    }

    func glslType(_ metal: String) -> String { metal == "SwiftUI::Layer" ? "int" : MetalVocabulary.types[metal]! }

    mutating func declaration() throws(ShaderSourceError) {
        let first = peek()!
        var isStitchable = false
        var isConstant = false
        if isText("[[") {
            guard let attr = peek(1), isText("]]", 2) else { throw unsupported("attribute", peek(1) ?? first) }
            guard attr.text == "stitchable" else { throw unsupported("attribute", attr) }
            isStitchable = true
            i += 3
        }
        // Qualifiers that change nothing in GLSL (or mark a compile-time constant).
        while let q = peek(), q.kind == .identifier, ["static", "inline", "constexpr", "constant", "const"].contains(q.text) {
            if q.text == "constant" || q.text == "constexpr" || q.text == "const" { isConstant = true }
            i += 1
        }
        let typeToken = peek() ?? first
        let type = try parseType()
        if isText("*") || isText("&") { throw unsupported(isText("*") ? "pointer" : "reference", peek()!) }
        guard let nameToken = peek(), nameToken.kind == .identifier else {
            throw error("expected a name after '\(type)'", (peek() ?? typeToken).line)
        }
        if let what = MetalVocabulary.rejected[nameToken.text] { throw unsupported(what, nameToken) }
        i += 1
        if isText("(") {
            try function(name: nameToken, returnType: type, typeToken: first, isStitchable: isStitchable)
            return
        }
        guard !isStitchable else { throw error("[[ stitchable ]] must mark a function", nameToken.line) }
        guard isConstant else {
            throw error("unsupported global variable: '\(nameToken.text)' (declare it 'constant' or move it into the function)", nameToken.line)
        }
        // Global constant: `constant float k = expr;` → `const float k = expr;`.
        out.emit("const \(glslType(type)) \(glslName(nameToken.text))", at: first)
        guard isText("=") else { throw error("a global constant needs a value ('= …')", nameToken.line) }
        try body(until: ";", layers: [])
    }

    mutating func function(name: MetalToken, returnType: String, typeToken: MetalToken, isStitchable: Bool) throws(ShaderSourceError) {
        i += 1 // (
        var params: [Param] = []
        if isText("void") && isText(")", 1) { i += 1 }
        while !isText(")") {
            if !params.isEmpty { try expect(",", "between parameters") }
            params.append(try parameter())
        }
        i += 1 // )
        userFunctions.insert(name.text)
        if isStitchable {
            stitchable.append(try signature(name: name, returnType: returnType, params: params))
        }
        var header = "\(glslType(returnType)) \(glslName(name.text))("
        header += params.map { p in
            let q = p.isReference ? (p.isConst ? "in " : "inout ") : (p.isConst ? "const " : "")
            return "\(q)\(glslType(p.metalType)) \(glslName(p.name))"
        }.joined(separator: ", ")
        header += ")"
        out.emit(header, at: typeToken)
        if isText(";") { out.emit(";", at: peek()!); i += 1; return }
        guard isText("{") else { throw error("expected '{' to begin the body of '\(name.text)'", (peek() ?? name).line) }
        let layers = Set(params.filter(\.isLayer).map(\.name))
        try body(until: "}", layers: layers)
    }

    mutating func parameter() throws(ShaderSourceError) -> Param {
        let start = peek() ?? tokens[tokens.count - 1]
        var isConst = false
        var isThread = false
        while let q = peek(), q.kind == .identifier, ["const", "thread"].contains(q.text) {
            if q.text == "const" { isConst = true } else { isThread = true }
            i += 1
        }
        if let q = peek(), q.text == "device" || q.text == "constant" || q.text == "threadgroup" {
            throw unsupported("address space", q)
        }
        let type = try parseType()
        var isReference = false
        if isText("*") { throw unsupported("pointer", peek()!) }
        if isText("&") {
            guard isThread else { throw unsupported("reference (only 'thread T &name')", peek()!) }
            isReference = true
            i += 1
        }
        guard let n = peek(), n.kind == .identifier else { throw error("expected a parameter name after '\(type)'", (peek() ?? start).line) }
        if let what = MetalVocabulary.rejected[n.text] { throw unsupported(what, n) }
        i += 1
        if isText("[") { throw unsupported("array parameter", peek()!) }
        if isText("[[") { throw unsupported("attribute", peek(1) ?? peek()!) }
        if isText("=") { throw unsupported("default argument", peek()!) }
        return Param(name: n.text, metalType: type, isLayer: type == "SwiftUI::Layer", isReference: isReference,
                     isConst: isConst, line: n.line)
    }

    /// Recognises the kind of a stitchable function from its signature.
    func signature(name: MetalToken, returnType: String, params: [Param]) throws(ShaderSourceError) -> Found {
        let shapes = "a stitchable function must be 'float2 f(float2 position, …)' (distortion), "
            + "'half4 f(float2 position, half4 color, …)' (colour) or 'half4 f(float2 position, SwiftUI::Layer layer, …)' (layer)"
        guard let p0 = params.first, p0.metalType == "float2", !p0.isReference else {
            throw error("'\(name.text)': \(shapes)", name.line)
        }
        let kind: StitchableKind
        var rest = params.dropFirst()
        switch returnType {
        case "float2":
            kind = .distortion
        case "half4":
            guard let p1 = rest.first else { throw error("'\(name.text)': \(shapes)", name.line) }
            if p1.isLayer { kind = .layer } else if p1.metalType == "half4" { kind = .color } else {
                throw error("'\(name.text)': \(shapes)", p1.line)
            }
            rest = rest.dropFirst()
        default:
            throw error("'\(name.text)': \(shapes)", name.line)
        }
        var arguments: [StitchableArgument] = []
        for p in rest {
            guard let type = MetalVocabulary.argumentTypes[p.metalType], !p.isReference, !p.isLayer else {
                throw error("unsupported stitchable argument type: '\(p.metalType)\(p.isReference ? "&" : "")' of '\(p.name)' "
                    + "(arguments are float, half, float2–4 or half2–4)", p.line)
            }
            arguments.append(StitchableArgument(name: p.name, type: type, metalType: p.metalType))
        }
        return Found(name: name.text, kind: kind, arguments: arguments, line: name.line)
    }

    // MARK: - Function bodies

    /// Translates tokens from the cursor (an opening `{` or `=`) through the matching `close`.
    mutating func body(until close: String, layers: Set<String>) throws(ShaderSourceError) {
        var depth = 0
        while let t = peek() {
            switch t.kind {
            case .directive: throw unsupported("preprocessor directive inside a function", t)
            case .string: throw unsupported("string literal", t)
            case .number: out.emit(try number(t), at: t); i += 1
            case .punctuation:
                try punctuation(t)
                if t.text == "{" || t.text == "(" { depth += 1 }
                if t.text == "}" || t.text == ")" { depth -= 1 }
                if t.text == close && depth <= 0 { return }
            case .identifier:
                try identifier(t, layers: layers)
            }
        }
        throw error("expected '\(close)' before the end of the file", lastLine)
    }

    mutating func punctuation(_ t: MetalToken) throws(ShaderSourceError) {
        switch t.text {
        case "->": throw unsupported("pointer member access", t)
        case "[[": throw unsupported("attribute", peek(1) ?? t)
        case "]]": out.emit("] ]", at: t)
        case "#", "@", "\\", "$", "...": throw unsupported("token", t)
        case "::": throw unsupported("scope resolution", t)
        case "(":
            // C-style cast `(float)x`.
            if let ty = peek(1), ty.kind == .identifier, MetalVocabulary.types[ty.text] != nil, isText(")", 2) {
                throw unsupported("C-style cast (write \(ty.text)(x))", ty)
            }
            out.emit("(", at: t)
        default: out.emit(t.text, at: t)
        }
        i += 1
    }

    /// A numeric literal without Metal's `h`/`f` suffixes (an `h` on an integer makes it a float).
    func number(_ t: MetalToken) throws(ShaderSourceError) -> String {
        var s = t.text
        let lower = s.lowercased()
        if lower.hasPrefix("0x") {
            if lower.contains(".") || lower.contains("p") { throw unsupported("hexadecimal float literal", t) }
            return s
        }
        var isFloat = s.contains(".") || lower.contains("e")
        if let last = s.last, "hHfF".contains(last) { s.removeLast(); isFloat = true }
        if s.last == "u" || s.last == "U" { return s }
        guard s.allSatisfy({ $0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "+" || $0 == "-" }),
              s.first?.isNumber == true || s.first == "." else {
            throw unsupported("number literal", t)
        }
        if isFloat && !s.contains(".") && !s.lowercased().contains("e") { s += ".0" }
        return s
    }

    mutating func identifier(_ t: MetalToken, layers: Set<String>) throws(ShaderSourceError) {
        let name = t.text
        // Namespaces: metal::, precise::, fast:: are dropped; SwiftUI::Layer is a layer handle.
        if ["metal", "precise", "fast"].contains(name), isText("::", 1) { out.emit("", at: t); i += 2; return }
        if name == "SwiftUI", isText("::", 1), isText("Layer", 2) { throw unsupported("local layer variable", t) }
        if isText("::", 1) { throw unsupported("scope resolution", t) }
        if let what = MetalVocabulary.rejected[name] { throw unsupported(what, t) }
        if MetalVocabulary.templateTypes.contains(name), isText("<", 1) { throw unsupported("template type", t) }
        if MetalVocabulary.keywords.contains(name) { out.emit(name, at: t); i += 1; return }
        if let glsl = MetalVocabulary.types[name] {
            if isText("*", 1) { throw unsupported("pointer", peek(1)!) }
            if isText("&", 1), let n = peek(2), n.kind == .identifier { throw unsupported("reference", peek(1)!) }
            if isText("<", 1) { throw unsupported("template type", t) }
            out.emit(glsl, at: t)
            i += 1
            return
        }
        if let value = MetalVocabulary.constants[name] { out.emit(value, at: t); i += 1; return }
        // layer.sample(p) → _segue_sampleLayer(layer, p).
        if layers.contains(name), isText(".", 1) {
            guard let member = peek(2), member.text == "sample", isText("(", 3) else {
                throw unsupported("layer member (only layer.sample(position))", peek(2) ?? t)
            }
            out.emit("_segue_sampleLayer(\(glslName(name)), ", at: t)
            i += 4
            return
        }
        if isText("(", 1) && !userFunctions.contains(name) {
            guard let f = MetalVocabulary.functions[name] else {
                if name == "Layer" { throw unsupported("type", t) }
                throw unsupported("function", t)
            }
            out.emit(f, at: t)
            i += 1
            return
        }
        // A member after `.` (swizzles) is kept as written; other names may be renamed.
        let afterDot = i > 0 && tokens[i - 1].text == "." && tokens[i - 1].kind == .punctuation
        out.emit(afterDot ? name : glslName(name), at: t)
        i += 1
    }
}
