// SwiftUI's array and data arguments in the Metal front end: `device const T *` parameters with
// their `int` counts become one stitchable argument each; reads through pointers (`p[i]`, `*p`,
// casts, helpers and locals taking pointers, `sizeof`) become calls of bounds-checked readers;
// what GLSL cannot do with them (arithmetic, writes, other pointees) is refused with its line.
import SegueCore
import Testing

@testable import SegueMetal

/// A colour function with `signature` after `half4 c` on line 4 and `body` on line 5.
private func colour(_ body: String, signature: String = "device const float *values, int count") -> String {
    prologue + "struct S { float a; };\n[[ stitchable ]] half4 f(float2 p, half4 c,\n    \(signature)) {\n    \(body)\n}\n"
}

@Suite("Metal front end: array and data arguments")
struct MetalPointerTests {
    @Test("each pointer-and-count pair is one argument of its SwiftUI type")
    func signatures() throws {
        let module = try MetalTranslator.translate(
            prologue + """
                [[ stitchable ]] half4 f(float2 position, float4 bounds, device const float *values, int count,
                                         const device half4 *colors, int n, device const void *bytes, int size, float amount) {
                    return half4(values[0] + colors[1].r + ((device const uchar *)bytes)[2] + amount);
                }
                """, file: "a.metal")
        let args = try #require(module.functions.first).arguments
        #expect(args.map(\.name) == ["bounds", "values", "colors", "bytes", "amount"])
        #expect(args.map(\.type) == [.vec4, .floatArray, .colorArray, .data, .float])
        #expect(args.map(\.countName) == [nil, "count", "n", "size", nil])
        #expect(args[1].declaration == "device const float *values, int count")
        #expect(args[1].effectiveDefault == ParameterValue(.floatArray, []))
        #expect(
            line(3, of: module.glsl)
                == "vec4 _m_f(vec2 position, vec4 bounds, int values, int count, int colors, int n, int bytes, int size, float amount)")
        #expect(
            line(5, of: module.glsl)
                == "    return vec4(_segue_read_float(values,0) + _segue_read_half4(colors,1).r + float(_segue_read_uchar(((bytes)),2)) + amount);"
        )
        #expect(module.prelude.contains("float _segue_read_float(int b, int i) { return uintBitsToFloat(_segue_word(b, i)); }"))
    }

    @Test("helpers and locals take pointers; *p reads the first element; sizeof gives Metal's sizes")
    func helpersAndLocals() throws {
        let module = try MetalTranslator.translate(
            prologue + """
                float at(device const float *v, int n, int i) { return i < n ? v[i] : 0; }
                [[ stitchable ]] half4 f(float2 position, device const void *bytes, int size) {
                    device const float3 *p = (device const float3 *)bytes;
                    int n = size / sizeof(float3);
                    return half4(at((device const float *)bytes, size / 4, 1) + p[n - 1].z + (*p).x + (*(device const half *)bytes));
                }
                """, file: "h.metal")
        #expect(line(3, of: module.glsl) == "float _m_at(int v, int n, int i) { return i < n ? _segue_read_float(v,i) : 0.0; }")
        #expect(line(6, of: module.glsl) == "    int n = int(uint(size) / 16u);")
        #expect(
            module.prelude.contains(
                "vec3 _segue_read_float3(int b, int i) { return vec3(uintBitsToFloat(_segue_word(b, 4 * i)), "
                    + "uintBitsToFloat(_segue_word(b, 4 * i + 1)), uintBitsToFloat(_segue_word(b, 4 * i + 2))); }"))
        #expect(module.prelude.contains("float _segue_read_half(int b, int i) { return unpackHalf2x16(_segue_word(b, i >> 1))[i & 1]; }"))
    }

    @Test(
        "what pointers cannot do is an error naming it and its line",
        arguments: [
            (
                colour("float x = *(values + 1); return c;"),
                "user.metal:6: unsupported pointer arithmetic or comparison (index the pointer instead: p[i]): '+'"
            ),
            (
                colour("return c * half(values == values);"),
                "user.metal:6: unsupported pointer arithmetic or comparison (index the pointer instead: p[i]): '=='"
            ),
            (
                colour("values[0] = 1; return c;"),
                "user.metal:6: cannot assign through a pointer: SwiftUI's array and data arguments are read-only"
            ),
            (
                colour("return half4(((device const float *)c.x)[0]);"),
                "user.metal:6: unsupported cast of a 'half' to a pointer (only pointers to array and data arguments can be cast): '('"
            ),
            (colour("float k = 2; return c * *k;"), "user.metal:6: indirection requires a pointer operand ('float' is not one)"),
            (
                colour("return c * half(((device const void *)values)[0]);"),
                "user.metal:6: a 'device const void *' is read after a cast to a typed pointer: ((device const float *)p)[i]"
            ),
            (
                colour("return c;", signature: "device const float2 *v, int n"),
                "user.metal:5: unsupported stitchable argument type: 'device const float2 *' of 'v' (SwiftUI passes 'device const float *' (floatArray), "
                    + "'device const half4 *' (colorArray) or 'device const void *' (data))"
            ),
            (
                colour("return c;", signature: "device const float *v"),
                "user.metal:5: the array argument 'v' must be followed by its count, as SwiftUI passes it: 'device const float *v, int count'"
            ),
            (
                colour("return c;", signature: "device const void *v, float n"),
                "user.metal:5: the array argument 'v' must be followed by its count, as SwiftUI passes it: 'device const void *v, int size'"
            ),
            (
                colour(
                    "return c;",
                    signature:
                        "device const void *a, int n, device const void *b, int m, device const float *c2, int k, device const half4 *d, int l"
                ),
                "user.metal:5: 'f' has more than 3 array and data arguments (each takes 4 KiB of the GPU's uniform block)"
            ),
            (
                colour("return c;", signature: "device const S *s, int n"),
                "user.metal:5: unsupported pointer to a struct (read its fields from a float or byte pointer): 'S'"
            ),
            (
                colour("return c;", signature: "device const float4x4 *m, int n"),
                "user.metal:5: unsupported pointer type (device const float, half4, void, uchar, … *): 'float4x4'"
            ),
            (colour("return c;", signature: "threadgroup float *v, int n"), "user.metal:5: unsupported address space: 'threadgroup'"),
            (colour("return c;", signature: "device float **v, int n"), "user.metal:5: unsupported pointer to a pointer: '*'"),
            (colour("device const float *q[2]; return c;"), "user.metal:6: unsupported array of pointers: 'q'"),
            (
                colour("return c * half(sizeof(c));"),
                "user.metal:6: unsupported sizeof (only of a scalar or vector type: sizeof(float2)): 'sizeof'"
            ),
            (colour("return c * half(static_cast<float>(1));"), "user.metal:6: unsupported cast: 'static_cast'"),
        ])
    func refused(source: String, message: String) {
        #expect(translationError(source) == message)
    }
}
