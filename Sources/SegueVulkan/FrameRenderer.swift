// Renders a sequence of frames of one full-screen effect with several frames in flight.
//
// Each in-flight slot owns a uniform buffer, a descriptor set, a colour target, a persistently
// mapped readback buffer and a command buffer recorded once (clear → draw → copy to the
// readback buffer). Per frame the host only writes the slot's uniforms and resubmits. While
// the device renders frames i+1 … i+N−1, the caller consumes frame i straight from the mapped
// buffer, so shading, readback and encoding overlap.
import CSegueVulkan
import Foundation

/// Renders frames of one fragment shader at one size, reading them back as RGBA8.
public final class FrameRenderer {
    private struct Slot {
        var commandBuffer: VkCommandBuffer
        var fence: VkFence
        var uniforms: GPUBuffer
        var descriptorSet: VkDescriptorSet
        var target: GPUImage
        var readback: GPUBuffer?
        var pendingFrame: Int?
    }

    /// Output width in pixels.
    public let width: Int
    /// Output height in pixels.
    public let height: Int
    /// Whether frames are copied back to host memory.
    public let readsBack: Bool
    /// How many frames may be in flight at once.
    public let framesInFlight: Int
    /// Bytes in one read-back frame (`width × height × 4`).
    public var frameByteCount: Int { width * height * 4 }

    private let context: GPUContext
    private let pipeline: FullScreenPipeline
    private let uniformSize: Int
    private let commandPool: VkCommandPool
    private let descriptorPool: VkDescriptorPool
    private var slots: [Slot] = []
    private var textures: [GPUTexture]

    /// Compiles (or fetches from the caches) the pipeline for `fragmentGLSL` and allocates the
    /// in-flight slots.
    /// - Parameters:
    ///   - fragmentGLSL: a complete fragment shader (see `ShaderTemplate`).
    ///   - fileName: the name compile errors carry.
    ///   - uniformSize: bytes in the uniform block at binding 0.
    ///   - textures: the textures for bindings 1, 2, ….
    ///   - readback: false renders without copying frames out (for measuring shading alone).
    /// - Throws: `VulkanError` (compile errors carry the compiler's `file:line` messages).
    public init(context: GPUContext, fragmentGLSL: String, fileName: String, uniformSize: Int, textures: [GPUTexture],
                width: Int, height: Int, framesInFlight: Int = 3, readback: Bool = true) throws(VulkanError) {
        precondition(width > 0 && height > 0 && framesInFlight > 0 && uniformSize > 0)
        self.context = context
        self.width = width
        self.height = height
        self.readsBack = readback
        self.framesInFlight = framesInFlight
        self.uniformSize = uniformSize
        self.textures = textures
        pipeline = try context.pipeline(fragmentGLSL: fragmentGLSL, fileName: fileName, textureCount: textures.count)
        let device = context.device

        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.queueFamilyIndex = context.queueFamily
        var pool: VkCommandPool?
        try check(vkCreateCommandPool(device, &poolInfo, nil, &pool), "vkCreateCommandPool")
        commandPool = pool!

        var sizes = [VkDescriptorPoolSize(type: VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, descriptorCount: UInt32(framesInFlight))]
        if !textures.isEmpty {
            sizes.append(VkDescriptorPoolSize(type: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, descriptorCount: UInt32(framesInFlight * textures.count)))
        }
        var dpool: VkDescriptorPool?
        let r = sizes.withUnsafeBufferPointer { s in
            var info = VkDescriptorPoolCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
            info.maxSets = UInt32(framesInFlight)
            info.poolSizeCount = UInt32(s.count)
            info.pPoolSizes = s.baseAddress
            return vkCreateDescriptorPool(device, &info, nil, &dpool)
        }
        if r != VK_SUCCESS { vkDestroyCommandPool(device, commandPool, nil) }
        try check(r, "vkCreateDescriptorPool")
        descriptorPool = dpool!

        for _ in 0..<framesInFlight { slots.append(try makeSlot()) }
    }

