//
// LibraryTransitions.metal
// Segue test fixture: transitions written the way SwiftUI shader libraries write them (layer
// effects driven by a 0…1 amount, applied with maxSampleOffset: .zero, LTR/RTL pairs, default
// arguments, integer literals where floats are meant, scalars where vectors are meant).
//

#include <metal_stdlib>
#include <SwiftUI/SwiftUI_Metal.h>
using namespace metal;

/// Streaks that blow the view away to the left.
///
/// - Parameter position: The user-space coordinate of the current pixel.
/// - Parameter layer: The SwiftUI layer we're reading from.
/// - Parameter size: The size of the whole view, in user-space.
/// - Parameter amount: The progress of the transition, from 0 to 1.
/// - Parameter windSize: How long the streaks are, relative to the view's width.
[[stitchable]] half4 streaks(float2 position, SwiftUI::Layer layer, float2 size, float amount, float windSize = 0.2) {
    // Calculate our coordinate in UV space, 0 to 1.
    float2 uv = position / size;

    // A smooth per-row offset gives the edge its jagged look.
    float offset = 0.5 + 0.5 * sin(uv.y * 7);

    float adjustedX = uv.x * (1 - windSize) + windSize * offset;
    float transitionOffset = amount * (1 + windSize);
    float progress = smoothstep(0, -windSize, adjustedX - transitionOffset);

    // Blend with the clear colour: an integer where a half4 is expected.
    return mix(layer.sample(position), 0, progress);
}

/// Stretches pixels toward the centre, starting from the right edge.
[[stitchable]] half4 warpLTR(float2 position, SwiftUI::Layer layer, float2 size, float amount) {
    float2 uv = position / size;
    float progress = amount * 2 + uv.x - 1;
    float x = smoothstep(0, 1, progress);
    float2 newPosition = mix(uv, float2(0.5), x);
    return mix(layer.sample(newPosition * size), 0, x);
}

/// The mirror image: starting from the left edge.
[[stitchable]] half4 warpRTL(float2 position, SwiftUI::Layer layer, float2 size, float amount) {
    float2 uv = position / size;
    float progress = amount * 2 + (1 - uv.x) - 1;
    float x = smoothstep(0, 1, progress);
    float2 newPosition = (uv - 0.5) * (1 - x) + 0.5;
    return mix(layer.sample(newPosition * size), 0, x);
}

/// Pixellates toward the middle of the transition, fading out; the samples are taken inside
/// braced blocks.
[[stitchable]] half4 blocks(float2 position, SwiftUI::Layer layer, float2 size, float amount, float squares = 4) {
    half2 uv = half2(position / size);
    half direction = min(amount, 1.0 - amount);
    half2 squareSize = 2.0h * direction / half2(squares);
    half4 color;

    if (direction == 0.0h) {
        color = layer.sample(position);
    } else {
        half2 newPosition = (floor(uv / squareSize) + 0.5h) * squareSize;
        color = layer.sample(float2(newPosition) * size);
    }

    return mix(color, 0.0h, amount);
}
