// The syntax tree of a stitchable `.metal` file, as `MetalParser` reads it. Every node keeps the
// tokens it was written with, so the GLSL written from it stays on the user's lines and columns
// and every error can name the construct and its line.

/// A possibly qualified name as written: `sin`, `metal::precise::sin`, `filter::linear`.
struct MetalName: Sendable {
    /// The identifiers, qualifiers first.
    let parts: [MetalToken]
    /// The last identifier.
    var token: MetalToken { parts[parts.count - 1] }
    /// The unqualified name.
    var name: String { token.text }
    /// The qualifiers (`metal`, `precise`, `filter`, …).
    var qualifiers: [String] { parts.dropLast().map(\.text) }
    /// The first token (where the name starts).
    var first: MetalToken { parts[0] }
}

/// A type as written: its tokens and what it names. Struct names are resolved by the checker.
struct MetalTypeSyntax: Sendable {
    /// Where it starts.
    let first: MetalToken
    /// The spelling without qualifiers (`float2`, `texture2d<half>`, `S`).
    let spelling: String
    /// The type, when it is a built-in one; nil for a struct name.
    let builtIn: MetalType?
    /// The struct name, when it names one.
    let structName: String?
}

/// Arguments in parentheses or braces.
struct MetalArguments: Sendable {
    let open: MetalToken
    let items: [MetalExpr]
    let close: MetalToken
}

/// An expression.
indirect enum MetalExpr: Sendable {
    /// A number as written.
    case number(MetalToken)
    /// `true` or `false`.
    case boolean(MetalToken)
    /// A variable, constant or enumerator name.
    case name(MetalName)
    /// A prefix operator: `-`, `+`, `!`, `~`, `++`, `--`.
    case unary(MetalToken, MetalExpr)
    /// A postfix `++` or `--`.
    case postfix(MetalExpr, MetalToken)
    /// A binary operator.
    case binary(MetalExpr, MetalToken, MetalExpr)
    /// `=` or a compound assignment.
    case assign(MetalExpr, MetalToken, MetalExpr)
    /// `c ? a : b`.
    case conditional(MetalExpr, MetalToken, MetalExpr, MetalToken, MetalExpr)
    /// A call of a function or a constructor: `f(…)`, `float2(…)`, `S(…)`, `sampler(…)`.
    case call(MetalName, MetalArguments)
    /// A constructor of a templated type: `texture2d<half>(…)` and the like (always rejected) —
    /// and brace initialisation `T{…}` or `{…}` (type nil: from context).
    case braces(MetalTypeSyntax?, MetalArguments)
    /// A member: a swizzle or a struct field.
    case member(MetalExpr, dot: MetalToken, name: MetalToken)
    /// A member function call: `layer.sample(p)`, `texture.sample(s, uv)`.
    case method(MetalExpr, dot: MetalToken, name: MetalToken, MetalArguments)
    /// `a[i]`.
    case index(MetalExpr, open: MetalToken, MetalExpr, close: MetalToken)
    /// `(e)`.
    case paren(MetalToken, MetalExpr, MetalToken)
    /// A cast to a pointer type: `(device const float *)e` or `reinterpret_cast<…>(e)`: its first
    /// token (`(` or the keyword), the type, the last `)`, the operand.
    case cast(MetalToken, MetalTypeSyntax, MetalToken, MetalExpr)

    /// The first token.
    var first: MetalToken {
        switch self {
        case let .number(t), let .boolean(t): t
        case let .name(n): n.first
        case let .unary(t, _): t
        case let .postfix(e, _), let .binary(e, _, _), let .assign(e, _, _), let .conditional(e, _, _, _, _): e.first
        case let .call(n, _): n.first
        case let .braces(t, a): t?.first ?? a.open
        case let .member(e, _, _), let .method(e, _, _, _), let .index(e, _, _, _): e.first
        case let .paren(t, _, _): t
        case let .cast(t, _, _, _): t
        }
    }
}

