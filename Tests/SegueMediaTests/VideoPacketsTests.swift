// Clean cut points of H.264 streams: IDR keyframes without leading pictures. x264's open GOPs
// (`open-gop=1`) make every keyframe after the first a recovery-point I picture, which a copy
// must not be cut at; closed GOPs make every keyframe an IDR picture.
import Foundation
import SegueTestSupport
import Testing

@testable import SegueMedia

@Suite("Video packets: clean cut points")
struct VideoPacketsTests {
    /// Indices of the keyframes and of the clean ones of a 4 s 30 fps clip with a keyframe every second.
    private func keyframes(openGOP: Bool) throws -> (all: [Int], clean: [Int]) {
        let dir = try TemporaryDirectory("media")
        let path = dir.file("clip.mp4")
        let r = try runTool(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=4",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p",
                "-x264-params", openGOP ? "open-gop=1:bframes=3" : "bframes=3", path,
            ])
        #expect(r.status == 0, "\(r.stderr)")
        let packets = try MediaProbe.videoPackets(path: path)
        #expect(packets.packets.count == 120 && packets.packets.allSatisfy { $0.size != nil && $0.position != nil })
        return (packets.packets.indices.filter { packets.packets[$0].isKeyframe }, packets.cleanH264Keyframes(inFile: path))
    }

    @Test("closed GOPs: every keyframe is a clean cut point")
    func closed() throws {
        let (all, clean) = try keyframes(openGOP: false)
        #expect(all.count == 4)
        #expect(clean == all)
    }

    @Test("open GOPs: only the first keyframe (an IDR picture) is")
    func open() throws {
        let (all, clean) = try keyframes(openGOP: true)
        #expect(all.count == 4)
        #expect(clean == [0])
    }

    @Test("a keyframe followed in decode order by a picture shown before it has leading pictures")
    func leadingPictures() {
        let packets = VideoPackets(
            timeBaseNumerator: 1, timeBaseDenominator: 30,
            packets: [
                .init(pts: 0, dts: -1, isKeyframe: true), .init(pts: 2, dts: 0, isKeyframe: false),
                .init(pts: 1, dts: 1, isKeyframe: false),
                .init(pts: 5, dts: 2, isKeyframe: true), .init(pts: 3, dts: 3, isKeyframe: false), .init(pts: 4, dts: 4, isKeyframe: false),
            ])
        #expect(!packets.hasLeadingPictures(after: 0, shownFrom: 0))
        #expect(packets.hasLeadingPictures(after: 3, shownFrom: 5))
    }
}
