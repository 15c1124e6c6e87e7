// Pointers to SwiftUI's array and data arguments: `device const float *values, int count`
// (`.floatArray`), `device const half4 *colors, int count` (`.colorArray`) and `device const void
// *bytes, int size` (`.data`). GLSL has no pointers, so a pointer is the index of the argument it
// points into (an `int`); the argument's bytes are in Segue's uniform block, laid out as Metal lays
// them out in memory, and a read `p[i]` (or `*p`) calls a reader for the pointee type that takes
// the bytes of element `i` through `_segue_word(b, w)` — which gives 0 outside the argument's
// bytes, so no index reads anything else. Casts between pointer types (`(device const float2
// *)bytes`, `reinterpret_cast<…>`, `static_cast<…>`) keep the index and change how the bytes are
// read. Pointers are read-only (SwiftUI's arguments are) and have no arithmetic.

/// What a `device` pointer points at, with Metal's size of one element.
enum MetalPointee: Sendable, Hashable {
    /// `void`: must be cast before it is read.
    case void
    /// A `float`, `half`, `int` or `uint` scalar or 2–4 vector.
    case value(MetalType)
    /// `uchar`/`uint8_t`/`char`/`int8_t` (1 byte) or `ushort`/`uint16_t`/`short`/`int16_t` (2
    /// bytes), read as an `int`, as C++ promotes them in arithmetic.
    case small(bytes: Int, signed: Bool, spelling: String)

    /// The pointee names a pointer may be declared with, besides the built-in scalar and vector types.
    static let smallTypes: [String: MetalPointee] = [
        "uchar": .small(bytes: 1, signed: false, spelling: "uchar"), "uint8_t": .small(bytes: 1, signed: false, spelling: "uint8_t"),
        "char": .small(bytes: 1, signed: true, spelling: "char"), "int8_t": .small(bytes: 1, signed: true, spelling: "int8_t"),
        "ushort": .small(bytes: 2, signed: false, spelling: "ushort"), "uint16_t": .small(bytes: 2, signed: false, spelling: "uint16_t"),
        "short": .small(bytes: 2, signed: true, spelling: "short"), "int16_t": .small(bytes: 2, signed: true, spelling: "int16_t"),
    ]

    /// The pointee a type name spells, or nil when a pointer to it is not supported.
    static func named(_ name: String) -> MetalPointee? {
        if name == "void" { return .void }
        if let small = smallTypes[name] { return small }
        if name == "int32_t" { return .value(.int) }
        if name == "uint32_t" { return .value(.uint) }
        guard let t = MetalType.named[name], let s = t.scalar, s != .bool, t.width != nil else { return nil }
        return .value(t)
    }

    /// The spelling in Metal (`float`, `half4`, `uchar`).
    var spelling: String {
        switch self {
        case .void: "void"
        case let .value(t): t.metal
        case let .small(_, _, spelling): spelling
        }
    }

    /// The type a read gives (nil for `void`).
    var valueType: MetalType? {
        switch self {
        case .void: nil
        case let .value(t): t
        case .small: .int
        }
    }

    /// The GLSL name of the reader of one element.
    var reader: String { "_segue_read_" + spelling }

