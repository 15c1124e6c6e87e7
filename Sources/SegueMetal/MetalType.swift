// The types of the Metal subset that stitchable shaders use, with Metal's implicit conversion
// rules (Metal Shading Language Specification §2.12 "Type conversions"; C++ usual arithmetic
// conversions for scalars) and their GLSL 4.50 spellings. `half` is computed as `float` in GLSL,
// so the two are interchangeable here wherever Metal allows a conversion between them.

/// A scalar element type.
enum MetalScalar: String, Sendable, Hashable, CaseIterable {
    case bool, int, uint, half, float

    /// Rank in the usual arithmetic conversions: the operand of lower rank converts to the higher.
    var rank: Int {
        switch self {
        case .bool: 0
        case .int: 1
        case .uint: 2
        case .half: 3
        case .float: 4
        }
    }

    /// `half` or `float`.
    var isFloating: Bool { self == .half || self == .float }
    /// `int` or `uint`.
    var isInteger: Bool { self == .int || self == .uint }

    /// The GLSL scalar type.
    var glsl: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .uint: "uint"
        case .half, .float: "float"
        }
    }

    /// The GLSL vector type prefix (`vec`, `ivec`, `uvec`, `bvec`): the scalar's initial, but for floats.
    var glslVectorPrefix: String { (isFloating ? "" : String(glsl.prefix(1))) + "vec" }

    /// The common type of two scalars under the usual arithmetic conversions (`bool` takes part
    /// as an integer, so two bools make an `int`).
    static func common(_ a: MetalScalar, _ b: MetalScalar) -> MetalScalar {
        let c = a.rank >= b.rank ? a : b
        return c == .bool ? .int : c
    }
}

/// A type of the subset.
indirect enum MetalType: Sendable, Hashable {
    case void
    case scalar(MetalScalar)
    case vector(MetalScalar, Int)
    /// `floatCxR`: C columns of R rows.
    case matrix(MetalScalar, columns: Int, rows: Int)
    /// A helper struct declared in the file.
    case structure(String)
    /// A C array of a fixed length.
    case array(MetalType, Int)
    /// `SwiftUI::Layer`.
    case layer
    /// `texture2d<half>` or `texture2d<float>` (sampled through a `sampler`).
    case texture(MetalScalar)
    /// A `constexpr sampler`.
    case sampler
    /// `device const T *`: a pointer into an array or data argument (in GLSL the argument's index;
    /// see MetalPointer.swift).
    case pointer(MetalPointee)

    /// Whether it is a pointer.
    var isPointer: Bool { if case .pointer = self { return true }; return false }

    static let float = MetalType.scalar(.float)
    static let half = MetalType.scalar(.half)
    static let int = MetalType.scalar(.int)
    static let uint = MetalType.scalar(.uint)
    static let bool = MetalType.scalar(.bool)

    /// A scalar (n = 1) or a vector of `n` components.
    static func of(_ s: MetalScalar, _ n: Int) -> MetalType { n == 1 ? .scalar(s) : .vector(s, n) }

    /// The element type of a scalar, vector or matrix.
    var scalar: MetalScalar? {
        switch self {
        case let .scalar(s), let .vector(s, _), let .matrix(s, _, _): s
        default: nil
        }
    }

    /// 1 for a scalar, n for a vector, nil otherwise.
    var width: Int? {
        switch self {
        case .scalar: 1
        case let .vector(_, n): n
        default: nil
        }
    }

    /// A scalar or a vector.
    var isScalarOrVector: Bool { width != nil }

    /// The same shape with another element type.
    func with(_ s: MetalScalar) -> MetalType {
        switch self {
        case .scalar: .scalar(s)
        case let .vector(_, n): .vector(s, n)
        case let .matrix(_, c, r): .matrix(s, columns: c, rows: r)
        default: self
        }
    }

    /// The spelling in Metal, for messages.
    var metal: String {
        switch self {
        case .void: "void"
        case let .scalar(s): s.rawValue
        case let .vector(s, n): "\(s.rawValue)\(n)"
        case let .matrix(s, c, r): "\(s.rawValue)\(c)x\(r)"
        case let .structure(name): name
        case let .array(t, n): "\(t.metal)[\(n)]"
        case .layer: "SwiftUI::Layer"
        case let .texture(s): "texture2d<\(s.rawValue)>"
        case .sampler: "sampler"
        case let .pointer(p): "device const \(p.spelling) *"
        }
    }

    /// The GLSL type (struct names through `structName`); an array is its element type (the
    /// size goes after the declared name, see `glslArraySuffix`).
    func glsl(_ structName: (String) -> String) -> String {
        switch self {
        case .void: "void"
        case let .scalar(s): s.glsl
        case let .vector(s, n): "\(s.glslVectorPrefix)\(n)"
        case let .matrix(_, c, r): c == r ? "mat\(c)" : "mat\(c)x\(r)"
        case let .structure(name): structName(name)
        case let .array(t, _): t.glsl(structName)
        case .layer: "int"
        case .texture: "sampler2D"
        case .sampler: "ivec4"
        case .pointer: "int"
        }
    }

    /// `[3]` (`[3][2]` …) for an array, empty otherwise.
    var glslArraySuffix: String {
        if case let .array(t, n) = self { return "[\(n)]" + t.glslArraySuffix }
        return ""
    }

    /// The GLSL spelling of the type as a constructor: `float[3]` for an array.
    func glslConstructor(_ structName: (String) -> String) -> String { glsl(structName) + glslArraySuffix }

    /// Whether a value of this type may be copied, compared and assigned in GLSL (not a
    /// texture or layer handle).
    var isValue: Bool {
        switch self {
        case .texture, .layer, .void: false
        default: true
        }
    }
}

// MARK: - Named types

extension MetalType {
    /// Metal's built-in scalar, vector and matrix type names.
    static let named: [String: MetalType] = {
        var t: [String: MetalType] = ["void": .void, "unsigned": .uint]
        for s in MetalScalar.allCases {
            t[s.rawValue] = .scalar(s)
            for n in 2...4 {
                t["\(s.rawValue)\(n)"] = .vector(s, n)
                if s.isFloating {
                    for r in 2...4 { t["\(s.rawValue)\(n)x\(r)"] = .matrix(s, columns: n, rows: r) }
                }
            }
        }
        return t
    }()
}
