// GLSL definitions of the Metal library functions that GLSL lacks (`_msl_` helpers), written for
// the exact types a shader calls them with, and the texture sampler that gives `texture2d::sample`
// Metal's sampler states. Semantics follow the Metal Shading Language Specification where GLSL
// differs: `fmod` has the sign of x (C), `round` rounds halves away from zero, `fract` is below 1,
// `clz`/`ctz` of 0 are 32.
import SegueSystem

/// The helper definitions a translated file needs, in dependency order.
struct GLSLPrelude: Sendable, Equatable {
    private(set) var keys: [String] = []
    private var definitions: [String: String] = [:]

    /// The definitions, one per line.
    var text: String { keys.map { definitions[$0]! }.joined(separator: "\n") + (keys.isEmpty ? "" : "\n") }

    /// Adds the helper `_msl_<name>` for type `t` (and what it uses).
    mutating func require(_ name: String, _ t: MetalType) {
        let key = "\(name)/\(t.glsl { $0 })"
        guard definitions[key] == nil else { return }
        guard let template = Self.templates[name] else { preconditionFailure("no helper template for \(name)") }
        let n = t.width ?? 1
        // A vector version may call the scalar one (`$EACH`).
        for (dependency, scalar) in template.dependencies where n > 1 {
            require(dependency, scalar ? .scalar(t.scalar!) : t)
        }
        let source = n == 1 ? template.scalar : (template.vector ?? template.scalar)
        var s = source
        let components = ["x", "y", "z", "w"].prefix(n)
        let elementwise = components.map { "_msl_\(name)(x.\($0), y.\($0))" }.joined(separator: ", ")
        for (k, v) in [
            ("$T", t.glsl { $0 }), ("$S", MetalType.scalar(t.scalar!).glsl { $0 }), ("$B", MetalType.of(.bool, n).glsl { $0 }),
            ("$I", MetalType.of(.int, n).glsl { $0 }), ("$U", MetalType.of(.uint, n).glsl { $0 }), ("$EACH", elementwise),
        ] {
            s = s.replacingAll(k, with: v)
        }
        keys.append(key)
        definitions[key] = s
    }

    /// Adds a definition under `key`, once.
    mutating func requireDefinition(_ key: String, _ definition: String) {
        guard definitions[key] == nil else { return }
        keys.append(key)
        definitions[key] = definition
    }

    /// Adds Segue's texture sampler (`texture2d::sample` with a Metal sampler state).
    mutating func requireTextureSampler() {
        guard definitions["texSample"] == nil else { return }
        keys.append("texSample")
        definitions["texSample"] = Self.textureSampler
    }

    private struct Template {
        var scalar: String
        var vector: String?
        /// Helpers its vector version calls: (name, whether the scalar version).
        var dependencies: [(String, Bool)] = []
    }

