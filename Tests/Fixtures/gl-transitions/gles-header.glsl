#ifdef GL_ES
precision highp float;
#endif
// Author: Segue tests
// License: MIT
// The old header some gl-transitions still carry; uv is y-up.
uniform float split; // = 0.5

vec4 transition(vec2 uv) {
    // The bottom part (uv.y < split) switches first.
    return uv.y < split * 2.0 * progress ? getToColor(uv) : getFromColor(uv);
}
