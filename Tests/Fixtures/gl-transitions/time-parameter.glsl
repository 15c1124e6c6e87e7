// Author: Segue tests
// License: MIT
// Description: A parameter named time and a function named duration; reads resolution and scale as Segue provides them.

uniform float time; // = 0.25

float duration(float x) { return x; }

vec4 transition(vec2 uv) {
  // resolution is in pixels and scale in pixels per point: the width in points is resolution.x / scale.
  float widthInPoints = resolution.x / scale;
  return vec4(vec3(duration(time)), 1.0) * step(0.0, widthInPoints);
}
