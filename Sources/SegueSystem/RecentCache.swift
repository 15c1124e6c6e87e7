// A handful of expensive values (renderers with their GPU resources) kept by key, the least
// recently used dropped first: the C API's renderers by frame size, the navigator's by screen pair.

/// A few values kept by key, the most recently used last; beyond `capacity` the least recently
/// used is dropped (a caller that alternates between a few keys keeps their values, one whose
/// keys keep changing does not hoard them).
package struct RecentCache<Key: Equatable, Value> {
    /// How many values are kept at the most.
    package let capacity: Int
    private var entries: [(key: Key, value: Value)] = []

    /// An empty cache keeping up to `capacity` values (at least one).
    package init(capacity: Int) { self.capacity = max(1, capacity) }

    /// How many values are kept.
    package var count: Int { entries.count }

    /// The value kept for `key`, marked as the most recently used; nil when none is kept.
    package mutating func value(for key: Key) -> Value? {
        guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
        if i == entries.count - 1 { return entries[i].value }  // already the most recent (every frame of a running transition)
        let entry = entries.remove(at: i)
        entries.append(entry)
        return entry.value
    }

    /// The value kept for `key`, else a new one from `make`, kept (the least recently used is
    /// dropped beyond the capacity).
    package mutating func value(for key: Key, make: () throws -> Value) rethrows -> Value {
        if let kept = value(for: key) { return kept }
        let made = try make()
        entries.append((key, made))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        return made
    }

    /// Drops every value.
    package mutating func removeAll() { entries.removeAll() }
}
