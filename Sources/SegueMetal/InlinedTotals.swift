// What a function costs once the compilers have inlined every call in it: its own count (tokens,
// texture reads) plus, for each call, the callee's inlined count. GLSL and Metal have no
// recursion, so the call graph has no cycle; one that does (a file the compiler will refuse) counts
// each function once along a path. Helpers that call the one before twice double at each level,
// so the sums saturate instead of overflowing.

/// Inlined totals over a call graph.
package enum InlinedTotals {
    /// Each function's inlined total: `own[f]` plus the inlined total of every callee in `calls[f]`
    /// (one entry per call site; names without an entry in `own` or `calls` count 0).
    package static func of(own: [String: Int], calls: [String: [String]]) -> [String: Int] {
        var totals: [String: Int] = [:]
        var visiting: Set<String> = []
        func total(_ function: String) -> Int {
            if let known = totals[function] { return known }
            guard visiting.insert(function).inserted else { return 0 }
            var sum = own[function] ?? 0
            for callee in calls[function] ?? [] {
                let (s, overflow) = sum.addingReportingOverflow(total(callee))
                sum = overflow ? Int.max : s
            }
            visiting.remove(function)
            totals[function] = sum
            return sum
        }
        for function in Set(own.keys).union(calls.keys) { _ = total(function) }
        return totals
    }
}
