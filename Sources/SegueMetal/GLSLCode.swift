// GLSL text tied to the Metal tokens it came from. The type checker builds a `GLSLCode` tree for
// every expression (the user's tokens, renamed or rewritten, with conversions it inserts wrapped
// around them), and `LineWriter` lays it out so each token stays on its source line and, where it
// can, its column: compiler messages and `segue info --source` line up with the `.metal` file.

/// GLSL for an expression or statement, positioned at source tokens.
indirect enum GLSLCode: Sendable {
    /// Text placed where a token was written.
    case token(String, MetalToken)
    /// Generated text appended as is.
    case text(String)
    /// Pieces in order.
    case sequence([GLSLCode])
    /// Generated text around code (`vec4(` … `)`): the prefix goes where the code starts.
    case wrapped(String, GLSLCode, String)

    /// The first source token, if any.
    var firstToken: MetalToken? {
        switch self {
        case let .token(_, t): t
        case .text: nil
        case let .sequence(parts): parts.lazy.compactMap(\.firstToken).first
        case let .wrapped(_, inner, _): inner.firstToken
        }
    }

    /// The same code with every token taken off its line (for text repeated elsewhere, such as a
    /// default argument written at each call).
    var detached: GLSLCode {
        switch self {
        case let .token(s, t): .token(s, MetalToken(kind: t.kind, text: t.text, line: 0, column: 1, spaceBefore: t.spaceBefore))
        case .text: self
        case let .sequence(parts): .sequence(parts.map(\.detached))
        case let .wrapped(p, inner, s): .wrapped(p, inner.detached, s)
        }
    }

    /// The code's text with tokens separated as in the source, ignoring lines (for messages and tests).
    var flat: String {
        var w = LineWriter()
        w.write(detached)
        return w.text
    }
}

/// GLSL text that keeps each token on its source line and column where it can.
struct LineWriter {
    private(set) var text = ""
    private var line = 1
    /// Set after a wrapper's prefix: the next token gets no space before it.
    private var glued = false

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
        } else if space, !glued, let last = text.last, last != "\n", last != " " {
            text += " "
        }
        glued = false
        text += s
    }

    /// Appends generated text.
    mutating func append(_ s: String) {
        glued = false
        text += s
    }

    /// Lays out `code`.
    mutating func write(_ code: GLSLCode) {
        switch code {
        case let .token(s, t):
            emit(s, at: t)
        case let .text(s):
            append(s)
        case let .sequence(parts):
            for p in parts { write(p) }
        case let .wrapped(prefix, inner, suffix):
            if let t = inner.firstToken { emit(prefix, at: t) } else { append(prefix) }
            glued = true
            write(inner)
            append(suffix)
        }
    }
}