    deinit {
        for s in slots { if s.pendingFrame != nil { try? context.wait(s.fence) } }
        let device = context.device
        for s in slots { vkDestroyFence(device, s.fence, nil) }
        slots.removeAll()
        vkDestroyDescriptorPool(device, descriptorPool, nil)
        vkDestroyCommandPool(device, commandPool, nil)
    }

    // MARK: - Rendering

    /// Renders frames `0..<count`. `uniforms(i)` gives frame i's uniform bytes; `consume(i, pixels)`
    /// receives frame i's premultiplied RGBA8 pixels (rows top to bottom) in order, valid only
    /// during the call. Without readback, `consume` gets an empty buffer once frame i is done.
    /// - Throws: `VulkanError`, or whatever `uniforms` or `consume` throw (frames in flight are
    ///   waited for before returning).
    public func render(count: Int, uniforms: (Int) throws -> [UInt8],
                       consume: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        do {
            for i in 0..<count {
                let s = i % framesInFlight
                try retire(slot: s, consume: consume)
                try submit(frame: i, slot: s, uniformBytes: uniforms(i))
            }
            // Drain in frame order.
            let first = count % framesInFlight
            for k in 0..<framesInFlight { try retire(slot: (first + k) % framesInFlight, consume: consume) }
        } catch {
            waitIdle()
            throw error
        }
    }

