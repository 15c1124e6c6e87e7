// A recursive-descent parser for the Metal subset of stitchable shaders: top-level declarations
// (functions with default arguments, `constant`/`constexpr` globals, helper structs, `using
// namespace`) and statements. Expressions are in MetalParser+Expressions.swift. Constructs
// outside the subset are rejected here when their shape alone says so (pointers, templates,
// address spaces, attributes other than `[[ stitchable ]]`); the type checker rejects the rest.

/// Parses preprocessed tokens into `MetalTopLevel` declarations.
struct MetalParser {
    let tokens: [MetalToken]
    let file: String
    var i = 0
    /// Struct names declared so far (a name is a type from its declaration on, as in C++).
    var structNames: Set<String> = []
    /// Whether `using namespace SwiftUI;` allows a plain `Layer`.
    var usingSwiftUI = false
    /// How deep the parser's recursion into statements and expressions is.
    var depth = 0
    /// The height of the expression parsed last (a name or number is 1, `a + b` is 2, `a + b + c`,
    /// which is `(a + b) + c`, is 3), set by every function that returns an expression.
    var height = 0

    /// The deepest nesting accepted: statements nested in statements plus the height of an
    /// expression in the innermost one. Real shaders stay far below it. The checker and the GLSL
    /// writer recurse once per statement and per level of an expression tree, and so does the
    /// GLSL compiler's front end, so this bounds their stack use. A chain of left-associative
    /// operators (`t + t + … + t`) is a tree as high as it is long and counts in full.
    static let maximumNesting = 200
    /// The most functions (definitions and prototypes) of one file.
    static let maximumFunctions = 500
    /// The most parameters of one function.
    static let maximumParameters = 64

    init(tokens: [MetalToken], file: String) {
        self.tokens = tokens
        self.file = file
    }

    // MARK: - Helpers

    func unsupported(_ what: String, _ token: MetalToken) -> ShaderSourceError {
        ShaderSourceError(file: file, line: token.line, message: "unsupported \(what): '\(token.text)'")
    }

    func error(_ message: String, _ line: Int) -> ShaderSourceError { ShaderSourceError(file: file, line: line, message: message) }

    /// Goes one level deeper, or throws when that is past `maximumNesting`. The caller leaves the
    /// level with `defer { depth -= 1 }` after this returns.
    mutating func descend() throws(ShaderSourceError) {
        guard depth < Self.maximumNesting else {
            throw error("expressions or blocks nested more than \(Self.maximumNesting) levels deep", peek()?.line ?? lastLine)
        }
        depth += 1
    }

    /// Returns `e`, an expression one level above subexpressions at most `below` high, after
    /// checking that its height and the statements around it stay within `maximumNesting`.
    mutating func built(_ e: MetalExpr, above below: Int, at token: MetalToken) throws(ShaderSourceError) -> MetalExpr {
        height = below + 1
        guard depth + height <= Self.maximumNesting else {
            var message = "expressions or blocks nested more than \(Self.maximumNesting) levels deep"
            if case .binary = e {
                message += " (each operator of a chain such as 'a + b + c' adds a level; split the expression into several statements)"
            }
            throw error(message, token.line)
        }
        return e
    }

    func peek(_ k: Int = 0) -> MetalToken? { i + k < tokens.count ? tokens[i + k] : nil }

    func isText(_ s: String, _ k: Int = 0) -> Bool { peek(k).map { $0.text == s && $0.kind != .string } ?? false }

    var lastLine: Int { tokens.last?.line ?? 1 }

    /// The current token, or an error naming what was expected at the end of the file.
    func current(_ expected: String) throws(ShaderSourceError) -> MetalToken {
        guard let t = peek() else { throw error("expected \(expected) before the end of the file", lastLine) }
        return t
    }

    /// Consumes `s` or throws "expected 's' CONTEXT, found …".
    @discardableResult
    mutating func expect(_ s: String, _ context: String) throws(ShaderSourceError) -> MetalToken {
        guard let t = peek() else { throw error("expected '\(s)' \(context), found the end of the file", lastLine) }
        guard t.text == s, t.kind == .punctuation || t.kind == .identifier else {
            // A missing `;` belongs at the end of the line before, as clang reports it.
            let line = s == ";" && i > 0 ? tokens[i - 1].line : t.line
            throw error("expected '\(s)' \(context), found '\(t.text)'", line)
        }
        i += 1
        return t
    }

    mutating func next() -> MetalToken {
        defer { i += 1 }
        return tokens[i]
    }

