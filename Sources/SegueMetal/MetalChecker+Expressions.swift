// Expressions: literals, names, operators, members, indexing, and the conversions between types.
//
// Operators follow Metal (C++ with clang's vector extension): scalars meet by the usual
// arithmetic conversions (bool → int → uint → half → float); a scalar meeting a vector converts to
// the vector's element type; two vectors must have the same width; comparisons of vectors give
// bool vectors (GLSL `lessThan`, `equal`, …). Every conversion Metal does implicitly is written
// explicitly in the GLSL; one Metal would not do is an error naming both types.
import SegueSystem

extension MetalChecker {
    /// Checks an expression. Each case is handed to its own function, so this frame, which the
    /// recursion through an expression tree repeats at every level, stays small.
    mutating func expr(_ e: MetalExpr) throws(ShaderSourceError) -> Typed {
        switch e {
        case let .number(t):
            return try literal(t)
        case let .boolean(t):
            return Typed(type: .bool, code: .token(t.text, t), value: [t.text == "true" ? 1 : 0], isConstant: true)
        case let .name(n):
            return try name(n)
        case let .paren(open, inner, close):
            return try parenthesized(open, inner, close)
        case let .unary(op, x):
            return try unary(op, x)
        case let .postfix(x, op):
            return try postfix(x, op)
        case let .binary(a, op, b):
            return try binary(a, op, b)
        case let .assign(a, op, b):
            return try assignment(a, op, b)
        case let .conditional(c, question, a, colon, b):
            return try conditional(c, question, a, colon, b)
        case let .call(n, args):
            return try call(n, args)
        case let .braces(type, args):
            return try braces(type, args)
        case let .member(base, dot, name):
            return try member(base, dot, name)
        case let .method(base, dot, name, args):
            return try method(base, dot, name, args)
        case let .index(base, open, index, close):
            return try subscripted(base, open, index, close)
        case let .cast(open, type, close, operand):
            return try pointerCast(open, type, close, operand)
        }
    }

    mutating func parenthesized(_ open: MetalToken, _ inner: MetalExpr, _ close: MetalToken) throws(ShaderSourceError) -> Typed {
        let v = try expr(inner)
        return Typed(
            type: v.type, code: .sequence([.token("(", open), v.code, .token(")", close)]), isLValue: v.isLValue,
            value: v.value, isConstant: v.isConstant, literal: v.literal)
    }

    mutating func postfix(_ x: MetalExpr, _ op: MetalToken) throws(ShaderSourceError) -> Typed {
        let v = try expr(x)
        try checkIncrement(v, op)
        return Typed(type: v.type, code: .sequence([v.code, .token(op.text, op)]))
    }

    mutating func binary(_ a: MetalExpr, _ op: MetalToken, _ b: MetalExpr) throws(ShaderSourceError) -> Typed {
        let x = try expr(a)
        return try binary(x, op, try expr(b))
    }

    mutating func conditional(
        _ c: MetalExpr, _ question: MetalToken, _ a: MetalExpr, _ colon: MetalToken,
        _ b: MetalExpr
    ) throws(ShaderSourceError) -> Typed {
        // A bool vector condition selects component by component (clang's vector extension, as
        // `select(b, a, c)`): GLSL's `mix(b, a, c)` with a bvec. Both sides are evaluated.
        let v = try expr(c)
        if case let .vector(.bool, n) = v.type {
            let cond = v
            let x = try expr(a), y = try expr(b)
            let type = try commonType(x.type, y.type, at: question)
            guard let s = type.scalar, type.width == n || type.width == 1 else {
                throw error("a '?:' with a bool\(n) condition needs values of \(n) components, got '\(type.metal)'", question.line)
            }
            let target = MetalType.vector(s, n)
            let cx = try convert(x, to: target, context: ""), cy = try convert(y, to: target, context: "")
            let comma1 = MetalToken(kind: .punctuation, text: ",", line: question.line, column: question.column, spaceBefore: false)
            let comma2 = MetalToken(kind: .punctuation, text: ",", line: colon.line, column: colon.column, spaceBefore: false)
            return Typed(
                type: target,
                code: .wrapped("mix(", .sequence([cy.code, .token(",", comma2), cx.code, .token(",", comma1), cond.code]), ")"))
        }
        guard v.type.width == 1 else {
            throw error("a '?:' condition must be a scalar or a bool vector, got '\(v.type.metal)'", at: v.code, or: c.first)
        }
        let condition = try convert(v, to: .bool, context: "in a '?:' condition")
        let x = try expr(a), y = try expr(b)
        let type = try commonType(x.type, y.type, at: question)
        guard type.isValue else {
            throw error("a '?:' cannot choose a '\(type.metal)' (a handle, not a value); sample each and choose the colour", question.line)
        }
        let cx = try convert(x, to: type, context: ""), cy = try convert(y, to: type, context: "")
        var value: [Double]?
        if let c = condition.value, let vx = cx.value, let vy = cy.value { value = c[0] != 0 ? vx : vy }
        return Typed(
            type: type, code: .sequence([condition.code, .token("?", question), cx.code, .token(":", colon), cy.code]),
            value: value, isConstant: condition.isConstant && cx.isConstant && cy.isConstant)
    }

