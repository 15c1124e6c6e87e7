// The Swift ↔ Vulkan mappings of VulkanConversions.swift.
import CSegueVulkan
import Testing

@testable import SegueVulkan

@Suite("Vulkan conversions")
struct VulkanConversionsTests {
    @Test("option sets map bit for bit and memory properties round-trip")
    func optionSets() {
        #expect(
            BufferUsage([.uniform, .transferDestination]).vk
                == VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue)
        #expect(
            ImageUsage([.colorAttachment, .transferSource]).vk
                == VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue)
        #expect(ImageUsage.depthAttachment.vk == VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue)
        for raw in VkMemoryPropertyFlags(0)..<16 {
            let p = MemoryProperties(rawValue: raw)
            #expect(MemoryProperties(vk: p.vk) == p)
        }
        #expect(
            MemoryProperties(vk: VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue)
                == .hostVisible)
        #expect(PipelineStages([]).vk == VK_PIPELINE_STAGE_2_NONE)
        #expect(
            PipelineStages.fragmentTests.vk == VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT)
        #expect(MemoryAccess([.vertexAttributeRead, .indexRead]).vk == VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_INDEX_READ_BIT)
        #expect(ShaderStages([.vertex, .fragment]).vk == VK_SHADER_STAGE_VERTEX_BIT.rawValue | VK_SHADER_STAGE_FRAGMENT_BIT.rawValue)
    }

    @Test("formats, layouts, samples and device types")
    func enums() {
        #expect(PixelFormat.rgba8Unorm.vk == VK_FORMAT_R8G8B8A8_UNORM)
        #expect(PixelFormat.depth32Float.subresourceRange.aspectMask == VK_IMAGE_ASPECT_DEPTH_BIT.rawValue)
        #expect(PixelFormat.rgba8Unorm.subresourceLayers.aspectMask == VK_IMAGE_ASPECT_COLOR_BIT.rawValue)
        #expect(ImageLayout.shaderReadOnly.vk == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)
        #expect(SampleCount.four.vk == VK_SAMPLE_COUNT_4_BIT)
        #expect(VertexFormat.float2.vk == VK_FORMAT_R32G32_SFLOAT)
        #expect(GPUDeviceType(VK_PHYSICAL_DEVICE_TYPE_CPU) == .cpu)
        #expect(GPUDeviceType(VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) == .discrete)
        #expect(BlendMode.replace.vk.blendEnable == false.vk)
        #expect(BlendMode.premultipliedOver.vk.dstColorBlendFactor == VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA)
        #expect(throws: VulkanError.outOfMemory("x")) { try check(VK_ERROR_OUT_OF_DEVICE_MEMORY, "x") }
        #expect(throws: VulkanError.deviceLost(work: nil)) { try check(VK_ERROR_DEVICE_LOST, "x") }
        #expect(throws: VulkanError.gpuTimeout(seconds: .infinity, work: nil)) { try check(VK_TIMEOUT, "x") }
    }
}
