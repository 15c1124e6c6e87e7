// `segue bench --animations`: what one frame of the animation engine costs as the number of
// running animations grows. Each property runs one animation (a third basic ease-in-out, a
// third spring, a third keyframes with per-segment curves), all on repeat, so every frame
// evaluates every property; hosts hold 100 properties each.
import Foundation
import Segue

struct AnimationBenchmark {
    /// Numbers of animated properties to measure.
    let counts: [Int]
    /// Frames evaluated per measurement.
    let frames: Int

    func run() throws {
        print("Animation engine: one AnimationContext.update() per frame, \(frames) frames, every property animated")
        print("properties".padding(toLength: 12, withPad: " ", startingAt: 0) + "   ms/frame     frames/s   ns/property")
        for count in counts {
            let seconds = try measure(count)
            let perFrame = seconds / Double(frames)
            print(String(format: "%10d   %8.3f   %10.1f   %11.1f", count, perFrame * 1000, 1 / perFrame,
                         perFrame * 1e9 / Double(count)))
        }
    }

    private func measure(_ count: Int) throws -> Double {
        let clock = FrameClock(framesPerSecond: 60)
        let context = AnimationContext(clock: clock)
        let spring = try Spring(response: 0.5, dampingFraction: 0.6)
        let keyframes = try KeyframeAnimation(values: [0.0, 1, -1, 0.5, 0], keyTimes: [0, 0.2, 0.5, 0.8, 1],
                                              timingFunctions: Array(repeating: .easeInEaseOut, count: 4),
                                              timing: MediaTiming(duration: 2, repeatCount: .infinity))
        var hosts: [AnimationHost] = []
        for index in 0..<count {
            if index % 100 == 0 { hosts.append(AnimationHost(context: context)) }
            let property = hosts[hosts.count - 1].addProperty("p\(index % 100)", initialValue: 0.0, needsDisplay: true)
            switch index % 3 {
            case 0:
                property.addAnimation(BasicAnimation(fromValue: 0.0, toValue: 1,
                                                     timing: MediaTiming(duration: 1.5, repeatCount: .infinity, autoreverses: true,
                                                                         timingFunction: .easeInEaseOut)), forKey: property.key)
            case 1:
                property.addAnimation(SpringAnimation(spring: spring, fromValue: 0.0, toValue: 1,
                                                      timing: MediaTiming(repeatCount: .infinity)), forKey: property.key)
            default:
                property.addAnimation(keyframes, forKey: property.key)
            }
        }
        // Warm-up frame (commits), then the timed frames.
        context.update()
        var checksum = 0.0
        var evaluated = 0
        let start = DispatchTime.now()
        for _ in 0..<frames {
            clock.advance()
            evaluated += context.update()
            checksum += hosts[0].presentationValue(forKey: "p0", as: Double.self)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        guard checksum.isFinite, evaluated == count * frames else {
            throw CLIFailure(message: "animation benchmark: evaluated \(evaluated) properties, expected \(count * frames)")
        }
        return seconds
    }
}
