// The demo's and the gallery's settings are checked by the one scale check and the one frame-rate
// rule before anything is drawn: a number a caller passes is an error, never a trap.
import Segue
import SegueTestSupport
import Testing

@testable import SegueTools

@Suite("Demo and gallery settings")
struct ToolSettingsTests {
    @Test("the demo's scale is in [0.1, 4] and its frame rate follows FrameRate (1 to 1000), as segue demo checks them")
    func demo() throws {
        let context = try TestGPU.context()
        #expect(Demo.scales == ScaleRange(minimum: 0.1, maximum: 4))
        for scale in [0, -1, 0.001, 0.09, 4.5, .infinity] {
            #expect(throws: ImageScaleError(scale: scale, range: Demo.scales)) { try Demo(directory: "d", scale: scale, context: context) }
        }
        #expect(throws: RenderError.invalidValue("fps must be a number from 1 to 1000, got 0.5")) {
            try Demo(directory: "d", fps: 0.5, context: context)
        }
        #expect(throws: RenderError.invalidValue("fps must be a number from 1 to 1000, got 1001")) {
            try Demo(directory: "d", fps: 1001, context: context)
        }
        #expect(try Demo(directory: "d", scale: 4, fps: 500, context: context).fps == 500)
    }

    @Test("the gallery's scale is in [0.1, 2] and its frame rate follows FrameRate, before its sample screens are drawn")
    func gallery() throws {
        let context = try TestGPU.context()
        #expect(Gallery.scales == ScaleRange(minimum: 0.1, maximum: 2))
        for scale in [0, 0.05, 2.5, .nan] {
            #expect(throws: (any Error).self) { try Gallery(folders: [], output: "site", context: context, scale: scale) }
        }
        #expect(throws: ImageScaleError(scale: 0, range: Gallery.scales)) {
            try Gallery(folders: [], output: "site", context: context, scale: 0)
        }
        #expect(throws: RenderError.invalidValue("fps must be a number from 1 to 1000, got 0")) {
            try Gallery(folders: [], output: "site", context: context, fps: 0)
        }
        #expect(try Gallery(folders: [], output: "site", context: context, scale: 0.1).scale == 0.1)
    }
}
