// Splits Metal Shading Language source into tokens with their 1-based line numbers: identifiers,
// numbers (with their C suffixes), punctuation (longest match first), `[[`/`]]` attribute brackets
// and whole preprocessor lines. Comments and whitespace are dropped. The lexer knows only the
// shape of C++ tokens; what is allowed is decided by `StitchableTranslator`.
import SegueCore
import SegueSystem

/// One token of Metal source.
package struct MetalToken: Sendable, Equatable {
    /// What kind of token it is.
    package enum Kind: Sendable, Equatable {
        /// A name or keyword.
        case identifier
        /// A numeric literal as written (`0.5h`, `2`, `1e-3f`).
        case number
        /// An operator or punctuation mark (`+=`, `::`, `[[`, `{`).
        case punctuation
        /// A whole preprocessor line, `#` included.
        case directive
        /// A string or character literal (never valid in the subset; kept to report it).
        case string
    }

    /// The kind.
    package let kind: Kind
    /// The text as written.
    package let text: String
    /// 1-based line in the source file.
    package let line: Int
    /// 1-based column of its first character.
    package var column = 1
    /// Whether whitespace or a comment precedes it on its line.
    package var spaceBefore = false
}

/// Tokenizer for the Metal subset used by stitchable shaders.
package enum MetalLexer {
    /// Punctuation, longest first so `<<=` wins over `<<` and `<`.
    private static let punctuation: [String] = [
        "<<=", ">>=", "...", "##",
        "[[", "]]", "::", "->", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
        "==", "!=", "<=", ">=", "&&", "||", "<<", ">>",
        "+", "-", "*", "/", "%", "=", "<", ">", "!", "~", "&", "|", "^", "?", ":", ";", ",", ".",
        "(", ")", "{", "}", "[", "]", "#", "@", "\\", "$",
    ]

    /// `punctuation` by first character, longest first within each: a mark is found by its
    /// first character rather than by trying every mark at every position.
    private static let punctuationByFirst: [Unicode.Scalar: [(text: String, scalars: [Unicode.Scalar])]] = Dictionary(
        grouping: punctuation.map { (text: $0, scalars: Array($0.unicodeScalars)) }, by: { $0.scalars[0] })

    /// The longest name or number accepted (glslang refuses tokens over 1,024 characters, and
    /// the translator adds prefixes to names).
    static let maximumTokenLength = 1_000

    /// Tokenizes `text`.
    /// - Parameter lenient: true to take any other character as a punctuation token of its own and
    ///   end an unterminated block comment at the end of the text, never throwing (for measuring
    ///   GLSL, whose compiler reports such errors itself).
    /// - Throws: `ShaderSourceError` for an unterminated block comment or a character that is
    ///   not part of C++ source.
    package static func tokenize(_ text: String, file: String, lenient: Bool = false) throws(ShaderSourceError) -> [MetalToken] {
        let (chars, places) = spliced(text)
        var tokens: [MetalToken] = []
        var i = 0
        var line = 1
        var atLineStart = true
        var sawSpace = false

        func peek(_ offset: Int = 0) -> Unicode.Scalar? { i + offset < chars.count ? chars[i + offset] : nil }
        func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { ("0"..."9").contains($0) } ?? false }

        while i < chars.count {
            let c = chars[i]
            line = places[i].line
            if c == "\n" { atLineStart = true; i += 1; sawSpace = false; continue }
            if c == " " || c == "\t" || c == "\u{0C}" || c == "\u{0B}" { i += 1; sawSpace = true; continue }
            // Tokens record where they start and whether space came before them.
            let count = tokens.count
            let column = places[i].column
            defer {
                if tokens.count > count {
                    tokens[count].column = column
                    tokens[count].spaceBefore = sawSpace
                    sawSpace = false
                }
            }
            // Comments.
            if c == "/" && peek(1) == "/" {
                while i < chars.count && chars[i] != "\n" { i += 1 }
                continue
            }
            if c == "/" && peek(1) == "*" {
                let startLine = line
                i += 2
                while i < chars.count && !(chars[i] == "*" && peek(1) == "/") { i += 1 }
                guard i < chars.count || lenient else {
                    throw ShaderSourceError(file: file, line: startLine, message: "unterminated block comment")
                }
                i = min(i + 2, chars.count)
                sawSpace = true
                continue
            }
            // Preprocessor lines (their continuations already spliced).
            if c == "#" && atLineStart {
                let startLine = line
                var s = ""
                while i < chars.count && chars[i] != "\n" {
                    if chars[i] == "/" && peek(1) == "/" { while i < chars.count && chars[i] != "\n" { i += 1 }; break }
                    // A block comment is one space, even across lines (C removes comments before
                    // it reads directives).
                    if chars[i] == "/" && peek(1) == "*" {
                        let commentLine = places[i].line
                        i += 2
                        while i < chars.count && !(chars[i] == "*" && peek(1) == "/") { i += 1 }
                        guard i < chars.count || lenient else {
                            throw ShaderSourceError(file: file, line: commentLine, message: "unterminated block comment")
                        }
                        i = min(i + 2, chars.count)
                        s += " "
                        continue
                    }
                    s.unicodeScalars.append(chars[i])
                    i += 1
                }
                tokens.append(MetalToken(kind: .directive, text: s.trimmingWhitespaceAndNewlines(), line: startLine))
                continue
            }
            atLineStart = false
            if SourceIdentifier.isStart(c) {
                var s = ""
                while let d = peek(), SourceIdentifier.isPart(d) { s.unicodeScalars.append(d); i += 1 }
                tokens.append(MetalToken(kind: .identifier, text: s, line: line))
                continue
            }
            if isDigit(c) || (c == "." && isDigit(peek(1))) {
                var s = ""
                while let d = peek() {
                    // C++14's digit separator (`1'000'000`, `0xFF'FF`) between two digits of the
                    // literal's base: dropped (`1'e5` keeps its quote, as C++ refuses it).
                    let hex = s.lowercased().hasPrefix("0x")
                    func isDigitOfBase(_ c: Unicode.Scalar?) -> Bool {
                        c.map { hex ? $0.properties.isASCIIHexDigit : isDigit($0) } ?? false
                    }
                    if d == "'", !(hex && s.count == 2), isDigitOfBase(s.unicodeScalars.last), isDigitOfBase(peek(1)) {
                        i += 1
                        continue
                    }
                    let exponentSign = (d == "+" || d == "-") && (s.last == "e" || s.last == "E") && !s.lowercased().hasPrefix("0x")
                    guard SourceIdentifier.isPart(d) || d == "." || exponentSign else { break }
                    s.unicodeScalars.append(d)
                    i += 1
                }
                tokens.append(MetalToken(kind: .number, text: s, line: line))
                continue
            }
            if c == "\"" || c == "'" {
                var s = String(c)
                i += 1
                while let d = peek(), d != c, d != "\n" {
                    s.unicodeScalars.append(d)
                    if d == "\\" && peek(1) != nil { s.unicodeScalars.append(chars[i + 1]); i += 1 }
                    i += 1
                }
                if peek() == c { s.unicodeScalars.append(c); i += 1 }
                tokens.append(MetalToken(kind: .string, text: s, line: line))
                continue
            }
            var matched = false
            for p in punctuationByFirst[c] ?? [] where p.scalars.count <= chars.count - i {
                if p.scalars.indices.allSatisfy({ chars[i + $0] == p.scalars[$0] }) {
                    tokens.append(MetalToken(kind: .punctuation, text: p.text, line: line))
                    i += p.scalars.count
                    matched = true
                    break
                }
            }
            guard matched else {
                guard lenient else { throw ShaderSourceError(file: file, line: line, message: "unexpected character \(Self.shown(c))") }
                tokens.append(MetalToken(kind: .punctuation, text: String(Character(c)), line: line))
                i += 1
                continue
            }
        }
        if !lenient,
            let long = tokens.first(where: { ($0.kind == .identifier || $0.kind == .number) && $0.text.utf8.count > maximumTokenLength })
        {
            throw ShaderSourceError(
                file: file, line: long.line,
                message:
                    "a \(long.kind == .number ? "number" : "name") longer than \(maximumTokenLength) characters: '\(long.text.prefix(24))…'"
            )
        }
        return tokens
    }

    /// The source after C's first translation phases, each character with the line and column
    /// it was written at: a byte-order mark at the start is dropped, CR LF and a lone CR end a
    /// line as LF does, and a backslash at the end of a line joins the next one to it, in a
    /// comment or a directive alike (so a `//` comment ending in `\` comments out the next line
    /// too, as in C and Metal).
    static func spliced(_ text: String) -> (chars: [Unicode.Scalar], places: [(line: Int, column: Int)]) {
        var source = Array(text.unicodeScalars)
        if source.first == "\u{FEFF}" { source.removeFirst() }
        var chars: [Unicode.Scalar] = []
        var places: [(line: Int, column: Int)] = []
        chars.reserveCapacity(source.count)
        places.reserveCapacity(source.count)
        var line = 1, column = 1, i = 0
        /// The length of the line end at `k` (LF, CR LF or CR), 0 when none.
        func lineEnd(at k: Int) -> Int {
            guard k < source.count else { return 0 }
            if source[k] == "\n" { return 1 }
            if source[k] == "\r" { return k + 1 < source.count && source[k + 1] == "\n" ? 2 : 1 }
            return 0
        }
        while i < source.count {
            if source[i] == "\\", case let end = lineEnd(at: i + 1), end > 0 {
                i += 1 + end
                (line, column) = (line + 1, 1)
                continue
            }
            let end = lineEnd(at: i)
            chars.append(end > 0 ? "\n" : source[i])
            places.append((line, column))
            if end > 0 {
                i += end
                (line, column) = (line + 1, 1)
            } else {
                i += 1
                column += 1
            }
        }
        return (chars, places)
    }

    /// A character for a message: itself in quotes, or its code point where it would not show
    /// (a control character, NUL, a byte-order mark inside the text).
    static func shown(_ c: Unicode.Scalar) -> String {
        let invisible =
            c.properties.generalCategory == .control || c.properties.generalCategory == .format
            || c.properties.isWhitespace
        let hex = String(c.value, radix: 16, uppercase: true)
        return invisible ? "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex : "'\(Character(c))'"
    }
}
