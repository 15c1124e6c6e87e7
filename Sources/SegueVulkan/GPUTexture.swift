// A sampled texture made from an `Image`.
import CSegueVulkan
import SegueCore

/// An image uploaded to the GPU for sampling (RGBA8, premultiplied, stored as given).
public final class GPUTexture: @unchecked Sendable {
    let image: GPUImage
    private let context: GPUContext
    /// Kept after the first `replace` for the next ones (a stream of frames).
    private var staging: GPUBuffer?
    /// Width in pixels.
    public var width: Int { image.width }
    /// Height in pixels.
    public var height: Int { image.height }

    /// Uploads `source` through a staging buffer and waits for the copy.
    public init(context: GPUContext, image source: Image) throws(VulkanError) {
        self.context = context
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

    /// Replaces the pixels (premultiplied RGBA8, `width × height × 4` bytes) through a staging
    /// buffer kept for the next call, and waits for the copy. The caller makes sure no frame in
    /// flight samples the texture (renderers' one-frame calls return with none in flight).
    public func replace(pixels: UnsafeRawBufferPointer) throws(VulkanError) {
        precondition(pixels.count == width * height * 4, "expected \(width)x\(height) RGBA8 pixels")
        let buffer: GPUBuffer
        if let staging { buffer = staging } else {
            buffer = try GPUBuffer(context: context, size: pixels.count, usage: .transferSource, hostVisible: true)
            staging = buffer
        }
        buffer.mapped!.copyMemory(from: pixels.baseAddress!, byteCount: pixels.count)
        buffer.flush()
        let img = image
        let w = UInt32(width), h = UInt32(height)
        try context.runOnce { cb in
            imageBarrier(cb, img, from: .shaderReadOnly, to: .transferDestination,
                         srcStages: .fragmentShader, srcAccess: .shaderSampledRead, dstStages: .transfer, dstAccess: .transferWrite)
            var region = VkBufferImageCopy()
            region.imageSubresource = img.format.subresourceLayers
            region.imageExtent = VkExtent3D(width: w, height: h, depth: 1)
            vkCmdCopyBufferToImage(cb, buffer.buffer, img.image, ImageLayout.transferDestination.vk, 1, &region)
            imageBarrier(cb, img, from: .transferDestination, to: .shaderReadOnly,
                         srcStages: .transfer, srcAccess: .transferWrite, dstStages: .fragmentShader, dstAccess: .shaderSampledRead)
        }
    }
}
