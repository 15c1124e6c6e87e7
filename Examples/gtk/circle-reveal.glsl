// Author: Segue examples
// License: MIT
// Description: The next page grows from a circle in the middle, with a soft rim.

uniform float softness; // = 0.04

vec4 transition(vec2 uv) {
  vec2 p = (uv - 0.5) * vec2(ratio, 1.0);
  float radius = progress * length(vec2(ratio, 1.0)) * 0.5 * (1.0 + softness * 2.0);
  float inside = 1.0 - smoothstep(radius - softness, radius, length(p));
  return mix(getFromColor(uv), getToColor(uv), inside);
}
