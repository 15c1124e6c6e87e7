// Bounds on the shape of a GLSL source (a gl-transitions `.glsl` file) checked before the
// source reaches the GLSL compiler. shaderc runs glslang and the SPIR-V optimiser in this process
// and cannot be interrupted, and some shapes of source make them crash or run for minutes
// (measured with shaderc on this project's machines):
//
// - glslang recurses once per level of an expression tree: a chain `t + t + … + t` of 15,000
//   terms overflows an 8 MiB stack, of 700 terms a 512 KiB one; nested calls cost more.
// - Compile time grows with the cube of nested control flow: 300 `else if`s or nested `?:`
//   take 10 s, 500 take 50 s.
// - It grows faster than linearly with the number of functions (1,000 functions: 8 s, 4,000:
//   160 s), and lavapipe's compile time with the length of the code: 1,000 statements of
//   arithmetic (27,000 tokens) take 5 s to reach the first frame, 7,000 take 400 s.
// - Macros that use each other several times grow exponentially in glslang's preprocessor.
// - Structs of structs double at each level; an initialised constant array read with a run-time
//   index compiles in time growing with the square of its length on lavapipe.
//
// So the source is lexed and its macros expanded (measured, never evaluated: every branch of a
// conditional is kept) by the Metal front end's lexer and preprocessor, and then one pass over the
// tokens bounds: the tokens in all; functions; an upper bound of each expression's tree height
// (operators at each level of parentheses, plus one for a call, nested groups added); `?:` per
// statement; control-flow nesting (braces, `else if` chains, unbraced `if`/`for`/`while`);
// struct sizes and nesting; and the elements of array constructors and initialiser lists. (The
// size of array variables is checked on the compiled SPIR-V, `SPIRVModule.checkPrivateMemory`:
// glslang handles a declared size without work proportional to it.) The limits are far above
// what real transitions use and keep the worst accepted source compiling in seconds.
import SegueMetal

/// Checks that a GLSL source stays within the shapes the GLSL compiler handles quickly.
/// `TransitionSourceParser` applies it to every file; a renderer applies it to any other
/// full-screen source that is not built in (an `Effect` made in code).
public enum GLSLSourceLimits {
    /// The most tokens after macro expansion.
    static let maximumTokens = 32_768
    /// The most function definitions.
    static let maximumFunctions = 500
    /// The highest expression (an upper bound of its tree's height, see the file comment).
    static let maximumExpressionHeight = 256
    /// The most `?:` in one statement.
    static let maximumConditionals = 64
    /// The deepest nesting of blocks, `else if` chains and unbraced control statements.
    static let maximumControlNesting = 128
    /// The most values of one struct, array members multiplied out.
    static let maximumValues = MetalChecker.maximumValues
    /// The deepest nesting of structs.
    static let maximumStructNesting = MetalChecker.maximumStructNesting
    /// The most elements of one array constructor or initialiser list, and of all in the file.
    static let maximumInitializedElements = MetalChecker.maximumInitializedElements
    static let maximumInitializedElementsPerFile = MetalChecker.maximumInitializedElementsPerFile

    /// Checks `source`.
    /// - Throws: `ShaderSourceError` naming the limit and the line where the source passes it.
    public static func check(_ source: String, file: String) throws(ShaderSourceError) {
        let tokens = try MetalLexer.tokenize(source, file: file, lenient: true)
        var preprocessor = MetalPreprocessor(file: file, glsl: true)
        let expanded = try preprocessor.run(tokens)
        guard expanded.count <= maximumTokens else {
            throw ShaderSourceError(
                file: file, line: expanded[maximumTokens].line,
                message:
                    "the source has more than \(maximumTokens) tokens after its macros are expanded; split the effect or make it smaller")
        }
        var scan = GLSLShapeScan(tokens: expanded, file: file)
        try scan.run()
        try GLSLCallCost(expanded).check(file: file)
    }
}

