// A SwiftUI stitchable distortion: the inserted page slides up from the bottom
// (`amount` runs 1 → 0 on it, as a SwiftUI insertion transition does).
#include <metal_stdlib>
using namespace metal;

[[ stitchable ]] float2 slideUp(float2 position, float2 size, float amount) {
    return position - float2(0.0, amount * size.y);
}
