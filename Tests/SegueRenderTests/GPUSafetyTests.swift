// The Vulkan layer's safety through the high-level API: renderers keep a non-shared context
// alive, and gl-transitions files with a huge array or a uniform block beyond the device's limit
// are refused with clear errors in bounded time.
import Foundation
import Segue
import SegueTestSupport
import SegueVulkan
import Testing

@Suite("GPU safety through the renderers")
struct GPUSafetyTests {
    /// A gl-transitions file with `body` in a temporary directory; returns its path and the directory.
    private func transitionFile(_ name: String, _ body: String) throws -> (path: String, directory: TemporaryDirectory) {
        let scratch = try TemporaryDirectory("gpu")
        let path = scratch.file(name + ".glsl")
        try body.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, scratch)
    }

    @Test("a non-shared context dropped first, the renderers (full-screen, mesh transition, mesh scene) last: no crash, no leak")
    func nonSharedContextLifetime() throws {
        let black = Image(width: 8, height: 8, fill: .black), white = Image(width: 8, height: 8, fill: .white)
        weak var weakContext: GPUContext?
        var renderers: [TransitionRenderer] = []
        var scene: MeshSceneRenderer?
        do {
            let context = try GPUContext(configuration: .init())
            weakContext = context
            for name in ["fade", "cube"] {
                renderers.append(
                    try TransitionRenderer(
                        effect: try EffectCatalog.effect(name), from: black, to: white,
                        context: context, framesInFlight: 2))
            }
            scene = try MeshSceneRenderer(from: white, context: context)
        }
        #expect(weakContext != nil)
        let fade = try renderers[0].frame(progress: 0.5, time: 0.5, duration: 1)
        #expect(abs(Int(fade[4, 4].r) - 128) <= 1)
        // The cube at its ends shows exactly from and to.
        #expect(try renderers[1].frame(progress: 0, time: 0, duration: 1)[4, 4] == .black)
        #expect(try renderers[1].frame(progress: 1, time: 1, duration: 1)[4, 4] == .white)
        let flat = try #require(scene).frame(mesh: .identity(rows: 1, columns: 1))
        #expect(flat == white)
        renderers.removeAll()
        #expect(weakContext != nil)
        scene = nil
        #expect(weakContext == nil)
    }

    @Test(
        "a .glsl transition with a local or global array of 100 000 000 floats is refused in bounded time",
        .timeLimit(.minutes(1)), arguments: ["local", "global"])
    func hugeArray(kind: String) throws {
        let declaration = "float a[100000000];"
        let source = """
            // Name: huge-\(kind)
            \(kind == "global" ? declaration : "")
            vec4 transition(vec2 uv) {
                \(kind == "local" ? declaration : "")
                a[int(uv.x * 7.0)] = progress;
                return mix(getFromColor(uv), getToColor(uv), a[int(uv.y * 5.0)]);
            }
            """
        let file = try transitionFile("huge-\(kind)", source)
        let effect = try EffectCatalog.effect(file.path)
        let image = Image(width: 4, height: 4, fill: .black)
        do {
            _ = try TransitionRenderer(effect: effect, from: image, to: image, context: try TestGPU.context(), framesInFlight: 1)
            Issue.record("accepted")
        } catch let error as VulkanError {
            #expect(
                error.message.contains("declares an array of 100000000 elements, more than the limit of 65536; make its arrays smaller"),
                "\(error.message)")
        }
    }

    @Test(
        "a .glsl transition whose parameters exceed maxUniformBufferRange is refused naming the size and the limit",
        .timeLimit(.minutes(1)))
    func uniformBlockTooLarge() throws {
        let context = try TestGPU.context()
        let limit = context.maxUniformBlockSize
        guard limit <= 1 << 20 else { return }  // devices with huge limits: nothing to exceed cheaply
        // Enough vec4 parameters to pass the limit after the 64-byte header.
        let count = limit / 16 + 1
        let names = (0..<count).map { "p\($0)" }.joined(separator: ", ")
        let source = """
            // Name: many-parameters
            uniform vec4 \(names);
            vec4 transition(vec2 uv) {
                return mix(getFromColor(uv), getToColor(uv), progress) + p\(count - 1);
            }
            """
        let file = try transitionFile("many-parameters", source)
        let effect = try EffectCatalog.effect(file.path)
        let image = Image(width: 4, height: 4, fill: .black)
        do {
            _ = try TransitionRenderer(effect: effect, from: image, to: image, context: context, framesInFlight: 1)
            Issue.record("accepted")
        } catch let error as VulkanError {
            #expect(
                error.message
                    == "the effect's parameters take \(64 + 16 * count) bytes, more than this device's limit of \(limit) bytes for a uniform block (maxUniformBufferRange); declare fewer or smaller parameters"
            )
        }
    }

    /// VkResult codes injected below (the C enum's values).
    private static let deviceLost: Int32 = -4, timeout: Int32 = 2

    @Test(
        "a lost device and a GPU that does not finish in time: an error naming the effect, the context refuses more work at once, a new context renders",
        arguments: [
            (deviceLost, "the Vulkan device was lost while rendering 'fade'"),
            (timeout, "the GPU did not finish rendering 'fade' within 0.5 s"),
        ])
    func lostDevice(result: Int32, message: String) throws {
        let black = Image(width: 8, height: 8, fill: .black), white = Image(width: 8, height: 8, fill: .white)
        let fade = try EffectCatalog.effect("fade")
        let context = try GPUContext(configuration: .init(gpuTimeout: 0.5))
        let renderer = try TransitionRenderer(effect: fade, from: black, to: white, context: context, framesInFlight: 1)
        #expect(context.failure == nil)
        // The fault at the one place results are checked, for this task's calls only.
        let failed: Error? = VulkanFault.$injected.withValue(VulkanFault(call: "vkWaitForFences", result: result)) {
            do { _ = try renderer.frame(progress: 0.5, time: 0.5, duration: 1); return nil } catch { return error }
        }
        let text = (failed as? VulkanError)?.description ?? "\(String(describing: failed))"
        #expect(text.hasPrefix(message) && text.contains("this GPU context cannot be used again: create a new one"), "\(text)")
        #expect(context.failure?.breaksContext == true)
        // No fault now, but the context is broken: the next frame fails at once, naming the effect.
        do {
            _ = try renderer.frame(progress: 0.5, time: 0.5, duration: 1)
            Issue.record("a broken context rendered")
        } catch let error as VulkanError {
            #expect(error.breaksContext && error.description.contains("'fade'"), "\(error)")
        }
        let fresh = try TransitionRenderer(
            effect: fade, from: black, to: white, context: try GPUContext(configuration: .init()), framesInFlight: 1)
        #expect(abs(Int(try fresh.frame(progress: 0.5, time: 0.5, duration: 1)[4, 4].r) - 128) <= 1)
    }

    @Test(
        "a context released after a timeout does not wait for a device that never goes idle: the release returns, a thread tears it down"
    )
    func releaseAfterTimeout() throws {
        let black = Image(width: 8, height: 8, fill: .black), white = Image(width: 8, height: 8, fill: .white)
        weak var weakContext: GPUContext?
        var context: GPUContext? = try GPUContext(configuration: .init(gpuTimeout: 0.5))
        weakContext = context
        var renderer: TransitionRenderer? = try TransitionRenderer(
            effect: try EffectCatalog.effect("fade"), from: black, to: white, context: context!, framesInFlight: 1)
        _ = VulkanFault.$injected.withValue(VulkanFault(call: "vkWaitForFences", result: Self.timeout)) {
            try? renderer!.frame(progress: 0.5, time: 0.5, duration: 1)
        }
        #expect(context?.failure?.breaksContext == true)
        // The device's wait for idle stalls (20 s, standing in for a shader that never ends):
        // releasing the last references must come back after the bounded wait (1 s), not the stall.
        let clock = ContinuousClock(), start = clock.now
        VulkanFault.$injected.withValue(VulkanFault(call: "vkDeviceWaitIdle", result: Self.timeout)) {
            renderer = nil
            context = nil
        }
        let elapsed = clock.now - start
        #expect(weakContext == nil)
        #expect(elapsed < .seconds(10), "the release waited \(elapsed)")
    }

    @Test("SEGUE_GPU_TIMEOUT sets the wait for the GPU; a value that is not a positive number leaves the default")
    func timeoutSetting() {
        #expect(GPUContext.Configuration(environment: ["SEGUE_GPU_TIMEOUT": "2.5"]).gpuTimeout == 2.5)
        for text in ["0", "-1", "nan", "inf", "x", ""] {
            #expect(
                GPUContext.Configuration(environment: ["SEGUE_GPU_TIMEOUT": text]).gpuTimeout == GPUContext.Configuration.defaultGPUTimeout,
                "\(text)")
        }
        #expect(GPUContext.Configuration().gpuTimeout == 60)
    }
}
