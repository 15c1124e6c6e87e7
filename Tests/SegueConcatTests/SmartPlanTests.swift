// Smart rendering's plan, worked out by hand: which output frames are copied from which source
// frames and which are rendered, for keyframes that do and do not line up with the transitions,
// trims, hard cuts, and cuts off the frame grid.
import Foundation
import Segue
import Testing

@Suite("Smart rendering plan")
struct SmartPlanTests {
    /// Three 4 s clips at 30 fps (120 frames each) with 1 s transitions: clips start at output
    /// frames 0, 90 and 180; the output has 300 frames.
    private func threeClips(_ cuts: [Double] = [1, 1]) throws -> CompositionTimeline {
        try CompositionTimeline(clipDurations: [4, 4, 4], cutDurations: cuts)
    }

    @Test("keyframes every second: exactly the transitions are rendered")
    func alignedKeyframes() throws {
        let every30 = Array(stride(from: 0, to: 120, by: 30))
        let plan = try SmartPlan(
            timeline: threeClips(), fps: 30, inPoints: [0, 0, 0], keyframes: [every30, every30, every30],
            sourceFrameCounts: [120, 120, 120])
        #expect(
            plan.pieces == [
                .copy(clip: 0, sourceFrames: 0..<90, frames: 0..<90), .render(frames: 90..<120),
                .copy(clip: 1, sourceFrames: 30..<90, frames: 120..<180), .render(frames: 180..<210),
                .copy(clip: 2, sourceFrames: 30..<120, frames: 210..<300),
            ])
        #expect(plan.frameCount == 300 && plan.copiedFrames == 240 && plan.renderedFrames == 60)
    }

    @Test("keyframes every 40 frames: rendering runs from the keyframe before each transition to the keyframe after it")
    func misalignedKeyframes() throws {
        let every40 = [0, 40, 80]
        let plan = try SmartPlan(
            timeline: threeClips(), fps: 30, inPoints: [0, 0, 0], keyframes: [every40, every40, every40],
            sourceFrameCounts: [120, 120, 120])
        // Clip 1 untouched 0..<90 → copy 0..<80; clip 2 untouched 30..<90 → 40..<80 (output 130..<170);
        // clip 3 untouched 30..<120 → 40..<120, to the source's end without a keyframe there.
        #expect(
            plan.pieces == [
                .copy(clip: 0, sourceFrames: 0..<80, frames: 0..<80), .render(frames: 80..<130),
                .copy(clip: 1, sourceFrames: 40..<80, frames: 130..<170), .render(frames: 170..<220),
                .copy(clip: 2, sourceFrames: 40..<120, frames: 220..<300),
            ])
    }

    @Test("trims: a clip from 1 s to 3 s of its source copies source frames from its in point on")
    func trims() throws {
        let timeline = try CompositionTimeline(clipDurations: [4, 2], cutDurations: [0.5])
        let keys = Array(stride(from: 0, to: 120, by: 15))
        let plan = try SmartPlan(timeline: timeline, fps: 30, inPoints: [0, 1], keyframes: [keys, keys], sourceFrameCounts: [120, 120])
        // Clip 2 starts at output frame 105 and source frame 30; the transition covers its first 15
        // frames, so its untouched source frames are 45..<90: keyframes 45 and 90 bound them exactly.
        #expect(plan.frameCount == 165)
        #expect(
            plan.pieces == [
                .copy(clip: 0, sourceFrames: 0..<105, frames: 0..<105), .render(frames: 105..<120),
                .copy(clip: 1, sourceFrames: 45..<90, frames: 120..<165),
            ])
    }

    @Test("hard cuts copy clip after clip; a clip with no keyframe inside its untouched part is rendered whole")
    func hardCutsAndNoKeyframes() throws {
        let timeline = try CompositionTimeline(clipDurations: [1, 1, 1], cutDurations: [0, 0])
        let plan = try SmartPlan(
            timeline: timeline, fps: 30, inPoints: [0, 0, 0], keyframes: [[0], [0], [0]],
            sourceFrameCounts: [30, 30, 30])
        #expect(
            plan.pieces == [
                .copy(clip: 0, sourceFrames: 0..<30, frames: 0..<30), .copy(clip: 1, sourceFrames: 0..<30, frames: 30..<60),
                .copy(clip: 2, sourceFrames: 0..<30, frames: 60..<90),
            ])
        let sparse = try SmartPlan(
            timeline: try CompositionTimeline(clipDurations: [2, 2], cutDurations: [0.5]), fps: 30, inPoints: [0, 0],
            keyframes: [[0], [0]], sourceFrameCounts: [60, 60])
        // Clip 1 has no keyframe to end a copy at (45 is not one); clip 2's untouched frames 15..<60
        // hold no keyframe to start one: everything is rendered.
        #expect(sparse.pieces == [.render(frames: 0..<105)])
        #expect(sparse.copiedFrames == 0)
    }

    @Test("a cut off the frame grid cannot be joined")
    func offGrid() throws {
        let timeline = try CompositionTimeline(clipDurations: [4, 4], cutDurations: [0.45])
        #expect(throws: CompositionError("the output's length (7.55 s) is not a whole number of frames at 30 fps")) {
            try SmartPlan(timeline: timeline, fps: 30, inPoints: [0, 0], keyframes: [[0], [0]], sourceFrameCounts: [120, 120])
        }
    }
}
