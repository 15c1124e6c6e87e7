import SegueCore
import SegueMath
import SegueMetal
// Parses a transition source in the gl-transitions style: `// Key: value` header comments and
// parameters declared as `uniform TYPE name; // = default`, `uniform TYPE a, b; // = default` or
// `uniform TYPE name /* = default */;`, and Segue's own addition, a range after the default:
// `// = 30.0 in -180.0...180.0; summary` (the values the effect is meant for). Declarations are blanked out of the source (newlines kept,
// so compile errors keep the user's line numbers) and become members of Segue's uniform block.
//
// Format reference: gl-transitions' README (transition function, uniforms and default comments).
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads transition sources into `Effect` values.
public enum TransitionSourceParser {
    /// Names the uniform block always provides; a source may not redeclare them.
    public static let reservedNames: Set<String> = ["progress", "ratio"]

    /// Names a parameter cannot take because the template or GLSL uses them (glslang reported a
    /// uniform named so on the template's lines, or as a syntax error): the template's functions,
    /// its `_segue` and GLSL's `gl_` prefixes, type names and keywords.
    static func isTaken(_ name: String) -> Bool {
        let words: Set<String> = [
            "getFromColor", "getToColor", "transition", "main", "if", "else", "for", "while", "do", "return", "break", "continue",
            "discard", "switch", "case", "default", "true", "false", "const", "uniform", "in", "out", "inout", "struct", "void",
            "layout", "precision", "highp", "mediump", "lowp", "sampler2D", "uint", "double", "float", "int", "bool",
            // GLSL functions the template itself calls.
            "texture", "texelFetch", "clamp",
        ]
        return words.contains(name) || name.hasPrefix("_segue") || name.hasPrefix("gl_") || ParameterType(rawValue: name) != nil
    }

