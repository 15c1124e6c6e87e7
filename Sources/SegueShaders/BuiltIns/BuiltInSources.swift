// GLSL sources of Segue's built-in transitions, in the same interface a user's `.glsl` file uses:
// `vec4 transition(vec2 uv)`, `getFromColor`/`getToColor`, the uniforms `progress`, `time`,
// `duration`, `ratio`, `resolution` (pixels), `scale` (pixels per point), and parameters
// declared as `uniform TYPE name; // = default in min...max; summary`. All use `// Origin: top-left`.
//
// Each returns exactly `from` at progress 0 and exactly `to` at progress 1.

enum BuiltInSources {
    static let fade = #"""
        // Name: fade
        // Description: Cross-dissolve: from fades into to.
        // Origin: top-left
        // Duration: 1
        vec4 transition(vec2 uv) {
            return mix(getFromColor(uv), getToColor(uv), progress);
        }
        """#

    /// shared/reference/effects.md, "Doom screen melt".
    static let doomMelt = #"""
        // Name: doom-melt
        // Description: Doom's screen melt: columns of from slide down at pseudo-random speeds, revealing to.
        // Origin: top-left
        // Duration: 2
        uniform float startSpeed; // = 2.7 in 0.0...10.0; how fast a column reaches full melting speed (1/s)
        uniform float meltSpeed; // = 1.0 in 0.0...2.0; how fast columns fall once melting (screen heights/s)
        uniform float spread; // = 0.35 in 0.0...1.0; largest head start of a column (screen heights)

        // sin to about 1 ulp on every device: Cody–Waite reduction by π and an odd Taylor polynomial
        // through x^13 on [−π/2, π/2]. Built-in sin is a fast approximation on GPUs (errors near
        // 1e-5), which the × 43758.5453 of the column hash would turn into different column speeds
        // per device; with this the melt is the same everywhere and matches a CPU reference.
        float meltSin(float x) {
            precise float k = floor(x * 0.31830988618 + 0.5);
            precise float r = ((x - k * 3.140625) - k * 9.67502593994140625e-4) - k * 1.509957990978376432e-7;
            float r2 = r * r;
            precise float p = r + r * r2 * (-1.0 / 6.0 + r2 * (1.0 / 120.0 + r2 * (-1.0 / 5040.0 + r2 * (1.0 / 362880.0
                            + r2 * (-1.0 / 39916800.0 + r2 * (1.0 / 6227020800.0))))));
            return mod(k, 2.0) == 0.0 ? p : -p;
        }

        // (x + 0.5) / width rounded to the nearest float, as the CPU divides: the column hash needs uv.x
        // to the last bit, and GPUs may interpolate and divide to within 2.5 ulp (an NVIDIA H200 was
        // one ulp off in 128 of 1,170 columns, which the × 43758.5453 below turns into other column
        // speeds). The quotient is corrected by its remainder n − q·width, computed exactly from
        // correctly rounded products and sums (Dekker's product, both factors split into 12-bit
        // halves; precise keeps the compiler from fusing them): q moves by the whole number of last
        // places nearest to remainder / width, which ends within half of one (no quotient is a tie).
        float meltColumn(float pixel, float width) {
            precise float n = pixel + 0.5;
            precise float q = n / width;
            precise float wh = floor(width * 0.000244140625) * 4096.0, wl = width - wh;
            precise float c = 4097.0 * q;
            precise float qh = c - (c - q), ql = q - qh;
            precise float p = q * width;
            precise float e = (((qh * wh - p) + qh * wl) + ql * wh) + ql * wl;
            precise float r = (n - p) - e;
            // q's exponent less 23: its last place (q is normal and positive).
            float ulp = uintBitsToFloat((floatBitsToUint(q) & 0x7F800000u) - (23u << 23));
            q += round(r / (width * ulp)) * ulp;
            return q;
        }

        vec4 transition(vec2 tc) {
            if (progress >= 1.0) return getToColor(tc);
            vec2 uv = tc;
            float velocity = min(startSpeed * time, 1.0);
            float column = meltColumn(floor(tc.x * resolution.x), resolution.x);
            precise float hash = meltSin(dot(vec2(column, 0.0), vec2(12.9898, 78.233))) * 43758.5453;
            uv.y -= velocity * spread * fract(hash);
            if (velocity == 1.0) uv.y -= meltSpeed * (time - velocity / startSpeed);
            return uv.y < 0.0 ? getToColor(tc) : getFromColor(uv);
        }
        """#

    static let wipe = #"""
        // Name: wipe
        // Description: A straight edge sweeps across the screen, revealing to behind it.
        // Origin: top-left
        // Duration: 1
        uniform vec2 direction; // = vec2(1.0, 0.0) in -1.0...1.0; direction the edge travels (x right, y down)
        uniform float smoothness; // = 0.0 in 0.0...1.0; width of the soft edge, as a fraction of the sweep

        vec4 transition(vec2 uv) {
            vec2 d = length(direction) > 0.0 ? normalize(direction) : vec2(1.0, 0.0);
            // Project onto the direction in aspect-correct space; s runs 0 → 1 across the screen.
            vec2 q = vec2(uv.x * ratio, uv.y);
            float lo = min(0.0, d.x * ratio) + min(0.0, d.y);
            float hi = max(0.0, d.x * ratio) + max(0.0, d.y);
            float s = (dot(q, d) - lo) / (hi - lo);
            float w = max(smoothness, 0.0);
            float edge = progress * (1.0 + w);
            float m = w > 0.0 ? 1.0 - smoothstep(edge - w, edge, s) : (s < edge ? 1.0 : 0.0);
            return mix(getFromColor(uv), getToColor(uv), m);
        }
        """#

    static let circle = #"""
        // Name: circle
        // Description: A circle grows from a centre point, revealing to inside it.
        // Origin: top-left
        // Duration: 1
        uniform vec2 center; // = vec2(0.5, 0.5) in 0.0...1.0; centre of the circle (0,0 top-left, 1,1 bottom-right)
        uniform float smoothness; // = 0.0 in 0.0...1.0; width of the soft edge (screen heights)

