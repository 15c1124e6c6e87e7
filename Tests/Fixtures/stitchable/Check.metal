// One function of each use, for `segue check` (Tests/segueTests/CheckCLITests.swift and
// Tests/SegueRenderTests/StitchableRenderTests.swift).
#include <metal_stdlib>
#include <SwiftUI/SwiftUI_Metal.h>
using namespace metal;

// Slides the layer right by amount × its width: unchanged at 0, out of view at 1 and -1, so the
// default ranges (inserted 1 → 0, removed 0 → -1) show from at 0 and to at 1.
[[ stitchable ]] float2 slide(float2 position, float2 size, float amount) {
    return position - float2(amount * size.x, 0);
}

// Tints red by |amount|: never hidden, so at progress 0 the inserted screen, tinted fully red,
// covers from.
[[ stitchable ]] half4 tint(float2 position, half4 color, float amount) {
    return mix(color, half4(1, 0, 0, 1) * color.a, half(abs(amount)));
}

// A fill: no layer, nothing to animate.
[[ stitchable ]] half4 gradient(float2 position, float4 bounds) {
    return half4(half(position.x / bounds.z), 0, 0, 1);
}

// No float to animate: applied to one image.
[[ stitchable ]] half4 invert(float2 position, half4 color) {
    return half4(color.a - color.rgb, color.a);
}
