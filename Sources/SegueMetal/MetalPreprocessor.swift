// The part of the C preprocessor that stitchable shaders use: the SwiftUI and Metal includes,
// `#pragma` (ignored), `#define`/`#undef` of object-like (`#define PI 3.14159`) and function-like
// (`#define SQ(x) ((x) * (x))`) macros, expanded as C does (arguments expanded first, the result
// rescanned, a macro never expanding inside itself), and the conditionals `#if`, `#ifdef`,
// `#ifndef`, `#elif`, `#else`, `#endif` with `defined`, integer arithmetic, comparisons and logic
// (MetalPreprocessor+Conditionals.swift); `#error` is an error naming its line. Expanded tokens
// take the line of the use, so errors and the GLSL stay on the user's line; an argument's tokens
// keep their own line when a use spans lines. `#`/`##` and other
// directives are rejected with their line. `__METAL_VERSION__` is 310 (Metal 3.1, which SwiftUI's
// shaders are compiled for) and `__LINE__` the line it is written on.
//
// Expansion is bounded: macros that use each other several times grow exponentially (thirty
// `#define`s, each using the one before twice, make a billion tokens from a few hundred bytes),
// so the tokens all expansions produce are counted against `maximumExpansion`, and macro uses
// nested in macro uses or arguments against `maximumExpansionDepth`; past either, the error
// names the macro and the line it is used on.
import SegueSystem

