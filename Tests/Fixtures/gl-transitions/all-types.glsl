// Author: Segue tests
// License: MIT
// Every parameter type of the format and every default syntax. Column k of a 64×1 output
// shows scalar quantity k (in declaration order, vectors and column-major matrices expanded)
// as red = value / 8, green = 1.
uniform float f; // = 2
uniform int i; // = 3
uniform bool b; // = true
uniform vec2 v2; // = vec2(0.0, 1.0)
uniform vec3 v3 /* = vec3(0.25, 0.5, 0.75) */;
uniform vec4 v4; // = vec4(1.)
uniform ivec2 iv2; // = ivec2(4)
uniform ivec3 iv3; // = ivec3(1, 2, 3)
uniform ivec4 iv4; // = ivec4(0, 1, 2, 3)
uniform bvec2 bv2; // = bvec2(true, false)
uniform bvec3 bv3; // = bvec3(true)
uniform bvec4 bv4; // = bvec4(false, true, false, true)
uniform mat2 m2; // = mat2(1.0)
uniform mat3 m3; // = mat3(1, 2, 3, 4, 5, 6, 7, 0.5, 0.25)
uniform mat4 m4; // = mat4(0.5)
uniform float x, y; // = 1.5

vec4 transition(vec2 uv) {
    float q[61];
    int n = 0;
    q[n++] = f; q[n++] = float(i); q[n++] = b ? 1.0 : 0.0;
    q[n++] = v2.x; q[n++] = v2.y;
    for (int k = 0; k < 3; k++) q[n++] = v3[k];
    for (int k = 0; k < 4; k++) q[n++] = v4[k];
    for (int k = 0; k < 2; k++) q[n++] = float(iv2[k]);
    for (int k = 0; k < 3; k++) q[n++] = float(iv3[k]);
    for (int k = 0; k < 4; k++) q[n++] = float(iv4[k]);
    for (int k = 0; k < 2; k++) q[n++] = bv2[k] ? 1.0 : 0.0;
    for (int k = 0; k < 3; k++) q[n++] = bv3[k] ? 1.0 : 0.0;
    for (int k = 0; k < 4; k++) q[n++] = bv4[k] ? 1.0 : 0.0;
    for (int c = 0; c < 2; c++) for (int r = 0; r < 2; r++) q[n++] = m2[c][r];
    for (int c = 0; c < 3; c++) for (int r = 0; r < 3; r++) q[n++] = m3[c][r];
    for (int c = 0; c < 4; c++) for (int r = 0; r < 4; r++) q[n++] = m4[c][r];
    q[n++] = x; q[n++] = y;
    int column = int(uv.x * 64.0);
    if (column >= 61) return vec4(0.0, 0.0, 0.0, 1.0);
    return vec4(q[column] / 8.0, 1.0, 0.0, 1.0);
}
