// Calls: type constructors (`float4(v.rgb, 1)`, `S(a, b)`, `T{…}`), the user's helpers (overload
// resolution with Metal's implicit conversions, default arguments filled in), the library
// functions of `MetalBuiltins`, `layer.sample(p)`, and `texture2d` members with `sampler` states.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MetalChecker {
    mutating func call(_ n: MetalName, _ args: MetalArguments) throws(ShaderSourceError) -> Typed {
        let name = n.name
        if n.qualifiers.allSatisfy({ $0 == "metal" }) {
            if let t = MetalType.named[name], t != .void {
                return try construct(t, args.items, at: n.first, open: args.open, close: args.close)
            }
            if n.qualifiers.isEmpty, structs[name] != nil {
                return try construct(.structure(name), args.items, at: n.first, open: args.open, close: args.close)
            }
            if name == "sampler" { return try samplerState(args, at: n.first) }
        }
        guard n.qualifiers.allSatisfy({ ["metal", "precise", "fast"].contains($0) }) else {
            throw unsupported("scope resolution", n.first)
        }
        var typed: [Typed] = []
        for a in args.items { typed.append(try expr(a)) }
        // A variable hides a function of its name, as in C++ (`float g = 1; g(2)` calls no function g).
        if n.qualifiers.isEmpty, let v = lookup(name) {
            throw error("called object type '\(v.type.metal)' is not a function", n.token.line)
        }
        if n.qualifiers.isEmpty, let overloads = functions[name] { return try userCall(overloads, n, typed, args) }
        if let overloads = MetalBuiltins.functions[name] { return try builtinCall(overloads, n, typed, args) }
        if MetalBuiltins.matrixFunctions.contains(name) { return try matrixCall(n, typed, args) }
        if let reason = MetalBuiltins.unsupported[name] ?? MetalVocabulary.rejected[name] { throw unsupported(reason, n.token) }
        throw unsupported("function", n.token)
    }

    /// The argument types of a call, for messages: `(float3, float)`.
    func describe(_ args: [Typed]) -> String { "(" + listedNames(args.map(\.type.metal)) + ")" }

    /// `name(a, b, …)` placed at the callee, with the closing parenthesis where it was.
    func callCode(_ name: String, at first: MetalToken, _ args: [GLSLCode], close: MetalToken) -> GLSLCode {
        var parts: [GLSLCode] = [.token(name + "(", first)]
        for (k, a) in args.enumerated() {
            if k > 0 { parts.append(.text(",")) }
            parts.append(a)
        }
        parts.append(.token(")", close))
        return .sequence(parts)
    }

    // MARK: - User functions

    mutating func userCall(
        _ overloads: [MetalFunctionInfo], _ n: MetalName, _ typed: [Typed],
        _ args: MetalArguments
    ) throws(ShaderSourceError) -> Typed {
        var best: (info: MetalFunctionInfo, codes: [GLSLCode], score: Int)?
        for f in overloads {
            let required = f.parameters.filter { $0.defaultValue == nil }.count
            guard (required...f.parameters.count).contains(typed.count) else { continue }
            var score = 0
            var codes: [GLSLCode] = []
            var matches = true
            for (a, p) in zip(typed, f.parameters) {
                if p.isReference {
                    guard a.isLValue, a.type.isPointer == p.type.isPointer, glsl(a.type) == glsl(p.type),
                        a.type.glslArraySuffix == p.type.glslArraySuffix
                    else { matches = false; break }
                    codes.append(a.code)
                } else if a.type == p.type {
                    codes.append(a.code)
                } else if implicitlyConvertible(a.type, p.type), let c = try? convert(a, to: p.type, context: "") {
                    score += glsl(a.type) == glsl(p.type) ? 1 : 2
                    codes.append(c.code)
                } else {
                    matches = false
                    break
                }
            }
            if matches, best == nil || score < best!.score { best = (f, codes, score) }
        }
        guard let best else {
            throw error("no matching function for call to '\(n.name)' with \(describe(typed))", n.token.line)
        }
        if let caller = current {
            if caller.glsl == best.info.glsl { throw unsupported("recursion (Metal and GLSL have no recursive calls)", n.token) }
            calls[caller.glsl, default: []].append((best.info.glsl, n.name, n.token.line))
        }
        if !best.info.isDefined { calledPrototypes[n.name] = n.token.line }
        var codes = best.codes
        for p in best.info.parameters.dropFirst(typed.count) { codes.append(.wrapped("", p.defaultValue!.code, "")) }
        return Typed(type: best.info.returnType, code: callCode(best.info.glsl, at: n.first, codes, close: args.close))
    }

    /// Throws for a cycle of calls between the file's functions (`g` calls `h`, which calls `g`
    /// again, through prototypes): GLSL refuses recursion when it links the shader. An
    /// iterative depth-first search over `calls`.
    func checkRecursion() throws(ShaderSourceError) {
        var done: Set<String> = []
        let names = Dictionary(calls.values.joined().map { ($0.callee, $0.name) }, uniquingKeysWith: { a, _ in a })
        for root in calls.keys.sorted() where !done.contains(root) {
            // The path from the root: each function with the index of its next call to follow.
            var path: [(function: String, next: Int)] = [(root, 0)]
            var onPath: Set<String> = [root]
            while let (function, next) = path.last {
                let edges = calls[function] ?? []
                guard next < edges.count else {
                    path.removeLast()
                    onPath.remove(function)
                    done.insert(function)
                    continue
                }
                path[path.count - 1].next += 1
                let edge = edges[next]
                if onPath.contains(edge.callee) {
                    let start = path.firstIndex { $0.function == edge.callee } ?? 0
                    let cycle = path[start...].map { "'\(names[$0.function] ?? $0.function)'" } + ["'\(edge.name)'"]
                    let chain = cycle[0] + " calls " + cycle.dropFirst().joined(separator: ", which calls ")
                    throw error("unsupported recursion (Metal and GLSL have no recursive calls): " + chain, edge.line)
                }
                if !done.contains(edge.callee) {
                    path.append((edge.callee, 0))
                    onPath.insert(edge.callee)
                }
            }
        }
    }

    // MARK: - Library functions

    mutating func builtinCall(
        _ overloads: [BuiltinFunction], _ n: MetalName, _ typed: [Typed],
        _ args: MetalArguments
    ) throws(ShaderSourceError) -> Typed {
        for f in overloads where f.parameters.count == typed.count {
            guard let (t, converted, result) = resolve(f, typed) else { continue }
            let codes = converted.map(\.code)
            let code: GLSLCode
            var helper = false
            switch f.emission {
            case let .glsl(g):
                code = callCode(g, at: n.first, codes, close: args.close)
            case let .helper(h):
                prelude.require(h, t)
                helper = true
                code = callCode("_msl_" + h, at: n.first, codes, close: args.close)
            case let .inline(make):
                code = make(codes, t, n.first, args.close)
            }
            let value = Self.foldBuiltin(n.name, converted.map(\.value), width: t.width ?? 1)
            return Typed(type: result, code: code, value: value, isConstant: !helper && converted.allSatisfy(\.isConstant))
        }
        throw error("no matching function for call to '\(n.name)' with \(describe(typed))", n.token.line)
    }

    /// T for a call of `f` with `args`, the arguments converted, and the result type; nil when
    /// the arguments do not fit.
    func resolve(_ f: BuiltinFunction, _ args: [Typed]) -> (MetalType, [Typed], MetalType)? {
        var generic: [MetalType] = []
        for (p, a) in zip(f.parameters, args) {
            switch p {
            case .t, .outT: generic.append(a.type)
            default: break
            }
        }
        guard generic.allSatisfy({ $0.width != nil }) else { return nil }
        var n = 1
        for t in generic where t.width! > 1 {
            if n > 1 && t.width! != n { return nil }
            n = t.width!
        }
        guard f.widths.contains(n) else { return nil }
        let scalars = generic.map { $0.scalar! }
        let floating: MetalScalar = !scalars.isEmpty && scalars.allSatisfy { $0 == .half } ? .half : .float
        let integer: MetalScalar = scalars.contains(.uint) ? .uint : .int
        let element: MetalScalar
        switch f.domain {
        case .floating: element = floating
        case .integer:
            guard scalars.allSatisfy({ $0.isInteger || $0 == .bool }) else { return nil }
            element = integer
        case .numeric: element = scalars.contains(where: \.isFloating) ? floating : integer
        case .boolean:
            guard scalars.allSatisfy({ $0 == .bool }) else { return nil }
            element = .bool
        case .any:
            element = scalars.allSatisfy { $0 == .bool } ? .bool : scalars.contains(where: \.isFloating) ? floating : integer
        }
        let t = MetalType.of(element, n)
        var converted: [Typed] = []
        for (p, a) in zip(f.parameters, args) {
            let target: MetalType
            switch p {
            case .t: target = t
            case .scalar:
                guard a.type.width == 1 else { return nil }
                target = .scalar(element)
            case .bools:
                guard a.type.scalar == .bool, a.type.width == 1 || a.type.width == n else { return nil }
                target = .of(.bool, n)
            case .ints:
                guard let s = a.type.scalar, s.isInteger, a.type.width == 1 || a.type.width == n else { return nil }
                target = .of(.int, n)
            case let .fixed(type):
                target = type
            case .outT, .outInts:
                let wanted: MetalType = if case .outT = p { t } else { .of(.int, n) }
                guard a.isLValue, !a.type.isPointer, glsl(a.type) == glsl(wanted) else { return nil }
                converted.append(a)
                continue
            }
            guard implicitlyConvertible(a.type, target), let c = try? convert(a, to: target, context: "") else { return nil }
            converted.append(c)
        }
        let result: MetalType =
            switch f.result {
            case .t: t
            case .scalar: .scalar(element)
            case .bool: .bool
            case .bools: .of(.bool, n)
            case .ints: .of(.int, n)
            }
        return (t, converted, result)
    }

    /// Values of library calls on constants (so `float x = 0.5 * sqrt(2.0)` can be a default).
    static func foldBuiltin(_ name: String, _ values: [[Double]?], width: Int) -> [Double]? {
        let unary: [String: (Double) -> Double] = [
            "sin": sin, "cos": cos, "tan": tan, "asin": asin, "acos": acos, "atan": atan, "sinh": sinh, "cosh": cosh,
            "tanh": tanh, "exp": exp, "exp2": exp2, "log": log, "log2": log2, "sqrt": sqrt, "floor": floor, "ceil": ceil,
            "trunc": trunc, "abs": abs, "fabs": abs, "rsqrt": { 1 / sqrt($0) }, "saturate": { min(max($0, 0), 1) },
        ]
        let binary: [String: (Double, Double) -> Double] = [
            "min": min, "max": max, "fmin": min, "fmax": max, "pow": pow, "powr": pow, "atan2": atan2,
        ]
        let vs = values.compactMap { $0 }
        guard vs.count == values.count, !vs.isEmpty else { return nil }
        func at(_ v: [Double], _ k: Int) -> Double { v.count == 1 ? v[0] : v[k] }
        if let f = unary[name], vs.count == 1 { return (0..<width).map { f(at(vs[0], $0)) } }
        if let f = binary[name], vs.count == 2 { return (0..<width).map { f(at(vs[0], $0), at(vs[1], $0)) } }
        if name == "clamp", vs.count == 3 { return (0..<width).map { min(max(at(vs[0], $0), at(vs[1], $0)), at(vs[2], $0)) } }
        return nil
    }

    mutating func matrixCall(_ n: MetalName, _ typed: [Typed], _ args: MetalArguments) throws(ShaderSourceError) -> Typed {
        guard typed.count == 1, case let .matrix(s, c, r) = typed[0].type else {
            throw error("no matching function for call to '\(n.name)' with \(describe(typed))", n.token.line)
        }
        if n.name == "determinant" {
            guard c == r else { throw error("determinant needs a square matrix, got '\(typed[0].type.metal)'", n.token.line) }
            return Typed(type: .scalar(s), code: callCode("determinant", at: n.first, [typed[0].code], close: args.close))
        }
        return Typed(type: .matrix(s, columns: r, rows: c), code: callCode("transpose", at: n.first, [typed[0].code], close: args.close))
    }

    // MARK: - Constructors

    /// GLSL for the zero value of a type.
    func zero(_ t: MetalType) -> String {
        switch t {
        case let .scalar(s): s == .bool ? "false" : s == .uint ? "0u" : s == .int ? "0" : "0.0"
        case let .vector(s, _): "\(glsl(t))(\(zero(.scalar(s))))"
        case .matrix: "\(glsl(t))(0.0)"
        case let .structure(name):
            "\(structGLSL(name))(" + (structs[name]?.fields.map { zero($0.type) }.joined(separator: ", ") ?? "") + ")"
        case let .array(e, n): "\(t.glslConstructor(structGLSL))(" + Array(repeating: zero(e), count: n).joined(separator: ", ") + ")"
        default: "0"
        }
    }

    /// `T(args)`: Metal's constructors of scalars, vectors, matrices and (as aggregates) structs.
    mutating func construct(
        _ type: MetalType, _ items: [MetalExpr], at first: MetalToken, open: MetalToken,
        close: MetalToken
    ) throws(ShaderSourceError) -> Typed {
        if case .structure = type { return try aggregate(type, items, at: first, close: close, padding: false) }
        var args: [Typed] = []
        for item in items { args.append(try expr(item)) }
        if args.isEmpty, type.scalar != nil {
            return Typed(
                type: type, code: .token(zero(type), first), value: type.width.map { Array(repeating: 0, count: $0) }, isConstant: true)
        }
        func fail() -> ShaderSourceError { error("cannot construct a \(type.metal) from \(describe(args))", first.line) }
        let isConstant = args.allSatisfy(\.isConstant)
        switch type {
        case let .scalar(s):
            guard args.count == 1, args[0].type.width == 1 else { throw fail() }
            let value = args[0].value.map { [Self.convertComponent($0[0], to: s)] }
            return Typed(
                type: type, code: callCode(glsl(type), at: first, [args[0].code], close: close), value: value, isConstant: isConstant)
        case let .vector(s, n):
            let widths = args.map(\.type.width)
            guard widths.allSatisfy({ $0 != nil }) else { throw fail() }
            let total = widths.reduce(0) { $0 + $1! }
            // One vector of more components is truncated to the first n (`half3(color)` of a
            // half4, as Xcode's Metal compiler and GLSL both take it).
            let truncating =
                args.count == 1 && total > n
                && {
                    if case .vector = args[0].type { return true }; return false
                }()
            guard (args.count == 1 && (total == 1 || total == n)) || total == n || truncating else { throw fail() }
            if args.count == 1, total == n || truncating, args[0].type.scalar != s, !(args[0].type.scalar!.isFloating && s.isFloating) {
                // float2(int2): a conversion, allowed explicitly.
                _ = try convert(args[0], to: truncating ? .vector(s, total) : type, context: "", explicit: true)
            }
            var value: [Double]?
            if args.allSatisfy({ $0.value != nil }) {
                let flat = args.flatMap { $0.value! }.prefix(truncating ? n : .max).map { Self.convertComponent($0, to: s) }
                value = flat.count == 1 ? Array(repeating: flat[0], count: n) : flat
            }
            return Typed(
                type: type, code: callCode(glsl(type), at: first, args.map(\.code), close: close), value: value, isConstant: isConstant)
        case let .matrix(_, c, r):
            let ok: Bool
            if args.count == 1 {
                ok =
                    args[0].type.width == 1
                    || {
                        if case .matrix = args[0].type { return true }; return false
                    }()
            } else if args.count == c {
                ok = args.allSatisfy { $0.type.width == r }
            } else {
                ok = args.count == c * r && args.allSatisfy { $0.type.width == 1 }
            }
            guard ok else { throw fail() }
            return Typed(type: type, code: callCode(glsl(type), at: first, args.map(\.code), close: close), isConstant: isConstant)
        default:
            throw error("cannot construct a \(type.metal)", first.line)
        }
    }

    /// A struct or array from its members in order (missing ones are zero, as in C++ aggregate
    /// initialisation when `padding` is set).
    mutating func aggregate(
        _ type: MetalType, _ items: [MetalExpr], at first: MetalToken, close: MetalToken,
        padding: Bool
    ) throws(ShaderSourceError) -> Typed {
        let members: [(name: String, type: MetalType)]
        switch type {
        case let .structure(name): members = structs[name]!.fields.map { ($0.name, $0.type) }
        case let .array(e, n): members = Array(repeating: ("element", e), count: n)
        default: preconditionFailure("aggregate of \(type)")
        }
        guard items.count <= members.count else {
            throw error("too many initialisers for '\(type.metal)' (\(items.count) for \(members.count))", first.line)
        }
        let outermost = !inAggregate
        if outermost { try countInitializedElements(type, at: first) }
        inAggregate = true
        defer { if outermost { inAggregate = false } }
        var codes: [GLSLCode] = []
        var isConstant = true
        for (item, m) in zip(items, members) {
            let v = try initial(item, as: m.type, context: "for '\(m.name)' of '\(type.metal)'")
            isConstant = isConstant && v.isConstant
            codes.append(v.code)
        }
        for m in members.dropFirst(items.count) { codes.append(.text(" " + zero(m.type))) }
        return Typed(type: type, code: callCode(type.glslConstructor(structGLSL), at: first, codes, close: close), isConstant: isConstant)
    }

    /// `{…}` or `T{…}` for a value of `type`.
    mutating func braces(_ type: MetalType, _ args: MetalArguments, at first: MetalToken) throws(ShaderSourceError) -> Typed {
        switch type {
        case .structure, .array:
            return try aggregate(type, args.items, at: first, close: args.close, padding: true)
        case .scalar:
            guard args.items.count <= 1 else { throw error("too many initialisers for '\(type.metal)'", first.line) }
            guard let item = args.items.first else {
                return Typed(type: type, code: .token(zero(type), first), value: [0], isConstant: true)
            }
            return try convert(try expr(item), to: type, context: "in '{…}'")
        case let .vector(s, n):
            var args2: [Typed] = []
            for item in args.items { args2.append(try expr(item)) }
            let total = args2.reduce(0) { $0 + ($1.type.width ?? 99) }
            guard total <= n else { throw error("too many initialisers for '\(type.metal)' (\(total) components for \(n))", first.line) }
            var codes = args2.map(\.code)
            for _ in total..<n { codes.append(.text(" " + zero(.scalar(s)))) }
            return Typed(
                type: type, code: callCode(glsl(type), at: first, codes, close: args.close), isConstant: args2.allSatisfy(\.isConstant))
        default:
            return try construct(type, args.items, at: first, open: args.open, close: args.close)
        }
    }

    // MARK: - Samplers, layers and textures

    /// Sampler options (`filter::linear`, …) and their codes.
    static let samplerOptions: [String: [String: Int]] = {
        let address = ["clamp_to_edge": 0, "repeat": 1, "mirrored_repeat": 2, "clamp_to_zero": 3, "clamp_to_border": 4]
        let filter = ["nearest": 0, "linear": 1]
        return [
            "coord": ["normalized": 0, "pixel": 1], "address": address, "s_address": address, "t_address": address,
            "r_address": address, "filter": filter, "mag_filter": filter, "min_filter": filter,
            "mip_filter": ["none": 0, "nearest": 0, "linear": 0],
            "border_color": ["transparent_black": 0, "opaque_black": 1, "opaque_white": 2], "compare_func": [:],
        ]
    }()

    /// `sampler(options…)` as the constant `ivec4(coord, s address, t address, filter | border << 1)`
    /// that `_segue_texSample` reads. Metal's defaults: normalized coordinates, clamp to edge, nearest.
    func samplerState(_ args: MetalArguments, at first: MetalToken) throws(ShaderSourceError) -> Typed {
        var state: [String: Int] = [:]
        for item in args.items {
            switch item {
            case let .name(n):
                let qualifiers = n.qualifiers.drop { $0 == "metal" }
                guard qualifiers.count == 1, let option = qualifiers.first, let values = Self.samplerOptions[option] else {
                    throw unsupported("sampler option", n.token)
                }
                if option == "compare_func" { throw unsupported("sampler compare function", n.token) }
                guard let v = values[n.name] else { throw unsupported("\(option) value", n.token) }
                state[option] = v
            case let .call(n, _) where ["max_anisotropy", "lod_clamp"].contains(n.name):
                continue
            default:
                throw unsupported("sampler argument", item.first)
            }
        }
        let coord = state["coord"] ?? 0
        let s = state["s_address"] ?? state["address"] ?? 0, t = state["t_address"] ?? state["address"] ?? 0
        let filter = state["filter"] ?? state["mag_filter"] ?? state["min_filter"] ?? 0
        if coord == 1, s == 1 || s == 2 || t == 1 || t == 2 {
            throw error("a sampler with coord::pixel must clamp (clamp_to_edge, clamp_to_zero or clamp_to_border), as in Metal", first.line)
        }
        let w = filter | (state["border_color"] ?? 0) << 1
        return Typed(
            type: .sampler, code: .token("ivec4(\(coord), \(s), \(t), \(w))", first),
            value: [Double(coord), Double(s), Double(t), Double(w)], isConstant: true)
    }

    mutating func method(_ baseExpr: MetalExpr, _ dot: MetalToken, _ name: MetalToken, _ args: MetalArguments) throws(ShaderSourceError)
        -> Typed
    {
        let base = try expr(baseExpr)
        var typed: [Typed] = []
        switch base.type {
        case .layer:
            guard name.text == "sample" else { throw unsupported("layer member (only layer.sample(position))", name) }
            guard args.items.count == 1 else {
                throw error("layer.sample takes one position (float2), got \(args.items.count) arguments", name.line)
            }
            let p = try convert(try expr(args.items[0]), to: .vector(.float, 2), context: "as the position of layer.sample")
            countTextureRead()
            return Typed(type: .vector(.half, 4), code: .wrapped("_segue_sampleLayer(", .sequence([base.code, .text(", "), p.code]), ")"))
        case let .texture(s):
            switch name.text {
            case "sample":
                guard args.items.count >= 2 else { throw error("texture sample takes a sampler and a coordinate", name.line) }
                let sampler = try expr(args.items[0])
                guard sampler.type == .sampler else {
                    throw error("the first argument of sample must be a sampler, got '\(sampler.type.metal)'", name.line)
                }
                let coord = try convert(try expr(args.items[1]), to: .vector(.float, 2), context: "as a texture coordinate")
                for option in args.items.dropFirst(2) {
                    guard case let .call(o, _) = option, ["level", "bias", "min_lod_clamp", "gradient2d"].contains(o.name) else {
                        throw unsupported(
                            "texture sample option (level, bias and gradient2d are accepted: textures have one level)", option.first)
                    }
                }
                prelude.requireTextureSampler()
                countTextureRead()
                return Typed(
                    type: .vector(s, 4),
                    code: .wrapped("_segue_texSample(", .sequence([base.code, .text(", "), sampler.code, .text(", "), coord.code]), ")"))
            case "read":
                guard (1...2).contains(args.items.count) else { throw error("texture read takes a coordinate (and a level)", name.line) }
                countTextureRead()
                for a in args.items { typed.append(try expr(a)) }
                guard let e = typed[0].type.scalar, e.isInteger, typed[0].type.width == 2 else {
                    throw error("texture read takes a uint2 coordinate, got '\(typed[0].type.metal)'", name.line)
                }
                return Typed(
                    type: .vector(s, 4),
                    code: .wrapped("texelFetch(", .sequence([base.code, .text(", ivec2("), typed[0].code, .text("), 0")]), ")"))
            case "get_width", "get_height":
                guard args.items.count <= 1 else { throw error("\(name.text) takes at most a level", name.line) }
                return Typed(type: .uint, code: .wrapped("uint(textureSize(", base.code, ", 0).\(name.text == "get_width" ? "x" : "y"))"))
            case "get_num_mip_levels":
                return Typed(type: .uint, code: .token("1u", name))
            default:
                throw unsupported("texture member (sample, read, get_width, get_height)", name)
            }
        default:
            throw unsupported("member function", name)
        }
    }
}