    mutating func braces(_ type: MetalTypeSyntax?, _ args: MetalArguments) throws(ShaderSourceError) -> Typed {
        guard let type else {
            throw error("unsupported initializer list here (write the type: T{…} or T(…))", args.open.line)
        }
        return try braces(try resolve(type), args, at: type.first)
    }

    mutating func member(_ base: MetalExpr, _ dot: MetalToken, _ name: MetalToken) throws(ShaderSourceError) -> Typed {
        try member(try expr(base), dot, name)
    }

    mutating func subscripted(_ base: MetalExpr, _ open: MetalToken, _ index: MetalExpr, _ close: MetalToken) throws(ShaderSourceError)
        -> Typed
    {
        let b = try expr(base)
        return try subscripted(b, open, try expr(index), close)
    }

    // MARK: - Literals and names

    /// A number: its type from its form and suffix (`2` int, `2u` uint, `2.0`/`2.0f` float,
    /// `2h`/`2.0h` half), written without Metal's suffixes. Integers are read as `#if` reads them
    /// (`MetalPreprocessor.integer`: decimal, `0x` hex, `0b` binary, `0` octal) and written in
    /// decimal, so `010` is 8 in constants and in the GLSL alike.
    func literal(_ t: MetalToken) throws(ShaderSourceError) -> Typed {
        var s = t.text
        let lower = s.lowercased()
        if lower.hasPrefix("0x"), lower.contains(".") || lower.contains("p") { throw unsupported("hexadecimal float literal", t) }
        let body = lower.reversed().drop { $0 == "u" || $0 == "l" }.reversed()
        let radixPrefixed =
            lower.hasPrefix("0x") || lower.hasPrefix("0b") || (body.count > 1 && body.first == "0" && body.allSatisfy(\.isNumber))
        if lower.dropFirst(body.count).contains("l") {
            throw error("'\(t.text)': long literals are not supported: \(Self.noLong)", t.line)
        }
        if radixPrefixed {
            // C++'s rule: a hex, binary or octal literal too large for int is unsigned.
            guard let v = MetalPreprocessor.integer(lower), v >= 0 else { throw unsupported("number literal", t) }
            guard v <= Int64(UInt32.max) else { throw error("'\(t.text)' does not fit in 32 bits: \(Self.noLong)", t.line) }
            let type: MetalType = lower.hasSuffix("u") || v > Int64(Int32.max) ? .uint : .int
            return Typed(
                type: type, code: .token(type == .uint ? "\(v)u" : "\(v)", t), value: [Double(v)], isConstant: true, literal: (t, nil))
        }
        var scalar: MetalScalar = s.contains(".") || lower.contains("e") ? .float : .int
        if let last = s.last, "hH".contains(last) {
            s.removeLast(); scalar = .half
        } else if let last = s.last, "fF".contains(last) {
            s.removeLast(); scalar = .float
        } else if let last = s.last, "uU".contains(last) {
            s.removeLast(); scalar = .uint
        }
        guard s.allSatisfy({ $0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "+" || $0 == "-" }),
            s.first?.isNumber == true || s.first == "."
        else {
            throw unsupported("number literal", t)
        }
        if scalar.isInteger && (s.contains(".") || s.lowercased().contains("e")) { throw unsupported("number literal", t) }
        var swiftText = s
        if swiftText.hasPrefix(".") { swiftText = "0" + swiftText }
        swiftText = swiftText.replacingAll(".e", with: ".0e").replacingAll(".E", with: ".0E")
        if swiftText.hasSuffix(".") { swiftText += "0" }
        guard let v = Double(swiftText), v.isFinite else { throw unsupported("number literal", t) }
        if scalar.isInteger {
            guard v <= Double(UInt32.max) else { throw error("'\(t.text)' does not fit in 32 bits: \(Self.noLong)", t.line) }
            guard scalar == .uint || v <= Double(Int32.max) else {
                // C++ makes it a long; INT_MIN written out is the negation of such a literal.
                throw error(
                    "'\(t.text)' does not fit in an int: \(Self.noLong); write \(s)u for a uint"
                        + (v == 2_147_483_648 ? ", or INT_MIN for -2147483648" : ""), t.line)
            }
            return Typed(
                type: .scalar(scalar), code: .token(scalar == .uint ? s + "u" : s, t), value: [v], isConstant: true, literal: (t, nil))
        }
        if !s.contains(".") && !s.lowercased().contains("e") { s += ".0" }
        return Typed(type: .scalar(scalar), code: .token(s, t), value: [v], isConstant: true, literal: (t, nil))
    }

