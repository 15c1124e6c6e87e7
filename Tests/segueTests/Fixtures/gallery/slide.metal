#include <metal_stdlib>
using namespace metal;

[[ stitchable ]] float2 slide(float2 position, float2 size, float amount) {
    return position + float2(amount * size.x, 0.0);
}