    /// Parses `text` as a transition source.
    /// - Parameters:
    ///   - name: the effect's name (a file's base name, or the built-in's name).
    ///   - source: where it came from (error messages use the path for files).
    ///   - defaultOrigin: the `uv` orientation when the header gives no `// Origin:`.
    /// - Throws: `ShaderSourceError` with the line of a malformed declaration or default, an
    ///   unknown type, a missing `transition` function, or a reserved name.
    public static func parse(
        _ text: String, name: String, source: EffectSource,
        defaultOrigin: EffectOrigin = .bottomLeft
    ) throws(ShaderSourceError) -> Effect {
        let fileLabel: String = if case let .file(path) = source { path } else { name }
        // CRLF and CR line ends become LF: Swift reads "\r\n" as one Character, so splitting on
        // "\n" alone would leave a Windows file as a single line.
        let text = text.replacingAll("\r\n", with: "\n").replacingAll("\r", with: "\n")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var headers: [String: String] = [:]
        var parameters: [EffectParameter] = []

        // Header: `// Key: value` comment lines anywhere before the first line of code
        // (preprocessor and `precision` lines of old `#ifdef GL_ES` blocks are skipped).
        for line in lines {
            let t = line.trimmingWhitespaceAndNewlines()
            if t.isEmpty || t.hasPrefix("#") || t.hasPrefix("precision ") { continue }
            guard t.hasPrefix("//") else { break }
            let body = t.dropFirst(2).trimmingWhitespaceAndNewlines()
            if let colon = body.firstIndex(of: ":"), body[..<colon].allSatisfy({ $0.isLetter || $0 == "-" }) {
                headers[body[..<colon].lowercased()] = shown(body[body.index(after: colon)...].trimmingWhitespaceAndNewlines())
            }
        }

        // Declarations are found in the code as the compiler reads it (comments blanked, byte for
        // byte): a `uniform` inside a `/* */` comment declares nothing, one after a comment does.
        let masked = GLSLComments.stripped(text).code.split(separator: "\n", omittingEmptySubsequences: false)
        for index in lines.indices where index < masked.count {
            let lineNumber = index + 1
            let codeBytes = Array(masked[index].utf8)
            guard !lines[index].isEmpty, let start = codeBytes.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
                codeBytes[start...].starts(with: Array("uniform ".utf8)) || codeBytes[start...].starts(with: Array("uniform\t".utf8))
            else { continue }
            // The declaration from its keyword on, its comments kept (they hold defaults and summaries).
            let code = String(decoding: Array(lines[index].utf8)[start...], as: UTF8.self).trimmingWhitespaceAndNewlines()
            // A declaration may run over several lines (a multi-line `/* = … */` default): join
            // lines until its comment is closed and its `;` is found (at most 64 lines).
            var statement = code, last = index
            while needsMoreLines(statement), last + 1 < lines.count, last - index < 64 {
                last += 1
                statement += " " + lines[last].trimmingWhitespaceAndNewlines()
            }
            let decl = try parseDeclaration(statement, file: fileLabel, line: lineNumber)
            for k in (index + 1)...max(index + 1, last) where k <= last { lines[k] = "" }
            for n in decl.names {
                if reservedNames.contains(n) {
                    throw ShaderSourceError(
                        file: fileLabel, line: lineNumber,
                        message: "'\(MessageText.excerpt(n))' is provided by Segue and cannot be declared as a parameter")
                }
                if isTaken(n) {
                    throw ShaderSourceError(
                        file: fileLabel, line: lineNumber,
                        message: "'\(MessageText.excerpt(n))' is a GLSL word or a name of Segue's template; choose another parameter name")
                }
                if parameters.contains(where: { $0.name == n }) {
                    throw ShaderSourceError(
                        file: fileLabel, line: lineNumber, message: "parameter '\(MessageText.excerpt(n))' is declared twice")
                }
                parameters.append(
                    EffectParameter(name: n, type: decl.type, defaultValue: decl.defaultValue, summary: decl.summary, range: decl.range))
            }
            // Blanked from its keyword on: what comes before (the end of a comment) stays.
            lines[index] = String(decoding: Array(lines[index].utf8)[..<start], as: UTF8.self)
        }

        let body = lines.joined(separator: "\n")
        // A file's source is bounded before any GLSL compiler sees it (built-ins are fixed and tested).
        if case .file = source { try GLSLSourceLimits.check(body, file: fileLabel) }
        guard declaresTransition(body) else {
            throw ShaderSourceError(file: fileLabel, line: 1, message: "no 'vec4 transition(vec2 uv)' function found")
        }

        let origin: EffectOrigin
        if let o = headers["origin"] {
            guard let parsed = EffectOrigin(rawValue: o) else {
                throw ShaderSourceError(
                    file: fileLabel, line: headerLine(of: "origin", in: text),
                    message: "origin must be 'top-left' or 'bottom-left', got '\(MessageText.excerpt(o))'")
            }
            origin = parsed
        } else {
            origin = defaultOrigin
        }
        var duration = 1.0
        if let d = headers["duration"] {
            guard let v = Double(d), v > 0, v <= Effect.maximumDuration else {
                throw ShaderSourceError(
                    file: fileLabel, line: headerLine(of: "duration", in: text),
                    message:
                        "duration must be a positive number of seconds, at most \(MessageText.seconds(Effect.maximumDuration)), got '\(MessageText.excerpt(d))'"
                )
            }
            duration = v
        }
        if let timing = headers["timing"] {
            do { _ = try TransitionTiming.Curve(parsing: timing) } catch {
                throw ShaderSourceError(file: fileLabel, line: headerLine(of: "timing", in: text), message: "timing: \(error)")
            }
        }
        var effect = Effect(
            name: headers["name"] ?? name,
            summary: headers["description"] ?? headers["summary"] ?? "",
            kind: .fullScreen, source: source, glsl: body, origin: origin,
            parameters: parameters, defaultDuration: duration,
            defaultTiming: headers["timing"] ?? "linear",
            author: headers["author"], license: headers["license"])
        if let reverse = headers["reverse"], case .file = source {
            try checkReverse(reverse, line: headerLine(of: "reverse", in: text), file: fileLabel)
        }
        effect.reverse = headers["reverse"]
        return effect
    }

    /// Refuses a file's `// Reverse:` that names no built-in transition, when it names one
    /// rather than a file (`pop.glsl`, `dir/pop`, `fx.metal:pop`, read when a pop plays): every
    /// pop would fail otherwise, long after the file was accepted.
    private static func checkReverse(_ name: String, line: Int, file: String) throws(ShaderSourceError) {
        guard EffectCatalog.file(ofEffect: name) == nil else { return }
        let effect: Effect
        do {
            effect = try EffectCatalog.effect(name)
        } catch {
            throw ShaderSourceError(file: file, line: line, message: "reverse: \(error)")
        }
        if let mesh = effect.meshBuilder, !mesh.isTransition {
            throw ShaderSourceError(file: file, line: line, message: "reverse: '\(name)' applies to one image; a pop needs a transition")
        }
    }