    /// Why an integer needs 32 bits.
    static let noLong = "Segue translates Metal to GLSL, which has no 64-bit integers"

    mutating func name(_ n: MetalName) throws(ShaderSourceError) -> Typed {
        if n.qualifiers.isEmpty, let v = lookup(n.name) {
            return Typed(type: v.type, code: .token(v.glsl, n.first), isLValue: v.isLValue, value: v.value, isConstant: v.isConstant)
        }
        guard n.qualifiers.allSatisfy({ $0 == "metal" }) else {
            if let q = n.qualifiers.last, MetalChecker.samplerOptions[q] != nil {
                throw unsupported("sampler option outside a sampler", n.token)
            }
            throw unsupported("scope resolution", n.first)
        }
        if let c = MetalVocabulary.constants[n.name] {
            let type: MetalType = n.name.hasSuffix("_H") || n.name.hasPrefix("HALF_") ? .half : .float
            return Typed(type: type, code: .token(c.text, n.first), value: c.value.map { [$0] }, isConstant: true)
        }
        if let c = MetalVocabulary.integerConstants[n.name] {
            return Typed(type: c.type, code: .token(c.text, n.first), value: [c.value], isConstant: true)
        }
        if functions[n.name] != nil || MetalBuiltins.functions[n.name] != nil {
            throw error("'\(n.name)' is a function; call it with (…)", n.token.line)
        }
        throw error("use of undeclared identifier '\(n.name)'", n.token.line)
    }

    // MARK: - Operators

    mutating func unary(_ op: MetalToken, _ x: MetalExpr) throws(ShaderSourceError) -> Typed {
        try unary(op, try expr(x))
    }

    mutating func unary(_ op: MetalToken, _ operand: Typed) throws(ShaderSourceError) -> Typed {
        var v = operand
        switch op.text {
        case "-", "+":
            guard v.type.scalar != nil else { throw error("invalid argument type '\(v.type.metal)' to unary '\(op.text)'", op.line) }
            if v.type.scalar == .bool { v = try convert(v, to: v.type.with(.int), context: "") }
            let literal = op.text == "-" && v.literal?.minus == nil ? v.literal.map { ($0.number, Optional(op)) } : nil
            return Typed(
                type: v.type, code: .sequence([.token(op.text, op), v.code]), value: v.value.map { op.text == "-" ? $0.map { -$0 } : $0 },
                isConstant: v.isConstant, literal: literal)
        case "!":
            if case .vector(.bool, _) = v.type {
                return Typed(
                    type: v.type, code: .wrapped("not(", v.code, ")"), value: v.value.map { $0.map { $0 == 0 ? 1 : 0 } },
                    isConstant: v.isConstant)
            }
            guard v.type.width == 1 else { throw error("invalid argument type '\(v.type.metal)' to unary '!'", op.line) }
            let b = try convert(v, to: .bool, context: "")
            return Typed(
                type: .bool, code: .sequence([.token("!", op), b.code]), value: b.value.map { $0.map { $0 == 0 ? 1 : 0 } },
                isConstant: b.isConstant)
        case "*":
            guard case let .pointer(pointee) = v.type else {
                throw error("indirection requires a pointer operand ('\(v.type.metal)' is not one)", op.line)
            }
            return try pointerRead(v, pointee, index: nil, at: op, close: nil)
        case "~":
            guard let s = v.type.scalar, v.type.width != nil, s.isInteger || s == .bool else {
                throw error("invalid argument type '\(v.type.metal)' to unary '~'", op.line)
            }
            if s == .bool { v = try convert(v, to: v.type.with(.int), context: "") }
            return Typed(type: v.type, code: .sequence([.token("~", op), v.code]), isConstant: v.isConstant)
        default:
            try checkIncrement(v, op)
            return Typed(type: v.type, code: .sequence([.token(op.text, op), v.code]))
        }
    }