    /// The reader's definition: element `i` of argument `b` from its 32-bit words.
    var readerDefinition: String {
        let w = "_segue_word"
        switch self {
        case .void:
            preconditionFailure("a void pointer is not read")
        case let .small(bytes, signed, _):
            let perWord = 4 / bytes, bits = 8 * bytes
            let shift = perWord == 4 ? "i >> 2" : "i >> 1", lane = perWord == 4 ? "i & 3" : "i & 1"
            return signed
                ? "int \(reader)(int b, int i) { return bitfieldExtract(int(\(w)(b, \(shift))), \(bits) * (\(lane)), \(bits)); }"
                : "int \(reader)(int b, int i) { return int(bitfieldExtract(\(w)(b, \(shift)), \(bits) * (\(lane)), \(bits))); }"
        case let .value(t):
            let s = t.scalar!, n = t.width!
            let glslType = t.glsl { $0 }
            if s == .half {
                switch n {
                case 1: return "float \(reader)(int b, int i) { return unpackHalf2x16(\(w)(b, i >> 1))[i & 1]; }"
                case 2: return "vec2 \(reader)(int b, int i) { return unpackHalf2x16(\(w)(b, i)); }"
                case 3:
                    return
                        "vec3 \(reader)(int b, int i) { return vec3(unpackHalf2x16(\(w)(b, 2 * i)), unpackHalf2x16(\(w)(b, 2 * i + 1)).x); }"
                default:
                    return
                        "vec4 \(reader)(int b, int i) { return vec4(unpackHalf2x16(\(w)(b, 2 * i)), unpackHalf2x16(\(w)(b, 2 * i + 1))); }"
                }
            }
            // 32-bit components; a 3-vector takes 16 bytes, as in Metal.
            let stride = n == 3 ? 4 : n
            let word: (Int) -> String = { k in
                let index = stride == 1 ? "i" : "\(stride) * i" + (k > 0 ? " + \(k)" : "")
                let raw = "\(w)(b, \(index))"
                switch s {
                case .float, .half: return "uintBitsToFloat(\(raw))"
                case .int: return "int(\(raw))"
                default: return raw
                }
            }
            let body = n == 1 ? word(0) : "\(glslType)(" + (0..<n).map(word).joined(separator: ", ") + ")"
            return "\(glslType) \(reader)(int b, int i) { return \(body); }"
        }
    }
}

// MARK: - Parsing

extension MetalParser {
    /// Whether a pointer type starts at token `k`: `device`/`constant`, or `const` before one.
    func startsPointer(_ k: Int = 0) -> Bool {
        var k = k
        while isText("const", k) { k += 1 }
        return isText("device", k) || isText("constant", k)
    }

    /// `[const] device [const] T [const] *` at the cursor (also `constant` for `device`).
    mutating func pointerType() throws(ShaderSourceError) -> MetalTypeSyntax {
        let first = peek()!
        while isText("const") { i += 1 }
        let space = next()  // device or constant
        while isText("const") { i += 1 }
        while isText("metal"), isText("::", 1) { i += 2 }
        let t = try current("a type after '\(space.text)'")
        guard t.kind == .identifier else { throw error("expected a type after '\(space.text)', found '\(t.text)'", t.line) }
        var name = t.text
        i += 1
        if name == "unsigned" {
            if isText("char") {
                name = "uchar"; i += 1
            } else if isText("short") {
                name = "ushort"; i += 1
            } else {
                if isText("int") { i += 1 }
                name = "uint"
            }
        }
        guard let pointee = MetalPointee.named(name) else {
            if structNames.contains(name) { throw unsupported("pointer to a struct (read its fields from a float or byte pointer)", t) }
            throw unsupported("pointer type (device const float, half4, void, uchar, … *)", t)
        }
        while isText("const") { i += 1 }
        guard isText("*") else {
            if isText("&") { throw unsupported("reference in the \(space.text) address space", peek()!) }
            throw error("expected '*' after '\(space.text) \(name)'", (peek() ?? t).line)
        }
        i += 1
        if isText("*") { throw unsupported("pointer to a pointer", peek()!) }
        while isText("const") { i += 1 }
        return MetalTypeSyntax(first: first, spelling: "device const \(pointee.spelling) *", builtIn: .pointer(pointee), structName: nil)
    }

    /// `(device const T *)e`: a C-style cast to a pointer type, the `(` at the cursor.
    mutating func pointerCast() throws(ShaderSourceError) -> MetalExpr {
        let open = next()
        let type = try pointerType()
        let close = try expect(")", "after the pointer type of the cast")
        let operand = try unaryExpression()
        return try built(.cast(open, type, close, operand), above: height, at: open)
    }

