// GPU object lifetimes (every user of a context keeps it alive) and device selection.
import CSegueVulkan
import Foundation
import SegueCore
import SegueMath
import SegueTestSupport
import Testing

@testable import SegueVulkan

@Suite("GPU context")
struct GPUContextTests {
    @Test("renderers keep a non-shared context alive: the context reference dropped first, renderers last, no crash, no leak")
    func contextDroppedBeforeRenderers() throws {
        weak var weakContext: GPUContext?
        var fullScreen: FrameRenderer?
        var mesh: MeshRenderer?
        do {
            var context: GPUContext? = try GPUContext(configuration: .init())
            weakContext = context
            let textures = [
                try GPUTexture(context: context!, image: Image(width: 2, height: 2, fill: .black)),
                try GPUTexture(context: context!, image: Image(width: 2, height: 2, fill: .white)),
            ]
            fullScreen = try FrameRenderer(
                context: context!, fragmentGLSL: mixShader, fileName: "mix.frag", uniformSize: 16,
                textures: textures, width: 4, height: 2, framesInFlight: 2)
            mesh = try MeshRenderer(context: context!, width: 4, height: 4, textures: [textures[1]])
            context = nil
        }
        #expect(weakContext != nil, "the renderers hold the context")
        // Both still render with only the renderers holding the context.
        let mid = try #require(fullScreen).renderFrame(uniforms: progressUniforms(0.5))
        #expect(mid.count == 4 * 2 * 4)
        #expect(abs(Int(mid[0]) - 128) <= 1 && mid[3] == 255)
        var quad = MeshBuilder()
        quad.rect(-2, -2, 2, 2)
        let meshPixels = try #require(mesh).renderFrame(MeshDraw(layerWidth: 4, layerHeight: 4, geometry: quad.geometry))
        #expect(Array(meshPixels.prefix(4)) == [255, 255, 255, 255])
        fullScreen = nil
        #expect(weakContext != nil, "the mesh renderer still holds the context")
        mesh = nil
        #expect(weakContext == nil, "the context is freed with its last user")
    }

    @Test("a texture outlives the context reference it was made with")
    func textureKeepsContext() throws {
        var texture: GPUTexture?
        weak var weakContext: GPUContext?
        do {
            let context = try GPUContext(configuration: .init())
            weakContext = context
            texture = try GPUTexture(context: context, image: Image(width: 3, height: 1, fill: .white))
        }
        #expect(weakContext != nil && texture?.width == 3)
        texture = nil
        #expect(weakContext == nil)
    }

    private func device(_ index: Int, _ name: String, _ type: GPUDeviceType = .cpu, usable: Bool = true) -> GPUDeviceInfo {
        GPUDeviceInfo(index: index, name: name, type: type, driver: "test", apiVersion: "1.3.0", usable: usable)
    }

    @Test("an all-digits selector matches an index only, never a name containing the digits")
    func digitSelectorIsIndex() throws {
        let devices = [device(0, "llvmpipe (LLVM 15.0.6, 256 bits)"), device(1, "GPU 5000", .discrete)]
        #expect(try GPUContext.choose("1", among: devices) == 1)
        #expect(try GPUContext.choose("01", among: devices) == 1)
        #expect(try GPUContext.choose("0", among: devices) == 0)
        for selector in ["15", "5", "5000", "256", "99999999999999999999999"] {
            #expect(
                throws: VulkanError.deviceNotFound(selector: selector, available: ["0: llvmpipe (LLVM 15.0.6, 256 bits)", "1: GPU 5000"])
            ) {
                try GPUContext.choose(selector, among: devices)
            }
        }
        let message = VulkanError.deviceNotFound(selector: "15", available: ["0: llvmpipe"]).message
        #expect(
            message == "no Vulkan device has the index 15 (available: 0: llvmpipe); choose one of these indices or part of a device name")
        // Anything else is a case-insensitive name substring; nil prefers a discrete GPU.
        #expect(try GPUContext.choose("LLVM 15", among: devices) == 0)
        #expect(try GPUContext.choose("gpu", among: devices) == 1)
        #expect(try GPUContext.choose(nil, among: devices) == 1)
        #expect(throws: VulkanError.self) { try GPUContext.choose("radeon", among: devices) }
    }

    @Test("a real context: an index past the last device is refused with the list of devices")
    func realDigitSelector() throws {
        let devices = try GPUContext.listDevices()
        let selector = String(devices.count + 14)
        #expect(throws: VulkanError.deviceNotFound(selector: selector, available: devices.map { "\($0.index): \($0.name)" })) {
            try GPUContext(configuration: .init(deviceSelector: selector))
        }
        let first = try GPUContext(configuration: .init(deviceSelector: "0"))
        #expect(first.info.index == 0)
    }

    @Test("the configuration comes from an explicit environment: --device over SEGUE_DEVICE, the cache directory in order")
    func configurationFromEnvironment() throws {
        let env = ["SEGUE_DEVICE": "1", "SEGUE_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"]
        #expect(GPUContext.Configuration(environment: env) == .init(deviceSelector: "1", shaderCacheDirectory: "/c"))
        #expect(GPUContext.Configuration(environment: env, deviceSelector: "2").deviceSelector == "2")
        #expect(GPUContext.Configuration(environment: ["SEGUE_DEVICE": ""]) == .init())
        #expect(ShaderCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]) == "/x/segue/spirv")
        #expect(ShaderCache.defaultDirectory(environment: ["HOME": "/h", "SEGUE_CACHE_DIR": ""]) == "/h/.cache/segue/spirv")
        #expect(ShaderCache.defaultDirectory(environment: [:]) == nil)
        // A context made with the default configuration keeps no disk cache.
        #expect(try TestGPU.context().configuration.shaderCacheDirectory == nil)
        #expect(try TestGPU.context().compiler.cache == nil)
    }
}

@Suite("GPU context: results of calls on its queue")
struct GPUContextResultTests {
    @Test("a lost device reported by any queue call (a present, a submit) breaks the context; a stale swapchain does not")
    func queueResults() throws {
        let stale = try GPUContext(configuration: .init())
        #expect(throws: VulkanError.self) { try stale.checkResult(VK_ERROR_OUT_OF_DATE_KHR, "vkQueuePresentKHR") }
        #expect(stale.failure == nil, "an out-of-date swapchain is rebuilt, not a broken device")

        let lost = try GPUContext(configuration: .init())
        #expect(throws: VulkanError.deviceLost(work: nil)) { try lost.checkResult(VK_ERROR_DEVICE_LOST, "vkQueuePresentKHR") }
        #expect(lost.failure == .deviceLost(work: nil))
        // Every later submission fails at once, without reaching the driver, and without naming
        // its own work as the one that broke the context (no work was named for it).
        var info = VkSubmitInfo()
        info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
        #expect(throws: VulkanError.deviceLost(work: "earlier work")) { try lost.submit(info, fence: nil) }
        // Once the caller names the work that failed, the failure is that work's: later calls
        // name it (they named their own: "rendering 'fade'" after 'doom-melt' broke the context).
        #expect(lost.naming(.deviceLost(work: nil), "'doom-melt'") == .deviceLost(work: "'doom-melt'"))
        #expect(lost.failure == .deviceLost(work: "'doom-melt'"))
        #expect(throws: VulkanError.deviceLost(work: "'doom-melt'")) { try lost.submit(info, fence: nil) }
        #expect(lost.naming(.deviceLost(work: nil), "'fade'") == .deviceLost(work: "'fade'"))
        #expect(lost.failure == .deviceLost(work: "'doom-melt'"), "named once, by the first")
    }
}
