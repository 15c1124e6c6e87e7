// xfade equivalents that sweep an edge across the frame: hard wipes, corner wipes, soft (smooth)
// wipes, diagonal wipes and the squeezes. Each family is written once for its four directions
// (XfadeDirection.swift). See XfadeSources.swift for the conventions (P runs 1 → 0, integer
// pixels, C-style truncation).

extension XfadeSources {
    /// Wipes and squeezes: (description, body) by name.
    static let wipes: [String: (String, String)] = {
        var table: [String: (String, String)] = [:]
        for d in XfadeDirection.all {
            let a = d.axis
            // A hard edge at the share of the frame that P has left.
            table["wipe" + d.name] = (
                "A \(d.edge) edge sweeps \(d.travel), revealing to.",
                """
                    int z = int(float(xfSize().\(a)) * \(d.share));
                    return p.\(a) > z ? \(d.isForward ? "xfFrom(p) : xfTo(p)" : "xfTo(p) : xfFrom(p)");
                """
            )
            // A soft edge: smoothstep over the pixel's position less twice P.
            table["smooth" + d.name] = (
                "A soft edge sweeps \(d.travel), revealing to.",
                """
                    float n = float(xfSize().\(a));
                    precise float s = 1.0 + \(d.position(extent: "n")) / n - P * 2.0;
                    return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, s)));
                """
            )
        }
        for c in XfadeCorner.all {
            let (h, v) = c.directions
            // From keeps the rectangle between the corner and the shares P has left.
            table["wipe" + c.name] = (
                "From shrinks into the \(c.words) corner, revealing to.",
                """
                    int zx = int(float(xfSize().x) * \(h.share));
                    int zy = int(float(xfSize().y) * \(v.share));
                    return p.y \(c.isBottom ? ">" : "<=") zy && p.x \(c.isRight ? ">" : "<=") zx ? xfFrom(p) : xfTo(p);
                """
            )
            // A soft curved edge: the product of the two positions.
            table["diag" + c.name] = (
                "A soft curved edge sweeps from the \(c.opposite) to the \(c.words) corner.",
                """
                    vec2 s = vec2(xfSize());
                    precise float t = 1.0 + \(h.position(extent: "s.x")) / s.x * \(v.position(extent: "s.y")) / s.y - P * 2.0;
                    return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, 1.0, t)));
                """
            )
        }
        // From is squeezed along one axis into a line through the middle.
        for (name, axis, description) in [
            ("squeezeh", "y", "From is squeezed vertically into a line across the middle, revealing to."),
            ("squeezev", "x", "From is squeezed horizontally into a line down the middle, revealing to."),
        ] {
            table[name] = (
                description,
                """
                    float n = float(xfSize().\(axis));
                    precise float z = 0.5 + (float(p.\(axis)) / n - 0.5) / P;
                    if (z < 0.0 || z > 1.0) return xfTo(p);
                    precise float i = z * (n - 1.0);
                    ivec2 q = p;
                    q.\(axis) = int(roundEven(i));
                    return xfFrom(q);
                """
            )
        }
        return table
    }()
}
