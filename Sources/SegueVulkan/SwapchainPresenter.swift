// Shows rendered frames in a window: a Vulkan swapchain on a surface made by the window layer,
// FIFO presentation (the display's rate; never tears, always available), and a GPU blit from the
// renderer's colour target into the acquired image — no readback to the host.
//
// Per presented frame (two in flight): wait for the slot's fence, acquire an image (signalling
// the slot's `acquired` semaphore), record barriers target → transfer source and image →
// transfer destination, a linear-filtered blit scaled to the whole image, image → present
// source; submit waiting on `acquired` at the transfer stage and signalling the image's
// `rendered` semaphore; present waiting on it. The renderer's frame was submitted earlier on the
// same queue, and a barrier's first scope covers everything earlier in submission order, so the
// blit sees the finished frame.
//
// An out-of-date or suboptimal swapchain (the window was resized) is rebuilt at the window's
// current pixel size on the next frame.
import CSegueVulkan

/// A frame ready to show: a renderer's colour target after rendering, held until presented.
public struct PresentationSource {
    let image: GPUImage
    let layout: ImageLayout
}

/// Presents frames into a window surface. Use it from one thread.
public final class SwapchainPresenter {
    /// The swapchain's size in pixels.
    public private(set) var width: Int
    /// The swapchain's height in pixels.
    public private(set) var height: Int
    /// The context (held strongly: the device outlives the swapchain).
    public let context: GPUContext

    private let surface: VkSurfaceKHR
    private var swapchain: VkSwapchainKHR?
    private var images: [VkImage] = []
    private var rendered: [VkSemaphore] = []
    private var format = VK_FORMAT_B8G8R8A8_UNORM
    private let pool: VkCommandPool
    private var slots: [(commandBuffer: VkCommandBuffer, acquired: VkSemaphore, fence: VkFence)] = []
    private var next = 0
    /// The source each slot's submitted blit reads, kept alive until that slot's fence passes
    /// (its renderer may be released meanwhile).
    private var reading: [[PresentationSource]] = [[], []]
    private var needsRebuild = false

    /// Takes ownership of `surface` (a `VkSurfaceKHR` made by the window for
    /// `context.instanceHandle`) and builds a swapchain of `width` × `height` pixels.
    /// - Throws: `VulkanError.unsupportedDevice` when the context was not opened for presenting
    ///   or its queue cannot present to the surface; other `VulkanError`s.
    public init(context: GPUContext, surface: OpaquePointer, width: Int, height: Int) throws(VulkanError) {
        self.context = context
        self.surface = surface
        self.width = max(width, 1)
        self.height = max(height, 1)
        guard context.canPresent else {
            vkDestroySurfaceKHR(context.instance, surface, nil)
            throw .unsupportedDevice(
                "the GPU context was not opened for presenting (give the window's extensions in Configuration.presentationExtensions)")
        }
        var supported: VkBool32 = 0
        vkGetPhysicalDeviceSurfaceSupportKHR(context.physicalDevice, context.queueFamily, surface, &supported)
        guard supported == true.vk else {
            vkDestroySurfaceKHR(context.instance, surface, nil)
            throw .unsupportedDevice("\(context.info.name) cannot present to this window")
        }
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT.rawValue
        poolInfo.queueFamilyIndex = context.queueFamily
        var pool: VkCommandPool?
        let result = vkCreateCommandPool(context.device, &poolInfo, nil, &pool)
        guard result == VK_SUCCESS, let pool else {
            vkDestroySurfaceKHR(context.instance, surface, nil)
            try check(result, "vkCreateCommandPool")
            throw .call("vkCreateCommandPool", code: 0)
        }
        self.pool = pool
        do {
            for _ in 0..<2 {
                slots.append(
                    (try allocateCommandBuffer(context.device, pool: pool), try makeSemaphore(), try context.makeFence(signaled: true)))
            }
            try build()
        } catch {
            destroy()
            throw error
        }
    }

