// The mesh-transform pipeline: textured, lit triangles with depth, following
// shared/reference/mesh-transforms.md (projection, depth, lighting, blending).
//
// Projection. A vertex p (points, relative to the layer centre, y down, z towards the viewer) is
// transformed as a row vector, [x' y' z' w'] = [x y z 1]·M (CATransform3D semantics). The
// screen point is (W/2 + x'/w', H/2 + y'/w') points, so the clip position is
// (2x'/W, 2y'/H, depth, w') with w' as clip w: the hardware divides by w' and clips w' ≤ 0
// (behind the eye) while negative z in front of the eye renders.
//
// Depth. clip z = w'/2 − z'/(2R) with R = `depthRange` = 1e5 points, so NDC depth =
// 1/2 − (z'/w')/(2R): nearer (larger z'/w') is smaller and the test is LESS. The map is affine in
// clip space, so it interpolates exactly across triangles. D32_SFLOAT in [0, 1) has steps of at
// most 2⁻²⁴, i.e. depths resolve to ≈ 0.012 point across |z'/w'| ≤ 1e5 points; beyond that the
// depth is clamped (depthClamp) rather than clipped, so geometry still draws but ties in depth.
//
// Lighting. Normals are transformed by the inverse transpose of M's upper 3×3 (perspective and
// translation ignored). We use the cofactor matrix (rows = cross products of the other two rows),
// which equals det·(A⁻¹)ᵀ: it needs no inverse, works for singular A, and its sign and scale
// vanish in normalize and |dot|. light = (1 − f) + f·|dot(n', L)|, colour = light × texel
// (premultiplied, alpha untouched). A zero normal counts as facing the light.
//
// Texturing. uv outside [0, 1] (beyond 1e-5 of slack) is discarded, as is a fully transparent
// texel, so transparent parts neither draw nor hide what lies behind them. uv uses centroid
// interpolation so multisampled edge pixels never sample outside the triangle.
import CSegueVulkan
import SegueMath

enum MeshPipeline {
    /// Floats per vertex: px, py, pz, u, v, nx, ny, nz, texture.
    static let floatsPerVertex = 9
    /// |z'/w'| in points up to which depths are resolved (see the file comment).
    static let depthRange: Double = 100_000
    /// Bytes in the uniform block (two mat4, two vec4; std140).
    static let uniformSize = 160

    private static let uniformBlock = """
        layout(set = 0, binding = 0) uniform MeshUniforms {
            mat4 transform;     // M, rows uploaded as columns: transform * v = [x y z 1]·M
            mat4 normalMatrix;  // cofactors of M's upper 3×3, same layout
            vec4 light;         // xyz: light direction, w: diffuse light factor
            vec4 layer;         // x, y: layer size in points, z: depth scale 1/(2R)
        } u;
        """

    static let vertexSource = """
        #version 450
        \(uniformBlock)
        layout(location = 0) in vec3 position;
        layout(location = 1) in vec2 uv;
        layout(location = 2) in vec3 normal;
        layout(location = 3) in float textureIndex;
        layout(location = 0) centroid out vec2 vUV;
        layout(location = 1) out vec3 vNormal;
        layout(location = 2) flat out float vTexture;
        void main() {
            vec4 p = u.transform * vec4(position, 1.0);
            gl_Position = vec4(2.0 * p.x / u.layer.x, 2.0 * p.y / u.layer.y, 0.5 * p.w - u.layer.z * p.z, p.w);
            vUV = uv;
            vNormal = (u.normalMatrix * vec4(normal, 0.0)).xyz;
            vTexture = textureIndex;
        }
        """

    static let fragmentSource = """
        #version 450
        \(uniformBlock)
        layout(set = 0, binding = 1) uniform sampler2D fromTexture;
        layout(set = 0, binding = 2) uniform sampler2D toTexture;
        layout(location = 0) centroid in vec2 vUV;
        layout(location = 1) in vec3 vNormal;
        layout(location = 2) flat in float vTexture;
        layout(location = 0) out vec4 color;
        void main() {
            const float slack = 1e-5;
            if (any(lessThan(vUV, vec2(-slack))) || any(greaterThan(vUV, vec2(1.0 + slack)))) discard;
            vec4 texel = vTexture < 0.5 ? textureLod(fromTexture, vUV, 0.0) : textureLod(toTexture, vUV, 0.0);
            if (texel == vec4(0.0)) discard;
            float len = length(vNormal);
            float facing = len > 0.0 ? abs(dot(vNormal / len, normalize(u.light.xyz))) : 1.0;
            float f = u.light.w;
            color = vec4(texel.rgb * ((1.0 - f) + f * facing), texel.a);
        }
        """

    /// The mesh pipeline for `samples` rasterization samples, compiled and cached on first use.
    static func pipeline(context: GPUContext, samples: SampleCount) throws(VulkanError) -> GraphicsPipeline {
        let key = PipelineKey(source: vertexSource + fragmentSource, textureCount: 2, variant: "mesh-\(samples.rawValue)")
        return try context.cachedPipeline(key) { () throws(VulkanError) in
            let vertex = try context.compiler.compile(vertexSource, stage: .vertex, fileName: "segue-mesh.vert")
            let fragment = try context.compiler.compile(fragmentSource, stage: .fragment, fileName: "segue-mesh.frag")
            var state = GraphicsPipeline.State()
            state.vertexStride = UInt32(floatsPerVertex * MemoryLayout<Float>.size)
            state.vertexAttributes = [
                .init(location: 0, format: .float3, offset: 0),
                .init(location: 1, format: .float2, offset: 12),
                .init(location: 2, format: .float3, offset: 20),
                .init(location: 3, format: .float, offset: 32),
            ]
            state.uniformStages = [.vertex, .fragment]
            state.depthFormat = .depth32Float
            state.depthClamp = context.depthClampEnabled
            state.blending = .premultipliedOver
            state.samples = samples
            return try GraphicsPipeline(context: context, vertexSPIRV: vertex, fragmentSPIRV: fragment, textureCount: 2, state: state)
        }
    }

    /// The uniform block for one draw, as 40 floats in std140 order.
    static func uniforms(for draw: MeshDraw) -> [Float] {
        let m = draw.transform
        let rows = [Vector3(m.m11, m.m12, m.m13), Vector3(m.m21, m.m22, m.m23), Vector3(m.m31, m.m32, m.m33)]
        let cofactors = [rows[1].cross(rows[2]), rows[2].cross(rows[0]), rows[0].cross(rows[1])]
        var out = m.rowMajor.map { Float($0) }
        for c in cofactors { out += [Float(c.x), Float(c.y), Float(c.z), 0] }
        out += [0, 0, 0, 1]
        // A unit vector: a long direction, (1e200, 0, 0), would overflow a Float.
        let l = draw.lightDirection.direction
        out += [Float(l.x), Float(l.y), Float(l.z), Float(draw.diffuseLightFactor)]
        out += [Float(draw.layerWidth), Float(draw.layerHeight), Float(0.5 / depthRange), 0]
        return out
    }
}