    // MARK: - Top level

    mutating func parseFile() throws(ShaderSourceError) -> [MetalTopLevel] {
        var declarations: [MetalTopLevel] = []
        var functions = 0
        while let t = peek() {
            switch t.kind {
            case .directive:
                throw unsupported("preprocessor directive", t)
            case .string:
                throw unsupported("string literal", t)
            case .number:
                throw error("unexpected number '\(t.text)' outside a function", t.line)
            case .punctuation:
                if t.text == ";" { i += 1; continue }
                guard t.text == "[[" else { throw error("unexpected '\(t.text)' outside a function", t.line) }
                declarations.append(try declaration())
            case .identifier:
                if t.text == "using" { try usingDirective(); continue }
                if t.text == "struct" { declarations.append(.structure(try structDeclaration())); continue }
                declarations.append(try declaration())
            }
            if case .function = declarations[declarations.count - 1] {
                functions += 1
                guard functions <= Self.maximumFunctions else {
                    throw error("more than \(Self.maximumFunctions) functions in one file; split it into several files", t.line)
                }
            }
        }
        return declarations
    }

    mutating func usingDirective() throws(ShaderSourceError) {
        let start = peek()!
        guard isText("namespace", 1), let ns = peek(2), ns.kind == .identifier, isText(";", 3),
            ns.text == "metal" || ns.text == "SwiftUI"
        else {
            throw unsupported("using declaration (only 'using namespace metal;')", start)
        }
        if ns.text == "SwiftUI" { usingSwiftUI = true }
        i += 4
    }

    /// `struct Name { T a; T b, c; };` — fields only.
    mutating func structDeclaration() throws(ShaderSourceError) -> MetalStructDecl {
        let keyword = next()
        let name = try current("a struct name")
        guard name.kind == .identifier else { throw error("expected a struct name after 'struct', found '\(name.text)'", name.line) }
        if let what = MetalVocabulary.rejected[name.text] { throw unsupported(what, name) }
        if MetalType.named[name.text] != nil { throw error("'\(name.text)' is a Metal type; a struct cannot take its name", name.line) }
        i += 1
        if isText(":") { throw unsupported("struct inheritance", peek()!) }
        let open = try expect("{", "to begin struct '\(name.text)'")
        structNames.insert(name.text)
        var fields: [MetalVariableDecl] = []
        while !isText("}") {
            let t = try current("'}' to end struct '\(name.text)'")
            if ["static", "constexpr", "const", "struct", "typedef", "using", "template"].contains(t.text) {
                throw unsupported("declaration in a struct", t)
            }
            let type = try parseType()
            guard let fieldName = peek(), fieldName.kind == .identifier else {
                throw error("expected a field name after '\(type.spelling)'", (peek() ?? t).line)
            }
            if isText("(", 1) || fieldName.text == "operator" || fieldName.text == name.text {
                throw unsupported("member function in a struct", fieldName)
            }
            let decl = try variableDeclaration(first: t, isConstant: false, type: type)
            if let d = decl.declarators.first(where: { $0.initializer != nil }) {
                throw unsupported("default member initializer", d.name)
            }
            fields.append(decl)
        }
        let close = next()
        let semicolon = try expect(";", "after the struct declaration")
        return MetalStructDecl(keyword: keyword, name: name, open: open, fields: fields, close: close, semicolon: semicolon)
    }

    /// A function, or a `constant`/`constexpr` global.
    mutating func declaration() throws(ShaderSourceError) -> MetalTopLevel {
        let first = peek()!
        var isStitchable = false
        var isConstant = false
        if isText("[[") {
            guard let attr = peek(1), attr.text == "stitchable" else { throw unsupported("attribute", peek(1) ?? first) }
            // `[[ stitchable, visible ]]`, `[[ stitchable("x") ]]`: name what follows.
            guard peek(2) != nil else { throw error("expected ']]' after '[[ stitchable', found the end of the file", attr.line) }
            if !isText("]]", 2), let extra = peek(2) {
                if extra.text == "(" { throw unsupported("attribute argument", extra) }
                throw unsupported("attribute", extra.text == "," ? peek(3) ?? extra : extra)
            }
            isStitchable = true
            i += 3
        }
        // Qualifiers that change nothing in GLSL (or mark a compile-time constant).
        while let q = peek(), q.kind == .identifier, ["static", "inline", "constexpr", "constant", "const"].contains(q.text) {
            if q.text != "static" && q.text != "inline" { isConstant = true }
            i += 1
        }
        let typeToken = peek() ?? first
        let type = try parseType()
        if isText("*") || isText("&") { throw unsupported(isText("*") ? "pointer" : "reference", peek()!) }
        guard let nameToken = peek(), nameToken.kind == .identifier else {
            throw error("expected a name after '\(type.spelling)'", (peek() ?? typeToken).line)
        }
        try checkDeclaredName(nameToken)
        if isText("(", 1) && !(type.builtIn == .sampler) {
            i += 1
            return .function(try function(first: first, name: nameToken, returnType: type, isStitchable: isStitchable))
        }
        guard !isStitchable else { throw error("[[ stitchable ]] must mark a function", nameToken.line) }
        guard isConstant else {
            throw error(
                "unsupported global variable: '\(nameToken.text)' (declare it 'constant' or move it into the function)", nameToken.line)
        }
        let decl = try variableDeclaration(first: first, isConstant: true, type: type)
        for d in decl.declarators where d.initializer == nil && type.builtIn != .sampler {
            throw error("a global constant needs a value ('= …')", d.name.line)
        }
        return .constant(decl)
    }

