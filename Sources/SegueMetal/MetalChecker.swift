// The type checker of the Metal front end: it gives every expression its Metal type, applies
// Metal's implicit conversions and overload rules (MSL §2.12; C++ overload resolution for the
// user's helpers), and writes the GLSL with every conversion made explicit, on the user's lines.
// This file: declarations (structs, constants, functions with default arguments, stitchable
// signatures) and statements. Expressions: MetalChecker+Expressions.swift; calls, constructors,
// library functions, layers, textures and samplers: MetalChecker+Calls.swift.
import SegueCore
import SegueMath

/// An expression after checking: its type and its GLSL.
struct Typed {
    var type: MetalType
    var code: GLSLCode
    /// Whether it can be assigned to.
    var isLValue = false
    /// Its components when they are known at compile time (scalars, vectors).
    var value: [Double]?
    /// Whether GLSL accepts it where a constant expression is required.
    var isConstant = false
    /// The number token (and a `-` before it) when it is a literal, so a conversion can respell it.
    var literal: (number: MetalToken, minus: MetalToken?)?
}

/// A variable, parameter or constant in scope.
struct MetalVariable {
    let type: MetalType
    let glsl: String
    let isLValue: Bool
    let isConstant: Bool
    let value: [Double]?
}

/// A user function (one overload).
struct MetalFunctionInfo {
    struct Parameter {
        let name: String
        let type: MetalType
        let isReference: Bool
        /// The default argument: its GLSL (off its line) and value.
        let defaultValue: Typed?
        /// The line of the declaration that gave the default (a prototype's or the definition's).
        var defaultLine: Int? = nil
    }
    let name: String
    let glsl: String
    let returnType: MetalType
    let parameters: [Parameter]
    let line: Int
    var isDefined: Bool
}

/// A helper struct.
struct MetalStructInfo {
    let glsl: String
    let fields: [(name: String, type: MetalType, glsl: String)]
    /// Scalar values in one value of the struct (see `MetalChecker.valueCount`).
    var values = 1
    /// Array elements in one value (see `MetalChecker.arrayElements`).
    var arrayElements = 0
    /// 1 for a struct of other types, 1 + the deepest field's for a struct of structs.
    var nesting = 1
}

