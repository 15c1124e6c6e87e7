// xfade equivalents built on a shape around the centre or on bands: the crops, the circle and
// radial sweeps, the barn doors (vert/horz open/close) and the slices. See XfadeSources.swift for
// the conventions (P runs 1 → 0, integer pixels, C-style truncation).

extension XfadeSources {
    /// Shapes and slices: (description, body) by name.
    static let shapes: [String: (String, String)] = [
        // MARK: Crops
        "circlecrop": (
            "From closes to a black circle that opens again onto to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                ivec2 S = xfSize(), c = S / 2;
                precise float e = 2.0 * abs(P - 0.5);
                precise float z = e * e * e * length(vec2(c));
                float dist = length(vec2(p - c));
                if (z < dist) return vec4(0.0, 0.0, 0.0, 1.0);
                return P < 0.5 ? xfTo(p) : xfFrom(p);
            }
            """#
        ),
        "rectcrop": (
            "From closes to a black rectangle that opens again onto to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                ivec2 S = xfSize(), c = S / 2;
                int zh = int(abs(P - 0.5) * float(S.y));
                int zw = int(abs(P - 0.5) * float(S.x));
                bool inside = abs(p.x - c.x) < zw && abs(p.y - c.y) < zh;
                if (!inside) return vec4(0.0, 0.0, 0.0, 1.0);
                return P < 0.5 ? xfTo(p) : xfFrom(p);
            }
            """#
        ),

        // MARK: Circles and sweeps
        "radial": (
            "A soft-edged hand sweeps around the centre like a clock, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                ivec2 d = p - xfSize() / 2;
                // atan2(x, y) as xfade calls it; atan2(0, 0) = 0 as in C.
                float angle = d == ivec2(0) ? 0.0 : atan(float(d.x), float(d.y));
                precise float s = angle - (P - 0.5) * 7.853981633974483;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
            }
            """#
        ),
        "circleopen": (
            "A soft circle opens from the centre, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                ivec2 c = xfSize() / 2;
                float z = length(vec2(c));
                precise float s = length(vec2(p - c)) / z + (P - 0.5) * 3.0;
                return xfStore(xfMix(xfA(p), xfB(p), xfSmoothstep(0.0, 1.0, s)));
            }
            """#
        ),
        "circleclose": (
            "A soft circle closes onto the centre, revealing to outside it.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                ivec2 c = xfSize() / 2;
                float z = length(vec2(c));
                precise float s = length(vec2(p - c)) / z + (1.0 - P - 0.5) * 3.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
            }
            """#
        ),

        // MARK: Barn doors
        "vertopen": (
            "A soft vertical split opens from the centre line, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float w2 = float(xfSize().x) / 2.0;
                precise float s = 2.0 - abs((float(p.x) - w2) / w2) - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
            }
            """#
        ),
        "vertclose": (
            "Soft vertical edges close from the sides onto the centre line, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float w2 = float(xfSize().x) / 2.0;
                precise float s = 1.0 + abs((float(p.x) - w2) / w2) - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
            }
            """#
        ),
        "horzopen": (
            "A soft horizontal split opens from the centre line, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float h2 = float(xfSize().y) / 2.0;
                precise float s = 2.0 - abs((float(p.y) - h2) / h2) - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
            }
            """#
        ),
        "horzclose": (
            "Soft horizontal edges close from top and bottom onto the centre line, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float h2 = float(xfSize().y) / 2.0;
                precise float s = 1.0 + abs((float(p.y) - h2) / h2) - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
            }
            """#
        ),

        // MARK: Slices
        "hlslice": (
            "Ten vertical slices flip to to one after another, right to left.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float w = float(xfSize().x);
                precise float xx = float(p.x) / w;
                precise float s = xfSmoothstep(-0.5, 0.0, xx - P * 1.5);
                precise float f = xfFract(10.0 * float(p.x) / w);
                return s <= f ? xfFrom(p) : xfTo(p);
            }
            """#
        ),
        "hrslice": (
            "Ten vertical slices flip to to one after another, left to right.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float w = float(xfSize().x);
                precise float xx = (w - 1.0 - float(p.x)) / w;
                precise float s = xfSmoothstep(-0.5, 0.0, xx - P * 1.5);
                precise float f = xfFract(10.0 * xx);
                return s <= f ? xfFrom(p) : xfTo(p);
            }
            """#
        ),
        "vuslice": (
            "Ten horizontal slices flip to to one after another, bottom to top.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float h = float(xfSize().y);
                precise float yy = float(p.y) / h;
                precise float s = xfSmoothstep(-0.5, 0.0, yy - P * 1.5);
                precise float f = xfFract(10.0 * float(p.y) / h);
                return s <= f ? xfFrom(p) : xfTo(p);
            }
            """#
        ),
        "vdslice": (
            "Ten horizontal slices flip to to one after another, top to bottom.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float h = float(xfSize().y);
                precise float yy = (h - 1.0 - float(p.y)) / h;
                precise float s = xfSmoothstep(-0.5, 0.0, yy - P * 1.5);
                precise float f = xfFract(10.0 * yy);
                return s <= f ? xfFrom(p) : xfTo(p);
            }
            """#
        ),
    ]
}
