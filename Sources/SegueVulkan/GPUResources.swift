// Buffers and images with their memory, and the image-layout barriers Segue records.
import CSegueVulkan

/// A VkBuffer with its own memory; host-visible buffers stay mapped for their lifetime.
final class GPUBuffer {
    let buffer: VkBuffer
    let memory: VkDeviceMemory
    let size: Int
    let mapped: UnsafeMutableRawPointer?
    let coherent: Bool
    /// Held strongly: the device must outlive every handle made from it.
    private let context: GPUContext

    init(context: GPUContext, size: Int, usage: BufferUsage, hostVisible: Bool, preferCached: Bool = false) throws(VulkanError) {
        self.context = context
        self.size = size
        let device = context.device
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(size)
        info.usage = usage.vk
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        var buffer: VkBuffer?
        try check(vkCreateBuffer(device, &info, nil, &buffer), "vkCreateBuffer(\(size) bytes)")
        var req = VkMemoryRequirements()
        vkGetBufferMemoryRequirements(device, buffer, &req)
        let required: MemoryProperties = hostVisible ? .hostVisible : .deviceLocal
        var preferred: MemoryProperties = hostVisible ? .hostCoherent : []
        if preferCached { preferred.insert(.hostCached) }
        let memory: VkDeviceMemory, typeIndex: UInt32
        do {
            (memory, typeIndex) = try context.allocate(req, required: required, preferred: preferred, what: "\(size) bytes")
        } catch {
            vkDestroyBuffer(device, buffer, nil); throw error
        }
        vkBindBufferMemory(device, buffer, memory, 0)
        var ptr: UnsafeMutableRawPointer?
        if hostVisible {
            let m = vkMapMemory(device, memory, 0, VkDeviceSize(VK_WHOLE_SIZE), 0, &ptr)
            if m != VK_SUCCESS { vkFreeMemory(device, memory, nil); vkDestroyBuffer(device, buffer, nil) }
            try check(m, "vkMapMemory")
        }
        self.coherent = context.memoryTypeProperties(typeIndex).contains(.hostCoherent)
        self.buffer = buffer!
        self.memory = memory
        self.mapped = ptr
    }

    /// Makes device writes visible to the host (no-op on coherent memory).
    func invalidate() { syncMapping(vkInvalidateMappedMemoryRanges) }

    /// Makes host writes visible to the device (no-op on coherent memory).
    func flush() { syncMapping(vkFlushMappedMemoryRanges) }

    private func syncMapping(_ call: (VkDevice?, UInt32, UnsafePointer<VkMappedMemoryRange>?) -> VkResult) {
        guard !coherent else { return }
        var range = VkMappedMemoryRange()
        range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE
        range.memory = memory
        range.size = VkDeviceSize(VK_WHOLE_SIZE)
        _ = call(context.device, 1, &range)
    }

    deinit {
        if mapped != nil { vkUnmapMemory(context.device, memory) }
        vkDestroyBuffer(context.device, buffer, nil)
        vkFreeMemory(context.device, memory, nil)
    }
}

/// A 2D image in device memory with a view: RGBA8 unless told otherwise (depth formats get a
/// depth view), single-sampled unless told otherwise.
final class GPUImage {
    let image: VkImage
    let memory: VkDeviceMemory
    let view: VkImageView
    let width: Int
    let height: Int
    let format: PixelFormat
    /// Held strongly: the device must outlive every handle made from it.
    private let context: GPUContext

