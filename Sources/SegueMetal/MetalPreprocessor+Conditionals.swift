// Conditional inclusion, as the C preprocessor (C++ mode: Metal's is clang's) does it:
//
//   #if EXPR / #ifdef NAME / #ifndef NAME  …  #elif EXPR  …  #else  …  #endif
//
// A group's lines are kept when its condition holds and every enclosing group is kept; only the
// first group of an `#if … #elif … #else` chain whose condition holds is kept. In a skipped group
// only the nesting of conditionals is followed: other directives are not read (an unknown one
// there is no error, as in C). An `#if` expression: `defined NAME` and `defined(NAME)` become 1 or
// 0, then macros are expanded (function-like ones too), `true`/`false` are 1 and 0, any other
// name is 0, and the rest is evaluated as an integer constant expression in 64-bit signed
// arithmetic: literals (decimal, hex, octal, binary, with u/l suffixes), unary `+ - ! ~`,
// `* / %`, `+ -`, `<< >>`, comparisons, `== !=`, `& ^ |`, `&& ||` (short-circuit), `?:` and
// parentheses. Division by zero, a malformed expression, `#else`/`#elif`/`#endif` without `#if`
// and an `#if` never closed are errors naming their line. Nesting is bounded
// (`maximumConditionalDepth`, and parentheses by `maximumExpressionDepth`).
import SegueMath

extension MetalPreprocessor {
    /// An integer literal's value (decimal, 0x hex, 0b binary, 0 octal; u/l suffixes); nil for
    /// anything else (a floating-point literal is not allowed in `#if`). The checker reads the
    /// integers of code with it too.
    package static func integer(_ text: String) -> Int64? {
        var digits = Substring(text.lowercased())
        while let last = digits.last, last == "u" || last == "l" { digits.removeLast() }
        let radix: Int
        if digits.hasPrefix("0x") {
            radix = 16; digits = digits.dropFirst(2)
        } else if digits.hasPrefix("0b") {
            radix = 2; digits = digits.dropFirst(2)
        } else if digits.count > 1, digits.hasPrefix("0") {
            radix = 8; digits = digits.dropFirst()
        } else {
            radix = 10
        }
        guard !digits.isEmpty, let value = UInt64(digits, radix: radix) else { return nil }
        return Int64(bitPattern: value)
    }

    /// A character constant's value, as C's `#if` reads it: `'a'` 97, `'\n'` 10, `'\x41'` 65,
    /// `'\101'` 65; a plain character its code point, an escape its byte as a signed `char`
    /// (`'\xff'` is -1, as GCC and Apple's Clang read it). Nil for an empty, unterminated or
    /// multi-character constant, an unknown escape, or one past a byte (`'\777'`).
    package static func character(_ text: String) -> Int64? {
        var scalars = Array(text.unicodeScalars)
        guard scalars.count >= 3, scalars.first == "'", scalars.last == "'" else { return nil }
        scalars = Array(scalars.dropFirst().dropLast())
        guard scalars.first == "\\" else { return scalars.count == 1 ? Int64(scalars[0].value) : nil }
        let escape = scalars.dropFirst()
        guard let kind = escape.first else { return nil }
        let simple: [Unicode.Scalar: Int64] = [
            "n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, "'": 39, "\"": 34, "?": 63,
        ]
        if escape.count == 1, let value = simple[kind] { return value }
        let digits = String(String.UnicodeScalarView(kind == "x" ? escape.dropFirst() : escape))
        guard !digits.isEmpty, kind == "x" || digits.count <= 3, let value = UInt8(digits, radix: kind == "x" ? 16 : 8) else { return nil }
        return Int64(Int8(bitPattern: value))
    }

    /// One open `#if` (or `#ifdef`, `#ifndef`).
    struct Conditional {
        /// The directive that opened it ("if", "ifdef", "ifndef"), for messages.
        var directive: String
        /// Its line.
        var line: Int
        /// Whether the enclosing groups are all kept.
        var parentActive: Bool
        /// Where the chain of groups stands.
        var state: State
        /// Whether `#else` has been seen.
        var sawElse: Bool

        /// Where a chain of `#if`/`#elif`/`#else` groups stands.
        enum State {
            /// No group has been kept yet (always so under a skipped group).
            case waiting
            /// The current group is kept.
            case keeping
            /// An earlier group was kept: the rest of the chain is skipped.
            case done
        }

        /// The state after a group whose condition `holds` (false when it was not evaluated).
        func next(holds: Bool) -> State { state == .waiting ? (holds ? .keeping : .waiting) : .done }
    }

