// xfade equivalents that move one picture over the other (cover, reveal) and the winds, which
// blow a ragged soft edge across the frame. These 12 came to xfade after ffmpeg 5.1. See
// XfadeSources.swift for the conventions (P runs 1 → 0, integer pixels, C-style truncation).

extension XfadeSources {
    /// Covers, reveals and winds: (description, body) by name.
    static let motions: [String: (String, String)] = [
        // MARK: Covers: to slides in over a still from
        "coverleft": (
            "To slides in from the right, covering from.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int zx = int(-P * float(xfSize().x)) + p.x;
                return zx >= 0 && zx < xfSize().x ? xfTo(ivec2(zx, p.y)) : xfFrom(p);
            }
            """#
        ),
        "coverright": (
            "To slides in from the left, covering from.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int zx = int(P * float(xfSize().x)) + p.x;
                return zx >= 0 && zx < xfSize().x ? xfTo(ivec2(zx, p.y)) : xfFrom(p);
            }
            """#
        ),
        "coverup": (
            "To slides in from the bottom, covering from.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int zy = int(-P * float(xfSize().y)) + p.y;
                return zy >= 0 && zy < xfSize().y ? xfTo(ivec2(p.x, zy)) : xfFrom(p);
            }
            """#
        ),
        "coverdown": (
            "To slides in from the top, covering from.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int zy = int(P * float(xfSize().y)) + p.y;
                return zy >= 0 && zy < xfSize().y ? xfTo(ivec2(p.x, zy)) : xfFrom(p);
            }
            """#
        ),

        // MARK: Reveals: from slides away from over a still to
        "revealleft": (
            "From slides out to the left, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int W = xfSize().x;
                int zx = int(-P * float(W)) + p.x;
                return zx >= 0 && zx < W ? xfTo(p) : xfFrom(ivec2(zx + W, p.y));
            }
            """#
        ),
        "revealright": (
            "From slides out to the right, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int W = xfSize().x;
                int zx = int(P * float(W)) + p.x;
                return zx >= 0 && zx < W ? xfTo(p) : xfFrom(ivec2(zx - W, p.y));
            }
            """#
        ),
        "revealup": (
            "From slides out to the top, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int H = xfSize().y;
                int zy = int(-P * float(H)) + p.y;
                return zy >= 0 && zy < H ? xfTo(p) : xfFrom(ivec2(p.x, zy + H));
            }
            """#
        ),
        "revealdown": (
            "From slides out to the bottom, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                int H = xfSize().y;
                int zy = int(P * float(H)) + p.y;
                return zy >= 0 && zy < H ? xfTo(p) : xfFrom(ivec2(p.x, zy - H));
            }
            """#
        ),

        // MARK: Winds: a soft edge, ragged by a random offset per row (or column)
        "hlwind": (
            "A ragged soft edge blows from right to left, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float r = xfRand(0, p.y);
                precise float fx = 1.0 - float(p.x) / float(xfSize().x);
                precise float s = fx * 0.8 + 0.2 * r - (1.0 - P) * 1.2;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, -0.2, s)));
            }
            """#
        ),
        "hrwind": (
            "A ragged soft edge blows from left to right, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float r = xfRand(0, p.y);
                precise float fx = float(p.x) / float(xfSize().x);
                precise float s = fx * 0.8 + 0.2 * r - (1.0 - P) * 1.2;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, -0.2, s)));
            }
            """#
        ),
        "vuwind": (
            "A ragged soft edge blows from bottom to top, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float r = xfRand(p.x, 0);
                precise float fy = 1.0 - float(p.y) / float(xfSize().y);
                precise float s = fy * 0.8 + 0.2 * r - (1.0 - P) * 1.2;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, -0.2, s)));
            }
            """#
        ),
        "vdwind": (
            "A ragged soft edge blows from top to bottom, revealing to.",
            #"""
            vec4 xfTransition(ivec2 p, float P) {
                float r = xfRand(p.x, 0);
                precise float fy = float(p.y) / float(xfSize().y);
                precise float s = fy * 0.8 + 0.2 * r - (1.0 - P) * 1.2;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, -0.2, s)));
            }
            """#
        ),
    ]
}