    init(
        context: GPUContext, width: Int, height: Int, usage: ImageUsage,
        format: PixelFormat = .rgba8Unorm, samples: SampleCount = .one
    ) throws(VulkanError) {
        self.context = context
        self.width = width
        self.height = height
        self.format = format
        let device = context.device
        let maxSide = Int(context.limits.maxImageDimension2D)
        guard width <= maxSide, height <= maxSide else {
            throw .unsupportedDevice("image \(width)x\(height) exceeds the device's limit of \(maxSide) pixels a side")
        }
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = format.vk
        info.extent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        info.mipLevels = 1
        info.arrayLayers = 1
        info.samples = samples.vk
        info.tiling = VK_IMAGE_TILING_OPTIMAL
        info.usage = usage.vk
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = ImageLayout.undefined.vk
        var image: VkImage?
        try check(vkCreateImage(device, &info, nil, &image), "vkCreateImage(\(width)x\(height))")
        var req = VkMemoryRequirements()
        vkGetImageMemoryRequirements(device, image, &req)
        let memory: VkDeviceMemory
        do {
            memory = try context.allocate(req, required: .deviceLocal, what: "image \(width)x\(height)").memory
        } catch {
            vkDestroyImage(device, image, nil); throw error
        }
        vkBindImageMemory(device, image, memory, 0)

        var viewInfo = VkImageViewCreateInfo()
        viewInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
        viewInfo.image = image
        viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D
        viewInfo.format = format.vk
        viewInfo.subresourceRange = format.subresourceRange
        var view: VkImageView?
        let v = vkCreateImageView(device, &viewInfo, nil, &view)
        if v != VK_SUCCESS { vkFreeMemory(device, memory, nil); vkDestroyImage(device, image, nil) }
        try check(v, "vkCreateImageView")
        self.image = image!
        self.memory = memory
        self.view = view!
    }

    deinit {
        vkDestroyImageView(context.device, view, nil)
        vkDestroyImage(context.device, image, nil)
        vkFreeMemory(context.device, memory, nil)
    }
}

/// Records an image layout transition (synchronization2).
func imageBarrier(
    _ cb: VkCommandBuffer, _ image: GPUImage,
    from oldLayout: ImageLayout, to newLayout: ImageLayout,
    srcStages: PipelineStages, srcAccess: MemoryAccess,
    dstStages: PipelineStages, dstAccess: MemoryAccess
) {
    imageBarrier(
        cb, image.image, range: image.format.subresourceRange, from: oldLayout.vk, to: newLayout.vk,
        srcStages: srcStages.vk, srcAccess: srcAccess.vk, dstStages: dstStages.vk, dstAccess: dstAccess.vk)
}

/// Records a layout transition of any image (a swapchain's too), in Vulkan's own terms.
func imageBarrier(
    _ cb: VkCommandBuffer, _ image: VkImage, range: VkImageSubresourceRange,
    from oldLayout: VkImageLayout, to newLayout: VkImageLayout,
    srcStages: VkPipelineStageFlags2, srcAccess: VkAccessFlags2,
    dstStages: VkPipelineStageFlags2, dstAccess: VkAccessFlags2
) {
    var barrier = VkImageMemoryBarrier2()
    barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2
    barrier.srcStageMask = srcStages
    barrier.srcAccessMask = srcAccess
    barrier.dstStageMask = dstStages
    barrier.dstAccessMask = dstAccess
    barrier.oldLayout = oldLayout
    barrier.newLayout = newLayout
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
    barrier.image = image
    barrier.subresourceRange = range
    recordDependency(cb, image: &barrier)
}

/// Records one synchronization2 dependency holding the barrier given: a global memory barrier,
/// one on a buffer, or one on an image.
func recordDependency(
    _ cb: VkCommandBuffer, memory: UnsafePointer<VkMemoryBarrier2>? = nil,
    buffer: UnsafePointer<VkBufferMemoryBarrier2>? = nil, image: UnsafePointer<VkImageMemoryBarrier2>? = nil
) {
    var dep = VkDependencyInfo()
    dep.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
    dep.memoryBarrierCount = memory == nil ? 0 : 1
    dep.pMemoryBarriers = memory
    dep.bufferMemoryBarrierCount = buffer == nil ? 0 : 1
    dep.pBufferMemoryBarriers = buffer
    dep.imageMemoryBarrierCount = image == nil ? 0 : 1
    dep.pImageMemoryBarriers = image
    vkCmdPipelineBarrier2(cb, &dep)
}

