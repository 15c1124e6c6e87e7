//
// LibraryEffects.metal
// Segue test fixture: colour, distortion and layer effects written the way SwiftUI shader
// libraries write them — helper functions, a helper struct, #define constants, a constant
// array, texture arguments with constexpr samplers, min3/max3/median3, mixed half and float,
// unsigned integers used as booleans, metal::-qualified names and default arguments.
//

#include <metal_stdlib>
#include <SwiftUI/SwiftUI_Metal.h>
using namespace metal;

#define RINGS 3
#define SQUARE(x) ((x) * (x))

/// One ring of the target pattern.
struct Ring {
    float radius;
    half4 tint;
};

constant float ringWeights[RINGS] = {0.5, 0.3, 0.2};

/// Converts a color from RGB to HSL.
half3 rgbToHSL(half3 rgb) {
    half min = min3(rgb.r, rgb.g, rgb.b);
    half max = max3(rgb.r, rgb.g, rgb.b);
    half delta = max - min;
    half3 hsl = half3(0.0h, 0.0h, 0.5h * (max + min));

    if (delta > 0.0h) {
        if (max == rgb.r) {
            hsl[0] = fmod((rgb.g - rgb.b) / delta, 6.0h);
        } else if (max == rgb.g) {
            hsl[0] = (rgb.b - rgb.r) / delta + 2.0h;
        } else {
            hsl[0] = (rgb.r - rgb.g) / delta + 4.0h;
        }
        hsl[0] /= 6.0h;
        hsl[1] = delta / (1.0h - abs(2.0h * hsl[2] - 1.0h));
    }

    return hsl;
}

/// Lightens odd bands and darkens even ones, by `amount` of the lightness range.
[[ stitchable ]] half4 bands(float2 position, half4 color, float2 size, float amount, float count = 4) {
    if (color.a == 0.0h) {
        return color;
    }

    half3 hsl = rgbToHSL(color.rgb / color.a);
    uint band = uint(position.x / size.x * count);
    bool odd = band % 2;
    half lightness = hsl[2] + (odd ? amount : -amount);
    lightness = median3(lightness, 0.1h, 0.9h);
    return half4(half3(lightness), 1.0h) * color.a;
}

/// Whether `p` lies outside the ring.
float outside(Ring ring, float2 p) {
    return step(SQUARE(ring.radius), dot(p, p));
}

/// A target of darkening rings around the centre.
[[ stitchable ]] half4 target(float2 position, half4 color, float2 size, float spacing = 0.15) {
    float2 p = position / size - 0.5;
    half4 result = color;
    for (int i = 0; i < RINGS; i++) {
        Ring ring = {spacing * (i + 1), half4(0, 0, 0, 1)};
        result = mix(result, ring.tint * color.a, half(ringWeights[i] * (1 - outside(ring, p))));
    }
    return result;
}

/// Ripples moving out from the centre over time.
[[ stitchable ]] float2 ripple(float2 position, float2 size, float time, float amplitude = 2, float frequency = 3) {
    float2 centre = size * 0.5;
    float2 delta = position - centre;
    float d = metal::length(delta);
    float wave = metal::precise::sin(d / size.x * frequency * 2 * M_PI_F - time * 4);
    return position + (d > 0 ? delta / d : float2(0)) * amplitude * wave;
}

/// Averages the layer with itself `spread` points to the right, where the mask texture is
/// opaque; the sample is taken inside a braced block.
[[ stitchable ]] half4 smear(float2 position, SwiftUI::Layer layer, float4 bounds, texture2d<half> mask, float spread = 2) {
    constexpr sampler maskSampler(coord::normalized, address::clamp_to_edge, filter::nearest);
    half4 color = layer.sample(position);
    half m = mask.sample(maskSampler, position / bounds.zw).a;
    if (m > 0.5h) {
        color = (color + layer.sample(position + float2(spread, 0))) * 0.5h;
    }
    return color;
}

constexpr sampler tiles(address::repeat, filter::nearest);

/// Tiles a pattern over the view `repeats` times and mixes it in by the pattern's alpha.
[[ stitchable ]] half4 tiled(float2 position, half4 color, float2 size, texture2d<half> pattern, float repeats = 2) {
    half4 p = pattern.sample(tiles, position / size * repeats);
    return mix(color, p, p.a * 0.5h);
}

/// The pattern stretched over the view with bilinear filtering.
[[ stitchable ]] half4 stretched(float2 position, half4 color, float2 size, texture2d<half> pattern) {
    return pattern.sample(sampler(filter::linear), position / size);
}

/// The pattern at pixel coordinates (nearest texel, clamped).
[[ stitchable ]] half4 pixels(float2 position, half4 color, texture2d<half> pattern) {
    constexpr sampler s(coord::pixel, address::clamp_to_zero);
    return pattern.sample(s, position) + color * 0;
}
