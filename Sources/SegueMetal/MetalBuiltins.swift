// The Metal standard-library functions of the subset — the math, common, geometric and
// relational function lists of the Metal Shading Language Specification (§6.2–6.7) and most
// integer functions (§6.4) — as generic signatures over one type T (a scalar or vector of the
// call), and how each is written in GLSL 4.50: a GLSL function with the same meaning, a `_msl_`
// helper defined in the shader's prelude (MetalBuiltinHelpers.swift), or inline code.
//
// Overloads follow Metal: T is taken from the arguments (a vector argument fixes the width; every
// scalar argument is then converted to T's element type and replicated, as Metal's implicit
// scalar-to-vector conversion does in `mix(color, 0.0h, t)` or `distance(uv, 0.5h)`), and an
// integer argument of a floating-point function becomes a float.

/// A parameter of a generic built-in, in terms of the call's type T.
enum BuiltinParameter: Sendable {
    /// T.
    case t
    /// T's element type (a scalar).
    case scalar
    /// A `bool` of T's width.
    case bools
    /// An `int` of T's width.
    case ints
    /// A fixed type.
    case fixed(MetalType)
    /// An output reference of type T (`modf`, `sincos`).
    case outT
    /// An output reference of an `int` of T's width (`frexp`).
    case outInts
}

/// The result of a generic built-in.
enum BuiltinResult: Sendable {
    case t, scalar, bool, bools, ints
}

/// Which element types T may have.
enum BuiltinDomain: Sendable {
    /// `half` or `float` (integer arguments convert to `float`).
    case floating
    /// `int` or `uint`.
    case integer
    /// Floating when any T argument is, else integer (`abs`, `min`, `clamp`, …).
    case numeric
    /// `bool` (`all`, `any`, `not`).
    case boolean
    /// Any scalar type (`select`).
    case any
}

/// How a resolved call is written in GLSL.
enum BuiltinEmission: Sendable {
    /// A GLSL function of the same arguments.
    case glsl(String)
    /// A `_msl_` helper from `MetalBuiltinHelpers`.
    case helper(String)
    /// Inline code from the converted arguments and T.
    case inline(@Sendable (_ args: [GLSLCode], _ t: MetalType, _ callee: MetalToken, _ close: MetalToken) -> GLSLCode)
}

/// One overload of a built-in.
struct BuiltinFunction: Sendable {
    let parameters: [BuiltinParameter]
    let result: BuiltinResult
    let domain: BuiltinDomain
    /// Allowed widths of T (`cross` takes only 3-vectors).
    let widths: ClosedRange<Int>
    let emission: BuiltinEmission
}

