// Author: Segue tests
// License: MIT
// An extra texture: a pixel shows `to` once progress passes its luma (scaled by 0.999 so that
// white pixels switch at progress 1 and black ones not before progress 0).
uniform sampler2D luma;
uniform float softness; // = 0.0

vec4 transition(vec2 uv) {
    float l = texture2D(luma, uv).r;
    float edge = l * 0.999;
    float m = softness > 0.0 ? smoothstep(edge - softness, edge, progress) : (progress > edge ? 1.0 : 0.0);
    return mix(getFromColor(uv), getToColor(uv), progress == 0.0 ? 0.0 : m);
}