/// The pass over a GLSL token stream behind `GLSLSourceLimits`.
struct GLSLShapeScan {
    /// A parenthesis, bracket or initialiser-list brace being read.
    struct Group {
        /// `(`, `[` or `{`.
        let open: String
        /// Whether it makes a node of its own: a call, constructor or index.
        let isNode: Bool
        /// Whether it is an array constructor (`T[](…)`, `T[N](…)`) or an initialiser list.
        let isArray: Bool
        /// Operators directly in the current comma-separated part, and the highest group in it.
        var operators = 0
        var highestChild = 0
        /// The highest part so far.
        var highest = 0
        /// Tokens in the current part.
        var partTokens = 0
        /// Array elements: of the finished parts, and given by arrays nested in the current one.
        var elements = 0
        var partElements = 0

        /// The height of the current part.
        var partHeight: Int { operators + highestChild }

        /// Ends a comma-separated part.
        mutating func endPart() {
            highest = max(highest, partHeight)
            if partTokens > 0 { elements = MetalChecker.saturatingSum(elements, max(partElements, 1)) }
            (operators, highestChild, partTokens, partElements) = (0, 0, 0, 0)
        }
    }

    let tokens: [MetalToken]
    let file: String
    private var i = 0
    /// The statement being read (its own group) and the groups open in it.
    private var statement = Group(open: ";", isNode: false, isArray: false)
    private var groups: [Group] = []
    private var conditionals = 0
    /// Block braces open, `else if`s chained at each block depth, unbraced control keywords in
    /// the current statement.
    private var blocks = 0
    private var chains: [Int] = [0]
    private var controls = 0
    private var functions = 0
    private var initializedElements = 0
    /// Struct names and their sizes.
    private var structs: [String: (values: Int, nesting: Int)] = [:]

    init(tokens: [MetalToken], file: String) {
        self.tokens = tokens
        self.file = file
    }

    private func fail(_ message: String, _ token: MetalToken) -> ShaderSourceError {
        ShaderSourceError(file: file, line: token.line, message: message)
    }

    private func text(_ k: Int) -> String? { k >= 0 && k < tokens.count ? tokens[k].text : nil }

    // MARK: - The pass

    mutating func run() throws(ShaderSourceError) {
        while i < tokens.count {
            let t = tokens[i]
            switch (t.kind, t.text) {
            case (.identifier, "struct"):
                try structure()
                continue
            case (.identifier, _):
                try identifier(t)
            case (.punctuation, "("), (.punctuation, "["):
                let previous = i > 0 ? tokens[i - 1] : nil
                let afterName = previous?.kind == .identifier && !GLSLShapeScan.keywords.contains(previous?.text ?? "")
                let isArray = t.text == "(" && previous?.text == "]"
                part { $0.partTokens += 1 }
                groups.append(Group(open: t.text, isNode: afterName || t.text == "[" || isArray, isArray: isArray))
            case (.punctuation, "{") where isInitializerList():
                part { $0.partTokens += 1 }
                groups.append(Group(open: "{", isNode: true, isArray: true))
            case (.punctuation, ")"), (.punctuation, "]"):
                try close(t)
            case (.punctuation, "}") where groups.last?.open == "{":
                try close(t)
            case (.punctuation, "{"):
                try endStatement(t)
                if text(i - 1) == ")" && blocks == 0 {
                    functions += 1
                    guard functions <= GLSLSourceLimits.maximumFunctions else {
                        throw fail("more than \(GLSLSourceLimits.maximumFunctions) functions; split the effect or make it smaller", t)
                    }
                }
                blocks += 1
                chains.append(0)
                try checkControl(t)
            case (.punctuation, "}"):
                try endStatement(t)
                blocks = max(blocks - 1, 0)
                if chains.count > 1 { chains.removeLast() }
            case (.punctuation, ";") where groups.last?.open == "(":
                groups[groups.count - 1].endPart()  // in a `for (…; …; …)` header
            case (.punctuation, ";"):
                try endStatement(t)
            case (.punctuation, ","):
                if groups.isEmpty { statement.endPart() } else { groups[groups.count - 1].endPart() }
            case (.punctuation, "?"):
                conditionals += 1
                guard conditionals <= GLSLSourceLimits.maximumConditionals else {
                    throw fail("more than \(GLSLSourceLimits.maximumConditionals) '?:' in one statement; use if statements or split it", t)
                }
                try operatorToken(t)
            case (.punctuation, _):
                try operatorToken(t)
            default:
                part { $0.partTokens += 1 }
            }
            i += 1
        }
    }

