// Distortions from shared/reference/effects.md, written as SwiftUI users write them.
#include <metal_stdlib>
#include <SwiftUI/SwiftUI_Metal.h>
using namespace metal;

[[ stitchable ]] float2 shift(float2 position, float2 size, float effectValue) {
    float skewF = 0.1 * size.x;
    float yRatio = position.y / size.y;
    float skewProgress = min(0.5 - abs(abs(effectValue) - 0.5), 0.2) / 0.2;
    float skew = effectValue > 0 ? yRatio * skewF * skewProgress : (1 - yRatio) * skewF * skewProgress;
    float shift = effectValue * size.x;
    return float2(position.x + shift + skew * sign(effectValue), position.y);
}

// Swaps x and y; the effect value is unused.
[[ stitchable ]] float2 transpose(float2 position, float effectValue) {
    return float2(position.y, position.x);
}

// A flag waving: each column moves up or down by a sine of its x.
[[ stitchable ]] float2 flagWave(float2 position, float2 size, float amplitude, float effectValue) {
    float wave = metal::sin(2.0h * M_PI_F * position.x / size.x);
    return float2(position.x, position.y + amplitude * effectValue * wave);
}
