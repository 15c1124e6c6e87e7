#include <metal_stdlib>
#include <SwiftUI/SwiftUI_Metal.h>
using namespace metal;

/// A fill: a warm glow around the middle of the shape, breathing with the time.
[[ stitchable ]] half4 glow(float2 position, float4 bounds, float time) {
    float2 centre = bounds.xy + bounds.zw * 0.5;
    float d = length(position - centre) / (0.5 * min(bounds.z, bounds.w));
    float a = clamp(1.0 - d, 0.0, 1.0) * (0.75 + 0.25 * sin(time * 6.28318));
    return half4(half3(1.0, 0.6, 0.2) * half(a), half(a));
}

/// An overload of the same name on an image: the colour warmed by `amount`.
[[ stitchable ]] half4 glow(float2 position, half4 color, float amount) {
    return half4(mix(color.rgb, half3(1.0, 0.6, 0.2) * color.a, half(amount * 0.5)), color.a);
}

/// SwiftUI passes no int: a function it could not call, listed with why, beside the others.
[[ stitchable ]] half4 glow(float2 position, half4 color, int steps) {
    return color * half(steps);
}