    /// Applies `change` to the innermost open part.
    private mutating func part(_ change: (inout Group) -> Void) {
        if groups.isEmpty { change(&statement) } else { change(&groups[groups.count - 1]) }
    }

    private mutating func operatorToken(_ t: MetalToken) throws(ShaderSourceError) {
        part {
            $0.operators += 1; $0.partTokens += 1
        }
        try checkHeight(groups.isEmpty ? statement.partHeight : groups[groups.count - 1].partHeight, t)
    }

    private func checkHeight(_ height: Int, _ t: MetalToken) throws(ShaderSourceError) {
        guard height <= GLSLSourceLimits.maximumExpressionHeight else {
            throw fail(
                "an expression nested more than \(GLSLSourceLimits.maximumExpressionHeight) levels deep (each operator of a "
                    + "chain such as 'a + b + c' and each call adds a level); split it into several statements", t)
        }
    }

    /// Closes the innermost group at `)`, `]` or `}`, handing its height and elements to the
    /// part around it.
    private mutating func close(_ t: MetalToken) throws(ShaderSourceError) {
        guard var group = groups.popLast() else { return }
        group.endPart()
        let height = group.highest + (group.isNode ? 1 : 0)
        try checkHeight(height, t)
        let elements = group.isArray ? group.elements : 0
        let enclosingIsArray = groups.last?.isArray ?? false
        if elements > 0 && !enclosingIsArray {
            guard elements <= GLSLSourceLimits.maximumInitializedElements else {
                throw fail(
                    "an array constructor or initialiser list with \(elements) elements; the limit is \(GLSLSourceLimits.maximumInitializedElements) "
                        + "(GPU drivers compile large constant arrays slowly: use a texture parameter for a table, or compute the values)",
                    t)
            }
            initializedElements = MetalChecker.saturatingSum(initializedElements, elements)
            guard initializedElements <= GLSLSourceLimits.maximumInitializedElementsPerFile else {
                throw fail(
                    "the array constructors and initialiser lists of this file have more than "
                        + "\(GLSLSourceLimits.maximumInitializedElementsPerFile) elements in all (GPU drivers compile large constant arrays slowly)",
                    t)
            }
        }
        part {
            $0.highestChild = max($0.highestChild, height)
            $0.partTokens += 1
            if enclosingIsArray { $0.partElements = MetalChecker.saturatingSum($0.partElements, elements) }
        }
    }

    /// Whether the `{` at the cursor opens an initialiser list: after `=`, or after `{` or `,`
    /// inside one.
    private func isInitializerList() -> Bool {
        guard let previous = text(i - 1) else { return false }
        if previous == "=" { return true }
        return (previous == "{" || previous == ",") && groups.last?.open == "{"
    }

    private mutating func endStatement(_ t: MetalToken) throws(ShaderSourceError) {
        while !groups.isEmpty { try close(t) }
        statement = Group(open: ";", isNode: false, isArray: false)
        conditionals = 0
        controls = 0
    }

    // MARK: - Control flow

    private mutating func identifier(_ t: MetalToken) throws(ShaderSourceError) {
        part { $0.partTokens += 1 }
        switch t.text {
        case "if":
            if text(i - 1) == "else" {
                chains[chains.count - 1] += 1
            } else {
                chains[chains.count - 1] = 0
                controls += 1
            }
            try checkControl(t)
        case "for", "while", "do", "switch":
            controls += 1
            try checkControl(t)
        case "constant_id":
            // The driver folds specialization constants itself, INT_MIN / -1 with a SIGFPE;
            // Segue sets none, so a plain const says the same.
            throw fail("unsupported specialization constant (layout(constant_id = …)): Segue sets none; write a const", t)
        default:
            break
        }
    }

