#include <metal_stdlib>
using namespace metal;

// Rec. 601 luma.
half luminance(half3 c) {
    return dot(c, half3(0.299h, 0.587h, 0.114h));
}

// Grey stripes: where fmod (C semantics: the sign of x) puts the phase below one half, the
// colour turns grey, by `amount`.
[[ stitchable ]] half4 stripes(float2 position, half4 color, float period, float amount) {
    float phase = fmod(position.x - 0.5 * period, period) / period;
    half3 grey = half3(luminance(color.rgb));
    half3 target = phase < 0.5 ? grey : color.rgb;
    return half4(mix(color.rgb, target, saturate(amount)), color.a);
}