    /// The most conditionals open at once.
    static let maximumConditionalDepth = 256
    /// The most parentheses and operators nested in an `#if` expression.
    static let maximumExpressionDepth = 256

    /// Whether the lines here are kept.
    var isActive: Bool { conditionals.last.map { $0.state == .keeping } ?? true }

    /// Handles `head` when it is a conditional directive.
    /// - Returns: false for any other directive.
    /// - Throws: `ShaderSourceError` naming the line.
    mutating func conditional(_ head: String, _ rest: String, _ t: MetalToken) throws(ShaderSourceError) -> Bool {
        switch head {
        case "if", "ifdef", "ifndef":
            guard conditionals.count < Self.maximumConditionalDepth else {
                throw error("conditionals nested more than \(Self.maximumConditionalDepth) deep", t.line)
            }
            let parent = isActive
            var holds = false
            if parent {  // a skipped group's conditions are not evaluated
                if head == "if" {
                    holds = try evaluate(rest, t) != 0
                } else {
                    let name = try macroName(rest, head, t)
                    holds = isDefined(name) == (head == "ifdef")
                }
            }
            conditionals.append(
                Conditional(directive: head, line: t.line, parentActive: parent, state: holds ? .keeping : .waiting, sawElse: false))
        case "elif":
            guard var top = conditionals.popLast() else { throw error("#elif without #if", t.line) }
            guard !top.sawElse else { throw error("#elif after #else (the #if is on line \(top.line))", t.line) }
            let holds = top.parentActive && top.state == .waiting ? try evaluate(rest, t) != 0 : false
            top.state = top.next(holds: holds)
            conditionals.append(top)
        case "else":
            guard var top = conditionals.popLast() else { throw error("#else without #if", t.line) }
            guard !top.sawElse else { throw error("#else after #else (the #if is on line \(top.line))", t.line) }
            top.sawElse = true
            top.state = top.next(holds: top.parentActive)
            conditionals.append(top)
        case "endif":
            guard conditionals.popLast() != nil else { throw error("#endif without #if", t.line) }
        default:
            return false
        }
        return true
    }

    /// The one name after `#ifdef`/`#ifndef`.
    private func macroName(_ text: String, _ head: String, _ t: MetalToken) throws(ShaderSourceError) -> String {
        let tokens = try MetalLexer.tokenize(text, file: file)
        guard tokens.count == 1, tokens[0].kind == .identifier else {
            throw error("#\(head) takes one macro name, got '\(MessageText.excerpt(text))'", t.line)
        }
        return tokens[0].text
    }

    /// The value of an `#if`/`#elif` expression.
    private mutating func evaluate(_ text: String, _ t: MetalToken) throws(ShaderSourceError) -> Int64 {
        let lexed = try tokens(of: text, in: t)
        // `defined` first: its operand is not expanded.
        var tokens: [MetalToken] = []
        var i = 0
        while i < lexed.count {
            guard lexed[i].kind == .identifier, lexed[i].text == "defined" else { tokens.append(lexed[i]); i += 1; continue }
            var j = i + 1
            let parenthesised = j < lexed.count && lexed[j].text == "("
            if parenthesised { j += 1 }
            guard j < lexed.count, lexed[j].kind == .identifier else {
                throw error("'defined' needs a macro name in '#if \(MessageText.excerpt(text))'", t.line)
            }
            let name = lexed[j].text
            j += 1
            if parenthesised {
                guard j < lexed.count, lexed[j].text == ")" else {
                    throw error("expected ')' after 'defined(\(name)' in '#if \(MessageText.excerpt(text))'", t.line)
                }
                j += 1
            }
            tokens.append(MetalToken(kind: .number, text: isDefined(name) ? "1" : "0", line: t.line))
            i = j
        }
        let expanded = try expand(tokens, active: [], depth: 0, outermost: nil)
        guard !expanded.isEmpty else { throw error("#if with no expression", t.line) }
        var parser = ConditionParser(tokens: expanded, text: text, line: t.line, file: file)
        let value = try parser.conditional(depth: 0)
        guard parser.index == expanded.count else {
            throw error("unexpected '\(expanded[parser.index].text)' in '#if \(MessageText.excerpt(text))'", t.line)
        }
        return value
    }
}

/// An integer constant expression of `#if`, by precedence climbing.
private struct ConditionParser {
    let tokens: [MetalToken]
    let text: String
    let line: Int
    let file: String
    var index = 0
    /// Above 0 inside an operand whose value is not used (after `1 ||`, `0 &&`, the branch `?:`
    /// does not take): division by zero there is no error, as in C.
    var skipping = 0

