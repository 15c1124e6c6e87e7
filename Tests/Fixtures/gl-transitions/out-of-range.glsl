// Author: Segue tests
// License: MIT
// Description: Returns colours outside 0…1: (2, 2, 2, 0.4) on the left half, (0.4, 0.4, 0.4, 2) on the right.

vec4 transition(vec2 uv) {
  return uv.x < 0.5 ? vec4(2.0, 2.0, 2.0, 0.4) : vec4(0.4, 0.4, 0.4, 2.0);
}
