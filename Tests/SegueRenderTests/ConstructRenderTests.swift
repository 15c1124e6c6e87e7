// Issue 28 item 4: the Metal constructs stitchable libraries use, together in one fill rendered on
// the device and checked against the same computation in Swift — constructors (from scalars,
// vectors, a longer vector, matrices), swizzles (writes of distinct components, `.xxyy`, `.rgba`),
// int/uint/bool vectors, matrix arithmetic, `determinant`/`transpose`, `constexpr` and `constant`
// globals, `static inline` helpers, structs with brace initialisation and `thread &` parameters,
// for/while/do/switch with continue and break, `?:` with a scalar and with a bool-vector
// condition, and the common, geometric, relational and integer library functions.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("Metal constructs, rendered")
struct ConstructRenderTests {
    static let source = """
        #include <metal_stdlib>
        using namespace metal;

        constexpr constant float kScale = 0.5;
        constant float3 kTint = float3(0.2, 0.4, 0.6);
        struct Pair { float a; float2 b; };
        static inline float twice(float x) { return 2 * x; }
        float weight(thread Pair &p) { p.a += 1; return p.a * p.b.y; }

        [[ stitchable ]] half4 constructs(float2 position, float4 bounds) {
            float2 uv = position / bounds.zw;
            float4 v4 = float4(uv, 0.25, 1);
            half3 h3 = half3(half4(v4));
            float3 w = float3(0);
            w.xz = uv.yx;
            w.y = v4.xxyy.w * kScale;
            int2 i2 = int2(position) % 4;
            uint u = uint(i2.x) << 1 | 1u;
            bool2 lo = uv < float2(0.5);
            float s = select(0.0, 1.0, all(lo)) + (any(lo) ? 0.5 : 0.0);
            float2x2 m = float2x2(1, 2, 3, 4);
            float2 mv = m * float2(1, 1);
            float det = determinant(m) + transpose(m)[0][1];
            Pair p = { 1, float2(0, 0.5) };
            float wt = weight(p);
            float acc = 0;
            for (int k = 0; k < 4; k++) { if (k == 2) continue; acc += k; }
            int n = 0;
            while (n < 3) { n++; }
            do { n += 10; } while (n < 20);
            switch (i2.y) { case 0: acc += 1; break; case 1: acc += 2; break; default: acc += 3; }
            float3 pick = uv.x > 0.5 ? kTint : float3(h3);
            float2 q = uv < float2(0.5, 0.25) ? float2(1) : float2(0.25, 0.75);
            int bits = popcount(u) + clz(1u) - 31 + abs(-2) + max3(1, 2, 3) + clamp(i2.x, 0, 1);
            float geo = length(float2(3, 4)) / 5 + dot(normalize(float3(1, 0, 0)), cross(float3(0, 1, 0), float3(0, 0, 1)));
            float r = fract(twice(acc) * 0.1 + float(u) / 16 + s + det / 100 + mv.x / 40 + wt + float(n) / 100 + float(bits) / 64 + geo / 8);
            half4 c = half4(half((pick.x + w.x + w.y) / 3), half(((q.x + q.y) / 2 + pick.z + w.z) / 3), half(r), 1);
            return c.rgba;
        }
        """

    /// The same computation in Swift, for pixel (x, y) of a w × h fill: (r, g, b, a) 0…255.
    static func expected(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> [Double] {
        let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
        let uv = (px / Double(width), py / Double(height))
        let w = (uv.1, uv.1 * 0.5, uv.0)
        let i2 = (x % 4, y % 4)
        let u = (i2.0 << 1) | 1
        let lo = (uv.0 < 0.5, uv.1 < 0.5)
        let s = (lo.0 && lo.1 ? 1.0 : 0) + (lo.0 || lo.1 ? 0.5 : 0)
        let (mvx, det, wt) = (4.0, -2.0 + 3, 1.0)
        var acc = 4.0
        acc += i2.1 == 0 ? 1 : i2.1 == 1 ? 2 : 3
        let n = 23.0
        let pick = uv.0 > 0.5 ? (0.2, 0.4, 0.6) : (uv.0, uv.1, 0.25)
        let q = (uv.0 < 0.5 ? 1.0 : 0.25, uv.1 < 0.25 ? 1.0 : 0.75)
        let bits = Double(u.nonzeroBitCount + 31 - 31 + 2 + 3 + min(max(i2.0, 0), 1))
        let geo = 1.0 + 1.0
        let t = 2 * acc * 0.1 + Double(u) / 16 + s + det / 100 + mvx / 40 + wt + n / 100 + bits / 64 + geo / 8
        let r = t - t.rounded(.down)
        return [(pick.0 + w.0 + w.1) / 3 * 255, ((q.0 + q.1) / 2 + pick.2 + w.2) / 3 * 255, r * 255, 255]
    }

    @Test("every construct of the fill computes what Swift does, pixel by pixel")
    func constructs() throws {
        let dir = try TemporaryDirectory("constructs")
        defer { dir.remove() }
        let path = dir.path + "/constructs.metal"
        try Self.source.write(toFile: path, atomically: true, encoding: .utf8)
        let (width, height) = (16, 8)
        let resolved = try ImageEffectRequest(effect: path + ":constructs").resolve()
        let image = try ImageEffectRenderer(
            resolved, input: Image(width: width, height: height, fill: .clear), context: try TestGPU.context()
        )
        .frame(time: 0)
        var worst = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let p = image[x, y], e = Self.expected(x, y, width, height)
                let d = zip([p.r, p.g, p.b, p.a].map(Double.init), e).map { abs($0 - $1) }.max()!
                worst = max(worst, d)
                #expect(d <= 1, "pixel \(x),\(y) is \([p.r, p.g, p.b, p.a]), expected \(e.map { ($0 * 10).rounded() / 10 })")
            }
        }
        #expect(worst <= 1)
    }
}