        vec4 transition(vec2 uv) {
            vec2 a = vec2(ratio, 1.0);
            float d = length((uv - center) * a);
            // The farthest corner sets the final radius.
            float far = max(max(length(center * a), length((vec2(1.0, 0.0) - center) * a)),
                            max(length((vec2(0.0, 1.0) - center) * a), length((vec2(1.0) - center) * a)));
            float w = max(smoothness, 0.0);
            float r = progress * (far + w);
            float m = w > 0.0 ? 1.0 - smoothstep(r - w, r, d) : (d < r ? 1.0 : 0.0);
            return mix(getFromColor(uv), getToColor(uv), m);
        }
        """#

    /// Shared by push and pop: UIKit's navigation geometry (shared/reference/core-animation.md).
    /// All lengths in points; `W` is the screen width in points.
    private static let navigationCommon = #"""
        uniform float parallax; // = 0.3 in 0.0...1.0; fraction of the width the lower view travels (UIKit: 0.3)
        uniform float dimming; // = 0.1 in 0.0...1.0; opacity of the black dimming over the lower view when covered
        uniform float shadowWidth; // = 9.0 in 0.0...20.0; width of the soft shadow on the upper view's leading edge (points)
        uniform float shadowOpacity; // = 0.3 in 0.0...1.0; opacity of that shadow at the edge

        // Points the lower view travels: W − round((1 − parallax)·W), C rounding.
        float segueParallaxTravel(float W) {
            float kept = (1.0 - parallax) * W;
            float rounded = floor(kept + 0.5);
            // Guard against float error at exact halves (e.g. 0.7 × 375 = 262.5).
            float tenths = (1.0 - parallax) * 10.0;
            if (abs(tenths - floor(tenths + 0.5)) < 1e-4 && abs(W - floor(W + 0.5)) < 1e-4) {
                int num = int(floor(tenths + 0.5)) * int(floor(W + 0.5));
                rounded = float((num + 5) / 10);
            }
            return W - rounded;
        }

        // Composites the two views: `upper` at x = upperX, `lower` at x = lowerX (points), with
        // the lower view dimmed by `dim` and a shadow of opacity scaled by `shadowScale`.
        vec4 segueNavigation(vec2 uv, bool upperIsTo, float upperX, float lowerX, float dim, float shadowScale) {
            float W = resolution.x / scale;
            float x = uv.x * W;
            vec4 c = vec4(0.0);
            float lx = (x - lowerX) / W;
            if (lx >= 0.0 && lx < 1.0) {
                c = upperIsTo ? getFromColor(vec2(lx, uv.y)) : getToColor(vec2(lx, uv.y));
            }
            c = vec4(0.0, 0.0, 0.0, dim) + c * (1.0 - dim);
            float ux = (x - upperX) / W;
            if (ux >= 0.0) {
                vec4 u = upperIsTo ? getToColor(vec2(ux, uv.y)) : getFromColor(vec2(ux, uv.y));
                c = u + c * (1.0 - u.a);
            } else if (shadowWidth > 0.0) {
                float d = (upperX - x) / shadowWidth;
                if (d < 1.0) {
                    float a = shadowOpacity * shadowScale * (1.0 - d) * (1.0 - d);
                    c = vec4(0.0, 0.0, 0.0, a) + c * (1.0 - a);
                }
            }
            return c;
        }
        """#

    static let iosPush = #"""
        // Name: ios-push
        // Reverse: ios-pop
        // Description: UIKit's navigation push: to slides in from the right over from, which moves left by 30 % and dims.
        // Origin: top-left
        // Duration: 0.5
        // Timing: spring(mass=3,stiffness=1000,damping=500)
        """# + "\n" + navigationCommon + #"""

            vec4 transition(vec2 uv) {
                if (progress >= 1.0) return getToColor(uv);
                if (progress <= 0.0) return getFromColor(uv);
                float W = resolution.x / scale;
                float upperX = W * (1.0 - progress);
                float lowerX = -segueParallaxTravel(W) * progress;
                return segueNavigation(uv, true, upperX, lowerX, dimming * progress, progress);
            }
            """#

    static let iosPop = #"""
        // Name: ios-pop
        // Reverse: ios-push
        // Description: UIKit's navigation pop: from slides out to the right, uncovering to, which returns from the left and brightens.
        // Origin: top-left
        // Duration: 0.5
        // Timing: spring(mass=3,stiffness=1000,damping=500)
        """# + "\n" + navigationCommon + #"""

            vec4 transition(vec2 uv) {
                if (progress >= 1.0) return getToColor(uv);
                if (progress <= 0.0) return getFromColor(uv);
                float W = resolution.x / scale;
                float upperX = W * progress;
                float lowerX = -segueParallaxTravel(W) * (1.0 - progress);
                return segueNavigation(uv, false, upperX, lowerX, dimming * (1.0 - progress), 1.0 - progress);
            }
            """#
}
