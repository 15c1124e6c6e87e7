import CSegueVulkan
// Renders mesh-transform frames with several frames in flight, reading them back as RGBA8.
//
// Each in-flight slot owns a uniform buffer, a descriptor set, a colour target, a readback buffer
// (in the `FrameRing`), a command buffer re-recorded per frame, and host-visible vertex and index
// buffers for meshes that change every frame. A slot's buffers are written only after its fence
// (the ring retires the slot's previous frame first), so streaming meshes never stall or corrupt
// the frames still in flight; they grow (doubling) when a bigger mesh arrives. A static mesh lives
// in device-local buffers uploaded once. The depth buffer (and the 4× multisampled colour buffer
// with antialiasing) is shared by all slots: the queue runs frames in order and a barrier at the
// start of each frame orders it after the previous one.
import SegueCore
import SegueMath

/// Renders frames of a mesh over two textures (`from`, `to`) at one output size.
public final class MeshRenderer {
    /// How a renderer is set up; the defaults suit video output.
    public struct Options: Sendable {
        /// How many frames may be in flight at once.
        public var framesInFlight: Int
        /// 4× multisampling for smooth edges. Off by default, as Core Animation's
        /// `allowsEdgeAntialiasing`; costs about one extra full-size pass on CPU renderers.
        public var antialiasing: Bool
        /// Whether frames are copied back to host memory (false measures rendering alone).
        public var readback: Bool

        /// Options with the given values.
        public init(framesInFlight: Int = 3, antialiasing: Bool = false, readback: Bool = true) {
            self.framesInFlight = framesInFlight
            self.antialiasing = antialiasing
            self.readback = readback
        }
    }

    private struct Slot {
        var commandBuffer: VkCommandBuffer
        var uniforms: GPUBuffer
        var descriptorSet: VkDescriptorSet
        var target: GPUImage
        var vertices: GPUBuffer?
        var indices: GPUBuffer?
    }

    /// Output width in pixels.
    public let width: Int
    /// Output height in pixels.
    public let height: Int
    /// The options the renderer was created with.
    public let options: Options
    /// Bytes in one read-back frame (`width × height × 4`).
    public var frameByteCount: Int { width * height * 4 }

    private let context: GPUContext
    private let pipeline: GraphicsPipeline
    private let pools: FramePools
    private let ring: FrameRing
    private let depth: GPUImage
    private let multisampled: GPUImage?
    private var slots: [Slot] = []
    private var textures: [GPUTexture]
    private var staticMesh: (vertices: GPUBuffer, indices: GPUBuffer, indexCount: Int)?

    /// Compiles (or fetches from the caches) the mesh pipeline and allocates the in-flight slots.
    /// - Parameters:
    ///   - width: output width in pixels (the layer's width in points × the pixel scale).
    ///   - height: output height in pixels.
    ///   - textures: `[from, to]`, or `[from]` to sample one texture for both.
    /// - Throws: `VulkanError` (`.unsupportedDevice` when antialiasing is asked for and the device
    ///   lacks 4× multisampling).
    public init(context: GPUContext, width: Int, height: Int, textures: [GPUTexture], options: Options = Options()) throws(VulkanError) {
        precondition(width > 0 && height > 0 && options.framesInFlight > 0)
        precondition((1...2).contains(textures.count), "a mesh samples one or two textures, got \(textures.count)")
        self.context = context
        self.width = width
        self.height = height
        self.options = options
        self.textures = textures
        let samples: SampleCount = options.antialiasing ? .four : .one
        if options.antialiasing {
            let supported = context.limits.framebufferColorSampleCounts & context.limits.framebufferDepthSampleCounts
            guard supported & samples.vk.rawValue != 0 else {
                throw .unsupportedDevice("no 4× multisampling for colour and depth; render meshes without antialiasing")
            }
        }
        pipeline = try MeshPipeline.pipeline(context: context, samples: samples)
        pools = try FramePools(context: context, slots: options.framesInFlight, textureCount: 2, resettable: true)
        ring = try FrameRing(context: context, slotCount: options.framesInFlight, width: width, height: height, readback: options.readback)
        ring.work = "a mesh"
        depth = try GPUImage(
            context: context, width: width, height: height, usage: .depthAttachment, format: .depth32Float, samples: samples)
        multisampled =
            options.antialiasing
            ? try GPUImage(context: context, width: width, height: height, usage: .colorAttachment, samples: samples)
            : nil
        for _ in 0..<options.framesInFlight { slots.append(try makeSlot()) }
    }

    deinit { ring.waitIdle() }

    // MARK: - Meshes and textures

    /// Uploads a mesh once into device-local memory; draws without geometry use it.
    /// Waits for the frames in flight first.
    /// - Throws: `VulkanError` when memory runs out.
    public func setMesh(_ geometry: MeshGeometry) throws(VulkanError) {
        ring.waitIdle()
        staticMesh = nil
        let v = try upload(geometry.vertices, usage: .vertex)
        let i = try upload(geometry.indices, usage: .index)
        staticMesh = (v, i, geometry.indices.count)
    }

