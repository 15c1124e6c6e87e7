// SwiftUI's array and data arguments (.floatArray, .colorArray, .data), for the tests of Swift,
// C (Tests/SegueCTests/Fixtures/api_test.c) and Python (python/tests/test_arrays.py).
#include <metal_stdlib>
#include <SwiftUI/SwiftUI_Metal.h>
using namespace metal;

// A helper taking a pointer, as libraries factor reads out.
static float level(device const float *v, int i) { return v[i]; }

// A spectrum: `count` bars across the bounds, bar i as tall as values[i], coloured by its value;
// count 0 is blue.
[[ stitchable ]] half4 spectrum(float2 position, float4 bounds, device const float *values, int count) {
    if (count == 0) { return half4(0, 0, 1, 1); }
    float2 uv = (position - bounds.xy) / bounds.zw;
    int i = clamp(int(uv.x * float(count)), 0, count - 1);
    float v = level(values, i);
    return 1.0 - uv.y <= v ? half4(half(v), half(1.0 - v), 0.25h, 1.0h) : half4(0);
}

// Colour i at x = i (transparent past the last: reads outside the array give 0).
[[ stitchable ]] half4 stripes(float2 position, device const half4 *colors, int count) {
    return colors[int(position.x)];
}

// Column x of the output decodes one value of `bytes` through a cast, as `value / 255` in red
// and green 1 for a negative value (layout in the tests).
[[ stitchable ]] half4 decode(float2 position, device const void *bytes, int size) {
    device const uchar *b = (device const uchar *)bytes;
    float v = 0;
    switch (int(position.x)) {
        case 0: v = ((device const float *)bytes)[0]; break;
        case 1: v = ((device const half *)bytes)[2]; break;
        case 2: v = ((device const half *)bytes)[3]; break;
        case 3: v = b[8]; break;
        case 4: v = ((device const char *)bytes)[9]; break;
        case 5: v = ((device const ushort *)bytes)[5]; break;
        case 6: v = ((device const int16_t *)bytes)[6]; break;
        case 7: v = ((device const int *)bytes)[4]; break;
        case 8: v = ((device const uint *)bytes)[5]; break;
        case 9: v = reinterpret_cast<device const float2 *>(bytes)[3].y; break;
        case 10: v = ((device const float3 *)bytes)[2].z; break;
        case 11: v = ((device const half4 *)bytes)[6].w; break;
        case 12: v = ((device const float *)bytes)[size / 4]; break;
        case 13: v = ((device const float *)bytes)[-1]; break;
        case 14: v = b[size]; break;
        case 15: v = size; break;
        case 16: v = sizeof(float3) + sizeof(half) + sizeof(uchar); break;
        case 17: v = ((device const float *)bytes)[100000]; break;
        case 18: v = ((device const float4 *)bytes)[1 << 29].x; break;
        default: v = *(device const float *)bytes; break;
    }
    return half4(half(saturate(abs(v) / 255.0)), v < 0 ? 1.0h : 0.0h, 0, 1);
}