    private func checkControl(_ t: MetalToken) throws(ShaderSourceError) {
        let nesting = blocks + chains.reduce(0, +) + controls
        guard nesting <= GLSLSourceLimits.maximumControlNesting else {
            throw fail(
                "blocks and control statements nested more than \(GLSLSourceLimits.maximumControlNesting) levels deep "
                    + "(an 'else if' chain nests one level per 'else if')", t)
        }
    }

    // MARK: - Types and arrays

    /// Scalar values and struct nesting of a type name (nil when it is not one).
    private func size(of name: String) -> (values: Int, nesting: Int)? {
        if let s = structs[name] { return s }
        if ["float", "int", "uint", "bool", "double"].contains(name) { return (1, 0) }
        let prefixes = ["vec", "ivec", "uvec", "bvec", "dvec"]
        if let p = prefixes.first(where: { name.hasPrefix($0) }), let n = Int(name.dropFirst(p.count)), (2...4).contains(n) {
            return (n, 0)
        }
        for p in ["mat", "dmat"] where name.hasPrefix(p) {
            let dims = name.dropFirst(p.count).split(separator: "x").compactMap { Int($0) }
            if dims.count == 1, (2...4).contains(dims[0]) { return (dims[0] * dims[0], 0) }
            if dims.count == 2, dims.allSatisfy({ (2...4).contains($0) }) { return (dims[0] * dims[1], 0) }
        }
        return nil
    }

    /// The value of an integer literal token (nil for anything else), read as the Metal checker
    /// reads one (GLSL's literals are a subset: decimal, 0x hex, 0 octal, a u suffix).
    private func integer(_ k: Int) -> Int? {
        guard k < tokens.count, tokens[k].kind == .number else { return nil }
        return MetalPreprocessor.integer(tokens[k].text).map { Int(clamping: $0) }
    }

    /// `struct Name { T a, b[N]; … }`: records its size, checking the values and nesting limits,
    /// and moves past its `}`.
    private mutating func structure() throws(ShaderSourceError) {
        let keyword = tokens[i]
        i += 1
        var name: String?
        if i < tokens.count, tokens[i].kind == .identifier { name = tokens[i].text; i += 1 }
        guard text(i) == "{" else { return }
        i += 1
        var values = 0, nesting = 1
        while i < tokens.count, text(i) != "}" {
            // One field declaration: a type, then names with dimensions, up to `;`.
            let field = size(of: tokens[i].text)
            if let f = field { nesting = max(nesting, f.nesting + 1) }
            i += 1
            while i < tokens.count, text(i) != ";", text(i) != "}" {
                if tokens[i].kind == .identifier {
                    var v = field?.values ?? 1
                    var k = i + 1
                    while text(k) == "[", let n = integer(k + 1), text(k + 2) == "]" { v = MetalChecker.saturatingProduct(v, n); k += 3 }
                    values = MetalChecker.saturatingSum(values, v)
                    i = k
                } else {
                    i += 1
                }
            }
            if text(i) == ";" { i += 1 }
            guard nesting <= GLSLSourceLimits.maximumStructNesting else {
                throw fail(
                    "struct '\(name ?? "")' nests structs \(nesting) levels deep; the limit is \(GLSLSourceLimits.maximumStructNesting)",
                    keyword)
            }
            guard values <= GLSLSourceLimits.maximumValues else {
                throw fail("struct '\(name ?? "")' holds more than \(GLSLSourceLimits.maximumValues) values", keyword)
            }
        }
        if let name { structs[name] = (max(values, 1), nesting) }
        i += 1  // }
    }

    /// Words after which `(` is not a call.
    static let keywords: Set<String> = ["if", "for", "while", "switch", "return", "do", "else", "case"]
}
