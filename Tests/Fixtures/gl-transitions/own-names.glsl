// Author: Segue tests
// License: MIT
// Description: Declares helpers named like Segue's uniforms (scale, time, duration, resolution) and returns translucent colour.

uniform float strength; // = 0.5

float scale(float x) {
  return x * 0.5;
}

const float duration = 2.0;

vec2 resolution(vec2 p) { return p * 2.0; }

vec4 transition(vec2 uv) {
  float time = progress * duration;
  vec4 a = getFromColor(uv);
  vec4 b = getToColor(uv);
  vec4 c = mix(a, b, scale(time));
  return vec4(c.rgb, strength * resolution(vec2(uv.x, 0.25)).y + 0.0 * ratio);
}