package struct MetalChecker {
    let file: String
    var out = LineWriter()
    var prelude = GLSLPrelude()
    var structs: [String: MetalStructInfo] = [:]
    var functions: [String: [MetalFunctionInfo]] = [:]
    var scopes: [[String: MetalVariable]] = [[:]]
    /// The `[[ stitchable ]]` functions in source order (a definition takes its prototype's place):
    /// each one's signature, or why SwiftUI could not call it.
    var stitchableEntries: [(glsl: String, entry: StitchableEntry)] = []
    /// The function being checked: its name, GLSL name and return type.
    var current: (name: String, glsl: String, returnType: MetalType)?
    /// Whether the function being checked has a `return` statement.
    var returns = false
    /// Types of the enclosing `switch` values.
    var switches: [MetalType] = []
    /// Loops around the statement being checked, and loops and switches (what `continue` and
    /// `break` may leave), in the function being checked.
    var loops = 0
    var breakable = 0
    /// The calls between the file's functions: caller's GLSL name → callees' GLSL names with the
    /// call's name and line (GLSL has no recursion; `checkRecursion` finds cycles).
    var calls: [String: [(callee: String, name: String, line: Int)]] = [:]
    /// Texture and layer reads (`sample`, `read`) in each function's own body, by GLSL name.
    var textureReads: [String: Int] = [:]
    /// Tokens in each function's own body, by GLSL name.
    var bodyTokens: [String: Int] = [:]
    /// Functions called but only declared so far (name → line of the call).
    var calledPrototypes: [String: Int] = [:]
    /// Array elements given values in the source so far (see `countInitializedElements`).
    var initializedElements = 0
    /// Whether an aggregate is being built (its elements are counted once, at the outermost).
    var inAggregate = false

    init(file: String) { self.file = file }

    // MARK: - Errors and names

    func unsupported(_ what: String, _ token: MetalToken) -> ShaderSourceError {
        ShaderSourceError(file: file, line: token.line, message: "unsupported \(what): '\(token.text)'")
    }

    func error(_ message: String, _ line: Int) -> ShaderSourceError { ShaderSourceError(file: file, line: line, message: message) }

    func error(_ message: String, at code: GLSLCode, or token: MetalToken) -> ShaderSourceError {
        error(message, (code.firstToken.flatMap { $0.line > 0 ? $0 : nil } ?? token).line)
    }

    /// A user variable, field or struct name as it appears in GLSL (GLSL words, GLSL library
    /// function names and Segue's names get a `_v_` prefix).
    func glslName(_ name: String) -> String { MetalVocabulary.isReservedInGLSL(name) ? "_v_" + name : name }

    func structGLSL(_ name: String) -> String { structs[name]?.glsl ?? glslName(name) }

    func glsl(_ t: MetalType) -> String { t.glsl(structGLSL) }

    func lookup(_ name: String) -> MetalVariable? {
        for scope in scopes.reversed() { if let v = scope[name] { return v } }
        return nil
    }

    mutating func declare(_ name: MetalToken, _ variable: MetalVariable) throws(ShaderSourceError) {
        if scopes[scopes.count - 1][name.text] != nil { throw error("redefinition of '\(name.text)'", name.line) }
        scopes[scopes.count - 1][name.text] = variable
    }

    /// The type a type syntax names.
    func resolve(_ t: MetalTypeSyntax) throws(ShaderSourceError) -> MetalType {
        if let b = t.builtIn { return b }
        guard let name = t.structName, structs[name] != nil else { throw unsupported("type", t.first) }
        return .structure(name)
    }

    /// `type` with array dimensions (`[3]`, `[]` from an initialiser list of `inferred` items).
    func arrayType(_ base: MetalType, _ sizes: [MetalExpr?], name: MetalToken, inferred: Int? = nil) throws(ShaderSourceError) -> MetalType
    {
        if base.isPointer, !sizes.isEmpty { throw unsupported("array of pointers", name) }
        guard sizes.count <= Self.maximumArrayDimensions else {
            throw error("array '\(name.text)' has \(sizes.count) dimensions; the limit is \(Self.maximumArrayDimensions)", name.line)
        }
        var t = base
        for (k, size) in sizes.enumerated().reversed() {
            let n: Int
            if let size {
                var c = self
                let v = try c.expr(size)
                guard let value = v.value, value.count == 1, v.type.scalar?.isInteger == true || v.type.scalar == .bool, value[0] >= 1
                else {
                    throw error("the size of array '\(name.text)' must be a positive integer constant", name.line)
                }
                guard value[0] <= 4096, let size = Int(exactly: value[0]) else {
                    throw error("array '\(name.text)' is too large (at most 4096 elements)", name.line)
                }
                n = size
            } else {
                guard k == 0, let inferred else { throw error("array '\(name.text)' needs a size", name.line) }
                n = inferred
            }
            guard n <= 4096 else { throw error("array '\(name.text)' is too large (at most 4096 elements)", name.line) }
            t = .array(t, n)
        }
        try checkSize(t, of: name)
        return t
    }

    // MARK: - Top level

    mutating func check(_ declarations: [MetalTopLevel]) throws(ShaderSourceError) {
        for d in declarations {
            switch d {
            case let .structure(s): try structure(s)
            case let .constant(v): try variables(v, global: true)
            case let .function(f): try function(f)
            }
        }
        if let (name, line) = calledPrototypes.first(where: { name, _ in functions[name]?.contains { !$0.isDefined } == true }) {
            throw error("function '\(name)' is declared but never defined", line)
        }
        // SwiftUI calls a stitchable function: a prototype alone has nothing to call (one that
        // could not be used either: the file has a mistake either way).
        for (glsl, entry) in stitchableEntries {
            let (name, line) =
                switch entry {
                case let .usable(s): (s.name, s.line)
                case let .refused(r): (r.name, r.line)
                }
            if functions[name]?.contains(where: { $0.glsl == glsl && !$0.isDefined }) == true {
                throw error("stitchable function '\(name)' is declared but never defined", line)
            }
        }
        try checkRecursion()
        try checkInlinedCost()
    }

    mutating func structure(_ s: MetalStructDecl) throws(ShaderSourceError) {
        if structs[s.name.text] != nil { throw error("redefinition of struct '\(s.name.text)'", s.name.line) }
        guard !s.fields.isEmpty else { throw unsupported("empty struct (a GLSL struct needs a member)", s.name) }
        let name = glslName(s.name.text)
        out.emit("struct", at: s.keyword)
        out.emit(name, at: s.name)
        out.emit("{", at: s.open)
        var fields: [(name: String, type: MetalType, glsl: String)] = []
        var names: Set<String> = []
        var info = MetalStructInfo(glsl: name, fields: [], values: 0)
        for f in s.fields {
            let base = try resolve(f.type)
            if base == .layer || base == .sampler
                || {
                    if case .texture = base { return true }; return false
                }()
            {
                throw unsupported("\(base == .layer ? "layer" : base == .sampler ? "sampler" : "texture") in a struct", f.type.first)
            }
            out.emit(glsl(base), at: f.type.first)
            for (k, d) in f.declarators.enumerated() {
                if k > 0 { out.emit(",", at: f.commas[k - 1]) }
                let type = try arrayType(base, d.dimensions.map(\.size), name: d.name)
                guard names.insert(d.name.text).inserted else { throw error("duplicate member '\(d.name.text)'", d.name.line) }
                fields.append((d.name.text, type, glslName(d.name.text)))
                info.values = Self.saturatingSum(info.values, valueCount(type))
                info.arrayElements = Self.saturatingSum(info.arrayElements, arrayElements(type))
                info.nesting = max(info.nesting, structNesting(type) + 1)
                guard info.nesting <= Self.maximumStructNesting else {
                    throw error(
                        "struct '\(s.name.text)' nests structs \(info.nesting) levels deep; the limit is \(Self.maximumStructNesting)",
                        d.name.line)
                }
                guard info.values <= Self.maximumValues else {
                    throw error("struct '\(s.name.text)' is too large: it holds more than \(Self.maximumValues) values", d.name.line)
                }
                out.emit(glslName(d.name.text) + type.glslArraySuffix, at: d.name)
            }
            out.emit(";", at: f.semicolon)
        }
        structs[s.name.text] = MetalStructInfo(
            glsl: name, fields: fields, values: max(info.values, 1),
            arrayElements: info.arrayElements, nesting: info.nesting)
        out.emit("}", at: s.close)
        out.emit(";", at: s.semicolon)
    }

    // MARK: - Variables

    /// A global `constant` or a local declaration.
    mutating func variables(_ d: MetalVariableDecl, global: Bool) throws(ShaderSourceError) {
        let base = try resolve(d.type)
        if base == .void { throw error("variable of type 'void'", d.type.first.line) }
        var pieces: [GLSLCode] = []
        var allConstant = true
        for (k, decl) in d.declarators.enumerated() {
            if k > 0 { pieces.append(.token(",", d.commas[k - 1])) }
            var inferred: Int?
            if case let .assign(_, .braces(nil, args)) = decl.initializer { inferred = args.items.count }
            if case let .braces(args) = decl.initializer { inferred = args.items.count }
            let type = try arrayType(base, decl.dimensions.map(\.size), name: decl.name, inferred: inferred)
            var value: [Double]?
            var isConstant = false
            var piece: [GLSLCode] = [.token(glslName(decl.name.text) + type.glslArraySuffix, decl.name)]
            switch decl.initializer {
            case nil:
                if type == .sampler {
                    piece.append(.text(" = ivec4(0, 0, 0, 0)"))
                    isConstant = true
                    value = [0, 0, 0, 0]
                } else if global || d.isConstant {
                    throw error("'\(decl.name.text)' is constant and needs a value ('= …')", decl.name.line)
                }
            case let .assign(eq, e):
                let v = try initial(e, as: type, context: "to initialise '\(decl.name.text)'")
                piece += [.token("=", eq), v.code]
                (value, isConstant) = (v.value, v.isConstant)
            case let .construct(args):
                let v =
                    type == .sampler
                    ? try samplerState(args, at: decl.name)
                    : try construct(type, args.items, at: decl.name, open: args.open, close: args.close)
                piece += [.text(" ="), v.code]
                (value, isConstant) = (v.value, v.isConstant)
            case let .braces(args):
                let v = try braces(type, args, at: decl.name)
                piece += [.text(" ="), v.code]
                (value, isConstant) = (v.value, v.isConstant)
            }
            if (global || type == .sampler) && !isConstant && decl.initializer != nil {
                throw error(
                    "the value of \(global ? "global constant" : "sampler") '\(decl.name.text)' must be a compile-time constant",
                    decl.name.line)
            }
            allConstant = allConstant && isConstant
            pieces.append(.sequence(piece))
            try declare(
                decl.name,
                MetalVariable(
                    type: type, glsl: glslName(decl.name.text), isLValue: !(global || d.isConstant || type == .sampler),
                    isConstant: isConstant && (global || d.isConstant || type == .sampler),
                    value: global || d.isConstant ? value : nil))
        }
        // GLSL `const` needs a constant initialiser; Metal's `const` locals need not have one.
        let keepConst = global || base == .sampler || (d.isConstant && allConstant)
        // A pointer's name may follow its `*` without a space.
        out.emit((keepConst ? "const " : "") + glsl(base) + (base.isPointer ? " " : ""), at: keepConst ? d.first : d.type.first)
        for p in pieces { out.write(p) }
        out.emit(";", at: d.semicolon)
    }

    /// An initialiser: `{…}` for the declared type, or an expression converted to it.
    mutating func initial(_ e: MetalExpr, as type: MetalType, context: String) throws(ShaderSourceError) -> Typed {
        if case let .braces(nil, args) = e { return try braces(type, args, at: args.open) }
        return try convert(try expr(e), to: type, context: context)
    }

    // MARK: - Functions

    mutating func function(_ f: MetalFunctionDecl) throws(ShaderSourceError) {
        let returnType = try resolve(f.returnType)
        var parameters: [MetalFunctionInfo.Parameter] = []
        var declared: [(MetalToken, MetalVariable)] = []
        var headers: [String] = []
        for p in f.parameters {
            let type = try arrayType(try resolve(p.type), p.dimensions, name: p.name)
            if type == .void { throw error("parameter '\(p.name.text)' of type 'void'", p.name.line) }
            var defaultValue: Typed?
            if let d = p.defaultValue {
                let v = try initial(d, as: type, context: "as the default of '\(p.name.text)'")
                guard v.isConstant || v.value != nil else {
                    throw error("unsupported default argument of '\(p.name.text)': it must be a constant", p.name.line)
                }
                defaultValue = Typed(type: type, code: v.code.detached, value: v.value, isConstant: true)
            } else if parameters.contains(where: { $0.defaultValue != nil }) {
                throw error("parameter '\(p.name.text)' needs a default value, as the ones before it have", p.name.line)
            }
            // A texture or layer is a handle that cannot be assigned: by reference it is the same
            // handle, passed as GLSL passes samplers.
            let isReference = p.isReference && type.isValue
            parameters.append(
                .init(
                    name: p.name.text, type: type, isReference: isReference, defaultValue: defaultValue,
                    defaultLine: defaultValue == nil ? nil : p.name.line))
            let qualifier = isReference ? (p.isConst ? "in " : "inout ") : (p.isConst && type.isValue ? "const " : "")
            headers.append("\(qualifier)\(glsl(type)) \(glslName(p.name.text))\(type.glslArraySuffix)")
            declared.append(
                (p.name, MetalVariable(type: type, glsl: glslName(p.name.text), isLValue: !p.isConst, isConstant: false, value: nil)))
        }
        let glslFunction = try register(f, returnType: returnType, parameters: parameters)
        // A prototype and its definition are one function: the definition's signature (its
        // defaults) replaces the prototype's.
        if f.isStitchable {
            // Defaults given on either declaration (`register` merged them).
            let merged = functions[f.name.text]?.first { $0.glsl == glslFunction }?.parameters ?? parameters
            // A signature SwiftUI could not call refuses this function alone, when it is asked for:
            // the file's other functions stay usable.
            let entry: StitchableEntry
            do {
                entry = .usable(try signature(f, returnType: returnType, parameters: merged, glsl: glslFunction))
            } catch {
                let types = merged.dropFirst().map { $0.type.metal + ($0.isReference ? "&" : "") }
                entry = .refused(StitchableRefusal(name: f.name.text, parameterTypes: types, line: f.name.line, error: error))
            }
            if let k = stitchableEntries.firstIndex(where: { $0.glsl == glslFunction }) {
                if f.body != nil { stitchableEntries[k].entry = entry }
            } else {
                stitchableEntries.append((glslFunction, entry))
            }
        }
        if returnType == .layer || returnType == .sampler
            || {
                if case .texture = returnType { return true }; return false
            }()
        {
            throw unsupported("return type", f.returnType.first)
        }
        out.emit("\(glsl(returnType))\(returnType.glslArraySuffix) \(glslFunction)(\(headers.joined(separator: ", ")))", at: f.first)
        guard case let .block(open, statements, close)? = f.body else {
            out.emit(";", at: f.semicolon!)
            return
        }
        current = (f.name.text, glslFunction, returnType)
        bodyTokens[glslFunction] = f.bodyTokens
        (returns, loops, breakable) = (false, 0, 0)
        scopes.append([:])
        for (token, variable) in declared { try declare(token, variable) }
        out.emit("{", at: open)
        for s in statements { try statement(s) }
        out.emit("}", at: close)
        scopes.removeLast()
        current = nil
        // C++ lets control reach the end of a function that returns a value; GLSL refuses a
        // function with no `return` at all.
        if returnType != .void && !returns {
            throw error("'\(f.name.text)' must return a \(returnType.metal): it has no 'return' statement", close.line)
        }
    }

    /// Adds a function (or completes its prototype); returns its GLSL name.
    mutating func register(_ f: MetalFunctionDecl, returnType: MetalType, parameters: [MetalFunctionInfo.Parameter])
        throws(ShaderSourceError) -> String
    {
        let name = f.name.text
        var overloads = functions[name] ?? []
        // Overloads are told apart by their Metal types (`f(half4)` and `f(float4)` are two, as in
        // Metal; each has a GLSL name of its own, so their GLSL signatures may coincide).
        let signature = parameters.map { $0.type.metal + $0.type.glslArraySuffix }
        if let k = overloads.firstIndex(where: { $0.parameters.map { $0.type.metal + $0.type.glslArraySuffix } == signature }) {
            let existing = overloads[k]
            guard !(existing.isDefined && f.body != nil) else { throw error("redefinition of '\(name)'", f.name.line) }
            // C++ takes no overloads by return type alone, even where GLSL's types agree (half, float).
            guard existing.returnType == returnType else {
                throw error(
                    "'\(name)' is declared again with another return type (\(returnType.metal); line \(existing.line) says \(existing.returnType.metal))",
                    f.name.line)
            }
            let merged = zip(existing.parameters, parameters).map { a, b in b.defaultValue == nil ? a : b }
            overloads[k] = MetalFunctionInfo(
                name: name, glsl: existing.glsl, returnType: returnType, parameters: merged,
                line: f.name.line, isDefined: existing.isDefined || f.body != nil)
            functions[name] = overloads
            return existing.glsl
        }
        let glslFunction = "_m_" + name + (overloads.isEmpty ? "" : "_\(overloads.count + 1)")
        overloads.append(
            MetalFunctionInfo(
                name: name, glsl: glslFunction, returnType: returnType, parameters: parameters,
                line: f.name.line, isDefined: f.body != nil))
        functions[name] = overloads
        return glslFunction
    }

    /// Recognises the kind of a stitchable function from its signature.
    func signature(_ f: MetalFunctionDecl, returnType: MetalType, parameters: [MetalFunctionInfo.Parameter], glsl: String)
        throws(ShaderSourceError) -> StitchableSignature
    {
        let name = f.name
        let shapes =
            "a stitchable function must be 'float2 f(float2 position, …)' (distortion), "
            + "'half4 f(float2 position, half4 color, …)' (colour), 'half4 f(float2 position, SwiftUI::Layer layer, …)' (layer) "
            + "or 'half4 f(float2 position, …)' (fill)"
        guard let p0 = parameters.first, p0.type == .vector(.float, 2), !p0.isReference else {
            throw error("'\(name.text)': \(shapes)", name.line)
        }
        let kind: StitchableKind
        var rest = Array(zip(parameters, f.parameters).dropFirst())
        switch returnType {
        case .vector(.float, 2):
            kind = .distortion
        case .vector(.half, 4):
            // A layer or a colour after the position; anything else (or nothing) makes a fill.
            if let p1 = rest.first, p1.0.type == .layer || p1.0.type == .vector(.half, 4), !p1.0.isReference {
                kind = p1.0.type == .layer ? .layer : .color
                rest = Array(rest.dropFirst())
            } else {
                kind = .fill
            }
        default:
            throw error("'\(name.text)': \(shapes)", name.line)
        }
        var arguments: [StitchableArgument] = []
        var k = 0
        while k < rest.count {
            let (p, syntax) = rest[k]
            k += 1
            if case let .pointer(pointee) = p.type {
                arguments.append(try arrayArgument(p.name, pointee, count: k < rest.count ? rest[k] : nil, at: syntax.name))
                k += 1
                guard arguments.filter({ $0.countName != nil }).count <= ParameterType.maximumArrayParameters else {
                    throw error(
                        "'\(name.text)' has more than \(ParameterType.maximumArrayParameters) array and data arguments "
                            + "(each takes \(ParameterType.arrayBlockBytes / 1024) KiB of the GPU's uniform block)", syntax.name.line)
                }
                continue
            }
            let type: ParameterType?
            switch p.type {
            case .scalar(.float), .scalar(.half): type = .float
            case .vector(.float, 2), .vector(.half, 2): type = .vec2
            case .vector(.float, 3), .vector(.half, 3): type = .vec3
            case .vector(.float, 4), .vector(.half, 4): type = .vec4
            case .texture: type = .sampler2D
            default: type = nil
            }
            if p.type == .layer {
                throw error(
                    "the layer '\(p.name)' must come right after position: half4 \(name.text)(float2 position, SwiftUI::Layer \(p.name), …)",
                    syntax.name.line)
            }
            guard let type, !p.isReference else {
                throw error(
                    "unsupported stitchable argument type: '\(p.type.metal)\(p.isReference ? "&" : "")' of '\(p.name)' "
                        + "(arguments are float, half, float2–4, half2–4 or texture2d<half>)", syntax.name.line)
            }
            // A default's problem is reported where the default is written (a prototype may give it).
            let defaultLine = p.defaultLine ?? syntax.name.line
            // The host passes the default: it must be a finite number the checker worked out
            // (INFINITY, NAN or 1.0 / 0.0 would have been drawn as 0, or stopped the program).
            if let d = p.defaultValue {
                guard let components = d.value else {
                    throw error(
                        "the default of '\(p.name)' is not a value Segue can work out before rendering: write a finite number",
                        defaultLine)
                }
                if let bad = components.first(where: { !$0.isFinite || abs($0) > Double(Float.greatestFiniteMagnitude) }) {
                    throw error(
                        "the default of '\(p.name)' (\(MessageText.number(bad))) is not a finite 32-bit float (±3.4e+38)", defaultLine)
                }
            }
            let defaultValue = p.defaultValue?.value.map { ParameterValue(type, $0) }
            // A device holds a half default past ±65504 as an infinity, where Segue's float would
            // not: refused, as a value given for the argument is.
            if p.type.metal.hasPrefix("half"), let beyond = defaultValue?.components.first(where: { abs($0) > ParameterValue.largestHalf })
            {
                throw error(
                    "the default of '\(p.name)' (\(MessageText.number(beyond))) is beyond a half's ±65504, which a device would make an infinity",
                    defaultLine)
            }
            arguments.append(StitchableArgument(name: p.name, type: type, metalType: syntax.type.spelling, defaultValue: defaultValue))
        }
        return StitchableSignature(name: name.text, glsl: glsl, kind: kind, arguments: arguments, line: name.line)
    }

    /// SwiftUI's array and data arguments: `device const float *` (`.floatArray`), `device const
    /// half4 *` (`.colorArray`) or `device const void *` (`.data`), each followed by the `int`
    /// that gets its number of elements (bytes for data).
    func arrayArgument(
        _ name: String, _ pointee: MetalPointee, count: (MetalFunctionInfo.Parameter, MetalParameter)?,
        at token: MetalToken
    ) throws(ShaderSourceError) -> StitchableArgument {
        let type: ParameterType
        switch pointee {
        case .value(.float): type = .floatArray
        case .value(.vector(.half, 4)): type = .colorArray
        case .void: type = .data
        default:
            throw error(
                "unsupported stitchable argument type: 'device const \(pointee.spelling) *' of '\(name)' (SwiftUI passes "
                    + "'device const float *' (floatArray), 'device const half4 *' (colorArray) or 'device const void *' (data))",
                token.line)
        }
        guard let (c, syntax) = count, c.type == .int, !c.isReference, c.defaultValue == nil else {
            throw error(
                "the array argument '\(name)' must be followed by its count, as SwiftUI passes it: "
                    + "'device const \(pointee.spelling) *\(name), int \(type == .data ? "size" : "count")'", (count?.1.name ?? token).line)
        }
        return StitchableArgument(name: name, type: type, metalType: "device const \(pointee.spelling) *", countName: syntax.name.text)
    }

    // MARK: - Statements

    mutating func statement(_ s: MetalStmt) throws(ShaderSourceError) {
        switch s {
        case let .block(open, statements, close):
            out.emit("{", at: open)
            scopes.append([:])
            for s in statements { try statement(s) }
            scopes.removeLast()
            out.emit("}", at: close)
        case let .declaration(d):
            try variables(d, global: false)
        case let .expression(e, semicolon):
            out.write(try expr(e).code)
            out.emit(";", at: semicolon)
        case let .ifStatement(keyword, open, condition, close, then, elseKeyword, otherwise):
            out.emit("if", at: keyword)
            out.emit("(", at: open)
            out.write(try self.condition(condition, "an 'if' condition").code)
            out.emit(")", at: close)
            try scoped(then)
            if let elseKeyword, let otherwise {
                out.emit("else", at: elseKeyword)
                try scoped(otherwise)
            }
        case let .forStatement(keyword, open, initializer, condition, semicolon, step, close, body):
            out.emit("for", at: keyword)
            out.emit("(", at: open)
            scopes.append([:])
            if let initializer { try statement(initializer) }
            if let condition { out.write(try self.condition(condition, "a loop condition").code) }
            out.emit(";", at: semicolon)
            if let step { out.write(try expr(step).code) }
            out.emit(")", at: close)
            // The names of the loop's initialisation share a scope with the outermost block of
            // its body (C++ and GLSL refuse `for (int i …) { int i; }`).
            try loop { (c: inout MetalChecker) throws(ShaderSourceError) in
                if case let .block(open, statements, close) = body {
                    c.out.emit("{", at: open)
                    for s in statements { try c.statement(s) }
                    c.out.emit("}", at: close)
                } else {
                    try c.scoped(body)
                }
            }
            scopes.removeLast()
        case let .whileStatement(keyword, open, condition, close, body):
            out.emit("while", at: keyword)
            out.emit("(", at: open)
            out.write(try self.condition(condition, "a loop condition").code)
            out.emit(")", at: close)
            try loop { (c: inout MetalChecker) throws(ShaderSourceError) in try c.scoped(body) }
        case let .doWhile(keyword, body, whileKeyword, open, condition, close, semicolon):
            out.emit("do", at: keyword)
            try loop { (c: inout MetalChecker) throws(ShaderSourceError) in try c.scoped(body) }
            out.emit("while", at: whileKeyword)
            out.emit("(", at: open)
            out.write(try self.condition(condition, "a loop condition").code)
            out.emit(")", at: close)
            out.emit(";", at: semicolon)
        case let .switchStatement(keyword, open, value, close, body):
            var v = try expr(value)
            guard let s = v.type.scalar, v.type.width == 1, s.isInteger || s == .bool else {
                throw error("a switch value must be an integer, got '\(v.type.metal)'", at: v.code, or: keyword)
            }
            if s == .bool { v = try convert(v, to: .int, context: "") }
            out.emit("switch", at: keyword)
            out.emit("(", at: open)
            out.write(v.code)
            out.emit(")", at: close)
            try switchBody(body, type: v.type)
        case let .label(keyword, _, _):
            // Labels directly in a switch's braces are checked by `switchBody`.
            guard switches.isEmpty else {
                throw error(
                    "'\(keyword.text)' inside a statement nested in the switch (GLSL allows labels only directly in its braces)",
                    keyword.line)
            }
            throw error("'\(keyword.text)' outside a switch", keyword.line)
        case let .jump(keyword, value, semicolon):
            if keyword.text == "break" && breakable == 0 { throw error("'break' outside a loop or switch", keyword.line) }
            if keyword.text == "continue" && loops == 0 { throw error("'continue' outside a loop", keyword.line) }
            out.emit(keyword.text, at: keyword)
            if keyword.text == "return" {
                returns = true
                let returnType = current?.returnType ?? .void
                if let value {
                    guard returnType != .void else { throw error("a void function cannot return a value", keyword.line) }
                    out.write(try initial(value, as: returnType, context: "to return from '\(current?.name ?? "")'").code)
                } else if returnType != .void {
                    throw error("'\(current?.name ?? "")' must return a \(returnType.metal)", keyword.line)
                }
            }
            out.emit(";", at: semicolon)
        case let .empty(semicolon):
            out.emit(";", at: semicolon)
        }
    }

    /// A statement in its own scope (the body of an `if` or a loop).
    mutating func scoped(_ s: MetalStmt) throws(ShaderSourceError) {
        scopes.append([:])
        try statement(s)
        scopes.removeLast()
    }

    /// Checks the body of a loop (where `break` and `continue` may stand).
    mutating func loop(_ body: (inout MetalChecker) throws(ShaderSourceError) -> Void) throws(ShaderSourceError) {
        loops += 1
        breakable += 1
        defer { loops -= 1; breakable -= 1 }
        try body(&self)
    }

    /// The braces of a switch on a value of `type`: its labels (each value once, within the
    /// 32-bit range) directly in them, statements between.
    mutating func switchBody(_ body: MetalStmt, type: MetalType) throws(ShaderSourceError) {
        guard case let .block(open, statements, close) = body else { return try statement(body) }
        switches.append(type)
        breakable += 1
        defer { switches.removeLast(); breakable -= 1 }
        out.emit("{", at: open)
        scopes.append([:])
        var seen: [Double: Int] = [:]
        var sawDefault = false
        for s in statements {
            guard case let .label(keyword, value, colon) = s else { try statement(s); continue }
            out.emit(keyword.text, at: keyword)
            if let value {
                let v = try expr(value)
                guard let c = v.value, c.count == 1, v.type.scalar?.isInteger == true || v.type.scalar == .bool else {
                    throw error("a case value must be an integer constant", keyword.line)
                }
                let wrapped = Self.wrapInteger(c[0], type == .uint ? .uint : .int)
                let text = type == .uint ? "\(UInt32(wrapped))" : "\(Int32(wrapped))"
                if let line = seen[wrapped] { throw error("duplicate case value \(text) (first on line \(line))", keyword.line) }
                seen[wrapped] = keyword.line
                out.emit(type == .uint ? text + "u" : text, at: value.first)
            } else {
                guard !sawDefault else { throw error("more than one 'default' label in the switch", keyword.line) }
                sawDefault = true
            }
            out.emit(":", at: colon)
        }
        scopes.removeLast()
        out.emit("}", at: close)
    }

    /// A condition converted to `bool` (Metal converts numbers and pointers; vectors are errors).
    mutating func condition(_ e: MetalExpr, _ what: String) throws(ShaderSourceError) -> Typed {
        let v = try expr(e)
        guard v.type.width == 1 else {
            throw error("\(what) must be a scalar, got '\(v.type.metal)' (use all() or any())", at: v.code, or: e.first)
        }
        return try convert(v, to: .bool, context: "in \(what)")
    }
}

/// A `[[ stitchable ]]` function as the checker found it.
enum StitchableEntry {
    /// SwiftUI could call it: its kind and arguments.
    case usable(StitchableSignature)
    /// Its signature is not one SwiftUI calls: why.
    case refused(StitchableRefusal)
}

extension MetalChecker {
    /// The stitchable functions that can be used, in source order.
    var stitchable: [StitchableSignature] {
        stitchableEntries.compactMap { if case let .usable(s) = $0.entry { s } else { nil } }
    }

    /// The stitchable functions whose signatures SwiftUI could not call, in source order.
    var refused: [StitchableRefusal] {
        stitchableEntries.compactMap { if case let .refused(r) = $0.entry { r } else { nil } }
    }
}