    mutating func function(
        first: MetalToken, name: MetalToken, returnType: MetalTypeSyntax,
        isStitchable: Bool
    ) throws(ShaderSourceError) -> MetalFunctionDecl {
        i += 1  // (
        var parameters: [MetalParameter] = []
        if isText("void") && isText(")", 1) { i += 1 }
        while !isText(")") {
            if !parameters.isEmpty { try expect(",", "between parameters") }
            guard parameters.count < Self.maximumParameters else {
                throw error("'\(name.text)' has more than \(Self.maximumParameters) parameters", (peek() ?? name).line)
            }
            parameters.append(try parameter())
        }
        i += 1  // )
        if isText("[[") { throw unsupported("attribute", peek(1) ?? peek()!) }
        if isText(";") {
            return MetalFunctionDecl(
                first: first, isStitchable: isStitchable, returnType: returnType, name: name,
                parameters: parameters, body: nil, semicolon: next())
        }
        guard isText("{") else { throw error("expected '{' to begin the body of '\(name.text)'", (peek() ?? name).line) }
        let start = i
        let body = try block()
        return MetalFunctionDecl(
            first: first, isStitchable: isStitchable, returnType: returnType, name: name,
            parameters: parameters, body: body, semicolon: nil, bodyTokens: i - start)
    }

    mutating func parameter() throws(ShaderSourceError) -> MetalParameter {
        let start = try current("a parameter")
        var isConst = false
        var isThread = false
        while let q = peek(), q.kind == .identifier, ["const", "thread"].contains(q.text) {
            if q.text == "const" { isConst = true } else { isThread = true }
            i += 1
        }
        if let q = peek(), q.text == "threadgroup" { throw unsupported("address space", q) }
        if startsPointer() {
            // `device const float *values`: an array or data argument, or a helper's pointer to one.
            if isThread, let t = peek() { throw unsupported("pointer in the thread address space", t) }
            let type = try pointerType()
            guard let n = peek(), n.kind == .identifier else {
                throw error("expected a parameter name after '\(type.spelling)'", (peek() ?? start).line)
            }
            try checkDeclaredName(n)
            i += 1
            if isText("[") { throw unsupported("array of pointers", peek()!) }
            if isText("[[") { throw unsupported("attribute", peek(1) ?? peek()!) }
            if isText("=") { throw unsupported("default argument of a pointer", peek()!) }
            return MetalParameter(first: start, type: type, name: n, dimensions: [], isConst: false, isReference: false, defaultValue: nil)
        }
        let type = try parseType()
        if isText("const") { isConst = true; i += 1 }
        var isReference = false
        if isText("*") { throw unsupported("pointer", peek()!) }
        if isText("&") {
            guard isThread else { throw unsupported("reference (only 'thread T &name')", peek()!) }
            isReference = true
            i += 1
        }
        guard let n = peek(), n.kind == .identifier else {
            throw error("expected a parameter name after '\(type.spelling)'", (peek() ?? start).line)
        }
        try checkDeclaredName(n)
        i += 1
        var dimensions: [MetalExpr] = []
        while isText("[") {
            let open = next()
            guard !isText("]") else { throw error("an array parameter needs a size", open.line) }
            dimensions.append(try expression())
            try expect("]", "after the array size")
        }
        if isText("[[") { throw unsupported("attribute", peek(1) ?? peek()!) }
        var defaultValue: MetalExpr?
        if isText("=") {
            i += 1
            defaultValue = try assignmentExpression()
        }
        return MetalParameter(
            first: start, type: type, name: n, dimensions: dimensions, isConst: isConst,
            isReference: isReference, defaultValue: defaultValue)
    }

