// Renders a sequence of frames of one full-screen effect with several frames in flight.
//
// Each in-flight slot owns a uniform buffer, a descriptor set, a colour target, a persistently
// mapped readback buffer (in the `FrameRing`) and a command buffer recorded once (clear → draw → copy to the
// readback buffer). Per frame the host only writes the slot's uniforms and resubmits. While
// the device renders frames i+1 … i+N−1, the caller consumes frame i straight from the mapped
// buffer, so shading, readback and encoding overlap.
import CSegueVulkan

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders frames of one fragment shader at one size, reading them back as RGBA8.
public final class FrameRenderer {
    private struct Slot {
        var commandBuffer: VkCommandBuffer
        var uniforms: GPUBuffer
        var descriptorSet: VkDescriptorSet
        var target: GPUImage
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
    private let pipeline: GraphicsPipeline
    private let uniformSize: Int
    private let pools: FramePools
    private let ring: FrameRing

    /// What the frames are of, for the message of a lost device or a timeout (default: the
    /// shader's file name, quoted).
    public var work: String? {
        get { ring.work }
        set { ring.work = newValue }
    }
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
    /// - Throws: `VulkanError` (compile errors carry the compiler's `file:line` messages;
    ///   `.uniformBlockTooLarge` when `uniformSize` exceeds the device's uniform buffer range,
    ///   `.shaderTooLarge` when the shader declares too much private memory).
    public init(
        context: GPUContext, fragmentGLSL: String, fileName: String, uniformSize: Int, textures: [GPUTexture],
        width: Int, height: Int, framesInFlight: Int = 3, readback: Bool = true
    ) throws(VulkanError) {
        precondition(width > 0 && height > 0 && framesInFlight > 0 && uniformSize > 0)
        try context.checkUniformBlock(size: uniformSize)
        self.context = context
        self.width = width
        self.height = height
        self.readsBack = readback
        self.framesInFlight = framesInFlight
        self.uniformSize = uniformSize
        self.textures = textures
        pipeline = try context.pipeline(fragmentGLSL: fragmentGLSL, fileName: fileName, textureCount: textures.count)
        pools = try FramePools(context: context, slots: framesInFlight, textureCount: textures.count)
        ring = try FrameRing(context: context, slotCount: framesInFlight, width: width, height: height, readback: readback)
        ring.work = "'\(fileName)'"
        for s in 0..<framesInFlight { slots.append(try makeSlot(readback: ring.readbacks[s])) }
    }

    deinit { ring.waitIdle() }

    // MARK: - Rendering

    /// Renders frames `0..<count`. `uniforms(i)` gives frame i's uniform bytes; `consume(i, pixels)`
    /// receives frame i's premultiplied RGBA8 pixels (rows top to bottom) in order, valid only
    /// during the call. Without readback, `consume` gets an empty buffer once frame i is done.
    /// - Throws: `VulkanError`, or whatever `uniforms` or `consume` throw (frames in flight are
    ///   waited for before returning).
    public func render(
        count: Int, uniforms: (Int) throws -> [UInt8],
        consume: (Int, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try ring.run(count: count, prepare: { i, s in try prepare(slot: s, uniformBytes: uniforms(i)) }, consume: consume)
    }

    /// Renders one frame and returns its premultiplied RGBA8 pixels.
    public func renderFrame(uniforms: [UInt8]) throws(VulkanError) -> [UInt8] {
        try ring.runOne { s throws(VulkanError) in try prepare(slot: s, uniformBytes: uniforms) }
    }

    /// Renders one frame into the colour target, waits for it, and hands the target to a
    /// presenter (no readback needed: create the renderer with `readback: false`).
    public func renderForPresentation(uniforms: [UInt8]) throws -> PresentationSource {
        try ring.run(count: 1, prepare: { _, s in try prepare(slot: s, uniformBytes: uniforms) }, consume: { _, _ in })
        return PresentationSource(image: slots[0].target, layout: readsBack ? .transferSource : .colorAttachment)
    }

    /// Replaces the textures (same count), after the frames in flight finish.
    public func setTextures(_ newTextures: [GPUTexture]) {
        precondition(newTextures.count == textures.count, "texture count is fixed by the pipeline")
        ring.waitIdle()
        textures = newTextures
        for s in slots {
            pools.writeDescriptors(s.descriptorSet, pipeline: pipeline, uniforms: s.uniforms, uniformSize: uniformSize, textures: textures)
        }
    }

    private func prepare(slot s: Int, uniformBytes: [UInt8]) throws(VulkanError) -> VkCommandBuffer {
        precondition(uniformBytes.count <= uniformSize, "uniform block is \(uniformSize) bytes, got \(uniformBytes.count)")
        let slot = slots[s]
        uniformBytes.withUnsafeBytes { slot.uniforms.mapped!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        slot.uniforms.flush()
        return slot.commandBuffer
    }

    // MARK: - Slots

    private func makeSlot(readback: GPUBuffer?) throws(VulkanError) -> Slot {
        let ubo = try GPUBuffer(context: context, size: uniformSize, usage: .uniform, hostVisible: true)
        let target = try GPUImage(context: context, width: width, height: height, usage: [.colorAttachment, .transferSource])
        let set = try pools.makeDescriptorSet(for: pipeline, uniforms: ubo, uniformSize: uniformSize, textures: textures)
        let cb = try pools.makeCommandBuffer()
        try record(cb, target: target, descriptorSet: set, readback: readback)
        return Slot(commandBuffer: cb, uniforms: ubo, descriptorSet: set, target: target)
    }

    private func record(_ cb: VkCommandBuffer, target: GPUImage, descriptorSet: VkDescriptorSet, readback: GPUBuffer?) throws(VulkanError) {
        try beginCommandBuffer(cb, oneTimeSubmit: false)
        imageBarrier(
            cb, target, from: .undefined, to: .colorAttachment, srcStages: .transfer, srcAccess: [],
            dstStages: .colorAttachmentOutput, dstAccess: .colorAttachmentWrite)
        // The full-screen triangle writes every pixel: nothing to load or clear.
        var attachment = VkRenderingAttachmentInfo(view: target.view, layout: .colorAttachment, load: .dontCare, store: .store)
        beginRendering(cb, width: width, height: height, colour: &attachment)
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.pipeline)
        var set: VkDescriptorSet? = descriptorSet
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, 0, 1, &set, 0, nil)
        setViewportAndScissor(cb, width: width, height: height)
        vkCmdDraw(cb, 3, 1, 0, 0)
        vkCmdEndRendering(cb)
        if let readback { recordReadback(cb, from: target, into: readback) }
        try check(vkEndCommandBuffer(cb), "vkEndCommandBuffer")
    }
}