/// Expands the directives and macros of a token stream.
///
/// With `glsl` set it measures a GLSL source instead (`GLSLSourceLimits`): every directive is
/// accepted, conditionals are not evaluated (the lines of every branch are kept, so the expansion
/// is at least as large as the compiler's), and `#`/`##` stay as tokens in replacements.
package struct MetalPreprocessor {
    /// The includes a stitchable shader may use.
    static let allowedIncludes: Set<String> = [
        "<metal_stdlib>", "<SwiftUI/SwiftUI_Metal.h>", "<SwiftUI/SwiftUI.h>",
        "<metal_math>",
    ]

    private struct Macro {
        let parameters: [String]?
        let body: [MetalToken]
    }

    /// The most tokens the expansions of one file may produce, counting the tokens of every
    /// replacement (with its arguments substituted) before it is rescanned.
    static let maximumExpansion = 1 << 18
    /// How deeply macro uses may nest: in the replacement of another macro or in its arguments.
    static let maximumExpansionDepth = 64
    /// The most tokens of a measured GLSL `#if`, `#elif` or `#line`, its macros expanded.
    static let maximumDirectiveTokens = 1_024

    let file: String
    /// Whether the source is GLSL being measured (see the type's comment).
    let glsl: Bool
    private var macros: [String: Macro] = [:]
    /// Tokens produced by expansions so far (see `maximumExpansion`).
    private var produced = 0
    /// The open conditionals, outermost first.
    var conditionals: [Conditional] = []

    /// The Metal version SwiftUI's stitchable shaders are compiled for (Metal 3.1, iOS 17 and
    /// macOS 14), as `__METAL_VERSION__` gives it to `#if`.
    static let metalVersion = "310"

    package init(file: String, glsl: Bool = false) {
        self.file = file
        self.glsl = glsl
        if !glsl {
            macros["__METAL_VERSION__"] = Macro(parameters: nil, body: [MetalToken(kind: .number, text: Self.metalVersion, line: 1)])
        }
    }

    /// Handles the directives and expands the macros of `tokens`.
    /// - Throws: `ShaderSourceError` for an unsupported directive or a malformed macro use.
    package mutating func run(_ tokens: [MetalToken]) throws(ShaderSourceError) -> [MetalToken] {
        var out: [MetalToken] = []
        var pending: [MetalToken] = []
        func flush(_ p: inout MetalPreprocessor) throws(ShaderSourceError) {
            out += try p.expand(pending, active: [], depth: 0, outermost: nil)
            pending = []
        }
        for t in tokens {
            guard t.kind == .directive else {
                if isActive { pending.append(t) }
                continue
            }
            try flush(&self)
            try directive(t)
        }
        try flush(&self)
        if let open = conditionals.last {
            throw error("#\(open.directive) without #endif", open.line)
        }
        return out
    }

    func error(_ message: String, _ line: Int) -> ShaderSourceError { ShaderSourceError(file: file, line: line, message: message) }

    private mutating func directive(_ t: MetalToken) throws(ShaderSourceError) {
        let text = String(t.text.dropFirst()).trimmingWhitespaceAndNewlines()
        let head = String(text.prefix { $0.isLetter })
        let rest = String(text.dropFirst(head.count)).trimmingWhitespaceAndNewlines()
        // GLSL being measured keeps every branch (see the type's comment), but measures the
        // expressions glslang will evaluate: their macros count against the expansion limit (a
        // macro doubling 30 times in a #if kept glslang busy for minutes), their length against
        // its recursion (40,000 '!' or '(' in one #if overflowed its stack).
        if glsl, ["if", "elif", "line"].contains(head) {
            let expression = try tokens(of: rest, in: t, lenient: true)
            // Counted as glslang will read it: after its macros.
            guard expression.count <= Self.maximumDirectiveTokens,
                try expand(expression, active: [], depth: 0, outermost: nil).count <= Self.maximumDirectiveTokens
            else {
                throw error("a #\(head) of more than \(Self.maximumDirectiveTokens) tokens once its macros are expanded", t.line)
            }
        }
        if !glsl, try conditional(head, rest, t) { return }
        guard isActive else { return }  // a skipped group's other directives are not read
        switch head {
        case "define":
            try define(rest, t)
        case "undef":
            macros[rest] = nil
        case _ where glsl:
            return
        case "include":
            guard Self.allowedIncludes.contains(rest) else {
                throw error("unsupported #include: '\(rest)' (only <metal_stdlib> and <SwiftUI/SwiftUI_Metal.h> are available)", t.line)
            }
        case "pragma":
            return
        case "" where rest.isEmpty:
            return  // `#` alone: C's null directive
        case "error":
            throw error("#error\(rest.isEmpty ? "" : ": \(rest)")", t.line)
        case "warning":
            return
        default:
            throw error("unsupported preprocessor directive: '\(t.text)'", t.line)
        }
    }

    /// The tokens of a directive's `text`, all on the directive's line (where its errors and
    /// expansions belong).
    func tokens(of text: String, in directive: MetalToken, lenient: Bool = false) throws(ShaderSourceError) -> [MetalToken] {
        try MetalLexer.tokenize(text, file: file, lenient: lenient).map {
            MetalToken(kind: $0.kind, text: $0.text, line: directive.line, column: $0.column, spaceBefore: $0.spaceBefore)
        }
    }

    private mutating func define(_ text: String, _ directive: MetalToken) throws(ShaderSourceError) {
        let tokens = try tokens(of: text, in: directive, lenient: glsl)
        guard let name = tokens.first, name.kind == .identifier else {
            throw error("expected a macro name after #define", directive.line)
        }
        var i = 1
        var parameters: [String]?
        if i < tokens.count, tokens[i].text == "(", !tokens[i].spaceBefore {
            var names: [String] = []
            i += 1
            while i < tokens.count, tokens[i].text != ")" {
                if !names.isEmpty {
                    guard tokens[i].text == "," else {
                        throw error("expected ',' between the parameters of macro '\(name.text)'", directive.line)
                    }
                    i += 1
                }
                guard i < tokens.count, tokens[i].kind == .identifier else {
                    throw error("unsupported macro parameter in '\(name.text)' (only names)", directive.line)
                }
                guard !names.contains(tokens[i].text) else {
                    throw error("duplicate parameter '\(tokens[i].text)' in macro '\(name.text)'", directive.line)
                }
                names.append(tokens[i].text)
                i += 1
            }
            guard i < tokens.count else { throw error("expected ')' in the parameters of macro '\(name.text)'", directive.line) }
            i += 1
            parameters = names
        }
        let body = Array(tokens[i...])
        if !glsl, let op = body.first(where: { $0.text == "#" || $0.text == "##" }) {
            throw error("unsupported macro operator '\(op.text)' in '\(name.text)'", directive.line)
        }
        macros[name.text] = Macro(parameters: parameters, body: body)
    }

    /// Whether `name` is a defined macro (`defined NAME`, `#ifdef`).
    func isDefined(_ name: String) -> Bool { macros[name] != nil || (name == "__LINE__" && !glsl) }

    /// Expands macros in `tokens`; `active` are the macros being expanded (not expanded again),
    /// `depth` how many replacements and arguments `tokens` lie within, `outermost` the use in the
    /// file's own text that the expansion started from (nil at the top).
    mutating func expand(
        _ tokens: [MetalToken], active: Set<String>, depth: Int,
        outermost: MetalToken?
    ) throws(ShaderSourceError) -> [MetalToken] {
        var out: [MetalToken] = []
        var i = 0
        while i < tokens.count {
            let t = tokens[i]
            // `__LINE__`: the line it is written on.
            if t.text == "__LINE__", t.kind == .identifier, !glsl, macros[t.text] == nil {
                out.append(MetalToken(kind: .number, text: String(t.line), line: t.line, column: t.column, spaceBefore: t.spaceBefore))
                i += 1
                continue
            }
            guard t.kind == .identifier, let macro = macros[t.text], !active.contains(t.text),
                !(i > 0 && (tokens[i - 1].text == "." || tokens[i - 1].text == "::"))
            else {
                out.append(t)
                i += 1
                continue
            }
            let origin = outermost ?? t
            guard depth < Self.maximumExpansionDepth else {
                throw error(
                    "macro '\(origin.text)' nests macro uses more than \(Self.maximumExpansionDepth) levels deep (at '\(t.text)')", t.line)
            }
            // Each token of the expansion, and whether it came from an argument.
            var body = macro.body.map { ($0, false) }
            if let parameters = macro.parameters {
                // A function-like macro not followed by `(` is an ordinary name.
                guard i + 1 < tokens.count, tokens[i + 1].text == "(" else { out.append(t); i += 1; continue }
                let (arguments, end) = try collectArguments(tokens, from: i + 1, macro: t)
                guard arguments.count == parameters.count || (parameters.isEmpty && arguments.count == 1 && arguments[0].isEmpty) else {
                    throw error(
                        "macro '\(t.text)' takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s"), got \(arguments.count)",
                        t.line)
                }
                var expanded: [[MetalToken]] = []
                // Arguments count one level deeper: `F(F(F(…)))` nests as replacements do.
                for a in arguments { expanded.append(try expand(a, active: active, depth: depth + 1, outermost: origin)) }
                var size = 0
                for (b, _) in body {
                    if b.kind == .identifier, let k = parameters.firstIndex(of: b.text) { size += expanded[k].count } else { size += 1 }
                }
                try count(size, origin: origin, at: t)
                body = body.flatMap { b, _ -> [(MetalToken, Bool)] in
                    if b.kind == .identifier, let k = parameters.firstIndex(of: b.text) { return expanded[k].map { ($0, true) } }
                    return [(b, false)]
                }
                i = end
            } else {
                try count(body.count, origin: origin, at: t)
                i += 1
            }
            // The expansion sits where the use was; an argument's tokens keep the lines they were
            // written on (a use spanning lines), and lines never go back within the expansion.
            var line = t.line
            let placed = body.enumerated().map { k, entry in
                let (b, fromArgument) = entry
                if fromArgument { line = max(line, b.line) }
                return MetalToken(
                    kind: b.kind, text: b.text, line: line, column: fromArgument ? b.column : t.column,
                    spaceBefore: k == 0 ? t.spaceBefore : b.spaceBefore)
            }
            out += try expand(placed, active: active.union([t.text]), depth: depth + 1, outermost: origin)
        }
        return out
    }

    /// Counts `size` more tokens made by expanding `use` (within the expansion of `origin`).
    private mutating func count(_ size: Int, origin: MetalToken, at use: MetalToken) throws(ShaderSourceError) {
        produced += size
        guard produced <= Self.maximumExpansion else {
            throw error(
                "macro '\(origin.text)' expands to more than \(Self.maximumExpansion) tokens "
                    + "(macros that use another macro several times grow exponentially)", use.line)
        }
    }

    /// The arguments of a macro call whose `(` is at `open`, and the index after its `)`.
    private func collectArguments(_ tokens: [MetalToken], from open: Int, macro: MetalToken) throws(ShaderSourceError) -> (
        [[MetalToken]], Int
    ) {
        var arguments: [[MetalToken]] = [[]]
        var depth = 0
        var i = open + 1
        while i < tokens.count {
            let t = tokens[i]
            if t.kind == .punctuation {
                if ["(", "[", "{"].contains(t.text) { depth += 1 }
                if [")", "]", "}"].contains(t.text) {
                    if depth == 0 && t.text == ")" { return (arguments, i + 1) }
                    depth -= 1
                }
                if t.text == "," && depth == 0 { arguments.append([]); i += 1; continue }
            }
            arguments[arguments.count - 1].append(t)
            i += 1
        }
        throw error("unterminated use of macro '\(macro.text)'", macro.line)
    }
}