    private static let templates: [String: Template] = [
        "saturate": Template(scalar: "$T _msl_saturate($T x) { return clamp(x, $T(0.0), $T(1.0)); }"),
        "fmod": Template(scalar: "$T _msl_fmod($T x, $T y) { return x - y * trunc(x / y); }"),
        "round": Template(scalar: "$T _msl_round($T x) { $T t = trunc(x); return t + sign(x) * step($T(0.5), abs(x - t)); }"),
        "fract": Template(scalar: "$T _msl_fract($T x) { return min(fract(x), $T(0.99999994)); }"),
        "log10": Template(scalar: "$T _msl_log10($T x) { return log2(x) * 0.30102999566398119521; }"),
        "exp10": Template(scalar: "$T _msl_exp10($T x) { return exp2(x * 3.32192809488736234787); }"),
        "sinpi": Template(scalar: "$T _msl_sinpi($T x) { return sin(x * 3.14159265358979323846); }"),
        "cospi": Template(scalar: "$T _msl_cospi($T x) { return cos(x * 3.14159265358979323846); }"),
        "tanpi": Template(scalar: "$T _msl_tanpi($T x) { return tan(x * 3.14159265358979323846); }"),
        "asinpi": Template(scalar: "$T _msl_asinpi($T x) { return asin(x) * 0.31830988618379067154; }"),
        "acospi": Template(scalar: "$T _msl_acospi($T x) { return acos(x) * 0.31830988618379067154; }"),
        "atanpi": Template(scalar: "$T _msl_atanpi($T x) { return atan(x) * 0.31830988618379067154; }"),
        "atan2pi": Template(scalar: "$T _msl_atan2pi($T y, $T x) { return atan(y, x) * 0.31830988618379067154; }"),
        "copysign": Template(
            scalar:
                "$T _msl_copysign($T x, $T y) { return intBitsToFloat((floatBitsToInt(x) & 0x7FFFFFFF) | (floatBitsToInt(y) & ~0x7FFFFFFF)); }"
        ),
        "fdim": Template(scalar: "$T _msl_fdim($T x, $T y) { return max(x - y, $T(0.0)); }"),
        "nextafter": Template(
            scalar: "float _msl_nextafter(float x, float y) { if (isnan(x) || isnan(y)) return x + y; if (x == y) return y; "
                + "if (x == 0.0) return y > 0.0 ? intBitsToFloat(1) : -intBitsToFloat(1); int b = floatBitsToInt(x); "
                + "return intBitsToFloat((y > x) == (x > 0.0) ? b + 1 : b - 1); }",
            vector: "$T _msl_nextafter($T x, $T y) { return $T($EACH); }", dependencies: [("nextafter", true)]),
        "median3": Template(scalar: "$T _msl_median3($T a, $T b, $T c) { return max(min(a, b), min(max(a, b), c)); }"),
        "sincos": Template(scalar: "$T _msl_sincos($T x, out $T c) { c = cos(x); return sin(x); }"),
        "ilogb": Template(scalar: "$I _msl_ilogb($T x) { $I e; frexp(x, e); return e - 1; }"),
        "length_squared": Template(scalar: "$S _msl_length_squared($T x) { return dot(x, x); }"),
        "distance_squared": Template(scalar: "$S _msl_distance_squared($T x, $T y) { return dot(x - y, x - y); }"),
        "isfinite": Template(
            scalar: "bool _msl_isfinite(float x) { return abs(x) <= 3.402823466e+38; }",
            vector: "$B _msl_isfinite($T x) { return lessThanEqual(abs(x), $T(3.402823466e+38)); }"),
        "isnormal": Template(
            scalar: "bool _msl_isnormal(float x) { return abs(x) >= 1.175494351e-38 && abs(x) <= 3.402823466e+38; }",
            vector:
                "$B _msl_isnormal($T x) { return equal($I(greaterThanEqual(abs(x), $T(1.175494351e-38))) * $I(lessThanEqual(abs(x), $T(3.402823466e+38))), $I(1)); }"
        ),
        "signbit": Template(
            scalar: "bool _msl_signbit(float x) { return floatBitsToInt(x) < 0; }",
            vector: "$B _msl_signbit($T x) { return lessThan(floatBitsToInt(x), $I(0)); }"),
        "isordered": Template(
            scalar: "bool _msl_isordered(float x, float y) { return !isnan(x) && !isnan(y); }",
            vector: "$B _msl_isordered($T x, $T y) { return equal($I(isnan(x)) + $I(isnan(y)), $I(0)); }"),
        "isunordered": Template(
            scalar: "bool _msl_isunordered(float x, float y) { return isnan(x) || isnan(y); }",
            vector: "$B _msl_isunordered($T x, $T y) { return notEqual($I(isnan(x)) + $I(isnan(y)), $I(0)); }"),
        "absdiff": Template(scalar: "$T _msl_absdiff($T x, $T y) { return max(x, y) - min(x, y); }"),
        "hadd": Template(scalar: "$T _msl_hadd($T x, $T y) { return (x >> 1) + (y >> 1) + (x & y & $T(1)); }"),
        "rhadd": Template(scalar: "$T _msl_rhadd($T x, $T y) { return (x >> 1) + (y >> 1) + ((x | y) & $T(1)); }"),
        "rotate": Template(
            scalar:
                "$T _msl_rotate($T v, $T i) { $U u = $U(v); $U s = $U(i) & $U(31); return $T((u << s) | (u >> (($U(32) - s) & $U(31)))); }"),
        "clz": Template(
            scalar: "$T _msl_clz($T x) { return $T(31 - findMSB($U(x))); }",
            vector: "$T _msl_clz($T x) { return $T($I(31) - findMSB($U(x))); }"),
        "ctz": Template(
            scalar: "$T _msl_ctz($T x) { int l = findLSB(x); return $T(l < 0 ? 32 : l); }",
            vector: "$T _msl_ctz($T x) { $I l = findLSB(x); return $T(mix(l, $I(32), lessThan(l, $I(0)))); }"),
    ]

    /// Names of the helpers, for tests.
    static var helperNames: [String] { templates.keys.sorted() }

    /// `_segue_texSample(texture, sampler, coord)`: a Metal sampler state as `ivec4(coord mode,
    /// s address, t address, filter | border << 1)`, applied with texel fetches so every address
    /// mode and filter is exact (bilinear weights in float).
    static let textureSampler = """
        vec4 _segue_texel(sampler2D t, ivec4 s, ivec2 p, ivec2 n) {
            for (int a = 0; a < 2; a++) {
                int m = a == 0 ? s.y : s.z, c = p[a], k = n[a];
                if (m == 1) { c = ((c % k) + k) % k; }
                else if (m == 2) { int r = ((c % (2 * k)) + 2 * k) % (2 * k); c = r < k ? r : 2 * k - 1 - r; }
                else if (m >= 3) { if (c < 0 || c >= k) { int b = s.w >> 1; return b == 0 ? vec4(0.0) : (b == 1 ? vec4(0.0, 0.0, 0.0, 1.0) : vec4(1.0)); } }
                else { c = clamp(c, 0, k - 1); }
                p[a] = c;
            }
            return texelFetch(t, p, 0);
        }
        vec4 _segue_texSample(sampler2D t, ivec4 s, vec2 coord) {
            ivec2 n = textureSize(t, 0);
            vec2 p = s.x == 1 ? coord : coord * vec2(n);
            if ((s.w & 1) == 0) return _segue_texel(t, s, ivec2(floor(p)), n);
            p -= 0.5;
            vec2 f0 = floor(p), f = p - f0;
            ivec2 i = ivec2(f0);
            return mix(mix(_segue_texel(t, s, i, n), _segue_texel(t, s, i + ivec2(1, 0), n), f.x),
                       mix(_segue_texel(t, s, i + ivec2(0, 1), n), _segue_texel(t, s, i + ivec2(1, 1), n), f.x), f.y);
        }
        """
}