/// A primary command buffer from `pool`.
func allocateCommandBuffer(_ device: VkDevice, pool: VkCommandPool) throws(VulkanError) -> VkCommandBuffer {
    var alloc = VkCommandBufferAllocateInfo()
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
    alloc.commandPool = pool
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
    alloc.commandBufferCount = 1
    var cb: VkCommandBuffer?
    try check(vkAllocateCommandBuffers(device, &alloc, &cb), "vkAllocateCommandBuffers")
    return cb!
}

/// Begins recording `cb`, to be submitted once (`oneTimeSubmit`) or again and again.
func beginCommandBuffer(_ cb: VkCommandBuffer, oneTimeSubmit: Bool) throws(VulkanError) {
    var begin = VkCommandBufferBeginInfo()
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
    begin.flags = oneTimeSubmit ? VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue : 0
    try check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer")
}

/// Records a buffer barrier making transfer writes visible to host reads.
func transferToHostBarrier(_ cb: VkCommandBuffer, _ buffer: VkBuffer) {
    var barrier = VkBufferMemoryBarrier2()
    barrier.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2
    barrier.srcStageMask = PipelineStages.transfer.vk
    barrier.srcAccessMask = MemoryAccess.transferWrite.vk
    barrier.dstStageMask = PipelineStages.host.vk
    barrier.dstAccessMask = MemoryAccess.hostRead.vk
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
    barrier.buffer = buffer
    barrier.size = VkDeviceSize(VK_WHOLE_SIZE)
    recordDependency(cb, buffer: &barrier)
}

/// Records the copy of a rendered colour target (in COLOR_ATTACHMENT_OPTIMAL) into a host-visible
/// buffer, with the barriers that make the pixels visible to the host after the fence.
func recordReadback(_ cb: VkCommandBuffer, from target: GPUImage, into buffer: GPUBuffer) {
    imageBarrier(
        cb, target, from: .colorAttachment, to: .transferSource,
        srcStages: .colorAttachmentOutput, srcAccess: .colorAttachmentWrite, dstStages: .transfer, dstAccess: .transferRead)
    var region = VkBufferImageCopy()
    region.imageSubresource = target.format.subresourceLayers
    region.imageExtent = VkExtent3D(width: UInt32(target.width), height: UInt32(target.height), depth: 1)
    vkCmdCopyImageToBuffer(cb, target.image, ImageLayout.transferSource.vk, buffer.buffer, 1, &region)
    transferToHostBarrier(cb, buffer.buffer)
}

extension VkRenderingAttachmentInfo {
    /// An attachment of `view` in `layout`, whose contents `load` says how to start from and
    /// `store` whether to keep.
    init(view: VkImageView, layout: ImageLayout, load: LoadAction, store: StoreAction) {
        self.init()
        sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO
        imageView = view
        imageLayout = layout.vk
        loadOp = load.vk
        storeOp = store.vk
    }
}

/// Begins dynamic rendering to the whole `width × height` target: one colour attachment, and a
/// depth one when given.
func beginRendering(
    _ cb: VkCommandBuffer, width: Int, height: Int, colour: UnsafePointer<VkRenderingAttachmentInfo>,
    depth: UnsafePointer<VkRenderingAttachmentInfo>? = nil
) {
    var info = VkRenderingInfo()
    info.sType = VK_STRUCTURE_TYPE_RENDERING_INFO
    info.renderArea = VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: VkExtent2D(width: UInt32(width), height: UInt32(height)))
    info.layerCount = 1
    info.colorAttachmentCount = 1
    info.pColorAttachments = colour
    info.pDepthAttachment = depth
    vkCmdBeginRendering(cb, &info)
}

/// Sets the dynamic viewport (depth range 0…1) and scissor to the whole `width × height` target.
func setViewportAndScissor(_ cb: VkCommandBuffer, width: Int, height: Int) {
    var viewport = VkViewport(x: 0, y: 0, width: Float(width), height: Float(height), minDepth: 0, maxDepth: 1)
    vkCmdSetViewport(cb, 0, 1, &viewport)
    var scissor = VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: VkExtent2D(width: UInt32(width), height: UInt32(height)))
    vkCmdSetScissor(cb, 0, 1, &scissor)
}
