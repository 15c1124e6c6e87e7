// Author: Segue tests
// License: MIT
uniform float amount; // = 1.0
uniform float3 tint; // = float3(1.0)

vec4 transition(vec2 uv) {
    return mix(getFromColor(uv), getToColor(uv), progress);
}