    /// Uploads a mesh once from interleaved vertices (9 floats each, see `MeshGeometry`) and
    /// triangle-list indices.
    public func setMesh(vertices: [Float], indices: [UInt32]) throws(VulkanError) {
        try setMesh(MeshGeometry(vertices: vertices, indices: indices))
    }

    /// Replaces the textures (`[from, to]` or `[from]`), after the frames in flight finish.
    public func setTextures(_ newTextures: [GPUTexture]) {
        precondition((1...2).contains(newTextures.count), "a mesh samples one or two textures, got \(newTextures.count)")
        ring.waitIdle()
        textures = newTextures
        for s in slots {
            pools.writeDescriptors(
                s.descriptorSet, pipeline: pipeline, uniforms: s.uniforms, uniformSize: MeshPipeline.uniformSize,
                textures: boundTextures)
        }
    }

    // MARK: - Rendering

    /// Renders frames `0..<count`. `draw(i)` gives frame i's uniforms and, for a changing mesh,
    /// its geometry; `consume(i, pixels)` receives frame i's premultiplied RGBA8 pixels (rows top
    /// to bottom, transparent background) in order, valid only during the call. Without
    /// readback, `consume` gets an empty buffer once frame i is done.
    /// - Throws: `VulkanError`, or whatever `draw` or `consume` throw (frames in flight are
    ///   waited for before returning).
    public func render(count: Int, draw: (Int) throws -> MeshDraw, consume: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        try ring.run(count: count, prepare: { i, s in try prepare(slot: s, draw: draw(i)) }, consume: consume)
    }

    /// Renders one frame and returns its premultiplied RGBA8 pixels.
    public func renderFrame(_ draw: MeshDraw) throws(VulkanError) -> [UInt8] {
        try ring.runOne { s throws(VulkanError) in try prepare(slot: s, draw: draw) }
    }

    /// Renders one frame into the colour target, waits for it, and hands the target to a
    /// presenter (create the renderer without readback).
    public func renderForPresentation(_ draw: MeshDraw) throws -> PresentationSource {
        try ring.run(count: 1, prepare: { _, s in try prepare(slot: s, draw: draw) }, consume: { _, _ in })
        return PresentationSource(image: slots[0].target, layout: options.readback ? .transferSource : .colorAttachment)
    }

    private var boundTextures: [GPUTexture] { [textures[0], textures[textures.count - 1]] }

    /// Writes the slot's uniforms and geometry (its previous frame is done) and records its commands.
    private func prepare(slot s: Int, draw: MeshDraw) throws(VulkanError) -> VkCommandBuffer {
        precondition(draw.layerWidth > 0 && draw.layerHeight > 0, "the layer needs a positive size")
        let l = draw.lightDirection
        precondition(
            l.x.isFinite && l.y.isFinite && l.z.isFinite && (l.x != 0 || l.y != 0 || l.z != 0),
            "the light direction must be a finite, non-zero vector")
        let uniforms = MeshPipeline.uniforms(for: draw)
        write(uniforms, to: slots[s].uniforms)

        let vertexBuffer: VkBuffer, indexBuffer: VkBuffer, indexCount: Int
        if let geometry = draw.geometry {
            let v = try grow(slots[s].vertices, to: geometry.vertices.count * 4, usage: .vertex)
            let i = try grow(slots[s].indices, to: geometry.indices.count * 4, usage: .index)
            slots[s].vertices = v
            slots[s].indices = i
            write(geometry.vertices, to: v)
            write(geometry.indices, to: i)
            (vertexBuffer, indexBuffer, indexCount) = (v.buffer, i.buffer, geometry.indices.count)
        } else {
            guard let mesh = staticMesh else { preconditionFailure("no mesh to draw: call setMesh or give the draw geometry") }
            (vertexBuffer, indexBuffer, indexCount) = (mesh.vertices.buffer, mesh.indices.buffer, mesh.indexCount)
        }
        let slot = slots[s]
        try record(
            slot.commandBuffer, slot: slot, vertices: vertexBuffer, indices: indexBuffer, indexCount: indexCount,
            readback: ring.readbacks[s])
        return slot.commandBuffer
    }

    // MARK: - Buffers

    /// `buffer` when it holds `bytes`, else a new host-visible buffer of at least twice its size.
    private func grow(_ buffer: GPUBuffer?, to bytes: Int, usage: BufferUsage) throws(VulkanError) -> GPUBuffer {
        if let buffer, buffer.size >= bytes { return buffer }
        let size = max(bytes, 2 * (buffer?.size ?? 0), 4096)
        return try GPUBuffer(context: context, size: size, usage: usage, hostVisible: true)
    }

