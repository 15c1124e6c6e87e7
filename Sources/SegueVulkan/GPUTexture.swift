// A sampled texture made from an `Image`.
import CSegueVulkan
import SegueCore

/// An image uploaded to the GPU for sampling (RGBA8, premultiplied, stored as given).
public final class GPUTexture: @unchecked Sendable {
    let image: GPUImage
    /// Width in pixels.
    public var width: Int { image.width }
    /// Height in pixels.
    public var height: Int { image.height }

    /// Uploads `source` through a staging buffer and waits for the copy.
    public init(context: GPUContext, image source: Image) throws(VulkanError) {
        image = try GPUImage(context: context, width: source.width, height: source.height,
                             usage: VK_IMAGE_USAGE_SAMPLED_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue)
        let staging = try GPUBuffer(context: context, size: source.pixels.count, usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue, hostVisible: true)
        source.pixels.withUnsafeBytes { staging.mapped!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        staging.flush()
        let img = image.image
        let w = UInt32(source.width), h = UInt32(source.height)
        try context.runOnce { cb in
            imageBarrier(cb, img, from: VK_IMAGE_LAYOUT_UNDEFINED, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         srcStage: VK_PIPELINE_STAGE_2_NONE, srcAccess: VK_ACCESS_2_NONE,
                         dstStage: VK_PIPELINE_STAGE_2_TRANSFER_BIT, dstAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT)
            var region = VkBufferImageCopy()
            region.imageSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
            region.imageExtent = VkExtent3D(width: w, height: h, depth: 1)
            vkCmdCopyBufferToImage(cb, staging.buffer, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region)
            imageBarrier(cb, img, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         srcStage: VK_PIPELINE_STAGE_2_TRANSFER_BIT, srcAccess: VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         dstStage: VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, dstAccess: VK_ACCESS_2_SHADER_SAMPLED_READ_BIT)
        }
    }
}
