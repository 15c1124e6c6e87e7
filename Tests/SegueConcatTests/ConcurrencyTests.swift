import Dispatch
import Testing

@testable import SegueConcat

@Suite("Running a render's jobs at once")
struct ConcurrencyTests {
    @Test("alongside: the side runs on its own thread while the main part runs, and both results come back")
    func alongsideOverlaps() {
        for round in 0..<200 {
            // Each part waits for the other's signal: only parts that run at the same time both get it.
            let toSide = DispatchSemaphore(value: 0), toMain = DispatchSemaphore(value: 0)
            let (side, main) = alongside(
                for: "test",
                {
                    toMain.signal()
                    return (round, toSide.wait(timeout: .now() + 10) == .success)
                },
                {
                    toSide.signal()
                    return toMain.wait(timeout: .now() + 10) == .success
                })
            #expect(side.0 == round && side.1 && main, "round \(round)")
        }
    }

    @Test("concurrentMap: every index once, results in order")
    func concurrentMapInOrder() {
        #expect(concurrentMap(3..<103) { $0 * $0 } == (3..<103).map { $0 * $0 })
        #expect(concurrentMap(0..<0) { $0 }.isEmpty)
    }
}
