// A sampled texture made from an `Image`.
import CSegueVulkan
import SegueCore
import SegueSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An image uploaded to the GPU for sampling (RGBA8, premultiplied, stored as given).
// @unchecked: `image` and `context` never change; `staging` is read and written only under `lock`.
public final class GPUTexture: @unchecked Sendable {
    let image: GPUImage
    private let context: GPUContext
    /// Kept after the first `replace` for the next ones (a stream of frames); under `lock`.
    private var staging: GPUBuffer?
    /// Held by `replace` from filling the staging buffer until the copy is done, so two threads
    /// replacing the same texture neither race on `staging` nor write it while it is copied.
    private let lock = PlainLock()
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
        try context.runOnce { cb in recordUpload(cb, from: staging, replacing: false) }
    }

    /// Replaces the pixels (premultiplied RGBA8, `width × height × 4` bytes) through a staging
    /// buffer kept for the next call, and waits for the copy. The caller makes sure no frame in
    /// flight samples the texture (renderers' one-frame calls return with none in flight).
    public func replace(pixels: UnsafeRawBufferPointer) throws(VulkanError) {
        try Self.replace([self], pixels: [pixels])
    }

    /// Replaces the pixels of `textures[i]` with `pixels[i]` (premultiplied RGBA8 of its size)
    /// in one submission, waited for.
    public static func replace(_ textures: [GPUTexture], pixels: [UnsafeRawBufferPointer]) throws(VulkanError) {
        precondition(textures.count == pixels.count, "one image a texture")
        for (texture, source) in zip(textures, pixels) {
            precondition(source.count == texture.width * texture.height * 4, "expected \(texture.width)x\(texture.height) RGBA8 pixels")
        }
        try replace(textures) { i, staging in staging.copyMemory(from: pixels[i]) }
    }

    /// Replaces the pixels of several textures of one context: `fill(i, memory)` writes texture
    /// i's new premultiplied RGBA8 pixels (`width × height × 4` bytes) straight into its staging
    /// buffer (kept for the next call), then one submission copies them all, and is waited for.
    /// The caller makes sure no frame in flight samples the textures.
    public static func replace(_ textures: [GPUTexture], fill: (Int, UnsafeMutableRawBufferPointer) -> Void) throws(VulkanError) {
        guard let context = textures.first?.context else { return }
        // Every texture's lock, in one order (by identity) so overlapping calls cannot deadlock.
        let locked = textures.enumerated().sorted { ObjectIdentifier($0.element) < ObjectIdentifier($1.element) }
        var held: Set<ObjectIdentifier> = []
        for (_, texture) in locked where held.insert(ObjectIdentifier(texture)).inserted { texture.lock.lock() }
        defer { for texture in textures where held.remove(ObjectIdentifier(texture)) != nil { texture.lock.unlock() } }
        var buffers: [GPUBuffer] = []
        for (i, texture) in textures.enumerated() {
            precondition(texture.context === context, "textures of one context")
            let bytes = texture.width * texture.height * 4
            let buffer: GPUBuffer
            if let staging = texture.staging {
                buffer = staging
            } else {
                buffer = try GPUBuffer(context: context, size: bytes, usage: .transferSource, hostVisible: true)
                texture.staging = buffer
            }
            fill(i, UnsafeMutableRawBufferPointer(start: buffer.mapped!, count: bytes))
            buffer.flush()
            buffers.append(buffer)
        }
        try context.runOnce { cb in
            for (texture, buffer) in zip(textures, buffers) { texture.recordUpload(cb, from: buffer, replacing: true) }
        }
    }

    /// Records the copy of `buffer` into the image, from its first upload (`replacing` false:
    /// nothing to wait for) or after earlier sampling, leaving it ready for fragment shaders.
    private func recordUpload(_ cb: VkCommandBuffer, from buffer: GPUBuffer, replacing: Bool) {
        let img = image
        imageBarrier(
            cb, img, from: replacing ? .shaderReadOnly : .undefined, to: .transferDestination,
            srcStages: replacing ? .fragmentShader : [], srcAccess: replacing ? .shaderSampledRead : [],
            dstStages: .transfer, dstAccess: .transferWrite)
        var region = VkBufferImageCopy()
        region.imageSubresource = img.format.subresourceLayers
        region.imageExtent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        vkCmdCopyBufferToImage(cb, buffer.buffer, img.image, ImageLayout.transferDestination.vk, 1, &region)
        imageBarrier(
            cb, img, from: .transferDestination, to: .shaderReadOnly,
            srcStages: .transfer, srcAccess: .transferWrite, dstStages: .fragmentShader, dstAccess: .shaderSampledRead)
    }
}
