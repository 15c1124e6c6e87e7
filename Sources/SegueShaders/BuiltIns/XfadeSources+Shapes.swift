// xfade equivalents built on a shape around the centre or on bands: the crops, the circle and
// radial sweeps, the barn doors (vert/horz open/close) and the slices; the families are written
// once for their variants. See XfadeSources.swift for the conventions (P runs 1 → 0, integer
// pixels, C-style truncation).

extension XfadeSources {
    /// Crops and the radial sweep: (description, body) by name.
    private static let centred: [String: (String, String)] = [
        // MARK: Crops
        "circlecrop": (
            "From closes to a black circle that opens again onto to.",
            #"""
                ivec2 S = xfSize(), c = S / 2;
                precise float e = 2.0 * abs(P - 0.5);
                precise float z = e * e * e * length(vec2(c));
                float dist = length(vec2(p - c));
                if (z < dist) return vec4(0.0, 0.0, 0.0, 1.0);
                return P < 0.5 ? xfTo(p) : xfFrom(p);
            """#
        ),
        "rectcrop": (
            "From closes to a black rectangle that opens again onto to.",
            #"""
                ivec2 S = xfSize(), c = S / 2;
                int zh = int(abs(P - 0.5) * float(S.y));
                int zw = int(abs(P - 0.5) * float(S.x));
                bool inside = abs(p.x - c.x) < zw && abs(p.y - c.y) < zh;
                if (!inside) return vec4(0.0, 0.0, 0.0, 1.0);
                return P < 0.5 ? xfTo(p) : xfFrom(p);
            """#
        ),

        // MARK: Sweeps
        "radial": (
            "A soft-edged hand sweeps around the centre like a clock, revealing to.",
            #"""
                ivec2 d = p - xfSize() / 2;
                // atan2(x, y) as xfade calls it; atan2(0, 0) = 0 as in C.
                float angle = d == ivec2(0) ? 0.0 : atan(float(d.x), float(d.y));
                precise float s = angle - (P - 0.5) * 7.853981633974483;
                return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
            """#
        ),
    ]

    /// Shapes and slices: (description, body) by name.
    static let shapes: [String: (String, String)] = {
        var table = centred
        // A soft circle around the centre, opening (to inside) or closing (to outside).
        for (name, opens, description) in [
            ("circleopen", true, "A soft circle opens from the centre, revealing to."),
            ("circleclose", false, "A soft circle closes onto the centre, revealing to outside it."),
        ] {
            table[name] = (
                description,
                """
                    ivec2 c = xfSize() / 2;
                    float z = length(vec2(c));
                    precise float s = length(vec2(p - c)) / z + (\(opens ? "P" : "1.0 - P") - 0.5) * 3.0;
                    return xfStore(xfMix(\(opens ? "xfA(p), xfB(p)" : "xfB(p), xfA(p)"), xfSmoothstep(0.0, 1.0, s)));
                """
            )
        }
        // Barn doors: a soft split along the centre line of one axis, opening or closing.
        for (name, axis, opens, description) in [
            ("vertopen", "x", true, "A soft vertical split opens from the centre line, revealing to."),
            ("vertclose", "x", false, "Soft vertical edges close from the sides onto the centre line, revealing to."),
            ("horzopen", "y", true, "A soft horizontal split opens from the centre line, revealing to."),
            ("horzclose", "y", false, "Soft horizontal edges close from top and bottom onto the centre line, revealing to."),
        ] {
            table[name] = (
                description,
                """
                    float m = float(xfSize().\(axis)) / 2.0;
                    precise float s = \(opens ? "2.0 -" : "1.0 +") abs((float(p.\(axis)) - m) / m) - P * 2.0;
                    return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
                """
            )
        }
        // Ten slices flip one after another. xfade takes the slice of a backward sweep from the
        // position (10·x / n) and of a forward one from the mirrored share (10·c), and so does this.
        for d in XfadeDirection.all {
            let a = d.axis
            table[d.letters + "slice"] = (
                "Ten \(d.edge) slices flip to to one after another, \(d.travel).",
                """
                    float n = float(xfSize().\(a));
                    precise float c = \(d.position(extent: "n")) / n;
                    precise float s = xfSmoothstep(-0.5, 0.0, c - P * 1.5);
                    precise float f = xfFract(10.0 * \(d.isForward ? "c" : "float(p.\(a)) / n"));
                    return s <= f ? xfFrom(p) : xfTo(p);
                """
            )
        }
        return table
    }()
}
