// The part of the Metal Shading Language that stitchable shaders use, and its GLSL 4.50
// equivalents: types, standard-library functions, constants, and the words that are rejected
// with the reason. Reference: Metal Shading Language Specification (chapters 2, 6); SwiftUI's
// `Shader` documentation for the stitchable signatures.
import Foundation
import SegueCore

/// Lookup tables for `StitchableTranslator`.
enum MetalVocabulary {
    // MARK: - Types

    /// Metal scalar, vector and matrix types → GLSL types.
    static let types: [String: String] = {
        var t: [String: String] = ["float": "float", "half": "float", "int": "int", "uint": "uint", "bool": "bool",
                                   "void": "void", "unsigned": "uint"]
        for n in 2...4 {
            t["float\(n)"] = "vec\(n)"
            t["half\(n)"] = "vec\(n)"
            t["int\(n)"] = "ivec\(n)"
            t["uint\(n)"] = "uvec\(n)"
            t["bool\(n)"] = "bvec\(n)"
            for m in 2...4 {
                let glsl = n == m ? "mat\(n)" : "mat\(n)x\(m)"
                t["float\(n)x\(m)"] = glsl
                t["half\(n)x\(m)"] = glsl
            }
        }
        return t
    }()

    /// Parameter types of stitchable arguments (SwiftUI passes floats and half floats, scalars
    /// and 2-, 3-, 4-vectors; colours arrive as `half4`, bounding rectangles as `float4`).
    static let argumentTypes: [String: ParameterType] = [
        "float": .float, "half": .float,
        "float2": .vec2, "half2": .vec2, "float3": .vec3, "half3": .vec3, "float4": .vec4, "half4": .vec4,
    ]

    // MARK: - Functions

