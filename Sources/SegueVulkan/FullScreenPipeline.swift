// A graphics pipeline drawing one full-screen triangle with a fragment shader that reads one
// uniform block (binding 0) and `textureCount` combined image samplers (bindings 1…).
// Dynamic rendering into an RGBA8 target; viewport and scissor are dynamic, so one pipeline
// serves every output size.
import CSegueVulkan
import Foundation

final class FullScreenPipeline: @unchecked Sendable {
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

    let setLayout: VkDescriptorSetLayout
    let layout: VkPipelineLayout
    let pipeline: VkPipeline
    let sampler: VkSampler
    let textureCount: Int

    init(context: GPUContext, vertexSPIRV: [UInt32], fragmentSPIRV: [UInt32], textureCount: Int) throws(VulkanError) {
        let device = context.device
        self.textureCount = textureCount

        // Bindings: 0 uniform block, 1… textures.
        var bindings = [VkDescriptorSetLayoutBinding]()
        bindings.append(VkDescriptorSetLayoutBinding(binding: 0, descriptorType: VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, descriptorCount: 1,
                                                     stageFlags: VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, pImmutableSamplers: nil))
        for i in 0..<textureCount {
            bindings.append(VkDescriptorSetLayoutBinding(binding: UInt32(1 + i), descriptorType: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                                         descriptorCount: 1, stageFlags: VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, pImmutableSamplers: nil))
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

        let vs = try FullScreenPipeline.module(device, vertexSPIRV)
        defer { vkDestroyShaderModule(device, vs, nil) }
        let fs = try FullScreenPipeline.module(device, fragmentSPIRV)
        defer { vkDestroyShaderModule(device, fs, nil) }

        var pipeline: VkPipeline?
        let main = strdup("main")
        defer { free(main) }
        var stages = [VkPipelineShaderStageCreateInfo](repeating: VkPipelineShaderStageCreateInfo(), count: 2)
        for (i, (stage, module)) in [(VK_SHADER_STAGE_VERTEX_BIT, vs), (VK_SHADER_STAGE_FRAGMENT_BIT, fs)].enumerated() {
            stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
            stages[i].stage = stage
            stages[i].module = module
            stages[i].pName = UnsafePointer(main)
        }
        var vertexInput = VkPipelineVertexInputStateCreateInfo()
        vertexInput.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO
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
        raster.lineWidth = 1
        var multisample = VkPipelineMultisampleStateCreateInfo()
        multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO
        multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT
        var attachment = VkPipelineColorBlendAttachmentState()
        attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT.rawValue | VK_COLOR_COMPONENT_G_BIT.rawValue | VK_COLOR_COMPONENT_B_BIT.rawValue | VK_COLOR_COMPONENT_A_BIT.rawValue
        let dynamicStates = [VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR]
        var format = GPUImage.format

        let r3 = withUnsafePointer(to: &attachment) { att in
            var blend = VkPipelineColorBlendStateCreateInfo()
            blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO
            blend.attachmentCount = 1
            blend.pAttachments = att
            return dynamicStates.withUnsafeBufferPointer { ds in
                var dynamic = VkPipelineDynamicStateCreateInfo()
                dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO
                dynamic.dynamicStateCount = UInt32(ds.count)
                dynamic.pDynamicStates = ds.baseAddress
                return withUnsafePointer(to: &format) { fmt in
                    var rendering = VkPipelineRenderingCreateInfo()
                    rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO
                    rendering.colorAttachmentCount = 1
                    rendering.pColorAttachmentFormats = fmt
                    return withUnsafePointer(to: &rendering) { rend in
                        stages.withUnsafeBufferPointer { st in
                            withUnsafePointer(to: &vertexInput) { vi in
                                withUnsafePointer(to: &assembly) { ia in
                                    withUnsafePointer(to: &viewport) { vp in
                                        withUnsafePointer(to: &raster) { rs in
                                            withUnsafePointer(to: &multisample) { ms in
                                                withUnsafePointer(to: &blend) { bl in
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
                }
            }
        }
        if r3 != VK_SUCCESS {
            vkDestroySampler(device, sampler, nil)
            vkDestroyPipelineLayout(device, layout, nil)
            vkDestroyDescriptorSetLayout(device, setLayout, nil)
        }
        try check(r3, "vkCreateGraphicsPipelines")
        self.setLayout = setLayout!
        self.layout = layout!
        self.pipeline = pipeline!
        self.sampler = sampler!
    }

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

    func destroy(_ device: VkDevice) {
        vkDestroyPipeline(device, pipeline, nil)
        vkDestroySampler(device, sampler, nil)
        vkDestroyPipelineLayout(device, layout, nil)
        vkDestroyDescriptorSetLayout(device, setLayout, nil)
    }
}
