// Equivalents of ffmpeg's `xfade` transitions (libavfilter/vf_xfade.c), under xfade's names, as
// gl-transitions style GLSL with `// Origin: top-left`. The formulas were read from xfade for their
// arithmetic and are written here anew; see Docs/XfadeTransitions.md for the list and how closely
// each matches ffmpeg's frames.
//
// How xfade's arithmetic is reproduced:
// - xfade's progress `P` runs 1 → 0; here `P = 1 − progress` (the same float when `progress` is
//   xfade's `k/N`). Its first input `a` is `from`, its second `b` is `to`.
// - xfade works on whole pixels: `x`, `y` are integer pixel indices (top-left origin), `W`, `H`
//   the frame size, texels are read at pixel centres, and C's integer division and float → int
//   truncation are kept.
// - Blends are `mix(a, b, m) = a·m + b·(1 − m)` on 0…255 values, stored truncated as C stores a
//   float into a `uint8_t` (alpha is rounded, so opaque stays opaque); `precise` stops the GLSL
//   compiler from fusing multiply-adds that C evaluates separately.
// - The noise (`dissolve`, the winds) uses xfade's hash `fract(sin(x·12.9898 + y·78.233) ·
//   43758.545)` with a sine accurate to about one ulp (below), not the GPU's approximate `sin`,
//   so the noise is xfade's own.
// - Every transition returns exactly `from` at progress 0 and `to` at progress 1. Several of
//   xfade's formulas are not exact there (the wipes leave a row or column, rectcrop a black
//   border, squeeze divides by P, radial leaves a wedge, the reveals read outside the picture;
//   ffmpeg itself passes its inputs through at those two frames), so the ends are taken before
//   the formula runs.

enum XfadeSources {
    /// The names of all 58 transitions, in xfade's order.
    static let names: [String] = [
        "fade", "wipeleft", "wiperight", "wipeup", "wipedown", "slideleft", "slideright", "slideup", "slidedown",
        "circlecrop", "rectcrop", "distance", "fadeblack", "fadewhite", "radial", "smoothleft", "smoothright",
        "smoothup", "smoothdown", "circleopen", "circleclose", "vertopen", "vertclose", "horzopen", "horzclose",
        "dissolve", "pixelize", "diagtl", "diagtr", "diagbl", "diagbr", "hlslice", "hrslice", "vuslice", "vdslice",
        "hblur", "fadegrays", "wipetl", "wipetr", "wipebl", "wipebr", "squeezeh", "squeezev", "zoomin", "fadefast",
        "fadeslow", "hlwind", "hrwind", "vuwind", "vdwind", "coverleft", "coverright", "coverup", "coverdown",
        "revealleft", "revealright", "revealup", "revealdown",
    ]

    /// xfade's `fade` is Segue's own `fade` (the same cross-dissolve, rounded rather than
    /// truncated), so it is not repeated here.
    static let sharedWithSegue: Set<String> = ["fade"]

    /// Complete sources of the other 57 transitions, in xfade's order.
    static var all: [String] {
        let bodies = fades.merging(wipes) { a, _ in a }.merging(shapes) { a, _ in a }.merging(motions) { a, _ in a }
        return names.filter { !sharedWithSegue.contains($0) }.map { name in
            guard let (description, body) = bodies[name] else { fatalError("no xfade source for \(name)") }
            return source(name: name, description: description, body: body)
        }
    }

    /// Header, shared helpers, the transition (`body`: the statements of `vec4 xfTransition(ivec2 p,
    /// float P)`, which returns the colour of pixel `p` at xfade's progress `P`), and the
    /// `transition` entry point that takes the exact ends.
    static func source(name: String, description: String, body: String) -> String {
        """
        // Name: \(name)
        // Description: \(description)
        // Origin: top-left
        // Duration: 1
        """ + "\n" + prelude + "\nvec4 xfTransition(ivec2 p, float P) {\n" + body + "\n}\n" + """
            vec4 transition(vec2 uv) {
                if (progress <= 0.0) return getFromColor(uv);
                if (progress >= 1.0) return getToColor(uv);
                return xfTransition(xfPixel(uv), 1.0 - progress);
            }
            """
    }

    // MARK: - Shared GLSL