    /// Refuses a name being declared that Metal keeps for itself: a word outside the subset, a
    /// keyword (`true`, `if`, `static`) or a type (`half`, `float2`, `texture2d`).
    func checkDeclaredName(_ name: MetalToken) throws(ShaderSourceError) {
        if let what = MetalVocabulary.rejected[name.text] { throw unsupported(what, name) }
        let qualifiers: Set<String> = ["static", "inline", "constexpr", "thread", "unsigned", "texture2d", "sampler"]
        if MetalVocabulary.keywords.contains(name.text) || qualifiers.contains(name.text) || MetalType.named[name.text] != nil {
            throw error("'\(name.text)' is a keyword or type of Metal and cannot name a variable or function", name.line)
        }
    }

    // MARK: - Types

    /// Whether a type starts at token `k` (a built-in type, a struct name, `metal::T`, `Layer`).
    func startsType(_ k: Int = 0) -> Bool {
        var k = k
        while peek(k)?.text == "metal", isText("::", k + 1) { k += 2 }  // a loop: `metal::metal::…` must not recurse
        guard let t = peek(k), t.kind == .identifier else { return false }
        if t.text == "SwiftUI", isText("::", k + 1), isText("Layer", k + 2) { return true }
        if t.text == "Layer" && usingSwiftUI { return true }
        if t.text == "texture2d" || t.text == "sampler" { return true }
        return MetalType.named[t.text] != nil || structNames.contains(t.text)
    }

    /// Parses a type at the cursor (`float2`, `metal::float2`, `SwiftUI::Layer`, `texture2d<half>`,
    /// a struct name).
    mutating func parseType() throws(ShaderSourceError) -> MetalTypeSyntax {
        if let first = peek(), first.text == "metal", isText("::", 1) {
            while isText("metal"), isText("::", 1) { i += 2 }  // a loop: `metal::metal::…` must not recurse
            let inner = try parseType()
            return MetalTypeSyntax(first: first, spelling: inner.spelling, builtIn: inner.builtIn, structName: inner.structName)
        }
        guard let t = peek() else { throw error("expected a type, found the end of the file", lastLine) }
        guard t.kind == .identifier else { throw error("expected a type, found '\(t.text)'", t.line) }
        if t.text == "SwiftUI", isText("::", 1), isText("Layer", 2) {
            i += 3
            return MetalTypeSyntax(first: t, spelling: "SwiftUI::Layer", builtIn: .layer, structName: nil)
        }
        if t.text == "Layer", usingSwiftUI {
            i += 1
            return MetalTypeSyntax(first: t, spelling: "SwiftUI::Layer", builtIn: .layer, structName: nil)
        }
        if t.text == "texture2d" { return try textureType() }
        if t.text == "sampler" {
            i += 1
            return MetalTypeSyntax(first: t, spelling: "sampler", builtIn: .sampler, structName: nil)
        }
        if structNames.contains(t.text) {
            i += 1
            return MetalTypeSyntax(first: t, spelling: t.text, builtIn: nil, structName: t.text)
        }
        if let what = MetalVocabulary.rejected[t.text] { throw unsupported(what, t) }
        guard var type = MetalType.named[t.text] else {
            if isText("<", 1) { throw unsupported("template type", t) }
            throw unsupported("type", t)
        }
        i += 1
        // `unsigned int`, `unsigned`.
        if t.text == "unsigned", isText("int") { i += 1; type = .uint }
        if isText("<") { throw unsupported("template type", t) }
        return MetalTypeSyntax(first: t, spelling: type.metal, builtIn: type, structName: nil)
    }

    /// `texture2d<half>`, `texture2d<float, access::sample>`.
    mutating func textureType() throws(ShaderSourceError) -> MetalTypeSyntax {
        let t = next()
        try expect("<", "after 'texture2d'")
        let element = try current("a texture element type")
        guard element.text == "half" || element.text == "float" else { throw unsupported("texture element type (half or float)", element) }
        i += 1
        if isText(",") {
            i += 1
            if isText("access"), isText("::", 1), let a = peek(2) {
                guard a.text == "sample" || a.text == "read" else { throw unsupported("texture access (sample or read)", a) }
                i += 3
            } else {
                throw unsupported("texture template argument", peek() ?? element)
            }
        }
        try expect(">", "after the texture element type")
        return MetalTypeSyntax(
            first: t, spelling: "texture2d<\(element.text)>", builtIn: .texture(element.text == "half" ? .half : .float),
            structName: nil)
    }