    func checkIncrement(_ v: Typed, _ op: MetalToken) throws(ShaderSourceError) {
        guard v.isLValue else { throw error("'\(op.text)' needs a variable", op.line) }
        guard let s = v.type.scalar, s != .bool, v.type.width != nil else {
            throw error("cannot apply '\(op.text)' to a \(v.type.metal)", op.line)
        }
    }

    /// The element type two numeric operands meet at, and the type of the result, for an
    /// arithmetic or bitwise operator (nil: invalid).
    func arithmeticTypes(_ a: MetalType, _ b: MetalType) -> (element: MetalScalar, result: MetalType)? {
        switch (a, b) {
        case let (.scalar(x), .scalar(y)):
            let s = MetalScalar.common(x, y)
            return (s, .scalar(s))
        case let (.vector(v, n), .scalar(s)), let (.scalar(s), .vector(v, n)):
            if v.isFloating { return (s == .float ? .float : v, .vector(s == .float ? .float : v, n)) }
            if s.isFloating { return nil }
            let e = v == .bool ? MetalScalar.common(.int, s) : MetalScalar.common(v, s)
            return (e, .vector(e, n))
        case let (.vector(x, n), .vector(y, m)):
            guard n == m else { return nil }
            if x.isFloating && y.isFloating { return (MetalScalar.common(x, y), .vector(MetalScalar.common(x, y), n)) }
            guard x == y else { return nil }
            let e = x == .bool ? MetalScalar.int : x
            return (e, .vector(e, n))
        default:
            return nil
        }
    }

    func invalidOperands(_ a: MetalType, _ b: MetalType, _ op: MetalToken) -> ShaderSourceError {
        error("invalid operands to binary expression ('\(a.metal)' \(op.text) '\(b.metal)')", op.line)
    }

    mutating func binary(_ x: Typed, _ op: MetalToken, _ y: Typed) throws(ShaderSourceError) -> Typed {
        if x.type.isPointer || y.type.isPointer {
            throw unsupported("pointer arithmetic or comparison (index the pointer instead: p[i])", op)
        }
        let isConstant = x.isConstant && y.isConstant
        switch op.text {
        case "&&", "||":
            guard x.type.width == 1, y.type.width == 1 else { throw invalidOperands(x.type, y.type, op) }
            let a = try convert(x, to: .bool, context: ""), b = try convert(y, to: .bool, context: "")
            var value: [Double]?
            if let p = a.value, let q = b.value { value = [(op.text == "&&" ? p[0] != 0 && q[0] != 0 : p[0] != 0 || q[0] != 0) ? 1 : 0] }
            return Typed(type: .bool, code: .sequence([a.code, .token(op.text, op), b.code]), value: value, isConstant: isConstant)
        case "<", ">", "<=", ">=", "==", "!=":
            return try comparison(x, op, y)
        default:
            break
        }
        if case .matrix = x.type { return try matrixArithmetic(x, op, y) }
        if case .matrix = y.type { return try matrixArithmetic(x, op, y) }
        guard let (element, result) = arithmeticTypes(x.type, y.type) else { throw invalidOperands(x.type, y.type, op) }
        let bitwise = ["&", "|", "^", "<<", ">>", "%"].contains(op.text)
        if bitwise && !element.isInteger {
            throw error(
                op.text == "%"
                    ? "'%' needs integer operands; use fmod() for floating-point numbers"
                    : "'\(op.text)' needs integer operands, got '\(x.type.metal)' and '\(y.type.metal)'", op.line)
        }
        let a = try convert(x, to: x.type.width == 1 ? .scalar(element) : x.type.with(element), context: "")
        let b = try convert(y, to: y.type.width == 1 ? .scalar(element) : y.type.with(element), context: "")
        let value = fold(a.value, b.value, op.text, element: element, width: result.width ?? 1)
        return Typed(type: result, code: .sequence([a.code, .token(op.text, op), b.code]), value: value, isConstant: isConstant)
    }

