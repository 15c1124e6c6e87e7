import SegueCore

// The part of the Metal Shading Language that stitchable shaders use, and its GLSL 4.50
// equivalents: types, standard-library functions, constants, and the words that are rejected
// with the reason. Reference: Metal Shading Language Specification (chapters 2, 6); SwiftUI's
// `Shader` documentation for the stitchable signatures.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lookup tables for the Metal front end.
enum MetalVocabulary {
    // MARK: - Constants

    /// Metal's math constants (`<metal_math>`), float and half spellings: GLSL text and value.
    static let constants: [String: (text: String, value: Double?)] = {
        let values: [String: String] = [
            "M_E": "2.71828182845904523536", "M_LOG2E": "1.44269504088896340736", "M_LOG10E": "0.43429448190325182765",
            "M_LN2": "0.69314718055994530942", "M_LN10": "2.30258509299404568402", "M_PI": "3.14159265358979323846",
            "M_PI_2": "1.57079632679489661923", "M_PI_4": "0.78539816339744830962", "M_1_PI": "0.31830988618379067154",
            "M_2_PI": "0.63661977236758134308", "M_2_SQRTPI": "1.12837916709551257390",
            "M_SQRT2": "1.41421356237309504880", "M_SQRT1_2": "0.70710678118654752440",
        ]
        var c: [String: (text: String, value: Double?)] = [
            "MAXFLOAT": ("3.402823466e+38", 3.402823466e+38), "FLT_MAX": ("3.402823466e+38", 3.402823466e+38),
            "FLT_MIN": ("1.175494351e-38", 1.175494351e-38), "FLT_EPSILON": ("1.1920928955e-7", 1.1920928955e-7),
            "HALF_MAX": ("65504.0", 65504), "HALF_MIN": ("6.103515625e-05", 6.103515625e-05),
            "HALF_EPSILON": ("0.0009765625", 0.0009765625),
            "INFINITY": ("uintBitsToFloat(0x7F800000u)", nil), "HUGE_VALF": ("uintBitsToFloat(0x7F800000u)", nil),
            "NAN": ("uintBitsToFloat(0x7FC00000u)", nil),
        ]
        for (k, v) in values { c[k + "_F"] = (v, Double(v)); c[k + "_H"] = (v, Double(v)) }
        return c
    }()

    /// Integer limits.
    static let integerConstants: [String: (type: MetalType, text: String, value: Double)] = [
        "INT_MAX": (.int, "2147483647", 2_147_483_647), "INT_MIN": (.int, "(-2147483647 - 1)", -2_147_483_648),
        "UINT_MAX": (.uint, "4294967295u", 4_294_967_295),
    ]

    // MARK: - Rejected words

    /// Words that are valid Metal but outside the subset, with the name of the construct (and
    /// the vectors of the types without a GLSL equivalent: `short2`, `uchar4`, `double3`, …).
    static let rejected: [String: String] = rejectedWords.merging(
        ["short", "ushort", "char", "uchar", "long", "ulong", "double", "bfloat"].flatMap { base in
            (2...4).map { ("\(base)\($0)", "\(base.hasPrefix("u") ? String(base.dropFirst()) : base) vector type") }
        }, uniquingKeysWith: { a, _ in a })

    private static let rejectedWords: [String: String] = [
        "device": "address space", "constant": "address space", "threadgroup": "address space",
        "threadgroup_imageblock": "address space", "ray_data": "address space", "object_data": "address space",
        "class": "class", "union": "union", "enum": "enum", "typedef": "typedef",
        "template": "template", "typename": "template", "namespace": "namespace", "operator": "operator overloading",
        "static_cast": "cast", "reinterpret_cast": "cast", "const_cast": "cast", "dynamic_cast": "cast", "as_type": "cast",
        "sizeof": "sizeof", "alignof": "alignof", "auto": "auto type", "decltype": "decltype", "new": "new", "delete": "delete",
        "goto": "goto", "this": "this", "virtual": "virtual function", "public": "access specifier",
        "private": "access specifier", "protected": "access specifier", "friend": "friend", "mutable": "mutable",
        "texture1d": "texture type", "texture3d": "texture type", "texturecube": "texture type",
        "texture2d_array": "texture type", "depth2d": "texture type", "packed_float2": "packed type",
        "packed_float3": "packed type", "packed_float4": "packed type", "packed_half2": "packed type",
        "packed_half3": "packed type", "packed_half4": "packed type", "short": "short type", "ushort": "short type",
        "char": "char type", "uchar": "char type", "long": "long type", "ulong": "long type", "double": "double type",
        "bfloat": "bfloat type", "size_t": "size_t type", "ptrdiff_t": "ptrdiff_t type", "atomic_int": "atomic type",
        "atomic_uint": "atomic type",
        "discard_fragment": "discard_fragment", "threadgroup_barrier": "barrier", "simd_sum": "SIMD-group function",
        "quad_shuffle": "SIMD-group function", "visible_function_table": "function table", "intersector": "ray tracing",
        "imageblock": "imageblock", "extern": "extern", "thread_local": "thread_local", "asm": "asm",
        "try": "exception", "catch": "exception", "throw": "exception", "nullptr": "pointer",
        "static_assert": "static_assert", "using": "using declaration in a function",
    ]