    // MARK: - Statements

    mutating func block() throws(ShaderSourceError) -> MetalStmt {
        let open = try expect("{", "to begin a block")
        var statements: [MetalStmt] = []
        while true {
            guard let t = peek() else { throw error("expected '}' before the end of the file", lastLine) }
            if t.text == "}" && t.kind == .punctuation { break }
            statements.append(try statement())
        }
        return .block(open, statements, next())
    }

    mutating func statement() throws(ShaderSourceError) -> MetalStmt {
        try descend()
        defer { depth -= 1 }
        let t = try current("a statement")
        if t.kind == .string { throw unsupported("string literal", t) }
        if t.kind == .directive { throw unsupported("preprocessor directive inside a function", t) }
        if t.kind == .punctuation {
            if t.text == "{" { return try block() }
            if t.text == ";" { return .empty(next()) }
        }
        if t.kind == .identifier {
            switch t.text {
            case "if": return try ifStatement()
            case "for": return try forStatement()
            case "while":
                let keyword = next()
                let open = try expect("(", "after 'while'")
                let condition = try expression()
                let close = try expect(")", "after the condition")
                return .whileStatement(keyword: keyword, open: open, condition: condition, close: close, body: try statement())
            case "do":
                let keyword = next()
                let body = try statement()
                let whileKeyword = try expect("while", "after the body of 'do'")
                let open = try expect("(", "after 'while'")
                let condition = try expression()
                let close = try expect(")", "after the condition")
                return .doWhile(
                    keyword: keyword, body: body, whileKeyword: whileKeyword, open: open, condition: condition,
                    close: close, semicolon: try expect(";", "after 'do … while (…)'"))
            case "switch":
                let keyword = next()
                let open = try expect("(", "after 'switch'")
                let value = try expression()
                let close = try expect(")", "after the switch value")
                guard isText("{") else { throw error("expected '{' after 'switch (…)'", (peek() ?? close).line) }
                return .switchStatement(keyword: keyword, open: open, value: value, close: close, body: try block())
            case "case":
                let keyword = next()
                let value = try conditionalExpression()
                return .label(keyword: keyword, value: value, colon: try expect(":", "after the case value"))
            case "default":
                let keyword = next()
                return .label(keyword: keyword, value: nil, colon: try expect(":", "after 'default'"))
            case "return":
                let keyword = next()
                if isText(";") { return .jump(keyword: keyword, value: nil, semicolon: next()) }
                let value = try expression()
                return .jump(keyword: keyword, value: value, semicolon: try expect(";", "after the returned value"))
            case "break", "continue":
                let keyword = next()
                return .jump(keyword: keyword, value: nil, semicolon: try expect(";", "after '\(keyword.text)'"))
            case "struct", "typedef", "using", "enum", "class", "union":
                throw unsupported(t.text == "using" ? "using declaration in a function" : "local \(t.text)", t)
            default:
                break
            }
            if let decl = try localDeclaration() { return .declaration(decl) }
        }
        let e = try expression()
        return .expression(e, try expect(";", "after the expression"))
    }

    /// A local variable declaration at the cursor, or nil when the statement is an expression.
    mutating func localDeclaration() throws(ShaderSourceError) -> MetalVariableDecl? {
        let first = peek()!
        var k = 0
        var isConstant = false
        while let q = peek(k), q.kind == .identifier, ["const", "constexpr", "thread", "static"].contains(q.text) {
            if q.text == "const" || q.text == "constexpr" { isConstant = true }
            k += 1
        }
        if let q = peek(k), ["device", "constant"].contains(q.text) {
            // `device const float *p = values;`: a pointer into an array or data argument.
            i += k
            let type = try pointerType()
            return try variableDeclaration(first: first, isConstant: false, type: type)
        }
        if let q = peek(k), q.text == "threadgroup" { throw unsupported("address space", q) }
        if let q = peek(k), q.text == "SwiftUI", isText("::", k + 1) { throw unsupported("local layer variable", q) }
        guard startsType(k) else {
            if k > 0 { throw error("expected a type after '\(peek(k - 1)!.text)'", (peek(k) ?? first).line) }
            return nil
        }
        // `float2(…)`, `S{…}` at the start of a statement are expressions.
        var j = k
        if peek(j)?.text == "metal" { j += 2 }
        if peek(j)?.text == "texture2d" {
            throw unsupported("local texture variable (pass the texture argument itself)", peek(j)!)
        }
        if isText("(", j + 1) || isText("{", j + 1) || isText("::", j + 1) || isText(".", j + 1) || isText("[", j + 1) {
            guard k > 0 else { return nil }
        }
        i += k
        let type = try parseType()
        if type.builtIn == .layer { throw unsupported("local layer variable", type.first) }
        if isText("*") { throw unsupported("pointer", peek()!) }
        if isText("&") { throw unsupported("reference", peek()!) }
        return try variableDeclaration(first: first, isConstant: isConstant, type: type)
    }