    /// Renders one frame and returns its premultiplied RGBA8 pixels.
    public func renderFrame(uniforms: [UInt8]) throws(VulkanError) -> [UInt8] {
        precondition(readsBack, "renderFrame needs a renderer created with readback")
        var out: [UInt8] = []
        do {
            try render(count: 1, uniforms: { _ in uniforms }, consume: { _, pixels in out = Array(pixels) })
        } catch let e as VulkanError {
            throw e
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        return out
    }

    /// Replaces the textures (same count), after the frames in flight finish.
    public func setTextures(_ newTextures: [GPUTexture]) {
        precondition(newTextures.count == textures.count, "texture count is fixed by the pipeline")
        waitIdle()
        textures = newTextures
        for s in slots { writeDescriptors(s.descriptorSet, uniforms: s.uniforms) }
    }

    private func submit(frame: Int, slot s: Int, uniformBytes: [UInt8]) throws(VulkanError) {
        precondition(uniformBytes.count <= uniformSize, "uniform block is \(uniformSize) bytes, got \(uniformBytes.count)")
        let slot = slots[s]
        uniformBytes.withUnsafeBytes { slot.uniforms.mapped!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        slot.uniforms.flush()
        var fence: VkFence? = slot.fence
        try check(vkResetFences(context.device, 1, &fence), "vkResetFences")
        try context.submit(slot.commandBuffer, fence: slot.fence)
        slots[s].pendingFrame = frame
    }

    private func retire(slot s: Int, consume: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        guard let frame = slots[s].pendingFrame else { return }
        try context.wait(slots[s].fence)
        slots[s].pendingFrame = nil
        if let rb = slots[s].readback {
            rb.invalidate()
            try consume(frame, UnsafeRawBufferPointer(start: rb.mapped!, count: frameByteCount))
        } else {
            try consume(frame, UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    private func waitIdle() {
        for i in slots.indices where slots[i].pendingFrame != nil {
            try? context.wait(slots[i].fence)
            slots[i].pendingFrame = nil
        }
    }

    // MARK: - Slots

    private func makeSlot() throws(VulkanError) -> Slot {
        let device = context.device
        let ubo = try GPUBuffer(context: context, size: uniformSize, usage: VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT.rawValue, hostVisible: true)
        let target = try GPUImage(context: context, width: width, height: height,
                                  usage: VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue)
        let readback = readsBack ? try GPUBuffer(context: context, size: frameByteCount, usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue,
                                                 hostVisible: true, preferCached: true) : nil

        var setLayout: VkDescriptorSetLayout? = pipeline.setLayout
        var set: VkDescriptorSet?
        let r = withUnsafePointer(to: &setLayout) { sl in
            var info = VkDescriptorSetAllocateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
            info.descriptorPool = descriptorPool
            info.descriptorSetCount = 1
            info.pSetLayouts = sl
            return vkAllocateDescriptorSets(device, &info, &set)
        }
        try check(r, "vkAllocateDescriptorSets")
        writeDescriptors(set!, uniforms: ubo)

        var alloc = VkCommandBufferAllocateInfo()
        alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        alloc.commandPool = commandPool
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        alloc.commandBufferCount = 1
        var cb: VkCommandBuffer?
        try check(vkAllocateCommandBuffers(device, &alloc, &cb), "vkAllocateCommandBuffers")
        try record(cb!, target: target, descriptorSet: set!, readback: readback)
        let fence = try context.makeFence(signaled: false)
        return Slot(commandBuffer: cb!, fence: fence, uniforms: ubo, descriptorSet: set!, target: target, readback: readback, pendingFrame: nil)
    }

    private func writeDescriptors(_ set: VkDescriptorSet, uniforms: GPUBuffer) {
        var bufferInfo = VkDescriptorBufferInfo(buffer: uniforms.buffer, offset: 0, range: VkDeviceSize(uniformSize))
        var imageInfos = textures.map {
            VkDescriptorImageInfo(sampler: pipeline.sampler, imageView: $0.image.view, imageLayout: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)
        }
        withUnsafePointer(to: &bufferInfo) { bi in
            imageInfos.withUnsafeMutableBufferPointer { ii in
                var writes = [VkWriteDescriptorSet]()
                var w = VkWriteDescriptorSet()
                w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
                w.dstSet = set
                w.dstBinding = 0
                w.descriptorCount = 1
                w.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                w.pBufferInfo = bi
                writes.append(w)
                for i in 0..<ii.count {
                    var t = VkWriteDescriptorSet()
                    t.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
                    t.dstSet = set
                    t.dstBinding = UInt32(1 + i)
                    t.descriptorCount = 1
                    t.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
                    t.pImageInfo = UnsafePointer(ii.baseAddress! + i)
                    writes.append(t)
                }
                vkUpdateDescriptorSets(context.device, UInt32(writes.count), writes, 0, nil)
            }
        }
    }

    private func record(_ cb: VkCommandBuffer, target: GPUImage, descriptorSet: VkDescriptorSet, readback: GPUBuffer?) throws(VulkanError) {
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        try check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer")
        imageBarrier(cb, target.image, from: VK_IMAGE_LAYOUT_UNDEFINED, to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                     srcStage: VK_PIPELINE_STAGE_2_TRANSFER_BIT, srcAccess: VK_ACCESS_2_NONE,
                     dstStage: VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, dstAccess: VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT)
        var attachment = VkRenderingAttachmentInfo()
        attachment.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO
        attachment.imageView = target.view
        attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
        // The full-screen triangle writes every pixel: nothing to load or clear.
        attachment.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE
        attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE
        let extent = VkExtent2D(width: UInt32(width), height: UInt32(height))
        withUnsafePointer(to: &attachment) { att in
            var info = VkRenderingInfo()
            info.sType = VK_STRUCTURE_TYPE_RENDERING_INFO
            info.renderArea = VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: extent)
            info.layerCount = 1
            info.colorAttachmentCount = 1
            info.pColorAttachments = att
            vkCmdBeginRendering(cb, &info)
        }
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.pipeline)
        var set: VkDescriptorSet? = descriptorSet
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, 0, 1, &set, 0, nil)
        var viewport = VkViewport(x: 0, y: 0, width: Float(width), height: Float(height), minDepth: 0, maxDepth: 1)
        vkCmdSetViewport(cb, 0, 1, &viewport)
        var scissor = VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: extent)
        vkCmdSetScissor(cb, 0, 1, &scissor)
        vkCmdDraw(cb, 3, 1, 0, 0)
        vkCmdEndRendering(cb)
        if let readback {
            imageBarrier(cb, target.image, from: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         srcStage: VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, srcAccess: VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                         dstStage: VK_PIPELINE_STAGE_2_TRANSFER_BIT, dstAccess: VK_ACCESS_2_TRANSFER_READ_BIT)
            var region = VkBufferImageCopy()
            region.imageSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
            region.imageExtent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
            vkCmdCopyImageToBuffer(cb, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region)
            transferToHostBarrier(cb, readback.buffer)
        }
        try check(vkEndCommandBuffer(cb), "vkEndCommandBuffer")
    }
}