    deinit { destroy() }

    private func destroy() {
        let device = context.device
        vkDeviceWaitIdle(device)
        destroySwapchain()
        for s in slots {
            vkDestroySemaphore(device, s.acquired, nil)
            vkDestroyFence(device, s.fence, nil)
        }
        slots = []
        reading = []
        vkDestroyCommandPool(device, pool, nil)
        vkDestroySurfaceKHR(context.instance, surface, nil)
    }

    /// Asks for a swapchain of a new size (the window's pixel size after a resize).
    public func resize(width: Int, height: Int) {
        guard width != self.width || height != self.height else { return }
        self.width = max(width, 1)
        self.height = max(height, 1)
        needsRebuild = true
    }

    // MARK: - Presenting

    /// Shows `source`, scaled to fill the window, with `overlay` (if any) across the top at the
    /// window's width and its own aspect ratio; waits for a free slot first (FIFO: at most two
    /// frames queued, so this paces the caller to the display).
    /// - Returns: false when the frame was skipped because the swapchain had to be rebuilt
    ///   (call again with the next frame).
    /// - Throws: `VulkanError` (`.deviceLost`, …).
    @discardableResult
    public func present(_ source: PresentationSource, overlay: PresentationSource? = nil) throws(VulkanError) -> Bool {
        if needsRebuild { try rebuild() }
        let device = context.device
        let slot = slots[next]
        // Without a limit: the slot's commands wait for the display to hand back an image, which a
        // hidden or throttled window may not do for a long while; that is no GPU failure. A lost
        // device is noted on the context, as everywhere.
        var fence: VkFence? = slot.fence
        try context.checkResult(vkWaitForFences(device, 1, &fence, true.vk, UInt64.max), "vkWaitForFences")

        var index: UInt32 = 0
        let acquire = vkAcquireNextImageKHR(device, swapchain, UInt64.max, slot.acquired, nil, &index)
        if acquire == VK_ERROR_OUT_OF_DATE_KHR {
            needsRebuild = true
            return false
        }
        if acquire != VK_SUBOPTIMAL_KHR { try context.checkResult(acquire, "vkAcquireNextImageKHR") }
        try context.checkResult(vkResetFences(device, 1, &fence), "vkResetFences")
        reading[next] = [source] + (overlay.map { [$0] } ?? [])

        let cb = slot.commandBuffer
        try context.checkResult(vkResetCommandBuffer(cb, 0), "vkResetCommandBuffer")
        try beginCommandBuffer(cb, oneTimeSubmit: true)
        let target = images[Int(index)]
        swapchainBarrier(
            cb, target, from: VK_IMAGE_LAYOUT_UNDEFINED, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            srcStage: VK_PIPELINE_STAGE_2_TRANSFER_BIT, srcAccess: VK_ACCESS_2_NONE,
            dstStage: VK_PIPELINE_STAGE_2_TRANSFER_BIT, dstAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT)
        blit(cb, source, into: target, height: height)
        if let overlay {
            // Across the top at the window's width; the blit after the first one writes over it
            // (transfer writes to one image in submission order need a barrier between them).
            swapchainBarrier(
                cb, target, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                srcStage: VK_PIPELINE_STAGE_2_TRANSFER_BIT, srcAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT,
                dstStage: VK_PIPELINE_STAGE_2_TRANSFER_BIT, dstAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT)
            let h = min(height, max(1, overlay.image.height * width / max(overlay.image.width, 1)))
            blit(cb, overlay, into: target, height: h)
        }
        swapchainBarrier(
            cb, target, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
            srcStage: VK_PIPELINE_STAGE_2_TRANSFER_BIT, srcAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT,
            dstStage: VK_PIPELINE_STAGE_2_NONE, dstAccess: VK_ACCESS_2_NONE)
        try context.checkResult(vkEndCommandBuffer(cb), "vkEndCommandBuffer")

        var waitSemaphore: VkSemaphore? = slot.acquired
        var waitStage = VkPipelineStageFlags(VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue)
        var signalSemaphore: VkSemaphore? = rendered[Int(index)]
        var commandBuffer: VkCommandBuffer? = cb
        var submit = VkSubmitInfo()
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
        try withUnsafePointer(to: &waitSemaphore) { (w) throws(VulkanError) in
            try withUnsafePointer(to: &waitStage) { (ws) throws(VulkanError) in
                try withUnsafePointer(to: &signalSemaphore) { (sg) throws(VulkanError) in
                    try withUnsafePointer(to: &commandBuffer) { (c) throws(VulkanError) in
                        submit.waitSemaphoreCount = 1
                        submit.pWaitSemaphores = w
                        submit.pWaitDstStageMask = ws
                        submit.signalSemaphoreCount = 1
                        submit.pSignalSemaphores = sg
                        submit.commandBufferCount = 1
                        submit.pCommandBuffers = c
                        try context.submit(submit, fence: slot.fence)
                    }
                }
            }
        }

        var chain: VkSwapchainKHR? = swapchain
        var presentInfo = VkPresentInfoKHR()
        presentInfo.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR
        let presented: VkResult = withUnsafePointer(to: &signalSemaphore) { sg in
            withUnsafePointer(to: &chain) { ch in
                withUnsafePointer(to: &index) { ix in
                    presentInfo.waitSemaphoreCount = 1
                    presentInfo.pWaitSemaphores = sg
                    presentInfo.swapchainCount = 1
                    presentInfo.pSwapchains = ch
                    presentInfo.pImageIndices = ix
                    return context.present(presentInfo)
                }
            }
        }
        next = (next + 1) % slots.count
        if presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR {
            needsRebuild = true
            return true
        }
        try context.checkResult(presented, "vkQueuePresentKHR")
        return true
    }