    /// Whether `body` defines `vec4 transition(vec2 NAME) { … }`, read as tokens (so one in a
    /// comment does not count, nor a prototype alone), its parameter with GLSL's qualifiers
    /// (`in`, `const`, a precision) allowed.
    static func declaresTransition(_ body: String) -> Bool {
        guard let tokens = try? MetalLexer.tokenize(body, file: "", lenient: true) else { return false }
        let qualifiers: Set<String> = ["in", "const", "highp", "mediump", "lowp"]
        for k in tokens.indices.dropFirst() where tokens[k].text == "transition" && tokens[k - 1].text == "vec4" {
            var i = k + 1
            guard i < tokens.count, tokens[i].text == "(" else { continue }
            i += 1
            while i < tokens.count, qualifiers.contains(tokens[i].text) { i += 1 }
            guard i + 3 < tokens.count, tokens[i].text == "vec2", tokens[i + 1].kind == .identifier, tokens[i + 2].text == ")",
                tokens[i + 3].text == "{"
            else { continue }
            return true
        }
        return false
    }

    /// Comment text as `segue info` and listings may print it: control characters (a NUL, an
    /// escape sequence that would recolour or move a terminal's cursor) become U+FFFD.
    static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars { out.append(c.properties.generalCategory == .control && c != "\t" ? "\u{FFFD}" : c) }
        return String(out)
    }

    /// Whether a uniform declaration continues on the next line: a `/*` comment is still open,
    /// or no `;` stands outside the comments yet.
    private static func needsMoreLines(_ statement: String) -> Bool {
        let (code, unclosed) = GLSLComments.stripped(statement)
        return unclosed || !code.contains(";")
    }

    private static func headerLine(of key: String, in text: String) -> Int {
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.lowercased().contains(key + ":") { return i + 1 }
        return 1
    }

    // MARK: - Declarations

    private struct Declaration {
        var type: ParameterType
        var names: [String]
        var defaultValue: ParameterValue?
        var summary: String
        var range: ClosedRange<Double>?
    }

    private static func parseDeclaration(_ code: String, file: String, line: Int) throws(ShaderSourceError) -> Declaration {
        func fail(_ message: String) -> ShaderSourceError { ShaderSourceError(file: file, line: line, message: message) }
        // Split off the default comment: `/* = x */` before or after `;`, or `// = x` after it.
        var statement = code
        var defaultText: String?
        var summary = ""
        if let open = statement.firstRange(of: "/*"), let close = statement[open.upperBound...].firstRange(of: "*/") {
            let inner = statement[open.upperBound..<close.lowerBound].trimmingWhitespaceAndNewlines()
            if inner.hasPrefix("=") { defaultText = inner.dropFirst().trimmingWhitespaceAndNewlines() }
            statement.removeSubrange(open.lowerBound..<close.upperBound)
        }
        if let slash = statement.firstRange(of: "//") {
            let comment = statement[slash.upperBound...].trimmingWhitespaceAndNewlines()
            statement = String(statement[..<slash.lowerBound])
            if comment.hasPrefix("=") {
                // `// = default; summary`
                let rest = comment.dropFirst()
                if let semi = rest.firstIndex(of: ";") {
                    defaultText = rest[..<semi].trimmingWhitespaceAndNewlines()
                    summary = rest[rest.index(after: semi)...].trimmingWhitespaceAndNewlines()
                } else {
                    defaultText = rest.trimmingWhitespaceAndNewlines()
                }
            } else {
                summary = comment
            }
        }
        statement = statement.trimmingWhitespaceAndNewlines()
        guard statement.hasSuffix(";") else { throw fail("expected ';' at the end of the uniform declaration") }
        statement.removeLast()
        let words = statement.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard words.count >= 3, words[0] == "uniform" else { throw fail("expected 'uniform TYPE NAME;'") }
        var typeIndex = 1
        if ["lowp", "mediump", "highp"].contains(words[1]) { typeIndex = 2 }
        guard typeIndex + 1 < words.count else { throw fail("expected 'uniform TYPE NAME;'") }
        guard let type = ParameterType(rawValue: words[typeIndex]), !type.isArray else {
            throw fail(
                "unknown parameter type '\(MessageText.excerpt(words[typeIndex]))' (supported: \(ParameterType.glslTypes.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        let names = words[(typeIndex + 1)...].joined().split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        for n in names where !SourceIdentifier.isValid(n) {
            if n.isEmpty { throw fail("expected a parameter name") }
            throw fail("'\(MessageText.excerpt(n))' is not a valid parameter name")
        }
        var value: ParameterValue?
        var range: ClosedRange<Double>?
        if var defaultText {
            if type == .sampler2D { throw fail("a sampler2D parameter cannot have a default") }
            // `DEFAULT in MIN...MAX`: the values the effect is meant for.
            let words = defaultText.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if let k = words.lastIndex(of: "in") {
                range = try parseRange(words[(k + 1)...].joined(separator: " "), type: type, name: names[0], fail: fail)
                defaultText = words[..<k].joined(separator: " ")
            }
            value = try parseDefault(defaultText, type: type, name: names[0], fail: fail)
            if let range, let value, let outside = value.components.first(where: { !range.contains($0) }) {
                throw fail(
                    "the default of '\(MessageText.excerpt(names[0]))' (\(MessageText.number(outside))) is outside its range \(MessageText.range(range))"
                )
            }
        }
        return Declaration(type: type, names: names, defaultValue: value, summary: shown(summary), range: range)
    }

    /// Parses a range, `MIN...MAX` or `MIN…MAX` (GLSL number literals, MIN < MAX), of a
    /// parameter whose type takes one: numbers, not bools or textures.
    private static func parseRange(
        _ text: String, type: ParameterType, name: String, fail: (String) -> ShaderSourceError
    ) throws(ShaderSourceError) -> ClosedRange<Double> {
        let quoted = "'\(MessageText.excerpt(name))'"
        guard type.scalar != .bool, type != .sampler2D else { throw fail("\(type.rawValue) \(quoted) takes no range") }
        let separator = text.contains("…") ? "…" : "..."
        let bounds = text.split(separator: separator, omittingEmptySubsequences: false).map {
            normalizeLiteral($0.trimmingWhitespaceAndNewlines())
        }
        guard bounds.count == 2, let low = Double(bounds[0]), let high = Double(bounds[1]), low.isFinite, high.isFinite else {
            throw fail("invalid range '\(MessageText.excerpt(text))' for \(quoted): expected MIN...MAX, e.g. 'in -1.0...1.0'")
        }
        guard low < high else {
            throw fail("the range of \(quoted) must go from a smaller number to a larger one, got \(MessageText.excerpt(text))")
        }
        // Within what the type holds (a frei0r slider spans the range: its width must be finite).
        if type.scalar == .int {
            guard low == low.rounded(), high == high.rounded(), low >= Double(Int32.min), high <= Double(Int32.max) else {
                throw fail(
                    "the range of \(type.rawValue) \(quoted) must be whole numbers a 32-bit int holds, got \(MessageText.excerpt(text))")
            }
        } else {
            let largest = Double(Float.greatestFiniteMagnitude)
            guard abs(low) <= largest, abs(high) <= largest else {
                throw fail("the range of \(quoted) must lie within a 32-bit float's range (±3.4e+38), got \(MessageText.excerpt(text))")
            }
        }
        return low...high
    }

    /// Parses a default: a literal (`2`, `.5`, `1.`, `true`) or a constructor
    /// (`vec2(0.0, 1.0)`, `ivec2(4)`, `mat2(1.0)`), broadcasting one component as GLSL does.
    static func parseDefault(
        _ text: String, type: ParameterType, name: String,
        fail: (String) -> ShaderSourceError
    ) throws(ShaderSourceError) -> ParameterValue {
        var inner = text.trimmingWhitespaceAndNewlines()
        if inner.hasSuffix(";") { inner.removeLast() }
        inner = inner.trimmingWhitespaceAndNewlines()
        if let paren = inner.firstIndex(of: "("), inner.hasSuffix(")") {
            let ctor = inner[..<paren].trimmingWhitespaceAndNewlines()
            guard let t = ParameterType(rawValue: ctor), !t.isArray else {
                throw fail("unknown constructor '\(MessageText.excerpt(ctor))' in the default of '\(MessageText.excerpt(name))'")
            }
            inner = String(inner[inner.index(after: paren)..<inner.index(before: inner.endIndex)])
        }
        let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map {
            normalizeLiteral($0.trimmingWhitespaceAndNewlines())
        }
        do {
            return try ParameterValue.parse(parts.joined(separator: ","), as: type, name: name)
        } catch {
            throw fail("invalid default '\(MessageText.excerpt(text))' for \(type.rawValue) '\(MessageText.excerpt(name))': \(error)")
        }
    }

    /// GLSL literal spellings Swift's parser does not take: `1.`, `.5`, `-.5`, `2.0f`, `3u`.
    /// Anything that is not a number literal is left as written (so a message quotes it whole).
    private static func normalizeLiteral(_ s: String) -> String {
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eEfFuU".contains($0)) }),
            s.contains(where: \.isNumber)
        else { return s }
        var t = s
        if t.hasSuffix("f") || t.hasSuffix("F") || t.hasSuffix("u") || t.hasSuffix("U") { t.removeLast() }
        if t.hasSuffix(".") { t += "0" }
        if t.hasPrefix(".") { t = "0" + t }
        if t.hasPrefix("-.") { t = "-0" + t.dropFirst() }
        if t.hasPrefix("+") { t.removeFirst() }
        return t
    }
}
