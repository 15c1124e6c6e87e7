// The pools every renderer with frames in flight allocates from: a command pool and a descriptor
// pool sized for one set per slot (a uniform block and its textures).
import CSegueVulkan

final class FramePools {
    let commandPool: VkCommandPool
    let descriptorPool: VkDescriptorPool
    /// Held strongly: the device must outlive every handle made from it.
    private let context: GPUContext

    /// Pools for `slots` descriptor sets of one uniform block and `textureCount` textures each.
    /// `resettable` lets command buffers be re-recorded every frame.
    init(context: GPUContext, slots: Int, textureCount: Int, resettable: Bool = false) throws(VulkanError) {
        self.context = context
        let device = context.device
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.flags = resettable ? VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT.rawValue : 0
        poolInfo.queueFamilyIndex = context.queueFamily
        var pool: VkCommandPool?
        try check(vkCreateCommandPool(device, &poolInfo, nil, &pool), "vkCreateCommandPool")
        commandPool = pool!

        var sizes = [VkDescriptorPoolSize(type: DescriptorKind.uniformBuffer.vk, descriptorCount: UInt32(slots))]
        if textureCount > 0 {
            sizes.append(VkDescriptorPoolSize(type: DescriptorKind.sampledTexture.vk, descriptorCount: UInt32(slots * textureCount)))
        }
        var dpool: VkDescriptorPool?
        let r = sizes.withUnsafeBufferPointer { s in
            var info = VkDescriptorPoolCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
            info.maxSets = UInt32(slots)
            info.poolSizeCount = UInt32(s.count)
            info.pPoolSizes = s.baseAddress
            return vkCreateDescriptorPool(device, &info, nil, &dpool)
        }
        if r != VK_SUCCESS { vkDestroyCommandPool(device, commandPool, nil) }
        try check(r, "vkCreateDescriptorPool")
        descriptorPool = dpool!
    }

    deinit {
        vkDestroyDescriptorPool(context.device, descriptorPool, nil)
        vkDestroyCommandPool(context.device, commandPool, nil)
    }

    /// A descriptor set of `pipeline`'s layout, written with `uniforms` and `textures`.
    func makeDescriptorSet(
        for pipeline: GraphicsPipeline, uniforms: GPUBuffer, uniformSize: Int,
        textures: [GPUTexture]
    ) throws(VulkanError) -> VkDescriptorSet {
        var setLayout: VkDescriptorSetLayout? = pipeline.setLayout
        var set: VkDescriptorSet?
        let r = withUnsafePointer(to: &setLayout) { sl in
            var info = VkDescriptorSetAllocateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
            info.descriptorPool = descriptorPool
            info.descriptorSetCount = 1
            info.pSetLayouts = sl
            return vkAllocateDescriptorSets(context.device, &info, &set)
        }
        try check(r, "vkAllocateDescriptorSets")
        writeDescriptors(set!, pipeline: pipeline, uniforms: uniforms, uniformSize: uniformSize, textures: textures)
        return set!
    }

    /// Points `set` at `uniforms` (binding 0) and `textures` (bindings 1…) with the pipeline's sampler.
    func writeDescriptors(_ set: VkDescriptorSet, pipeline: GraphicsPipeline, uniforms: GPUBuffer, uniformSize: Int, textures: [GPUTexture])
    {
        var bufferInfo = VkDescriptorBufferInfo(buffer: uniforms.buffer, offset: 0, range: VkDeviceSize(uniformSize))
        var imageInfos = textures.map {
            VkDescriptorImageInfo(sampler: pipeline.sampler, imageView: $0.image.view, imageLayout: ImageLayout.shaderReadOnly.vk)
        }
        withUnsafePointer(to: &bufferInfo) { bi in
            imageInfos.withUnsafeMutableBufferPointer { ii in
                var writes = [VkWriteDescriptorSet]()
                var w = VkWriteDescriptorSet()
                w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
                w.dstSet = set
                w.dstBinding = 0
                w.descriptorCount = 1
                w.descriptorType = DescriptorKind.uniformBuffer.vk
                w.pBufferInfo = bi
                writes.append(w)
                for i in 0..<ii.count {
                    var t = VkWriteDescriptorSet()
                    t.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
                    t.dstSet = set
                    t.dstBinding = UInt32(1 + i)
                    t.descriptorCount = 1
                    t.descriptorType = DescriptorKind.sampledTexture.vk
                    t.pImageInfo = UnsafePointer(ii.baseAddress! + i)
                    writes.append(t)
                }
                vkUpdateDescriptorSets(context.device, UInt32(writes.count), writes, 0, nil)
            }
        }
    }

    /// A primary command buffer from the command pool.
    func makeCommandBuffer() throws(VulkanError) -> VkCommandBuffer {
        try allocateCommandBuffer(context.device, pool: commandPool)
    }
}
