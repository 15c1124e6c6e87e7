// The one most-recently-used cache (the C API's renderers by size, the navigator's by screens).
import SegueSystem
import Testing

@Suite("RecentCache")
struct RecentCacheTests {
    @Test("keeps at most its capacity, drops the least recently used, and makes each value once while it is kept")
    func leastRecentlyUsed() {
        var cache = RecentCache<String, Int>(capacity: 2)
        var made: [String] = []
        func value(_ key: String) -> Int {
            cache.value(for: key) {
                made.append(key)
                return made.count
            }
        }
        #expect(value("a") == 1)
        #expect(value("b") == 2)
        #expect(value("a") == 1, "kept: not made again")
        #expect(value("c") == 3, "b, the least recently used, is dropped")
        #expect(cache.count == 2)
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1)
        #expect(value("b") == 4, "made again after it was dropped")
        #expect(made == ["a", "b", "c", "b"])
        cache.removeAll()
        #expect(cache.count == 0 && cache.value(for: "a") == nil)
    }

    @Test("a failing make keeps nothing; a capacity below one keeps one")
    func failuresAndCapacity() {
        struct Failure: Error {}
        var cache = RecentCache<Int, Int>(capacity: 0)
        #expect(cache.capacity == 1)
        #expect(throws: Failure.self) { try cache.value(for: 1) { throw Failure() } }
        #expect(cache.count == 0)
        #expect(cache.value(for: 1) { 10 } == 10)
        #expect(cache.value(for: 2) { 20 } == 20)
        #expect(cache.count == 1 && cache.value(for: 1) == nil)
    }
}
