// Name: tint
// Author: Segue tests
// License: MIT
// Fades through a tint colour <with markup in the summary & quotes "like this">.
uniform vec4 tint; // = vec4(1.0, 0.5, 0.0, 1.0)
vec4 transition(vec2 uv) {
    vec4 a = getFromColor(uv), b = getToColor(uv);
    return progress < 0.5 ? mix(a, tint, progress * 2.0) : mix(tint, b, progress * 2.0 - 1.0);
}