    /// Records a blit of `source` (moved to transfer-source layout and back around it) into the
    /// top `height` rows of `target`, at the swapchain's width.
    private func blit(_ cb: VkCommandBuffer, _ source: PresentationSource, into target: VkImage, height: Int) {
        if source.layout != .transferSource {
            imageBarrier(
                cb, source.image, from: source.layout, to: .transferSource, srcStages: .colorAttachmentOutput,
                srcAccess: .colorAttachmentWrite, dstStages: .transfer, dstAccess: .transferRead)
        }
        var region = VkImageBlit()
        region.srcSubresource = source.image.format.subresourceLayers
        region.srcOffsets.1 = VkOffset3D(x: Int32(source.image.width), y: Int32(source.image.height), z: 1)
        region.dstSubresource = PixelFormat.rgba8Unorm.subresourceLayers
        region.dstOffsets.1 = VkOffset3D(x: Int32(width), y: Int32(height), z: 1)
        let exact = source.image.width == width && source.image.height == height
        vkCmdBlitImage(
            cb, source.image.image, ImageLayout.transferSource.vk, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            1, &region, exact ? VK_FILTER_NEAREST : VK_FILTER_LINEAR)
        if source.layout != .transferSource {
            // Back to where the renderer's recorded commands expect it.
            imageBarrier(
                cb, source.image, from: .transferSource, to: source.layout, srcStages: .transfer,
                srcAccess: .transferRead, dstStages: .colorAttachmentOutput, dstAccess: .colorAttachmentWrite)
        }
    }

    // MARK: - Swapchain

    private func rebuild() throws(VulkanError) {
        vkDeviceWaitIdle(context.device)
        try build()
        needsRebuild = false
    }