    /// Metal standard-library functions → GLSL functions (same arguments, same meaning).
    /// `_msl_` names are defined in `preludeGLSL`.
    static let functions: [String: String] = {
        var f: [String: String] = [:]
        for same in ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
                     "exp", "exp2", "log", "log2", "pow", "sqrt", "abs", "min", "max", "clamp", "mix", "step",
                     "smoothstep", "sign", "fract", "floor", "ceil", "round", "trunc", "length", "distance", "dot",
                     "cross", "normalize", "reflect", "refract", "faceforward", "fma", "isnan", "isinf", "all", "any",
                     "determinant", "transpose", "fwidth"] {
            f[same] = same
        }
        f["atan2"] = "atan"            // atan2(y, x) is GLSL's two-argument atan(y, x)
        f["fabs"] = "abs"
        f["fmin"] = "min"
        f["fmax"] = "max"
        f["rsqrt"] = "inversesqrt"
        f["powr"] = "pow"
        f["rint"] = "roundEven"
        f["dfdx"] = "dFdx"
        f["dfdy"] = "dFdy"
        f["select"] = "mix"            // select(a, b, c) = c ? b : a = GLSL mix(a, b, bool c)
        for helper in ["saturate", "fmod", "log10", "exp10", "length_squared", "distance_squared", "copysign"] {
            f[helper] = "_msl_" + helper
        }
        return f
    }()

    /// Definitions of the `_msl_` helpers for float and vec2–vec4 (C semantics for `fmod`:
    /// the result has the sign of `x`, unlike GLSL's `mod`).
    static let preludeGLSL: String = {
        var s = "// Metal standard-library functions without a GLSL equivalent of the same name.\n"
        for t in ["float", "vec2", "vec3", "vec4"] {
            s += "\(t) _msl_saturate(\(t) x) { return clamp(x, 0.0, 1.0); }\n"
            s += "\(t) _msl_fmod(\(t) x, \(t) y) { return x - y * trunc(x / y); }\n"
            s += "\(t) _msl_log10(\(t) x) { return log2(x) * 0.30102999566398119521; }\n"
            s += "\(t) _msl_exp10(\(t) x) { return exp2(x * 3.32192809488736234787); }\n"
            s += "float _msl_length_squared(\(t) x) { return dot(x, x); }\n"
            s += "float _msl_distance_squared(\(t) x, \(t) y) { return dot(x - y, x - y); }\n"
        }
        s += "float _msl_copysign(float x, float y) { return y < 0.0 ? -abs(x) : abs(x); }\n"
        for t in ["vec2", "vec3", "vec4"] {
            s += "\(t) _msl_copysign(\(t) x, \(t) y) { return mix(abs(x), -abs(x), lessThan(y, \(t)(0.0))); }\n"
            s += "\(t) _msl_fmod(\(t) x, float y) { return _msl_fmod(x, \(t)(y)); }\n"
        }
        return s
    }()

    // MARK: - Constants

    /// Metal's math constants (`<metal_math>`), float and half spellings.
    static let constants: [String: String] = {
        let values: [String: String] = [
            "M_E": "2.71828182845904523536", "M_LOG2E": "1.44269504088896340736", "M_LOG10E": "0.43429448190325182765",
            "M_LN2": "0.69314718055994530942", "M_LN10": "2.30258509299404568402", "M_PI": "3.14159265358979323846",
            "M_PI_2": "1.57079632679489661923", "M_PI_4": "0.78539816339744830962", "M_1_PI": "0.31830988618379067154",
            "M_2_PI": "0.63661977236758134308", "M_2_SQRTPI": "1.12837916709551257390",
            "M_SQRT2": "1.41421356237309504880", "M_SQRT1_2": "0.70710678118654752440",
        ]
        var c: [String: String] = ["MAXFLOAT": "3.402823466e+38", "FLT_MAX": "3.402823466e+38", "HALF_MAX": "65504.0",
                                   "FLT_EPSILON": "1.1920928955e-7"]
        for (k, v) in values { c[k + "_F"] = v; c[k + "_H"] = v }
        return c
    }()

    // MARK: - Rejected words

    /// Words that are valid Metal but outside the subset, with the name of the construct.
    static let rejected: [String: String] = [
        "device": "address space", "constant": "address space", "threadgroup": "address space",
        "threadgroup_imageblock": "address space", "ray_data": "address space", "object_data": "address space",
        "struct": "struct", "class": "class", "union": "union", "enum": "enum", "typedef": "typedef",
        "template": "template", "typename": "template", "namespace": "namespace", "operator": "operator overloading",
        "static_cast": "cast", "reinterpret_cast": "cast", "const_cast": "cast", "dynamic_cast": "cast", "as_type": "cast",
        "sizeof": "sizeof", "alignof": "alignof", "auto": "auto type", "decltype": "decltype", "new": "new", "delete": "delete",
        "goto": "goto", "this": "this", "virtual": "virtual function", "public": "access specifier",
        "private": "access specifier", "protected": "access specifier", "friend": "friend", "mutable": "mutable",
        "texture1d": "texture type", "texture2d": "texture type", "texture3d": "texture type", "texturecube": "texture type",
        "texture2d_array": "texture type", "depth2d": "texture type", "sampler": "sampler type", "packed_float2": "packed type",
        "packed_float3": "packed type", "packed_float4": "packed type", "packed_half2": "packed type",
        "packed_half3": "packed type", "packed_half4": "packed type", "short": "short type", "ushort": "short type",
        "char": "char type", "uchar": "char type", "long": "long type", "ulong": "long type", "double": "double type",
        "bfloat": "bfloat type", "size_t": "size_t type", "ptrdiff_t": "ptrdiff_t type", "atomic_int": "atomic type",
        "atomic_uint": "atomic type", "sincos": "function with an output reference ('sincos')",
        "discard_fragment": "discard_fragment", "threadgroup_barrier": "barrier", "simd_sum": "SIMD-group function",
        "quad_shuffle": "SIMD-group function", "visible_function_table": "function table", "intersector": "ray tracing",
        "imageblock": "imageblock", "extern": "extern", "thread_local": "thread_local", "asm": "asm",
        "try": "exception", "catch": "exception", "throw": "exception", "nullptr": "pointer",
        "static_assert": "static_assert", "using": "using declaration in a function",
    ]

    /// Metal's template types; rejected when followed by `<`, ordinary names otherwise.
    static let templateTypes: Set<String> = ["vec", "matrix", "array", "packed_vec", "array_ref"]

    /// Statement keywords that are the same in GLSL.
    static let keywords: Set<String> = ["if", "else", "for", "while", "do", "return", "break", "continue", "switch",
                                        "case", "default", "true", "false", "const"]

    // MARK: - GLSL reserved names

    /// Identifiers that are legal in Metal but reserved (or taken by Segue's template) in GLSL;
    /// user names among them are renamed with a `_v_` prefix.
    static func isReservedInGLSL(_ name: String) -> Bool {
        if reservedGLSL.contains(name) || name.hasPrefix("gl_") || name.hasPrefix("_segue") || name.hasPrefix("_msl_") { return true }
        for prefix in ["sampler", "isampler", "usampler", "image", "iimage", "uimage", "texture", "itexture", "utexture",
                       "subpassInput", "isubpassInput", "usubpassInput"] where name.hasPrefix(prefix) { return true }
        if name.range(of: #"^[iubdhf]?vec[234]$|^d?mat[234](x[234])?$"#, options: .regularExpression) != nil { return true }
        return false
    }

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
