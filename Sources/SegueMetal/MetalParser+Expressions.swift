// Expressions of the Metal subset, by C++ precedence: assignment, `?:`, the binary operators
// (precedence climbing), prefix and postfix operators, calls, members, indexing, brace lists.

extension MetalParser {
    /// Binary operators and their precedence (higher binds tighter).
    static let binaryPrecedence: [String: Int] = [
        "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
        "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
    ]

    static let assignmentOperators: Set<String> = ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="]

    /// A full expression (no comma operator).
    mutating func expression() throws(ShaderSourceError) -> MetalExpr {
        let e = try assignmentExpression()
        if isText(",") { throw unsupported("comma operator", peek()!) }
        return e
    }

    mutating func assignmentExpression() throws(ShaderSourceError) -> MetalExpr {
        let lhs = try conditionalExpression()
        let lhsHeight = height
        if let op = peek(), op.kind == .punctuation, Self.assignmentOperators.contains(op.text) {
            i += 1
            try descend()  // `a = b = c = …` nests to the right
            defer { depth -= 1 }
            let rhs = try assignmentExpression()
            return try built(.assign(lhs, op, rhs), above: max(lhsHeight, height), at: op)
        }
        return lhs
    }

    mutating func conditionalExpression() throws(ShaderSourceError) -> MetalExpr {
        let condition = try binaryExpression(1)
        guard isText("?") else { return condition }
        var below = height
        let question = next()
        try descend()  // `a ? b : c ? d : …` nests to the right
        defer { depth -= 1 }
        let a = try assignmentExpression()
        below = max(below, height)
        let colon = try expect(":", "in 'condition ? a : b'")
        let b = try assignmentExpression()
        return try built(.conditional(condition, question, a, colon, b), above: max(below, height), at: question)
    }

    mutating func binaryExpression(_ minimum: Int) throws(ShaderSourceError) -> MetalExpr {
        var lhs = try unaryExpression()
        // The chain is built in a loop, one level higher at each operator: `built` bounds it.
        var lhsHeight = height
        while let op = peek(), op.kind == .punctuation, let p = Self.binaryPrecedence[op.text], p >= minimum {
            i += 1
            let rhs = try binaryExpression(p + 1)
            lhs = try built(.binary(lhs, op, rhs), above: max(lhsHeight, height), at: op)
            lhsHeight = height
        }
        height = lhsHeight
        return lhs
    }

    mutating func unaryExpression() throws(ShaderSourceError) -> MetalExpr {
        try descend()
        defer { depth -= 1 }
        let t = try current("an expression")
        if t.kind == .punctuation, ["-", "+", "!", "~", "++", "--"].contains(t.text) {
            i += 1
            let operand = try unaryExpression()
            return try built(.unary(t, operand), above: height, at: t)
        }
        if t.kind == .punctuation, t.text == "*" {
            // `*p`: the first element a pointer points at (the checker refuses it on other types).
            i += 1
            let operand = try unaryExpression()
            return try built(.unary(t, operand), above: height, at: t)
        }
        if t.kind == .punctuation, t.text == "&" { throw unsupported("address-of operator", t) }
        return try postfixExpression()
    }

    mutating func postfixExpression() throws(ShaderSourceError) -> MetalExpr {
        var e = try primaryExpression()
        // Members, indices and increments are built in a loop, one level higher each (`x.x.x…`).
        var below = height
        defer { height = below }
        while let t = peek(), t.kind == .punctuation {
            switch t.text {
            case ".":
                i += 1
                let name = try current("a member name")
                guard name.kind == .identifier else { throw error("expected a member name after '.', found '\(name.text)'", name.line) }
                i += 1
                if isText("(") {
                    let args = try arguments(open: "(", close: ")")
                    e = try built(.method(e, dot: t, name: name, args), above: max(below, height), at: t)
                } else {
                    e = try built(.member(e, dot: t, name: name), above: below, at: t)
                }
            case "[":
                i += 1
                let index = try expression()
                let close = try expect("]", "after the index")
                e = try built(.index(e, open: t, index, close: close), above: max(below, height), at: t)
            case "++", "--":
                i += 1
                e = try built(.postfix(e, t), above: below, at: t)
            case "->":
                throw unsupported("pointer member access", t)
            case "(":
                throw unsupported("call of an expression", t)
            default:
                return e
            }
            below = height
        }
        return e
    }

