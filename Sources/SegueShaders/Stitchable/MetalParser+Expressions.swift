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
        if let op = peek(), op.kind == .punctuation, Self.assignmentOperators.contains(op.text) {
            i += 1
            try descend()  // `a = b = c = …` nests to the right
            defer { depth -= 1 }
            return .assign(lhs, op, try assignmentExpression())
        }
        return lhs
    }

    mutating func conditionalExpression() throws(ShaderSourceError) -> MetalExpr {
        let condition = try binaryExpression(1)
        guard isText("?") else { return condition }
        let question = next()
        try descend()  // `a ? b : c ? d : …` nests to the right
        defer { depth -= 1 }
        let a = try assignmentExpression()
        let colon = try expect(":", "in 'condition ? a : b'")
        return .conditional(condition, question, a, colon, try assignmentExpression())
    }

    mutating func binaryExpression(_ minimum: Int) throws(ShaderSourceError) -> MetalExpr {
        var lhs = try unaryExpression()
        while let op = peek(), op.kind == .punctuation, let p = Self.binaryPrecedence[op.text], p >= minimum {
            i += 1
            lhs = .binary(lhs, op, try binaryExpression(p + 1))
        }
        return lhs
    }

    mutating func unaryExpression() throws(ShaderSourceError) -> MetalExpr {
        try descend()
        defer { depth -= 1 }
        let t = try current("an expression")
        if t.kind == .punctuation, ["-", "+", "!", "~", "++", "--"].contains(t.text) {
            i += 1
            return .unary(t, try unaryExpression())
        }
        if t.kind == .punctuation, t.text == "*" || t.text == "&" { throw unsupported(t.text == "*" ? "pointer" : "address-of operator", t) }
        return try postfixExpression()
    }

    mutating func postfixExpression() throws(ShaderSourceError) -> MetalExpr {
        var e = try primaryExpression()
        while let t = peek(), t.kind == .punctuation {
            switch t.text {
            case ".":
                i += 1
                let name = try current("a member name")
                guard name.kind == .identifier else { throw error("expected a member name after '.', found '\(name.text)'", name.line) }
                i += 1
                if isText("(") {
                    e = .method(e, dot: t, name: name, try arguments(open: "(", close: ")"))
                } else {
                    e = .member(e, dot: t, name: name)
                }
            case "[":
                i += 1
                let index = try expression()
                e = .index(e, open: t, index, close: try expect("]", "after the index"))
            case "++", "--":
                i += 1
                e = .postfix(e, t)
            case "->":
                throw unsupported("pointer member access", t)
            case "(":
                throw unsupported("call of an expression", t)
            default:
                return e
            }
        }
        return e
    }

    mutating func primaryExpression() throws(ShaderSourceError) -> MetalExpr {
        let t = try current("an expression")
        switch t.kind {
        case .number:
            i += 1
            return .number(t)
        case .string:
            throw unsupported("string literal", t)
        case .directive:
            throw unsupported("preprocessor directive inside a function", t)
        case .punctuation:
            switch t.text {
            case "(":
                // C-style cast `(float)x`.
                if let ty = peek(1), ty.kind == .identifier, MetalType.named[ty.text] != nil || structNames.contains(ty.text), isText(")", 2) {
                    throw unsupported("C-style cast (write \(ty.text)(x))", ty)
                }
                i += 1
                let inner = try expression()
                return .paren(t, inner, try expect(")", "to close '('"))
            case "{":
                return .braces(nil, try arguments(open: "{", close: "}"))
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
        if t.text == "true" || t.text == "false" { i += 1; return .boolean(t) }
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
            let type = MetalTypeSyntax(first: name.first, spelling: name.name, builtIn: MetalType.named[name.name],
                                       structName: structNames.contains(name.name) ? name.name : nil)
            return .braces(type, try arguments(open: "{", close: "}"))
        }
        if MetalType.named[name.name] != nil, isText("<") { throw unsupported("template type", name.token) }
        if isText("(") { return .call(name, try arguments(open: "(", close: ")")) }
        return .name(name)
    }

    /// `(a, b, …)` or `{a, b, …}` at the cursor.
    mutating func arguments(open: String, close: String) throws(ShaderSourceError) -> MetalArguments {
        let o = try expect(open, "to begin the arguments")
        var items: [MetalExpr] = []
        while !isText(close) {
            if !items.isEmpty {
                try expect(",", "between arguments")
                if close == "}" && isText("}") { break }  // a trailing comma in a brace list
            }
            items.append(try assignmentExpression())
        }
        return MetalArguments(open: o, items: items, close: next())
    }
}