    /// Component-wise constant folding of arithmetic (nil when either side is not constant, or
    /// for an integer division by zero). Integers wrap around at 32 bits, as on the GPU.
    func fold(_ a: [Double]?, _ b: [Double]?, _ op: String, element: MetalScalar, width: Int) -> [Double]? {
        guard let a, let b else { return nil }
        var out: [Double] = []
        for k in 0..<width {
            let p = a.count == 1 ? a[0] : a[k], q = b.count == 1 ? b[0] : b[k]
            if element.isInteger {
                guard let r = Self.foldInteger(p, q, op, element) else { return nil }
                out.append(r)
                continue
            }
            switch op {
            case "+": out.append(p + q)
            case "-": out.append(p - q)
            case "*": out.append(p * q)
            case "/": out.append(p / q)
            default: return nil
            }
        }
        return out
    }

    /// `p op q` on 32-bit integers of type `s` with the GPU's wrapping arithmetic (nil for a
    /// division by zero or an operator not folded).
    static func foldInteger(_ p: Double, _ q: Double, _ op: String, _ s: MetalScalar) -> Double? {
        let x = UInt32(wrapInteger(p, .uint)), y = UInt32(wrapInteger(q, .uint))
        let r: UInt32
        switch op {
        case "+": r = x &+ y
        case "-": r = x &- y
        case "*": r = x &* y
        case "/", "%":
            guard y != 0 else { return nil }
            if s == .int {
                let a = Int32(bitPattern: x), b = Int32(bitPattern: y)
                // INT_MIN / -1 overflows; the GPU's result is undefined, so it is not folded.
                let (v, overflow) = op == "/" ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
                guard !overflow else { return nil }
                r = UInt32(bitPattern: v)
            } else {
                r = op == "/" ? x / y : x % y
            }
        default:
            return nil
        }
        return s == .int ? Double(Int32(bitPattern: r)) : Double(r)
    }

    /// `x` as a value of the 32-bit integer type `s`: truncated, then wrapped around as the GPU
    /// does (NaN and infinities, whose conversion is undefined, give 0).
    static func wrapInteger(_ x: Double, _ s: MetalScalar) -> Double {
        guard x.isFinite else { return 0 }
        var r = x.rounded(.towardZero).truncatingRemainder(dividingBy: 4_294_967_296)
        if r < 0 { r += 4_294_967_296 }
        if s == .int && r >= 2_147_483_648 { r -= 4_294_967_296 }
        return r
    }

    mutating func comparison(_ x: Typed, _ op: MetalToken, _ y: Typed) throws(ShaderSourceError) -> Typed {
        let ordered = ["<", ">", "<=", ">="].contains(op.text)
        if case let (.scalar(s), .scalar(t)) = (x.type, y.type) {
            let e: MetalScalar = s == .bool && t == .bool && !ordered ? .bool : MetalScalar.common(s, t)
            let a = try convert(x, to: .scalar(e), context: ""), b = try convert(y, to: .scalar(e), context: "")
            var value: [Double]?
            if let p = a.value?.first, let q = b.value?.first {
                let r: Bool =
                    switch op.text {
                    case "<": p < q
                    case ">": p > q
                    case "<=": p <= q
                    case ">=": p >= q
                    case "==": p == q
                    default: p != q
                    }
                value = [r ? 1 : 0]
            }
            return Typed(
                type: .bool, code: .sequence([a.code, .token(op.text, op), b.code]), value: value, isConstant: x.isConstant && y.isConstant)
        }
        guard let n = max(x.type.width ?? 0, y.type.width ?? 0) as Int?, n > 1, x.type.width != nil, y.type.width != nil else {
            throw invalidOperands(x.type, y.type, op)
        }
        var element: MetalScalar
        if case .vector(.bool, _) = x.type, case .vector(.bool, _) = y.type, !ordered {
            element = .bool
        } else {
            guard let (e, _) = arithmeticTypes(x.type, y.type) else { throw invalidOperands(x.type, y.type, op) }
            element = e
        }
        let a = try convert(x, to: .vector(element, n), context: ""), b = try convert(y, to: .vector(element, n), context: "")
        let function = [
            "<": "lessThan", ">": "greaterThan", "<=": "lessThanEqual", ">=": "greaterThanEqual", "==": "equal", "!=": "notEqual",
        ][op.text]!
        let comma = MetalToken(kind: .punctuation, text: ",", line: op.line, column: op.column, spaceBefore: false)
        return Typed(
            type: .vector(.bool, n), code: .wrapped("\(function)(", .sequence([a.code, .token(",", comma), b.code]), ")"),
            isConstant: x.isConstant && y.isConstant)
    }