/// The table.
enum MetalBuiltins {
    /// Overloads by Metal name.
    static let functions: [String: [BuiltinFunction]] = {
        var f: [String: [BuiltinFunction]] = [:]
        func add(
            _ names: [String], _ params: [BuiltinParameter], _ result: BuiltinResult, _ domain: BuiltinDomain,
            widths: ClosedRange<Int> = 1...4, _ emission: (String) -> BuiltinEmission
        ) {
            for n in names {
                f[n, default: []].append(
                    BuiltinFunction(parameters: params, result: result, domain: domain, widths: widths, emission: emission(n)))
            }
        }
        func same(_ n: String) -> BuiltinEmission { .glsl(n) }
        func glsl(_ g: String) -> (String) -> BuiltinEmission { { _ in .glsl(g) } }
        func helper(_ n: String) -> BuiltinEmission { .helper(n) }
        let t1: [BuiltinParameter] = [.t], t2: [BuiltinParameter] = [.t, .t], t3: [BuiltinParameter] = [.t, .t, .t]

        // Math functions (§6.5).
        add(
            [
                "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
                "exp", "exp2", "log", "log2", "sqrt", "floor", "ceil", "trunc",
            ], t1, .t, .floating, same)
        add(["rsqrt"], t1, .t, .floating, glsl("inversesqrt"))
        add(["rint"], t1, .t, .floating, glsl("roundEven"))
        add(["fabs"], t1, .t, .floating, glsl("abs"))
        add(["atan2"], t2, .t, .floating, glsl("atan"))
        add(["atan"], t2, .t, .floating, glsl("atan"))
        add(["pow", "powr"], t2, .t, .floating, glsl("pow"))
        add(["fmin"], t2, .t, .floating, glsl("min"))
        add(["fmax"], t2, .t, .floating, glsl("max"))
        add(["fma"], t3, .t, .floating, same)
        add(["round", "fract", "log10", "exp10", "sinpi", "cospi", "tanpi", "asinpi", "acospi", "atanpi"], t1, .t, .floating, helper)
        add(["fmod", "copysign", "fdim", "nextafter", "atan2pi"], t2, .t, .floating, helper)
        add(["fmin3"], t3, .t, .floating, { _ in nested("min") })
        add(["fmax3"], t3, .t, .floating, { _ in nested("max") })
        add(["fmedian3"], t3, .t, .floating, { _ in .helper("median3") })
        add(["ldexp"], [.t, .ints], .t, .floating, same)
        add(["frexp"], [.t, .outInts], .t, .floating, same)
        add(["modf"], [.t, .outT], .t, .floating, same)
        add(["sincos"], [.t, .outT], .t, .floating, helper)
        add(["ilogb"], t1, .ints, .floating, helper)
        add(
            ["divide"], t2, .t, .floating,
            { _ in
                .inline { a, _, callee, close in
                    .sequence([.token("(", callee), a[0], .text(" /"), a[1], .token(")", close)])
                }
            })

        // Common functions (§6.3) and the numeric ones shared with the integer functions.
        add(["mix", "smoothstep"], t3, .t, .floating, same)
        add(["step"], t2, .t, .floating, same)
        add(["sign"], t1, .t, .floating, same)
        add(["saturate"], t1, .t, .floating, helper)
        add(["clamp"], t3, .t, .numeric, same)
        add(["min", "max"], t2, .t, .numeric, same)
        add(
            ["abs"], t1, .t, .numeric,
            { _ in
                .inline { a, t, callee, close in
                    t.scalar == .uint
                        ? .sequence([.token("(", callee), a[0], .token(")", close)])
                        : .sequence([.token("abs(", callee), a[0], .token(")", close)])
                }
            })
        add(["min3"], t3, .t, .numeric, { _ in nested("min") })
        add(["max3"], t3, .t, .numeric, { _ in nested("max") })
        add(["median3"], t3, .t, .numeric, helper)

        // Geometric functions (§6.6).
        add(["dot", "distance"], t2, .scalar, .floating, same)
        add(["length"], t1, .scalar, .floating, same)
        add(["length_squared"], t1, .scalar, .floating, helper)
        add(["distance_squared"], t2, .scalar, .floating, helper)
        add(["normalize"], t1, .t, .floating, same)
        add(["reflect"], t2, .t, .floating, same)
        add(["faceforward"], t3, .t, .floating, same)
        add(["refract"], [.t, .t, .scalar], .t, .floating, same)
        add(["cross"], t2, .t, .floating, widths: 3...3, same)

        // Relational functions (§6.7).
        add(["isnan", "isinf"], t1, .bools, .floating, same)
        add(["isfinite", "isnormal", "signbit"], t1, .bools, .floating, helper)
        add(["isordered", "isunordered"], t2, .bools, .floating, helper)
        add(
            ["all", "any"], t1, .bool, .boolean,
            { n in
                .inline { a, t, callee, close in
                    t.width == 1
                        ? .sequence([.token("(", callee), a[0], .token(")", close)])
                        : .sequence([.token("\(n)(", callee), a[0], .token(")", close)])
                }
            })
        add(
            ["not"], t1, .bools, .boolean,
            { _ in
                .inline { a, t, callee, close in
                    t.width == 1
                        ? .sequence([.token("(!", callee), a[0], .token(")", close)])
                        : .sequence([.token("not(", callee), a[0], .token(")", close)])
                }
            })
        add(["select"], [.t, .t, .bools], .t, .any, glsl("mix"))

        // Integer functions (§6.4).
        add(["absdiff", "hadd", "rhadd", "rotate"], t2, .t, .integer, helper)
        add(["clz", "ctz"], t1, .t, .integer, helper)
        add(
            ["popcount"], t1, .t, .integer,
            { _ in
                .inline { a, t, callee, close in
                    .sequence([.token("\(t.glsl { $0 })(bitCount(", callee), a[0], .token("))", close)])
                }
            })
        add(["reverse_bits"], t1, .t, .integer, glsl("bitfieldReverse"))
        add(
            ["mul24"], t2, .t, .integer,
            { _ in
                .inline { a, _, callee, close in
                    .sequence([.token("(", callee), a[0], .text(" *"), a[1], .token(")", close)])
                }
            })
        add(
            ["mad24"], t3, .t, .integer,
            { _ in
                .inline { a, _, callee, close in
                    .sequence([.token("(", callee), a[0], .text(" *"), a[1], .text(" +"), a[2], .token(")", close)])
                }
            })
        add(["extract_bits"], [.t, .fixed(.int), .fixed(.int)], .t, .integer, glsl("bitfieldExtract"))
        add(["insert_bits"], [.t, .t, .fixed(.int), .fixed(.int)], .t, .integer, glsl("bitfieldInsert"))

        // Fragment derivatives.
        add(["dfdx"], t1, .t, .floating, glsl("dFdx"))
        add(["dfdy"], t1, .t, .floating, glsl("dFdy"))
        add(["fwidth"], t1, .t, .floating, same)
        return f
    }()

    /// `min(min(a, b), c)` for `min3`, and the like.
    private static func nested(_ f: String) -> BuiltinEmission {
        .inline { a, _, callee, close in
            .sequence([.token("\(f)(\(f)(", callee), a[0], .text(","), a[1], .text("),"), a[2], .token(")", close)])
        }
    }

    /// Matrix functions, resolved by the checker: `determinant` and `transpose`.
    static let matrixFunctions: Set<String> = ["determinant", "transpose"]

    /// Metal functions deliberately left out, with the reason given in the error.
    static let unsupported: [String: String] = [
        "addsat": "integer saturating arithmetic", "subsat": "integer saturating arithmetic",
        "madsat": "integer saturating arithmetic", "mulhi": "integer high-half multiplication",
        "madhi": "integer high-half multiplication", "as_type": "cast",
        "pack_float_to_unorm4x8": "pack/unpack function", "unpack_unorm4x8_to_float": "pack/unpack function",
        "pack_half_to_unorm4x8": "pack/unpack function", "unpack_unorm4x8_to_half": "pack/unpack function",
        "simd_broadcast": "SIMD-group function", "quad_broadcast": "SIMD-group function",
        "discard_fragment": "discard_fragment",
    ]

    /// Every name the table knows, for `Docs/StitchableShaders.md` and tests.
    static var names: [String] { (Array(functions.keys) + Array(matrixFunctions)).sorted() }
}
