// The error a program gets when the driver refuses a device to a child forked while its parent
// had GPU contexts open (NVIDIA's driver does; lavapipe does not, so only the C fixture's fork
// mode on such a GPU meets it for real): a failing Vulkan call becomes `.refusedAfterFork`, which
// names both processes and what to do (the C API's SEGUE_ERROR_FORKED); anything else keeps the
// driver's error. The counts are given, never the process-wide ones changed.
import Foundation
import SegueTestSupport
import Testing

@testable import SegueVulkan

@Suite("A device refused in a forked child")
struct OpenContextsTests {
    private let refused = VulkanError.call("vkCreateDevice", code: -3)

    @Test("in a child of a process with contexts open, a failing call says why and what to do")
    func explained() {
        let error = OpenContexts.explain(refused, in: 200, parent: .init(process: 100, open: 1, refusingDriver: false))
        #expect(
            error
                == .refusedAfterFork(
                    ForkRefusal(process: 200, parent: 100, open: 1, refusal: "Vulkan call vkCreateDevice failed (VkResult -3)")))
        #expect(
            error.description
                == "could not open a GPU context in process 200, a child made by fork() while process 100 had a context open "
                + "(Vulkan call vkCreateDevice failed (VkResult -3)): this Vulkan driver opens no device in a child forked from a "
                + "process that holds one (NVIDIA's does not); create contexts only after forking, or start the child with exec "
                + "(posix_spawn; Python's multiprocessing 'spawn' or 'forkserver' start methods)")
        #expect(
            OpenContexts.explain(refused, in: 200, parent: .init(process: 100, open: 2, refusingDriver: false)).description.contains(
                "while process 100 had 2 contexts open"))
        #expect(!error.breaksContext)
    }

    @Test(
        "the driver's own error stays where a fork does not explain it: the same process, no context open, no count yet",
        arguments: [(200, 200, 1), (200, 100, 0), (200, 0, 0)] as [(Int32, Int32, Int)])
    func unexplained(me: Int32, parent: Int32, open: Int) {
        #expect(OpenContexts.explain(refused, in: me, parent: .init(process: parent, open: open, refusingDriver: false)) == refused)
    }

    @Test("other errors stay what they are in a child too: another failing call, a selector that matches nothing, no driver")
    func otherErrors() {
        for error in [
            VulkanError.call("vkCreateDevice", code: -8),  // VK_ERROR_FEATURE_NOT_PRESENT: the device, not the fork
            .deviceNotFound(selector: "bogus", available: ["0: llvmpipe"]), .noDriver(detail: "none"),
        ] {
            #expect(OpenContexts.explain(error, in: 200, parent: .init(process: 100, open: 1, refusingDriver: false)) == error)
        }
    }

    @Test("this process's own contexts: a context opened here is counted here, so its errors are never called a fork's")
    func ownProcess() throws {
        _ = try TestGPU.context()
        #expect(OpenContexts.explain(refused, in: getpid()) == refused)
    }

    @Test("a child of a process with a context on a refusing driver (NVIDIA's) is refused before any call into the driver")
    func refusedBeforeCalling() {
        let parent = OpenContexts.Count(process: 100, open: 1, refusingDriver: true)
        #expect(
            OpenContexts.refusal(in: 200, parent: parent)
                == .refusedAfterFork(
                    ForkRefusal(
                        process: 200, parent: 100, open: 1,
                        refusal: "not tried: the parent's driver refuses a device to a forked child, or hangs in it")))
        // The parent itself, a parent whose contexts are closed, and a driver that does not refuse: calls go ahead.
        #expect(OpenContexts.refusal(in: 100, parent: parent) == nil)
        #expect(OpenContexts.refusal(in: 200, parent: .init(process: 100, open: 0, refusingDriver: true)) == nil)
        #expect(OpenContexts.refusal(in: 200, parent: .init(process: 100, open: 3, refusingDriver: false)) == nil)
        // This process's own count never refuses it (lavapipe, here, does not refuse in any case).
        _ = try? TestGPU.context()
        #expect(OpenContexts.refusal(in: getpid()) == nil)
    }
}