    /// The declarators after a type, through the `;`.
    mutating func variableDeclaration(first: MetalToken, isConstant: Bool, type: MetalTypeSyntax) throws(ShaderSourceError)
        -> MetalVariableDecl
    {
        var declarators: [MetalDeclarator] = []
        var commas: [MetalToken] = []
        repeat {
            if !declarators.isEmpty { commas.append(next()) }
            guard let name = peek(), name.kind == .identifier else {
                throw error("expected a name after '\(type.spelling)'", (peek() ?? first).line)
            }
            try checkDeclaredName(name)
            if isText("*") { throw unsupported("pointer", peek()!) }
            i += 1
            var dimensions: [(open: MetalToken, size: MetalExpr?, close: MetalToken)] = []
            while isText("[") {
                let open = next()
                let size: MetalExpr? = isText("]") ? nil : try expression()
                dimensions.append((open, size, try expect("]", "after the array size")))
            }
            var initializer: MetalInitializer?
            if isText("=") {
                let eq = next()
                initializer = .assign(eq, try assignmentExpression())
            } else if isText("(") {
                initializer = .construct(try arguments(open: "(", close: ")"))
            } else if isText("{") {
                initializer = .braces(try arguments(open: "{", close: "}"))
            }
            declarators.append(MetalDeclarator(name: name, dimensions: dimensions, initializer: initializer))
        } while isText(",")
        let semicolon = try expect(";", "after the declaration")
        return MetalVariableDecl(
            first: first, isConstant: isConstant, type: type, declarators: declarators, commas: commas,
            semicolon: semicolon)
    }

    mutating func ifStatement() throws(ShaderSourceError) -> MetalStmt {
        let keyword = next()
        if isText("constexpr") { throw unsupported("if constexpr", peek()!) }
        let open = try expect("(", "after 'if'")
        let condition = try expression()
        let close = try expect(")", "after the condition")
        let then = try statement()
        guard isText("else") else {
            return .ifStatement(
                keyword: keyword, open: open, condition: condition, close: close, then: then, elseKeyword: nil, otherwise: nil)
        }
        let elseKeyword = next()
        return .ifStatement(
            keyword: keyword, open: open, condition: condition, close: close, then: then,
            elseKeyword: elseKeyword, otherwise: try statement())
    }

    mutating func forStatement() throws(ShaderSourceError) -> MetalStmt {
        let keyword = next()
        let open = try expect("(", "after 'for'")
        // `for (T x : range)`: a ':' before the first ';' at the parentheses' depth, outside '?:'.
        var k = 0, depth = 0, questions = 0
        while let t = peek(k), t.text != ";" || depth > 0 {
            if t.text == "(" || t.text == "[" || t.text == "{" { depth += 1 }
            if t.text == ")" || t.text == "]" || t.text == "}" { depth -= 1; if depth < 0 { break } }
            if t.text == "?" { questions += 1 }
            if t.text == ":" && depth == 0 {
                if questions == 0 { throw unsupported("range-based for loop (write for (int i = 0; i < n; i++))", t) }
                questions -= 1
            }
            k += 1
        }
        var initializer: MetalStmt?
        if isText(";") {
            initializer = .empty(next())
        } else if let decl = try localDeclaration() {
            initializer = .declaration(decl)
        } else {
            let e = try expression()
            initializer = .expression(e, try expect(";", "after the loop's initialisation"))
        }
        let condition: MetalExpr? = isText(";") ? nil : try expression()
        let semicolon = try expect(";", "after the loop condition")
        let step: MetalExpr? = isText(")") ? nil : try expression()
        let close = try expect(")", "after the loop step")
        return .forStatement(
            keyword: keyword, open: open, initializer: initializer, condition: condition, semicolon: semicolon,
            step: step, close: close, body: try statement())
    }
}