    mutating func primaryExpression() throws(ShaderSourceError) -> MetalExpr {
        let t = try current("an expression")
        switch t.kind {
        case .number:
            i += 1
            return try built(.number(t), above: 0, at: t)
        case .string:
            throw unsupported("string literal", t)
        case .directive:
            throw unsupported("preprocessor directive inside a function", t)
        case .punctuation:
            switch t.text {
            case "(":
                if startsPointer(1) { return try pointerCast() }
                // C-style cast `(float)x`.
                if let ty = peek(1), ty.kind == .identifier, MetalType.named[ty.text] != nil || structNames.contains(ty.text),
                    isText(")", 2)
                {
                    throw unsupported("C-style cast (write \(ty.text)(x))", ty)
                }
                i += 1
                let inner = try expression()
                let close = try expect(")", "to close '('")
                return try built(.paren(t, inner, close), above: height, at: t)
            case "{":
                let args = try arguments(open: "{", close: "}")
                return try built(.braces(nil, args), above: height, at: t)
            case "[[":
                throw unsupported("attribute", peek(1) ?? t)
            case "#", "@", "\\", "$", "...":
                throw unsupported("token", t)
            case "::":
                throw unsupported("scope resolution", t)
            default:
                throw error("expected an expression, found '\(t.text)'", t.line)
            }
        case .identifier:
            return try identifierExpression()
        }
    }

    mutating func identifierExpression() throws(ShaderSourceError) -> MetalExpr {
        let t = peek()!
        if t.text == "true" || t.text == "false" { i += 1; return try built(.boolean(t), above: 0, at: t) }
        if t.text == "sizeof" { return try sizeofExpression() }
        if t.text == "reinterpret_cast" || t.text == "static_cast", isText("<", 1), startsPointer(2) { return try namedPointerCast() }
        if let what = MetalVocabulary.rejected[t.text] { throw unsupported(what, t) }
        if MetalVocabulary.templateTypes.contains(t.text), isText("<", 1) { throw unsupported("template type", t) }
        if t.text == "SwiftUI", isText("::", 1), isText("Layer", 2) { throw unsupported("local layer variable", t) }
        if t.text == "texture2d" { throw unsupported("texture constructor", t) }
        if MetalVocabulary.keywords.contains(t.text) && t.text != "true" && t.text != "false" {
            throw error("expected an expression, found '\(t.text)'", t.line)
        }
        // A qualified name: metal::sin, metal::precise::sin, filter::linear.
        var parts = [t]
        i += 1
        while isText("::"), let n = peek(1), n.kind == .identifier {
            parts.append(n)
            i += 2
        }
        if isText("::") { throw unsupported("scope resolution", peek()!) }
        let name = MetalName(parts: parts)
        if MetalType.named[name.name] != nil || structNames.contains(name.name), isText("{") {
            let type = MetalTypeSyntax(
                first: name.first, spelling: name.name, builtIn: MetalType.named[name.name],
                structName: structNames.contains(name.name) ? name.name : nil)
            let args = try arguments(open: "{", close: "}")
            return try built(.braces(type, args), above: height, at: t)
        }
        if MetalType.named[name.name] != nil, isText("<") { throw unsupported("template type", name.token) }
        if isText("(") {
            let args = try arguments(open: "(", close: ")")
            return try built(.call(name, args), above: height, at: t)
        }
        return try built(.name(name), above: 0, at: t)
    }

    /// `(a, b, …)` or `{a, b, …}` at the cursor; `height` becomes that of the highest item (0
    /// for none).
    mutating func arguments(open: String, close: String) throws(ShaderSourceError) -> MetalArguments {
        let o = try expect(open, "to begin the arguments")
        var items: [MetalExpr] = []
        var highest = 0
        while !isText(close) {
            if !items.isEmpty {
                try expect(",", "between arguments")
                if close == "}" && isText("}") { break }  // a trailing comma in a brace list
            }
            items.append(try assignmentExpression())
            highest = max(highest, height)
        }
        height = highest
        return MetalArguments(open: o, items: items, close: next())
    }
}