    private func write<T>(_ values: [T], to buffer: GPUBuffer) {
        guard !values.isEmpty else { return }
        values.withUnsafeBytes { buffer.mapped!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        buffer.flush()
    }

    /// A device-local buffer holding `values`, copied through a staging buffer.
    private func upload<T>(_ values: [T], usage: BufferUsage) throws(VulkanError) -> GPUBuffer {
        let bytes = max(values.count * MemoryLayout<T>.stride, 4)
        let staging = try GPUBuffer(context: context, size: bytes, usage: .transferSource, hostVisible: true)
        write(values, to: staging)
        let buffer = try GPUBuffer(context: context, size: bytes, usage: usage.union(.transferDestination), hostVisible: false)
        try context.runOnce { cb in
            var region = VkBufferCopy(srcOffset: 0, dstOffset: 0, size: VkDeviceSize(bytes))
            vkCmdCopyBuffer(cb, staging.buffer, buffer.buffer, 1, &region)
            // Later submissions on the queue read it as vertices or indices.
            var barrier = VkMemoryBarrier2()
            barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2
            barrier.srcStageMask = PipelineStages.transfer.vk
            barrier.srcAccessMask = MemoryAccess.transferWrite.vk
            barrier.dstStageMask = PipelineStages.vertexInput.vk
            barrier.dstAccessMask = MemoryAccess([.vertexAttributeRead, .indexRead]).vk
            recordDependency(cb, memory: &barrier)
        }
        return buffer
    }

    // MARK: - Slots and commands

    private func makeSlot() throws(VulkanError) -> Slot {
        let ubo = try GPUBuffer(context: context, size: MeshPipeline.uniformSize, usage: .uniform, hostVisible: true)
        let target = try GPUImage(context: context, width: width, height: height, usage: [.colorAttachment, .transferSource])
        let set = try pools.makeDescriptorSet(for: pipeline, uniforms: ubo, uniformSize: MeshPipeline.uniformSize, textures: boundTextures)
        let cb = try pools.makeCommandBuffer()
        return Slot(commandBuffer: cb, uniforms: ubo, descriptorSet: set, target: target)
    }

    private func record(
        _ cb: VkCommandBuffer, slot: Slot, vertices: VkBuffer, indices: VkBuffer, indexCount: Int,
        readback: GPUBuffer?
    ) throws(VulkanError) {
        try check(vkResetCommandBuffer(cb, 0), "vkResetCommandBuffer")
        try beginCommandBuffer(cb, oneTimeSubmit: true)

        // The shared depth (and multisampled colour) image: after the previous frame's use.
        imageBarrier(
            cb, depth, from: .undefined, to: .depthAttachment,
            srcStages: .fragmentTests, srcAccess: .depthAttachmentWrite,
            dstStages: .fragmentTests, dstAccess: [.depthAttachmentRead, .depthAttachmentWrite])
        let colourImages = [slot.target] + (multisampled.map { [$0] } ?? [])
        for image in colourImages {
            imageBarrier(
                cb, image, from: .undefined, to: .colorAttachment,
                srcStages: [.transfer, .colorAttachmentOutput], srcAccess: .colorAttachmentWrite,
                dstStages: .colorAttachmentOutput, dstAccess: [.colorAttachmentRead, .colorAttachmentWrite])
        }

        var colour = VkRenderingAttachmentInfo(
            view: multisampled?.view ?? slot.target.view, layout: .colorAttachment, load: .clear,
            store: multisampled == nil ? .store : .dontCare)
        colour.clearValue.color.float32 = (0, 0, 0, 0)
        if multisampled != nil {
            colour.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT
            colour.resolveImageView = slot.target.view
            colour.resolveImageLayout = ImageLayout.colorAttachment.vk
        }
        var depthAttachment = VkRenderingAttachmentInfo(view: depth.view, layout: .depthAttachment, load: .clear, store: .dontCare)
        depthAttachment.clearValue.depthStencil = VkClearDepthStencilValue(depth: 1, stencil: 0)
        beginRendering(cb, width: width, height: height, colour: &colour, depth: &depthAttachment)
        if indexCount > 0 {
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.pipeline)
            var set: VkDescriptorSet? = slot.descriptorSet
            vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, 0, 1, &set, 0, nil)
            var vb: VkBuffer? = vertices
            var offset: VkDeviceSize = 0
            vkCmdBindVertexBuffers(cb, 0, 1, &vb, &offset)
            vkCmdBindIndexBuffer(cb, indices, 0, VK_INDEX_TYPE_UINT32)
            setViewportAndScissor(cb, width: width, height: height)
            vkCmdDrawIndexed(cb, UInt32(indexCount), 1, 0, 0, 0)
        }
        vkCmdEndRendering(cb)
        if let readback { recordReadback(cb, from: slot.target, into: readback) }
        try check(vkEndCommandBuffer(cb), "vkEndCommandBuffer")
    }
}
