#include <metal_stdlib>
#include <SwiftUI/SwiftUI_Metal.h>
using namespace metal;

// Averages the layer at two points `spread` points apart horizontally, scaled by the effect value.
[[ stitchable ]] half4 doubleVision(float2 position, SwiftUI::Layer layer, float spread, float effectValue) {
    float2 offset = float2(spread * effectValue, 0.0);
    half4 a = layer.sample(position - offset);
    half4 b = layer.sample(position + offset);
    return (a + b) * 0.5h;
}
