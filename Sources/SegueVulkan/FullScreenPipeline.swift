// The full-screen effect pipeline: one triangle covering the viewport with a fragment shader that
// reads one uniform block (binding 0) and `textureCount` combined image samplers (bindings 1…).
// No vertex buffers, no depth, no blending (the fragment shader writes every pixel).
import CSegueVulkan

enum FullScreenPipeline {
    /// One triangle covering the viewport; `vUV` has (0, 0) at the top-left of the output.
    static let vertexSource = """
        #version 450
        layout(location = 0) out vec2 vUV;
        void main() {
            vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
            vUV = p;
            gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
        }
        """

    /// Creates the pipeline for compiled vertex and fragment shaders.
    static func make(context: GPUContext, vertexSPIRV: [UInt32], fragmentSPIRV: [UInt32], textureCount: Int) throws(VulkanError)
        -> GraphicsPipeline
    {
        try GraphicsPipeline(context: context, vertexSPIRV: vertexSPIRV, fragmentSPIRV: fragmentSPIRV, textureCount: textureCount)
    }
}
