// The one median and percentile of measurements: nearest rank, one of the measured values.
import SegueSystem
import Testing

@Suite("Statistics")
struct StatisticsTests {
    @Test("the median is the middle value, the upper of the two middle ones for an even count")
    func median() {
        #expect(Statistics.median([3]) == 3)
        #expect(Statistics.median([5, 1]) == 5)
        #expect(Statistics.median([9, 1, 5]) == 5)
        #expect(Statistics.median([4, 1, 3, 2]) == 3)
        #expect(Statistics.median([0.5, 0.25, 0.75, 0.125, 1]) == 0.5)
    }

    @Test("the median of runs measures one after another, at least once")
    func medianOfRuns() {
        var results: [Double] = [5, 1, 3, 8]
        var calls = 0
        let measure = { () -> Double in
            calls += 1
            return results.removeFirst()
        }
        #expect(Statistics.median(of: 3, measure) == 3 && calls == 3)
        #expect(Statistics.median(of: 0, measure) == 8 && calls == 4)
    }

    @Test("the median of elements by a key is the element itself")
    func medianByKey() {
        let runs: [(total: Double, run: Int)] = [(3, 0), (1, 1), (2, 2), (9, 3)]
        #expect(Statistics.median(runs, by: \.total).run == 0)
        #expect(Statistics.median([(total: 7.0, run: 4)], by: \.total).run == 4)
    }

    @Test("percentiles by nearest rank: p·(n − 1) rounded, the maximum at 1")
    func percentiles() {
        let values: [Double] = (1...100).reversed().map(Double.init)
        #expect(Statistics.percentiles([0, 0.5, 0.9, 0.99, 1], of: values) == [1, 51, 90, 99, 100])
        #expect(Statistics.percentiles([0.5, 0.9, 0.99, 1], of: [0.016]) == [0.016, 0.016, 0.016, 0.016])
        #expect(Statistics.percentileIndex(0.5, count: 4) == 2)
        #expect(Statistics.percentileIndex(0.5, count: 5) == 2)
        #expect(Statistics.percentileIndex(0.99, count: 10) == 9)
        #expect(Statistics.percentileIndex(0.9, count: 10) == 8)
    }
}
