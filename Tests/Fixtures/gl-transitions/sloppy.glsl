// A transition the checker should refuse: no Author/License header, an unused parameter, and
// progress 0 is not `from` (it starts half-way).
uniform float unused; // = 3.0
uniform float start; // = 0.5

vec4 transition(vec2 uv) {
    return mix(getFromColor(uv), getToColor(uv), start + (1.0 - start) * progress);
}
