// xfade equivalents that move the pictures: slides (both move), covers (to moves over a still
// from), reveals (from moves off a still to), and the winds, which blow a ragged soft edge across
// the frame. Covers, reveals and winds came to xfade after ffmpeg 5.1. Each family is written once
// for its four directions (XfadeDirection.swift). See XfadeSources.swift for the conventions
// (P runs 1 → 0, integer pixels, C-style truncation).

extension XfadeSources {
    /// Slides, covers, reveals and winds: (description, body) by name.
    static let motions: [String: (String, String)] = {
        var table: [String: (String, String)] = [:]
        for d in XfadeDirection.all {
            let a = d.axis
            // The pixel's index moved by the share of the frame P has left: z is inside the frame
            // (0 ≤ z < n) where to shows.
            let shifted = """
                    int n = xfSize().\(a);
                    int z = int(\(d.isForward ? "P" : "-P") * float(n)) + p.\(a);
                    ivec2 q = p;
                """
            table["slide" + d.name] = (
                "From and to slide \(d.name) together, to entering from the \(d.origin).",
                """
                \(shifted)
                    q.\(a) = \(d.isForward ? "z >= n ? z - n" : "z < 0 ? z + n") : z;
                    return z >= 0 && z < n ? xfTo(q) : xfFrom(q);
                """
            )
            table["cover" + d.name] = (
                "To slides in from the \(d.origin), covering from.",
                """
                \(shifted)
                    q.\(a) = z;
                    return z >= 0 && z < n ? xfTo(q) : xfFrom(p);
                """
            )
            table["reveal" + d.name] = (
                "From slides out to the \(d.side), revealing to.",
                """
                \(shifted)
                    q.\(a) = z \(d.isForward ? "-" : "+") n;
                    return z >= 0 && z < n ? xfTo(p) : xfFrom(q);
                """
            )
            // A soft edge, ragged by a random offset per row (or column).
            table[d.letters + "wind"] = (
                "A ragged soft edge blows from \(d.travel), revealing to.",
                """
                    float r = xfRand(\(a == "x" ? "0, p.y" : "p.x, 0"));
                    precise float f = \(d.isForward ? "" : "1.0 - ")float(p.\(a)) / float(xfSize().\(a));
                    precise float s = f * 0.8 + 0.2 * r - (1.0 - P) * 1.2;
                    return xfStore(xfMix(xfB(p), xfA(p), xfSmoothstep(0.0, -0.2, s)));
                """
            )
        }
        return table
    }()
}
