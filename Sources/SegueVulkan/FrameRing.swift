// The in-flight slots every renderer shares: per slot a fence, the frame it holds and a persistently
// mapped readback buffer.
//
// Frame i uses slot i mod N. Before a slot is reused its previous frame is retired (its fence
// waited for, its pixels handed to the consumer straight from the mapped buffer), so frames come
// out in order while up to N are in flight and the device renders ahead of the consumer.
import CSegueVulkan

final class FrameRing {
    /// How many frames may be in flight.
    let slotCount: Int
    /// Bytes in one read-back frame.
    let frameByteCount: Int
    /// Each slot's readback buffer (nil without readback).
    let readbacks: [GPUBuffer?]
    private let fences: [VkFence]
    private var pending: [Int?]
    /// Held strongly: the device must outlive every handle made from it.
    private let context: GPUContext
    /// What the frames are of (an effect's name), for a lost device's or a timeout's message.
    var work: String?

    init(context: GPUContext, slotCount: Int, width: Int, height: Int, readback: Bool) throws(VulkanError) {
        self.context = context
        self.slotCount = slotCount
        frameByteCount = width * height * 4
        var fences: [VkFence] = [], readbacks: [GPUBuffer?] = []
        do {
            for _ in 0..<slotCount {
                fences.append(try context.makeFence(signaled: false))
                readbacks.append(
                    readback
                        ? try GPUBuffer(
                            context: context, size: width * height * 4, usage: .transferDestination,
                            hostVisible: true, preferCached: true) : nil)
            }
        } catch {
            for f in fences { vkDestroyFence(context.device, f, nil) }
            throw error
        }
        self.fences = fences
        self.readbacks = readbacks
        pending = Array(repeating: nil, count: slotCount)
    }

    deinit {
        waitIdle()
        for f in fences { vkDestroyFence(context.device, f, nil) }
    }

    /// Runs frames `0..<count`: `prepare(i, slot)` fills the slot (its previous frame already
    /// retired) and returns the command buffer to submit; `consume(i, pixels)` receives frame i
    /// in order (an empty buffer without readback). On an error the frames in flight are waited
    /// for and the error is rethrown.
    func run(
        count: Int, prepare: (_ frame: Int, _ slot: Int) throws -> VkCommandBuffer,
        consume: (Int, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        do {
            for i in 0..<count {
                let s = i % slotCount
                try retire(slot: s, consume: consume)
                let cb = try prepare(i, s)
                var f: VkFence? = fences[s]
                try check(vkResetFences(context.device, 1, &f), "vkResetFences")
                do throws(VulkanError) { try context.submit(cb, fence: fences[s]) } catch { throw context.naming(error, work) }
                pending[s] = i
            }
            // Drain in frame order.
            let first = count % slotCount
            for k in 0..<slotCount { try retire(slot: (first + k) % slotCount, consume: consume) }
        } catch {
            waitIdle()
            throw error
        }
    }

    /// Renders one frame through `run` and returns its pixels.
    func runOne(prepare: (_ slot: Int) throws(VulkanError) -> VkCommandBuffer) throws(VulkanError) -> [UInt8] {
        precondition(readbacks[0] != nil, "rendering one frame needs a renderer created with readback")
        var out: [UInt8] = []
        do {
            try run(count: 1, prepare: { _, s in try prepare(s) }, consume: { _, pixels in out = Array(pixels) })
        } catch let e as VulkanError {
            throw e
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        return out
    }

    /// Waits for every frame in flight (their pixels are dropped).
    func waitIdle() {
        for i in pending.indices where pending[i] != nil {
            context.waitBeforeTeardown(fences[i])
            pending[i] = nil
        }
    }

    private func retire(slot s: Int, consume: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        guard let frame = pending[s] else { return }
        try context.wait(fences[s], for: work)
        pending[s] = nil
        if let rb = readbacks[s] {
            rb.invalidate()
            try consume(frame, UnsafeRawBufferPointer(start: rb.mapped!, count: frameByteCount))
        } else {
            try consume(frame, UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }
}