    mutating func matrixArithmetic(_ x: Typed, _ op: MetalToken, _ y: Typed) throws(ShaderSourceError) -> Typed {
        var a = x, b = y
        let result: MetalType
        switch (x.type, op.text, y.type) {
        case let (.matrix(_, c, r), "*", .vector(s, n)) where n == c && s.isFloating:
            result = .vector(.float, r)
        case let (.vector(s, n), "*", .matrix(_, c, r)) where n == r && s.isFloating:
            result = .vector(.float, c)
        case let (.matrix(_, c1, r1), "*", .matrix(_, c2, r2)) where c1 == r2:
            result = .matrix(.float, columns: c2, rows: r1)
        case let (.matrix(_, c, r), "+", .matrix(_, c2, r2)) where c == c2 && r == r2,
            let (.matrix(_, c, r), "-", .matrix(_, c2, r2)) where c == c2 && r == r2:
            result = .matrix(.float, columns: c, rows: r)
        case (.matrix, "*", .scalar), (.matrix, "/", .scalar):
            result = x.type
            b = try convert(y, to: .float, context: "")
        case (.scalar, "*", .matrix):
            result = y.type
            a = try convert(x, to: .float, context: "")
        default:
            throw invalidOperands(x.type, y.type, op)
        }
        return Typed(type: result, code: .sequence([a.code, .token(op.text, op), b.code]), isConstant: x.isConstant && y.isConstant)
    }

    mutating func assignment(_ target: MetalExpr, _ op: MetalToken, _ source: MetalExpr) throws(ShaderSourceError) -> Typed {
        let lhs = try expr(target)
        guard lhs.isLValue else {
            if case let .member(_, _, name) = target, lhs.type.width != nil, Set(name.text).count < name.text.count {
                throw error("cannot assign to the swizzle '.\(name.text)': it repeats a component", op.line)
            }
            if case let .index(base, _, _, _) = target, case .pointer? = try? expr(base).type {
                throw error("cannot assign through a pointer: SwiftUI's array and data arguments are read-only", op.line)
            }
            throw error("cannot assign to this expression (it is not a variable)", op.line)
        }
        guard lhs.type.isValue else {
            throw error("cannot assign to a '\(lhs.type.metal)': it is a handle, not a value; use the argument itself", op.line)
        }
        if op.text == "=" {
            let rhs = try initial(source, as: lhs.type, context: "in an assignment")
            return Typed(type: lhs.type, code: .sequence([lhs.code, .token("=", op), rhs.code]))
        }
        let rhs = try expr(source)
        let operation = MetalToken(kind: .punctuation, text: String(op.text.dropLast()), line: op.line, column: op.column)
        // The operation as a binary expression decides what is valid and the result type.
        let combined = try binary(lhs, operation, rhs)
        guard
            combined.type == lhs.type || glsl(combined.type) == glsl(lhs.type)
                || (lhs.type.scalar?.isInteger == true && combined.type.scalar?.isInteger == true && combined.type.width == lhs.type.width)
        else {
            if lhs.type.scalar?.isInteger == true, combined.type.scalar?.isFloating == true {
                throw unsupported("compound assignment that converts a floating-point result to an integer", op)
            }
            throw error("cannot convert '\(combined.type.metal)' to '\(lhs.type.metal)' in '\(op.text)'", op.line)
        }
        var r = rhs
        if case .matrix = rhs.type {
        } else if case .matrix = lhs.type, rhs.type.width == 1 {
            r = try convert(rhs, to: .float, context: "")
        } else if let s = lhs.type.scalar, rhs.type.width == 1 {
            r = try convert(rhs, to: .scalar(s), context: "")
        } else if rhs.type.width != nil, lhs.type.width != nil {
            r = try convert(rhs, to: lhs.type, context: "")
        }
        return Typed(type: lhs.type, code: .sequence([lhs.code, .token(op.text, op), r.code]))
    }

