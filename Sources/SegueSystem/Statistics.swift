// Order statistics of measurements: the median the benchmarks report and the percentiles of a
// live view's frame intervals. Nearest rank, no interpolation: every figure is one of the
// measured values (index p·(n − 1) rounded half away from zero in the sorted values, so the
// median of an even count is the upper of the two middle values).

/// Percentiles and medians of measured values.
package enum Statistics {
    /// The index in `count` sorted values of percentile `p` (0…1): p·(count − 1) rounded to the
    /// nearest, halves up. `count` must be positive.
    package static func percentileIndex(_ p: Double, count: Int) -> Int {
        precondition(count > 0 && (0...1).contains(p), "a percentile in 0…1 of at least one value")
        return min(count - 1, Int((p * Double(count - 1)).rounded()))
    }

    /// Percentiles `ps` (each 0…1) of `values` (not empty), in the order of `ps`.
    package static func percentiles(_ ps: [Double], of values: [Double]) -> [Double] {
        let sorted = values.sorted()
        return ps.map { sorted[percentileIndex($0, count: sorted.count)] }
    }

    /// The median of `values` (not empty): the middle value, the upper of the two for an even count.
    package static func median(_ values: [Double]) -> Double {
        percentiles([0.5], of: values)[0]
    }

    /// The median of `runs` (at least one) results of `measure`, taken one after another.
    package static func median(of runs: Int, _ measure: () throws -> Double) rethrows -> Double {
        var values: [Double] = []
        for _ in 0..<max(runs, 1) { values.append(try measure()) }
        return median(values)
    }

    /// The element of `values` (not empty) whose `key` is the median of their keys.
    package static func median<T>(_ values: [T], by key: (T) -> Double) -> T {
        let sorted = values.sorted { key($0) < key($1) }
        return sorted[percentileIndex(0.5, count: sorted.count)]
    }
}