    private func fail(_ message: String) -> ShaderSourceError {
        ShaderSourceError(file: file, line: line, message: "\(message) in '#if \(MessageText.excerpt(text))'")
    }

    private var next: String? { index < tokens.count ? tokens[index].text : nil }

    /// `a ? b : c` (lowest), with the `||` … unary levels below it.
    mutating func conditional(depth: Int) throws(ShaderSourceError) -> Int64 {
        guard depth < MetalPreprocessor.maximumExpressionDepth else { throw fail("an expression nested too deeply") }
        let condition = try binary(level: 0, depth: depth + 1)
        guard next == "?" else { return condition }
        index += 1
        if condition == 0 { skipping += 1 }
        let yes = try conditional(depth: depth + 1)
        if condition == 0 { skipping -= 1 }
        guard next == ":" else { throw fail("expected ':'") }
        index += 1
        if condition != 0 { skipping += 1 }
        let no = try conditional(depth: depth + 1)
        if condition != 0 { skipping -= 1 }
        return condition != 0 ? yes : no
    }

    /// The binary operators by precedence, loosest first.
    private static let levels: [[String]] = [
        ["||"], ["&&"], ["|"], ["^"], ["&"], ["==", "!="], ["<", ">", "<=", ">="], ["<<", ">>"], ["+", "-"], ["*", "/", "%"],
    ]

    private mutating func binary(level: Int, depth: Int) throws(ShaderSourceError) -> Int64 {
        guard level < Self.levels.count else { return try unary(depth: depth) }
        var left = try binary(level: level + 1, depth: depth)
        while let op = next, Self.levels[level].contains(op) {
            index += 1
            let decided = (op == "||" && left != 0) || (op == "&&" && left == 0)
            if decided { skipping += 1 }
            let right = try binary(level: level + 1, depth: depth)
            if decided { skipping -= 1 }
            left = try apply(op, left, right)
        }
        return left
    }

    private func apply(_ op: String, _ a: Int64, _ b: Int64) throws(ShaderSourceError) -> Int64 {
        switch op {
        case "||": return a != 0 || b != 0 ? 1 : 0
        case "&&": return a != 0 && b != 0 ? 1 : 0
        case "|": return a | b
        case "^": return a ^ b
        case "&": return a & b
        case "==": return a == b ? 1 : 0
        case "!=": return a != b ? 1 : 0
        case "<": return a < b ? 1 : 0
        case ">": return a > b ? 1 : 0
        case "<=": return a <= b ? 1 : 0
        case ">=": return a >= b ? 1 : 0
        case "<<": return b < 0 || b >= 64 ? 0 : a << b
        case ">>": return b < 0 || b >= 64 ? (a < 0 ? -1 : 0) : a >> b
        case "+": return a &+ b
        case "-": return a &- b
        case "*": return a &* b
        case "/", "%":
            guard b != 0 else {
                if skipping > 0 { return 0 }
                throw fail("division by zero")
            }
            if a == .min && b == -1 { return op == "/" ? .min : 0 }
            return op == "/" ? a / b : a % b
        default: throw fail("unexpected '\(op)'")
        }
    }

    private mutating func unary(depth: Int) throws(ShaderSourceError) -> Int64 {
        guard depth < MetalPreprocessor.maximumExpressionDepth else { throw fail("an expression nested too deeply") }
        guard index < tokens.count else { throw fail("an expression that ends too soon") }
        let t = tokens[index]
        index += 1
        switch t.text {
        case "+": return try unary(depth: depth + 1)
        case "-": return 0 &- (try unary(depth: depth + 1))
        case "!": return try unary(depth: depth + 1) == 0 ? 1 : 0
        case "~": return ~(try unary(depth: depth + 1))
        case "(":
            let value = try conditional(depth: depth + 1)
            guard next == ")" else { throw fail("expected ')'") }
            index += 1
            return value
        default: break
        }
        switch t.kind {
        case .number:
            guard let value = MetalPreprocessor.integer(t.text) else { throw fail("'\(t.text)' is not an integer") }
            return value
        case .identifier: return t.text == "true" ? 1 : 0  // any other name left after expansion is 0, as in C
        case .string where t.text.hasPrefix("'"):
            guard let value = MetalPreprocessor.character(t.text) else {
                throw fail(
                    "\(t.text) is not a character constant Segue reads: one character, or one escape of a byte ('\\n', '\\x41', '\\101')")
            }
            return value
        default: throw fail("unexpected '\(t.text)'")
        }
    }
}
