// Author: Segue tests
// License: MIT
uniform float amount; // = 1.0

vec4 transition(vec2 uv) {
    vec4 a = getFromColor(uv)
    return mix(a, getToColor(uv), progress * amount);
}