    /// Metal's template types; rejected when followed by `<`, ordinary names otherwise.
    static let templateTypes: Set<String> = ["vec", "matrix", "array", "packed_vec", "array_ref"]

    /// Statement keywords that are the same in GLSL.
    static let keywords: Set<String> = [
        "if", "else", "for", "while", "do", "return", "break", "continue", "switch",
        "case", "default", "true", "false", "const",
    ]

    // MARK: - GLSL reserved names

    /// Identifiers that are legal in Metal but reserved (or taken by Segue's template) in GLSL;
    /// user names among them are renamed with a `_v_` prefix.
    static func isReservedInGLSL(_ name: String) -> Bool {
        if reservedGLSL.contains(name) || glslFunctions.contains(name) || name.hasPrefix("gl_") || name.hasPrefix("_segue")
            || name.hasPrefix("_msl_")
        {
            return true
        }
        // The prefixes of the translator's own names: `_v_input` must not meet `input` renamed,
        // nor a variable `_m_g` the function `g`.
        if name.hasPrefix("_v_") || name.hasPrefix("_m_") { return true }
        for prefix in [
            "sampler", "isampler", "usampler", "image", "iimage", "uimage", "texture", "itexture", "utexture",
            "subpassInput", "isubpassInput", "usubpassInput",
        ] where name.hasPrefix(prefix) { return true }
        return isVectorOrMatrixName(name)
    }

    /// Whether `name` is a GLSL vector or matrix type (`[iubdhf]?vec[234]`, `d?mat[234](x[234])?`).
    static func isVectorOrMatrixName(_ name: String) -> Bool {
        let size: Set<Character> = ["2", "3", "4"]
        var rest = Substring(name)
        if let first = rest.first, "iubdhf".contains(first), rest.dropFirst().hasPrefix("vec") { rest = rest.dropFirst() }
        if rest.hasPrefix("vec") { return rest.count == 4 && size.contains(rest.last!) }
        rest = Substring(name)
        if rest.hasPrefix("d") { rest = rest.dropFirst() }
        guard rest.hasPrefix("mat") else { return false }
        let tail = Array(rest.dropFirst(3))
        return (tail.count == 1 && size.contains(tail[0]))
            || (tail.count == 3 && size.contains(tail[0]) && tail[1] == "x" && size.contains(tail[2]))
    }

    /// GLSL library functions: a variable of the same name would hide them from the generated code.
    private static let glslFunctions: Set<String> = [
        "abs", "acos", "acosh", "all", "any", "asin", "asinh", "atan", "atanh", "bitCount", "bitfieldExtract",
        "bitfieldInsert", "bitfieldReverse", "ceil", "clamp", "cos", "cosh", "cross", "dFdx", "dFdy", "degrees",
        "determinant", "distance", "dot", "equal", "exp", "exp2", "faceforward", "findLSB", "findMSB", "floatBitsToInt",
        "floatBitsToUint", "floor", "fma", "fract", "frexp", "fwidth", "greaterThan", "greaterThanEqual", "intBitsToFloat",
        "inverse", "inversesqrt", "isinf", "isnan", "ldexp", "length", "lessThan", "lessThanEqual", "log", "log2",
        "matrixCompMult", "max", "min", "mix", "mod", "modf", "normalize", "not", "notEqual", "outerProduct", "pow",
        "radians", "reflect", "refract", "round", "roundEven", "sign", "sin", "sinh", "smoothstep", "sqrt", "step", "tan",
        "tanh", "texelFetch", "texture", "textureSize", "transpose", "trunc", "uintBitsToFloat", "uaddCarry", "umulExtended",
    ]

    private static let reservedGLSL: Set<String> = [
        "attribute", "const", "uniform", "varying", "buffer", "shared", "coherent", "volatile", "restrict", "readonly",
        "writeonly", "layout", "centroid", "flat", "smooth", "noperspective", "patch", "sample", "subroutine", "in",
        "out", "inout", "invariant", "precise", "discard", "lowp", "mediump", "highp", "precision", "struct", "common",
        "partition", "active", "asm", "class", "union", "enum", "typedef", "template", "this", "resource", "goto",
        "inline", "noinline", "public", "static", "extern", "external", "interface", "long", "short", "half", "fixed",
        "unsigned", "superp", "input", "output", "filter", "sizeof", "cast", "namespace", "using", "double", "uint",
        "atomic_uint", "main", "progress", "ratio", "getFromColor", "getToColor", "transition", "segueOutColor",
        "vUV", "demote", "float", "int", "bool", "void",
    ]
}
