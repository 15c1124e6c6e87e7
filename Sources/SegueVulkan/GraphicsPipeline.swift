// A graphics pipeline reading one uniform block (binding 0) and `textureCount` combined image
// samplers (bindings 1…, one linear clamp-to-edge sampler), drawn with dynamic rendering into an
// RGBA8 target. Viewport and scissor are dynamic, so one pipeline serves every output size.
// `GraphicsPipeline.State` carries what differs between Segue's pipelines (vertex input, depth,
// blending, multisampling); the full-screen effect pipeline uses its defaults.
import CSegueVulkan

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owned by its context's pipeline cache and destroyed in the context's deinit; every renderer
/// using a pipeline also holds the context, so a pipeline outlives its users.
// @unchecked: only immutable Vulkan handles (thread-safe to read; used under the context's rules).
final class GraphicsPipeline: @unchecked Sendable {
    /// The fixed-function state that differs between pipelines.
    struct State {
        /// One attribute of an interleaved vertex.
        struct VertexAttribute {
            var location: UInt32
            var format: VertexFormat
            /// Byte offset in the vertex.
            var offset: UInt32
        }

        /// Bytes per vertex of the one vertex buffer; nil: no vertex buffer (vertices come from
        /// `gl_VertexIndex`).
        var vertexStride: UInt32?
        /// Vertex attributes read from the vertex buffer.
        var vertexAttributes: [VertexAttribute] = []
        /// Shader stages that read the uniform block.
        var uniformStages: ShaderStages = .fragment
        /// A depth attachment format: depth test (LESS) and write on. Nil: no depth.
        var depthFormat: PixelFormat?
        /// Clamps depth to the viewport range instead of clipping (needs the device feature).
        var depthClamp = false
        /// How fragments are written to the colour attachment.
        var blending = BlendMode.replace
        /// Rasterization samples.
        var samples = SampleCount.one
    }

    let setLayout: VkDescriptorSetLayout
    let layout: VkPipelineLayout
    let pipeline: VkPipeline
    let sampler: VkSampler
    let textureCount: Int

    init(context: GPUContext, vertexSPIRV: [UInt32], fragmentSPIRV: [UInt32], textureCount: Int, state: State = State()) throws(VulkanError)
    {
        let device = context.device
        self.textureCount = textureCount

        // Bindings: 0 uniform block, 1… textures.
        var bindings = [VkDescriptorSetLayoutBinding]()
        bindings.append(
            VkDescriptorSetLayoutBinding(
                binding: 0, descriptorType: DescriptorKind.uniformBuffer.vk, descriptorCount: 1,
                stageFlags: state.uniformStages.vk, pImmutableSamplers: nil))
        for i in 0..<textureCount {
            bindings.append(
                VkDescriptorSetLayoutBinding(
                    binding: UInt32(1 + i), descriptorType: DescriptorKind.sampledTexture.vk,
                    descriptorCount: 1, stageFlags: ShaderStages.fragment.vk, pImmutableSamplers: nil))
        }
        var setLayout: VkDescriptorSetLayout?
        let r1 = bindings.withUnsafeBufferPointer { b in
            var info = VkDescriptorSetLayoutCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO
            info.bindingCount = UInt32(b.count)
            info.pBindings = b.baseAddress
            return vkCreateDescriptorSetLayout(device, &info, nil, &setLayout)
        }
        try check(r1, "vkCreateDescriptorSetLayout")

        var layout: VkPipelineLayout?
        var setLayoutOpt: VkDescriptorSetLayout? = setLayout
        let r2 = withUnsafePointer(to: &setLayoutOpt) { sl in
            var info = VkPipelineLayoutCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
            info.setLayoutCount = 1
            info.pSetLayouts = sl
            return vkCreatePipelineLayout(device, &info, nil, &layout)
        }
        if r2 != VK_SUCCESS { vkDestroyDescriptorSetLayout(device, setLayout, nil) }
        try check(r2, "vkCreatePipelineLayout")

        var samplerInfo = VkSamplerCreateInfo()
        samplerInfo.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO
        samplerInfo.magFilter = VK_FILTER_LINEAR
        samplerInfo.minFilter = VK_FILTER_LINEAR
        samplerInfo.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST
        samplerInfo.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        samplerInfo.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        samplerInfo.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        samplerInfo.maxLod = 0
        var sampler: VkSampler?
        try check(vkCreateSampler(device, &samplerInfo, nil, &sampler), "vkCreateSampler")

        let pipeline: VkPipeline
        do {
            pipeline = try GraphicsPipeline.makePipeline(
                device, layout: layout!, vertexSPIRV: vertexSPIRV, fragmentSPIRV: fragmentSPIRV, state: state)
        } catch {
            vkDestroySampler(device, sampler, nil)
            vkDestroyPipelineLayout(device, layout, nil)
            vkDestroyDescriptorSetLayout(device, setLayout, nil)
            throw error
        }
        self.setLayout = setLayout!
        self.layout = layout!
        self.pipeline = pipeline
        self.sampler = sampler!
    }

    func destroy(_ device: VkDevice) {
        vkDestroyPipeline(device, pipeline, nil)
        vkDestroySampler(device, sampler, nil)
        vkDestroyPipelineLayout(device, layout, nil)
        vkDestroyDescriptorSetLayout(device, setLayout, nil)
    }

    // MARK: - Creation helpers

    private static func module(_ device: VkDevice, _ words: [UInt32]) throws(VulkanError) -> VkShaderModule {
        var module: VkShaderModule?
        let r = words.withUnsafeBufferPointer { w in
            var info = VkShaderModuleCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO
            info.codeSize = w.count * 4
            info.pCode = w.baseAddress
            return vkCreateShaderModule(device, &info, nil, &module)
        }
        try check(r, "vkCreateShaderModule")
        return module!
    }