    /// `reinterpret_cast<device const T *>(e)` or `static_cast<…>(e)` at the cursor.
    mutating func namedPointerCast() throws(ShaderSourceError) -> MetalExpr {
        let keyword = next()
        try expect("<", "after '\(keyword.text)'")
        guard startsPointer() else { throw unsupported("cast (only to a device pointer type; write float(x) for numbers)", keyword) }
        let type = try pointerType()
        try expect(">", "after the pointer type of '\(keyword.text)'")
        try expect("(", "after '\(keyword.text)<…>'")
        let operand = try expression()
        let close = try expect(")", "to close '\(keyword.text)<…>('")
        return try built(.cast(keyword, type, close, operand), above: height, at: keyword)
    }

    /// `sizeof(T)` of a scalar, vector or byte type, at the cursor: its size in bytes as Metal
    /// lays it out (`float3` is 16), a `uint` constant on `sizeof`'s line.
    mutating func sizeofExpression() throws(ShaderSourceError) -> MetalExpr {
        let keyword = next()
        try expect("(", "after 'sizeof'")
        while isText("metal"), isText("::", 1) { i += 2 }
        guard let t = peek(), t.kind == .identifier, let pointee = MetalPointee.named(t.text), pointee != .void, isText(")", 1) else {
            throw unsupported("sizeof (only of a scalar or vector type: sizeof(float2))", keyword)
        }
        i += 2
        let number = MetalToken(
            kind: .number, text: "\(pointee.size)u", line: keyword.line, column: keyword.column,
            spaceBefore: keyword.spaceBefore)
        return try built(.number(number), above: 0, at: keyword)
    }
}

extension MetalPointee {
    /// Metal's size of one element in bytes (`float3` 16, `half3` 8).
    var size: Int {
        switch self {
        case .void: return 1
        case let .small(bytes, _, _): return bytes
        case let .value(t):
            let component = t.scalar == .half ? 2 : 4
            let n = t.width ?? 1
            return component * (n == 3 ? 4 : n)
        }
    }
}

// MARK: - Checking

extension MetalChecker {
    /// `(device const T *)e`: the same argument, read as `T`s.
    mutating func pointerCast(_ open: MetalToken, _ type: MetalTypeSyntax, _ close: MetalToken, _ operand: MetalExpr)
        throws(ShaderSourceError) -> Typed
    {
        let v = try expr(operand)
        guard case .pointer = v.type else {
            throw unsupported("cast of a '\(v.type.metal)' to a pointer (only pointers to array and data arguments can be cast)", open)
        }
        return Typed(type: try resolve(type), code: .wrapped("(", v.code, ")"))
    }

    /// `p[i]` or `*p`: element `i` of what `p` points at, through its reader (0 outside the argument).
    mutating func pointerRead(_ base: Typed, _ pointee: MetalPointee, index: Typed?, at token: MetalToken, close: MetalToken?)
        throws(ShaderSourceError) -> Typed
    {
        guard let type = pointee.valueType else {
            throw error("a 'device const void *' is read after a cast to a typed pointer: ((device const float *)p)[i]", token.line)
        }
        var pieces: [GLSLCode] = [base.code]
        if let index {
            guard let s = index.type.scalar, index.type.width == 1, s.isInteger || s == .bool else {
                throw error("an index must be an integer, got '\(index.type.metal)'", token.line)
            }
            let i = s == .int ? index : try convert(index, to: .int, context: "", explicit: true)
            pieces += [.token(",", token), i.code]
        } else {
            pieces.append(.text(", 0"))
        }
        prelude.requireReader(pointee)
        let code: GLSLCode = .sequence([.wrapped(pointee.reader + "(", .sequence(pieces), ""), close.map { .token(")", $0) } ?? .text(")")])
        return Typed(type: type, code: code)
    }
}

extension GLSLPrelude {
    /// Adds the reader of `pointee` (see `MetalPointee.readerDefinition`).
    mutating func requireReader(_ pointee: MetalPointee) {
        requireDefinition("read/" + pointee.spelling, pointee.readerDefinition)
    }
}