    /// Helpers every xfade equivalent uses: the pixel grid, texel reads in 0…255, C-style blends,
    /// smoothstep and the noise hash.
    static let prelude = #"""
        // Frame size in pixels and the pixel under uv (top-left origin, like xfade).
        ivec2 xfSize() { return ivec2(resolution + 0.5); }
        ivec2 xfPixel(vec2 uv) { return min(ivec2(floor(uv * resolution)), xfSize() - 1); }
        vec2 xfCentre(ivec2 p) { return (vec2(clamp(p, ivec2(0), xfSize() - 1)) + 0.5) / resolution; }
        // Texels of from (xfade's a) and to (b): as colours, or as 0…255 values.
        // Inputs of the output's size (Segue's renderer says so with _SEGUE_TEXEL_ALIGNED): the texel
        // itself, which is what linear filtering at its centre returns, without the filtering.
        #ifdef _SEGUE_TEXEL_ALIGNED
        vec4 xfFrom(ivec2 p) { return _segue_fromTexel(clamp(p, ivec2(0), xfSize() - 1)); }
        vec4 xfTo(ivec2 p) { return _segue_toTexel(clamp(p, ivec2(0), xfSize() - 1)); }
        #else
        vec4 xfFrom(ivec2 p) { return getFromColor(xfCentre(p)); }
        vec4 xfTo(ivec2 p) { return getToColor(xfCentre(p)); }
        #endif
        vec4 xfA(ivec2 p) { return floor(xfFrom(p) * 255.0 + 0.5); }
        vec4 xfB(ivec2 p) { return floor(xfTo(p) * 255.0 + 0.5); }
        // xfade's mix(a, b, m) = a·m + b·(1 − m), evaluated as C does (no fused multiply-add).
        vec4 xfMix(vec4 a, vec4 b, float m) { precise vec4 r = a * m + b * (1.0 - m); return r; }
        vec4 xfMix(vec4 a, vec4 b, vec4 m) { precise vec4 r = a * m + b * (1.0 - m); return r; }
        // Stores a 0…255 value as xfade does (truncated); alpha rounded so opaque stays opaque.
        vec4 xfStore(vec4 v) { return vec4(floor(clamp(v.rgb, 0.0, 255.0)), floor(clamp(v.a, 0.0, 255.0) + 0.5)) / 255.0; }
        // C's smoothstep: also defined for edge0 > edge1.
        float xfSmoothstep(float e0, float e1, float x) {
            precise float t = clamp((x - e0) / (e1 - e0), 0.0, 1.0);
            precise float r = t * t * (3.0 - 2.0 * t);
            return r;
        }
        float xfFract(float a) { precise float r = a - floor(a); return r; }
        // sin to about one ulp for |x| < 25000: x − k·π/2 as a double-float (π/2 split in
        // 10 + 10 + 24 bits so k·C1 and k·C2 are exact), then Taylor polynomials on [−π/4, π/4].
        float xfSin(float x) {
            precise float k = floor(x * 0.63661975 + 0.5);
            precise float r1 = x - k * 1.5703125;
            precise float p2 = k * 4.8351287841796875e-4;
            precise float s = r1 - p2;
            precise float bb = s - r1;
            precise float err = (r1 - (s - bb)) + (-p2 - bb);
            precise float t = k * 3.1391647326017846e-7;
            precise float r0 = s - t;
            precise float lo0 = err + ((s - r0) - t);
            precise float r = r0 + lo0;
            precise float lo = lo0 - (r - r0);
            precise float z = r * r;
            precise float ps = z * (-1.0 / 6.0 + z * (1.0 / 120.0 + z * (-1.0 / 5040.0 + z * (1.0 / 362880.0 + z * (-1.0 / 39916800.0)))));
            precise float sn = r + (r * ps + lo);
            precise float hz = 0.5 * z;
            precise float w = 1.0 - hz;
            precise float pc = z * z * (1.0 / 24.0 + z * (-1.0 / 720.0 + z * (1.0 / 40320.0 + z * (-1.0 / 3628800.0 + z * (1.0 / 479001600.0)))));
            precise float cs = w + (((1.0 - w) - hz) + (pc - r * lo));
            int q = int(k) & 3;
            return q == 0 ? sn : (q == 1 ? cs : (q == 2 ? -sn : -cs));
        }
        // xfade's noise: fract(sin(x·12.9898 + y·78.233) · 43758.545) in float arithmetic.
        float xfRand(int x, int y) {
            precise float a = float(x) * 12.9898 + float(y) * 78.233;
            precise float r = xfSin(a) * 43758.545;
            return xfFract(r);
        }
        """#

    // MARK: - Fades

    /// Cross-fades and per-pixel blends: (description, body) by name.
    static let fades: [String: (String, String)] = {
        var table = blends
        // Through a colour: from fades to it while it fades to to.
        for (name, colour, description) in [
            ("fadeblack", "vec4(0.0, 0.0, 0.0, 255.0)", "From fades to black, then black fades to to."),
            ("fadewhite", "vec4(255.0)", "From fades to white, then white fades to to."),
        ] {
            table[name] = (
                description,
                """
                    vec4 bg = \(colour);
                    vec4 a = xfMix(xfA(p), bg, xfSmoothstep(0.8, 1.0, P));
                    vec4 b = xfMix(bg, xfB(p), xfSmoothstep(0.2, 1.0, P));
                    return xfStore(xfMix(a, b, P));
                """
            )
        }
        // A cross-fade whose exponent grows with the pixels' difference d (0…1): 1 + log(1 + d)
        // changes pixels that differ more sooner, 1 + log(2 − d) later.
        for (name, log, description) in [
            ("fadefast", "1.0 + abs(a - b)", "A cross-fade in which pixels that differ more change sooner."),
            ("fadeslow", "2.0 - abs(a - b)", "A cross-fade in which pixels that differ more change later."),
        ] {
            table[name] = (
                description,
                """
                    vec4 a = xfA(p), b = xfB(p);
                    precise vec4 e = 1.0 + log(\(log) * 0.003921568859368563);
                    return xfStore(xfMix(a, b, pow(vec4(P), e)));
                """
            )
        }
        return table
    }()

    /// The blends that are one of a kind.
    private static let blends: [String: (String, String)] = [
        "fadegrays": (
            "From fades to its grays, which fade to to's grays and then to to.",
            #"""
                vec4 a = xfA(p), b = xfB(p);
                // xfade's grey for RGB: the integer mean of the three channels.
                float ga = float((int(a.r) + int(a.g) + int(a.b)) / 3);
                float gb = float((int(b.r) + int(b.g) + int(b.b)) / 3);
                vec4 a2 = xfMix(a, vec4(vec3(ga), a.a), xfSmoothstep(0.8, 1.0, P));
                vec4 b2 = xfMix(vec4(vec3(gb), b.a), b, xfSmoothstep(0.2, 1.0, P));
                return xfStore(xfMix(a2, b2, P));
            """#
        ),
        "distance": (
            "Pixels switch to to in order of their colour distance, over a cross-fade.",
            #"""
                vec4 a = xfA(p), b = xfB(p);
                // Sum in xfade's plane order for planar RGB: G, B, R.
                precise vec3 d = a.rgb / 255.0 - b.rgb / 255.0;
                precise float s = (d.g * d.g + d.b * d.b) + d.r * d.r;
                vec4 near = sqrt(s) <= P ? a : b;
                return xfStore(xfMix(near, b, P));
            """#
        ),
        "dissolve": (
            "Pixels switch from from to to in a fixed random order.",
            #"""
                precise float s = xfRand(p.x, p.y) * 2.0 + P * 2.0 - 1.5;
                return s >= 0.5 ? xfFrom(p) : xfTo(p);
            """#
        ),
        "pixelize": (
            "The picture coarsens into blocks, cross-fades, and sharpens again.",
            #"""
                ivec2 S = xfSize();
                float d = min(P, 1.0 - P);
                float dist = ceil(d * 50.0) / 50.0;
                precise float sq = 2.0 * dist * float(min(S.x, S.y)) / 20.0;
                ivec2 q = p;
                if (dist > 0.0) {
                    precise float sx = (floor(float(p.x) / sq) + 0.5) * sq;
                    precise float sy = (floor(float(p.y) / sq) + 0.5) * sq;
                    q = ivec2(int(min(sx, float(S.x - 1))), int(min(sy, float(S.y - 1))));
                }
                return xfStore(xfMix(xfA(q), xfB(q), P));
            """#
        ),
        "hblur": (
            "A cross-fade through a horizontal blur that peaks halfway.",
            #"""
                ivec2 S = xfSize();
                precise float prog = P <= 0.5 ? P * 2.0 : (1.0 - P) * 2.0;
                precise float fsize = 1.0 + float(S.x / 2) * prog;
                int size = int(fsize);
                // xfade's running box: the mean of [x, x + size) clipped at the right edge.
                int end = min(p.x + size, S.x);
                vec4 sa = vec4(0.0), sb = vec4(0.0);
                for (int i = p.x; i < end; i++) {
                    sa += xfA(ivec2(i, p.y));
                    sb += xfB(ivec2(i, p.y));
                }
                float cnt = float(end - p.x);
                return xfStore(xfMix(sa / cnt, sb / cnt, P));
            """#
        ),
        "zoomin": (
            "From zooms in towards its centre while to fades in.",
            #"""
                ivec2 S = xfSize();
                float w = float(S.x), h = float(S.y);
                float zf = xfSmoothstep(0.5, 1.0, P);
                precise float u = 0.5 + (float(p.x) / w - 0.5) * zf;
                precise float v = 0.5 + (float(p.y) / h - 0.5) * zf;
                precise float fu = u * (w - 1.0);
                precise float fv = v * (h - 1.0);
                vec4 zv = xfA(ivec2(int(ceil(fu)), int(ceil(fv))));
                return xfStore(xfMix(zv, xfB(p), xfSmoothstep(0.0, 0.5, P)));
            """#
        ),
    ]
}