/// One name of a declaration: `x`, `w[3] = {…}`, `s(filter::linear)`.
struct MetalDeclarator: Sendable {
    /// The name.
    let name: MetalToken
    /// Array dimensions (`[3]`; a nil size is `[]`, taken from the initialiser).
    let dimensions: [(open: MetalToken, size: MetalExpr?, close: MetalToken)]
    /// `=` and the initialiser, `(…)` or `{…}`; nil without one.
    let initializer: MetalInitializer?
}

/// How a declared variable is initialised.
enum MetalInitializer: Sendable {
    /// `= expr` (the expression may be `{…}`).
    case assign(MetalToken, MetalExpr)
    /// `name(args)`: direct initialisation (`constexpr sampler s(filter::linear)`).
    case construct(MetalArguments)
    /// `name{args}`.
    case braces(MetalArguments)
}

/// `const float a = 1, b;` — a declaration of one or more variables of one type.
struct MetalVariableDecl: Sendable {
    /// Where it starts (its first qualifier or its type).
    let first: MetalToken
    /// Whether it is `const`, `constexpr` or `constant`.
    let isConstant: Bool
    /// The type.
    let type: MetalTypeSyntax
    /// The names, with the commas between them.
    let declarators: [MetalDeclarator]
    let commas: [MetalToken]
    /// The `;`.
    let semicolon: MetalToken
}

/// A statement.
indirect enum MetalStmt: Sendable {
    case block(MetalToken, [MetalStmt], MetalToken)
    case declaration(MetalVariableDecl)
    case expression(MetalExpr, MetalToken)
    case ifStatement(
        keyword: MetalToken, open: MetalToken, condition: MetalExpr, close: MetalToken,
        then: MetalStmt, elseKeyword: MetalToken?, otherwise: MetalStmt?)
    case forStatement(
        keyword: MetalToken, open: MetalToken, initializer: MetalStmt?, condition: MetalExpr?,
        semicolon: MetalToken, step: MetalExpr?, close: MetalToken, body: MetalStmt)
    case whileStatement(keyword: MetalToken, open: MetalToken, condition: MetalExpr, close: MetalToken, body: MetalStmt)
    case doWhile(
        keyword: MetalToken, body: MetalStmt, whileKeyword: MetalToken, open: MetalToken, condition: MetalExpr,
        close: MetalToken, semicolon: MetalToken)
    case switchStatement(keyword: MetalToken, open: MetalToken, value: MetalExpr, close: MetalToken, body: MetalStmt)
    /// `case K:` (value) or `default:` (nil).
    case label(keyword: MetalToken, value: MetalExpr?, colon: MetalToken)
    /// `return`, `break`, `continue`, with `return`'s value.
    case jump(keyword: MetalToken, value: MetalExpr?, semicolon: MetalToken)
    case empty(MetalToken)
}

/// A function parameter.
struct MetalParameter: Sendable {
    let first: MetalToken
    let type: MetalTypeSyntax
    let name: MetalToken
    /// Array dimensions of an array parameter.
    let dimensions: [MetalExpr]
    let isConst: Bool
    /// `thread T &name`.
    let isReference: Bool
    /// `= value`, a default argument.
    let defaultValue: MetalExpr?
}

/// A function declaration or definition.
struct MetalFunctionDecl: Sendable {
    /// Where the declaration starts (`[[`, a qualifier or the return type).
    let first: MetalToken
    let isStitchable: Bool
    let returnType: MetalTypeSyntax
    let name: MetalToken
    let parameters: [MetalParameter]
    /// The body (`{ … }`); nil for a prototype.
    let body: MetalStmt?
    /// The `;` of a prototype.
    let semicolon: MetalToken?
    /// Tokens in the body (0 for a prototype): what a call of it copies once inlined.
    var bodyTokens = 0
}

/// `struct Name { T field; … };`
struct MetalStructDecl: Sendable {
    let keyword: MetalToken
    let name: MetalToken
    let open: MetalToken
    let fields: [MetalVariableDecl]
    let close: MetalToken
    let semicolon: MetalToken
}

/// A top-level declaration.
enum MetalTopLevel: Sendable {
    case function(MetalFunctionDecl)
    case constant(MetalVariableDecl)
    case structure(MetalStructDecl)
}