    private static func makePipeline(
        _ device: VkDevice, layout: VkPipelineLayout, vertexSPIRV: [UInt32], fragmentSPIRV: [UInt32],
        state: State
    ) throws(VulkanError) -> VkPipeline {
        let vs = try module(device, vertexSPIRV)
        defer { vkDestroyShaderModule(device, vs, nil) }
        let fs = try module(device, fragmentSPIRV)
        defer { vkDestroyShaderModule(device, fs, nil) }

        var pipeline: VkPipeline?
        let main = strdup("main")
        defer { free(main) }
        var stages = [VkPipelineShaderStageCreateInfo](repeating: VkPipelineShaderStageCreateInfo(), count: 2)
        for (i, (stage, module)) in [(ShaderStage.vertex, vs), (ShaderStage.fragment, fs)].enumerated() {
            stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
            stages[i].stage = stage.vk
            stages[i].module = module
            stages[i].pName = UnsafePointer(main)
        }
        var assembly = VkPipelineInputAssemblyStateCreateInfo()
        assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO
        assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST
        var viewport = VkPipelineViewportStateCreateInfo()
        viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO
        viewport.viewportCount = 1
        viewport.scissorCount = 1
        var raster = VkPipelineRasterizationStateCreateInfo()
        raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO
        raster.polygonMode = VK_POLYGON_MODE_FILL
        raster.cullMode = VK_CULL_MODE_NONE.rawValue
        raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE
        raster.depthClampEnable = state.depthClamp.vk
        raster.lineWidth = 1
        var multisample = VkPipelineMultisampleStateCreateInfo()
        multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO
        multisample.rasterizationSamples = state.samples.vk
        var depthStencil = VkPipelineDepthStencilStateCreateInfo()
        depthStencil.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO
        if state.depthFormat != nil {
            depthStencil.depthTestEnable = true.vk
            depthStencil.depthWriteEnable = true.vk
            depthStencil.depthCompareOp = VK_COMPARE_OP_LESS
        }
        var attachment = state.blending.vk
        let dynamicStates = [VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR]
        let vertexBindings =
            state.vertexStride.map { [VkVertexInputBindingDescription(binding: 0, stride: $0, inputRate: VK_VERTEX_INPUT_RATE_VERTEX)] }
            ?? []
        let vertexAttributes = state.vertexAttributes.map {
            VkVertexInputAttributeDescription(location: $0.location, binding: 0, format: $0.format.vk, offset: $0.offset)
        }
        var format = PixelFormat.rgba8Unorm.vk
        var rendering = VkPipelineRenderingCreateInfo()
        rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO
        rendering.colorAttachmentCount = 1
        rendering.depthAttachmentFormat = state.depthFormat?.vk ?? VK_FORMAT_UNDEFINED

        let r = withUnsafePointer(to: &attachment) { att in
            var blend = VkPipelineColorBlendStateCreateInfo()
            blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO
            blend.attachmentCount = 1
            blend.pAttachments = att
            return dynamicStates.withUnsafeBufferPointer { ds in
                var dynamic = VkPipelineDynamicStateCreateInfo()
                dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO
                dynamic.dynamicStateCount = UInt32(ds.count)
                dynamic.pDynamicStates = ds.baseAddress
                return vertexBindings.withUnsafeBufferPointer { vb in
                    vertexAttributes.withUnsafeBufferPointer { va in
                        var vertexInput = VkPipelineVertexInputStateCreateInfo()
                        vertexInput.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO
                        vertexInput.vertexBindingDescriptionCount = UInt32(vb.count)
                        vertexInput.pVertexBindingDescriptions = vb.baseAddress
                        vertexInput.vertexAttributeDescriptionCount = UInt32(va.count)
                        vertexInput.pVertexAttributeDescriptions = va.baseAddress
                        return withUnsafePointer(to: &format) { fmt in
                            rendering.pColorAttachmentFormats = fmt
                            return stages.withUnsafeBufferPointer { st in
                                withUnsafePointers(&rendering, &vertexInput, &assembly, &viewport) { rend, vi, ia, vp in
                                    withUnsafePointers(&raster, &multisample, &depthStencil, &blend) { rs, ms, dss, bl in
                                        withUnsafePointer(to: &dynamic) { dy in
                                            var info = VkGraphicsPipelineCreateInfo()
                                            info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO
                                            info.pNext = UnsafeRawPointer(rend)
                                            info.stageCount = 2
                                            info.pStages = st.baseAddress
                                            info.pVertexInputState = vi
                                            info.pInputAssemblyState = ia
                                            info.pViewportState = vp
                                            info.pRasterizationState = rs
                                            info.pMultisampleState = ms
                                            info.pDepthStencilState = state.depthFormat != nil ? dss : nil
                                            info.pColorBlendState = bl
                                            info.pDynamicState = dy
                                            info.layout = layout
                                            return vkCreateGraphicsPipelines(device, nil, 1, &info, nil, &pipeline)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        try check(r, "vkCreateGraphicsPipelines")
        return pipeline!
    }
}

/// Calls `body` with stable pointers to four values.
private func withUnsafePointers<A, B, C, D, R>(
    _ a: inout A, _ b: inout B, _ c: inout C, _ d: inout D,
    _ body: (UnsafePointer<A>, UnsafePointer<B>, UnsafePointer<C>, UnsafePointer<D>) -> R
) -> R {
    withUnsafePointer(to: &a) { pa in
        withUnsafePointer(to: &b) { pb in
            withUnsafePointer(to: &c) { pc in
                withUnsafePointer(to: &d) { pd in body(pa, pb, pc, pd) }
            }
        }
    }
}