    /// The type both branches of `?:` convert to.
    func commonType(_ a: MetalType, _ b: MetalType, at token: MetalToken) throws(ShaderSourceError) -> MetalType {
        if a == b { return a }
        if a.isPointer || b.isPointer { throw error("incompatible operand types ('\(a.metal)' and '\(b.metal)')", token.line) }
        if glsl(a) == glsl(b), a.glslArraySuffix == b.glslArraySuffix { return a.scalar == .float ? a : b }
        if case let (.scalar(s), .scalar(t)) = (a, b) { return .scalar(MetalScalar.common(s, t)) }
        if let (_, result) = arithmeticTypes(a, b) { return result }
        throw error("incompatible operand types ('\(a.metal)' and '\(b.metal)')", token.line)
    }

    // MARK: - Members and indexing

    mutating func member(_ base: Typed, _ dot: MetalToken, _ name: MetalToken) throws(ShaderSourceError) -> Typed {
        switch base.type {
        case let .vector(s, n):
            let sets = ["xyzw", "rgba"]
            guard let set = sets.first(where: { set in name.text.allSatisfy { set.contains($0) } }), (1...4).contains(name.text.count)
            else {
                throw error("invalid swizzle '.\(name.text)' of a \(base.type.metal)", name.line)
            }
            let indices = name.text.map { set.distance(from: set.startIndex, to: set.firstIndex(of: $0)!) }
            guard indices.allSatisfy({ $0 < n }) else {
                throw error("swizzle '.\(name.text)' is out of range for a \(base.type.metal)", name.line)
            }
            return Typed(
                type: .of(s, indices.count), code: .sequence([base.code, .token(".", dot), .token(name.text, name)]),
                isLValue: base.isLValue && Set(indices).count == indices.count,
                value: base.value.map { v in indices.map { v[$0] } }, isConstant: base.isConstant)
        case let .structure(structName):
            guard let field = structs[structName]?.fields.first(where: { $0.name == name.text }) else {
                throw error("no member named '\(name.text)' in '\(structName)'", name.line)
            }
            return Typed(
                type: field.type, code: .sequence([base.code, .token(".", dot), .token(field.glsl, name)]),
                isLValue: base.isLValue, isConstant: base.isConstant)
        case .layer:
            throw unsupported("layer member (only layer.sample(position))", name)
        case .texture:
            throw unsupported("texture member (sample, read, get_width, get_height)", name)
        default:
            throw error("member reference '.\(name.text)' on a \(base.type.metal)", name.line)
        }
    }

    mutating func subscripted(_ base: Typed, _ open: MetalToken, _ index: Typed, _ close: MetalToken) throws(ShaderSourceError) -> Typed {
        let element: MetalType
        let count: Int
        switch base.type {
        case let .vector(s, n): (element, count) = (.scalar(s), n)
        case let .matrix(s, c, r): (element, count) = (.vector(s, r), c)
        case let .array(t, n): (element, count) = (t, n)
        case let .pointer(pointee): return try pointerRead(base, pointee, index: index, at: open, close: close)
        default: throw error("subscript of a \(base.type.metal)", open.line)
        }
        guard let s = index.type.scalar, index.type.width == 1, s.isInteger || s == .bool else {
            throw error("an index must be an integer, got '\(index.type.metal)'", open.line)
        }
        let i = s == .bool ? try convert(index, to: .int, context: "") : index
        var constantIndex: Int?
        if let v = i.value?.first {
            guard let k = Int(exactly: v), k >= 0, k < count else {
                throw error("index \(Int(exactly: v).map(String.init) ?? "\(v)") is out of range (0…\(count - 1))", open.line)
            }
            constantIndex = k
        }
        var value: [Double]?
        if let v = base.value, let k = constantIndex, k < v.count, element.width == 1 { value = [v[k]] }
        return Typed(
            type: element, code: .sequence([base.code, .token("[", open), i.code, .token("]", close)]),
            isLValue: base.isLValue, value: value, isConstant: base.isConstant && i.isConstant)
    }

