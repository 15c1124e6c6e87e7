// Small full-screen shaders for the context, cache and limit tests.
import Foundation
import SegueCore
import SegueTestSupport
import SegueVulkan

/// A full-screen fragment shader over `from` and `to` with the uniform block `{ float progress; }`
/// whose `main` body is `body` (writes `color`; may use `from`, `to`, `vUV`, `u.progress`).
func fragmentShader(_ body: String, globals: String = "") -> String {
    """
    #version 450
    layout(set = 0, binding = 0) uniform U { float progress; } u;
    layout(set = 0, binding = 1) uniform sampler2D from;
    layout(set = 0, binding = 2) uniform sampler2D to;
    layout(location = 0) in vec2 vUV;
    layout(location = 0) out vec4 color;
    \(globals)
    void main() {
    \(body)
    }
    """
}

/// Mixes `from` and `to` by progress.
let mixShader = fragmentShader("color = mix(texture(from, vUV), texture(to, vUV), u.progress);")
/// Ignores the textures: red = progress, green 1 − progress, blue 1.
let gradientShader = fragmentShader("color = vec4(u.progress, 1.0 - u.progress, 1.0, 1.0);")

/// The uniform block `{ float progress; }` padded to 16 bytes.
func progressUniforms(_ progress: Float) -> [UInt8] {
    withUnsafeBytes(of: progress.bitPattern.littleEndian, Array.init) + [UInt8](repeating: 0, count: 12)
}

/// One 4×2 frame of `glsl` over black → white at `progress`.
func renderFullScreen(_ context: GPUContext, _ glsl: String, fileName: String, progress: Float) throws -> [UInt8] {
    let textures = [
        try GPUTexture(context: context, image: Image(width: 2, height: 2, fill: .black)),
        try GPUTexture(context: context, image: Image(width: 2, height: 2, fill: .white)),
    ]
    let renderer = try FrameRenderer(
        context: context, fragmentGLSL: glsl, fileName: fileName, uniformSize: 16, textures: textures,
        width: 4, height: 2, framesInFlight: 1)
    return try renderer.renderFrame(uniforms: progressUniforms(progress))
}
