// xfade equivalents that sweep an edge across the frame: hard wipes, corner wipes, soft
// (smooth) wipes, diagonal wipes and the squeezes. See XfadeSources.swift for the conventions
// (P runs 1 → 0, integer pixels, C-style truncation).

extension XfadeSources {
    /// Wipes and squeezes: (description, body) by name.
    static let wipes: [String: (String, String)] = [
        // MARK: Hard wipes
        "wipeleft": (
            "A vertical edge sweeps right to left, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int z = int(float(xfSize().x) * P);
                return p.x > z ? xfTo(p) : xfFrom(p);
            }
            """#
        ),
        "wiperight": (
            "A vertical edge sweeps left to right, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int z = int(float(xfSize().x) * (1.0 - P));
                return p.x > z ? xfFrom(p) : xfTo(p);
            }
            """#
        ),
        "wipeup": (
            "A horizontal edge sweeps bottom to top, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int z = int(float(xfSize().y) * P);
                return p.y > z ? xfTo(p) : xfFrom(p);
            }
            """#
        ),
        "wipedown": (
            "A horizontal edge sweeps top to bottom, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int z = int(float(xfSize().y) * (1.0 - P));
                return p.y > z ? xfFrom(p) : xfTo(p);
            }
            """#
        ),
        "wipetl": (
            "From shrinks into the top-left corner, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                ivec2 z = ivec2(vec2(xfSize()) * P);
                return p.y <= z.y && p.x <= z.x ? xfFrom(p) : xfTo(p);
            }
            """#
        ),
        "wipetr": (
            "From shrinks into the top-right corner, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int zw = int(float(xfSize().x) * (1.0 - P));
                int zh = int(float(xfSize().y) * P);
                return p.y <= zh && p.x > zw ? xfFrom(p) : xfTo(p);
            }
            """#
        ),
        "wipebl": (
            "From shrinks into the bottom-left corner, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int zw = int(float(xfSize().x) * P);
                int zh = int(float(xfSize().y) * (1.0 - P));
                return p.y > zh && p.x <= zw ? xfFrom(p) : xfTo(p);
            }
            """#
        ),
        "wipebr": (
            "From shrinks into the bottom-right corner, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                ivec2 z = ivec2(vec2(xfSize()) * (1.0 - P));
                return p.y > z.y && p.x > z.x ? xfFrom(p) : xfTo(p);
            }
            """#
        ),

        // MARK: Slides
        "slideleft": (
            "From and to slide left together, to entering from the right.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int W = xfSize().x;
                int zx = int(-P * float(W)) + p.x;
                ivec2 q = ivec2(zx < 0 ? zx + W : zx, p.y);
                return zx >= 0 && zx < W ? xfTo(q) : xfFrom(q);
            }
            """#
        ),
        "slideright": (
            "From and to slide right together, to entering from the left.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int W = xfSize().x;
                int zx = int(P * float(W)) + p.x;
                ivec2 q = ivec2(zx >= W ? zx - W : zx, p.y);
                return zx >= 0 && zx < W ? xfTo(q) : xfFrom(q);
            }
            """#
        ),
        "slideup": (
            "From and to slide up together, to entering from the bottom.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int H = xfSize().y;
                int zy = int(-P * float(H)) + p.y;
                ivec2 q = ivec2(p.x, zy < 0 ? zy + H : zy);
                return zy >= 0 && zy < H ? xfTo(q) : xfFrom(q);
            }
            """#
        ),
        "slidedown": (
            "From and to slide down together, to entering from the top.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int H = xfSize().y;
                int zy = int(P * float(H)) + p.y;
                ivec2 q = ivec2(p.x, zy >= H ? zy - H : zy);
                return zy >= 0 && zy < H ? xfTo(q) : xfFrom(q);
            }
            """#
        ),

        // MARK: Soft wipes
        "smoothleft": (
            "A soft edge sweeps right to left, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                precise float s = 1.0 + float(p.x) / float(xfSize().x) - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
            }
            """#
        ),
        "smoothright": (
            "A soft edge sweeps left to right, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float w = float(xfSize().x);
                precise float s = 1.0 + (w - 1.0 - float(p.x)) / w - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
            }
            """#
        ),
        "smoothup": (
            "A soft edge sweeps bottom to top, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                precise float s = 1.0 + float(p.y) / float(xfSize().y) - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
            }
            """#
        ),
        "smoothdown": (
            "A soft edge sweeps top to bottom, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float h = float(xfSize().y);
                precise float s = 1.0 + (h - 1.0 - float(p.y)) / h - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
            }
            """#
        ),

        // MARK: Diagonal wipes
        "diagtl": (
            "A soft curved edge sweeps from the bottom-right to the top-left corner.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                vec2 s = vec2(xfSize());
                precise float t = 1.0 + float(p.x) / s.x * float(p.y) / s.y - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, t)));
            }
            """#
        ),
        "diagtr": (
            "A soft curved edge sweeps from the bottom-left to the top-right corner.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                vec2 s = vec2(xfSize());
                precise float t = 1.0 + (s.x - 1.0 - float(p.x)) / s.x * float(p.y) / s.y - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, t)));
            }
            """#
        ),
        "diagbl": (
            "A soft curved edge sweeps from the top-right to the bottom-left corner.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                vec2 s = vec2(xfSize());
                precise float t = 1.0 + float(p.x) / s.x * (s.y - 1.0 - float(p.y)) / s.y - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, t)));
            }
            """#
        ),
        "diagbr": (
            "A soft curved edge sweeps from the top-left to the bottom-right corner.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                vec2 s = vec2(xfSize());
                precise float t = 1.0 + (s.x - 1.0 - float(p.x)) / s.x * (s.y - 1.0 - float(p.y)) / s.y - P * 2.0;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, t)));
            }
            """#
        ),

        // MARK: Squeezes
        "squeezeh": (
            "From is squeezed vertically into a line across the middle, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float h = float(xfSize().y);
                precise float z = 0.5 + (float(p.y) / h - 0.5) / P;
                if (z < 0.0 || z > 1.0) return xfTo(p);
                precise float row = z * (h - 1.0);
                return xfFrom(ivec2(p.x, int(roundEven(row))));
            }
            """#
        ),
        "squeezev": (
            "From is squeezed horizontally into a line down the middle, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float w = float(xfSize().x);
                precise float z = 0.5 + (float(p.x) / w - 0.5) / P;
                if (z < 0.0 || z > 1.0) return xfTo(p);
                precise float column = z * (w - 1.0);
                return xfFrom(ivec2(int(roundEven(column)), p.y));
            }
            """#
        ),
    ]
}