    // MARK: - Conversions

    /// Whether Metal converts `from` to `to` without a cast (`half` and `float` vectors are
    /// accepted both ways: Segue computes both as `float`).
    func implicitlyConvertible(_ from: MetalType, _ to: MetalType) -> Bool {
        if from == to { return true }
        switch (from, to) {
        case (.scalar, .scalar), (.scalar, .vector): return true
        case let (.vector(a, n), .vector(b, m)): return n == m && a.isFloating && b.isFloating
        case let (.matrix(a, c, r), .matrix(b, c2, r2)): return c == c2 && r == r2 && a.isFloating && b.isFloating
        case let (.array(a, n), .array(b, m)): return n == m && (a == b || glsl(a) == glsl(b))
        case let (.pointer, .pointer(b)): return b == .void
        default: return false
        }
    }

    /// `v` as a value of `target`: an implicit conversion (or, with `explicit`, a constructor-style
    /// one between any scalars and vectors of one width) written out in the GLSL.
    func convert(_ v: Typed, to target: MetalType, context: String, explicit: Bool = false) throws(ShaderSourceError) -> Typed {
        guard implicitlyConvertible(v.type, target) || (explicit && v.type.width == target.width && target.width != nil) else {
            let at = v.code.firstToken.flatMap { $0.line > 0 ? $0.line : nil } ?? 1
            throw error("cannot convert '\(v.type.metal)' to '\(target.metal)'\(context.isEmpty ? "" : " " + context)", at)
        }
        if glsl(v.type) == glsl(target) && v.type.glslArraySuffix == target.glslArraySuffix {
            var same = v
            same.type = target
            same.isLValue = false
            return same
        }
        let element = target.scalar!
        let value = v.value.map { components in components.map { Self.convertComponent($0, to: element) } }
        switch target {
        case let .scalar(s):
            if let literal = v.literal, let x = value?.first {
                return Typed(type: target, code: Self.respell(literal, x, s), value: value, isConstant: true, literal: literal)
            }
            return Typed(type: target, code: .wrapped("\(s.glsl)(", v.code, ")"), value: value, isConstant: v.isConstant)
        case let .vector(s, n):
            if v.type.width == 1 {
                let scalar = try convert(v, to: .scalar(s), context: context, explicit: true)
                return Typed(
                    type: target, code: .wrapped("\(s.glslVectorPrefix)\(n)(", scalar.code, ")"),
                    value: scalar.value.map { Array(repeating: $0[0], count: n) }, isConstant: v.isConstant)
            }
            return Typed(type: target, code: .wrapped(glsl(target) + "(", v.code, ")"), value: value, isConstant: v.isConstant)
        default:
            return Typed(type: target, code: .wrapped(glsl(target) + "(", v.code, ")"), isConstant: v.isConstant)
        }
    }

    static func convertComponent(_ x: Double, to s: MetalScalar) -> Double {
        switch s {
        case .bool: x != 0 ? 1 : 0
        case .int, .uint: wrapInteger(x, s)
        case .half, .float: x
        }
    }

    /// A literal written again as a constant of another scalar type (`2` → `2.0`, `-1` → `-1.0`).
    static func respell(_ literal: (number: MetalToken, minus: MetalToken?), _ x: Double, _ s: MetalScalar) -> GLSLCode {
        let magnitude = literal.minus == nil ? x : -x
        let text: String =
            switch s {
            case .bool: x != 0 ? "true" : "false"
            case .int: String(Int32(wrapInteger(magnitude, .int)))
            case .uint: "\(UInt32(wrapInteger(magnitude, .uint)))u"
            case .half, .float: floatText(magnitude)
            }
        guard let minus = literal.minus, s != .bool else { return .token(text, literal.minus ?? literal.number) }
        return .sequence([.token("-", minus), .token(text, literal.number)])
    }

    /// A GLSL float literal for `x`.
    static func floatText(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) + ".0" }
        let s = String(Float(x))
        return s.contains(".") || s.contains("e") ? s : s + ".0"
    }
}