    private func build() throws(VulkanError) {
        let device = context.device, physical = context.physicalDevice
        var caps = VkSurfaceCapabilitiesKHR()
        try check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface, &caps), "vkGetPhysicalDeviceSurfaceCapabilitiesKHR")
        guard caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue != 0 else {
            throw .unsupportedDevice("the window's images cannot be copied into (no TRANSFER_DST usage)")
        }
        if caps.currentExtent.width != UInt32.max {
            width = Int(caps.currentExtent.width)
            height = Int(caps.currentExtent.height)
        }
        width = min(max(width, Int(caps.minImageExtent.width), 1), Int(max(caps.maxImageExtent.width, 1)))
        height = min(max(height, Int(caps.minImageExtent.height), 1), Int(max(caps.maxImageExtent.height, 1)))

        var formatCount: UInt32 = 0
        vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &formatCount, nil)
        var formats = [VkSurfaceFormatKHR](repeating: VkSurfaceFormatKHR(), count: Int(formatCount))
        vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &formatCount, &formats)
        // UNORM: Segue's colours are sRGB-encoded values shown as stored; an _SRGB image would
        // encode them a second time.
        let preferred = [VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM]
        guard let chosen = preferred.lazy.compactMap({ f in formats.first { $0.format == f } }).first ?? formats.first else {
            throw .unsupportedDevice("the window offers no image format")
        }
        format = chosen.format

        var imageCount = caps.minImageCount + 1
        if caps.maxImageCount > 0 { imageCount = min(imageCount, caps.maxImageCount) }
        let alphaModes = [
            VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
            VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR, VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR,
        ]
        let alpha = alphaModes.first { caps.supportedCompositeAlpha & $0.rawValue != 0 } ?? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR

        var info = VkSwapchainCreateInfoKHR()
        info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR
        info.surface = surface
        info.minImageCount = imageCount
        info.imageFormat = chosen.format
        info.imageColorSpace = chosen.colorSpace
        info.imageExtent = VkExtent2D(width: UInt32(width), height: UInt32(height))
        info.imageArrayLayers = 1
        info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue
        info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.preTransform = caps.currentTransform
        info.compositeAlpha = alpha
        info.presentMode = VK_PRESENT_MODE_FIFO_KHR
        info.clipped = true.vk
        info.oldSwapchain = swapchain
        var created: VkSwapchainKHR?
        try check(vkCreateSwapchainKHR(device, &info, nil, &created), "vkCreateSwapchainKHR")
        destroySwapchain()
        swapchain = created

        var count: UInt32 = 0
        try check(vkGetSwapchainImagesKHR(device, created, &count, nil), "vkGetSwapchainImagesKHR")
        var handles = [VkImage?](repeating: nil, count: Int(count))
        try check(vkGetSwapchainImagesKHR(device, created, &count, &handles), "vkGetSwapchainImagesKHR")
        images = handles.prefix(Int(count)).compactMap { $0 }
        for _ in images { rendered.append(try makeSemaphore()) }
    }

    private func destroySwapchain() {
        let device = context.device
        for s in rendered { vkDestroySemaphore(device, s, nil) }
        rendered = []
        images = []
        if let swapchain { vkDestroySwapchainKHR(device, swapchain, nil) }
        swapchain = nil
    }

    // MARK: - Helpers

    private func makeSemaphore() throws(VulkanError) -> VkSemaphore {
        var info = VkSemaphoreCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO
        var semaphore: VkSemaphore?
        try check(vkCreateSemaphore(context.device, &info, nil, &semaphore), "vkCreateSemaphore")
        return semaphore!
    }

    private func swapchainBarrier(
        _ cb: VkCommandBuffer, _ image: VkImage, from: VkImageLayout, to: VkImageLayout,
        srcStage: VkPipelineStageFlags2, srcAccess: VkAccessFlags2,
        dstStage: VkPipelineStageFlags2, dstAccess: VkAccessFlags2
    ) {
        imageBarrier(
            cb, image, range: PixelFormat.rgba8Unorm.subresourceRange, from: from, to: to,
            srcStages: srcStage, srcAccess: srcAccess, dstStages: dstStage, dstAccess: dstAccess)
    }
}
