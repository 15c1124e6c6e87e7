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
        image = try GPUImage(context: context, width: source.width, height: source.height, usage: [.sampled, .transferDestination])
        let staging = try GPUBuffer(context: context, size: source.pixels.count, usage: .transferSource, hostVisible: true)
        source.pixels.withUnsafeBytes { staging.mapped!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        staging.flush()
        let img = image
        let w = UInt32(source.width), h = UInt32(source.height)
        try context.runOnce { cb in
            imageBarrier(cb, img, from: .undefined, to: .transferDestination,
                         srcStages: [], srcAccess: [], dstStages: .transfer, dstAccess: .transferWrite)
            var region = VkBufferImageCopy()
            region.imageSubresource = img.format.subresourceLayers
            region.imageExtent = VkExtent3D(width: w, height: h, depth: 1)
            vkCmdCopyBufferToImage(cb, staging.buffer, img.image, ImageLayout.transferDestination.vk, 1, &region)
            imageBarrier(cb, img, from: .transferDestination, to: .shaderReadOnly,
                         srcStages: .transfer, srcAccess: .transferWrite, dstStages: .fragmentShader, dstAccess: .shaderSampledRead)
        }
    }
}
