// The renderers a transition or effect keeps, by frame size.

/// A few renderers kept by frame size, the most recently used last; the oldest is dropped
/// beyond `capacity` (a host that alternates sizes keeps its renderers, one that keeps changing
/// size does not hoard GPU memory).
struct SizeCache<Renderer> {
    /// How many sizes a transition or effect keeps renderers for (segue.h says so).
    static var sizesKept: Int { 4 }
    /// How many sizes are kept.
    let capacity: Int
    private var entries: [(width: Int, height: Int, renderer: Renderer)] = []

    /// An empty cache keeping up to `capacity` sizes.
    init(capacity: Int) { self.capacity = capacity }

    /// The renderer for `layout`'s size: a kept one, marked as most recently used, after `refill`
    /// hands it the caller's new frames; else a new one from `make`, kept.
    mutating func renderer(for layout: FrameLayout, refill: (Renderer) throws -> Void, make: () throws -> Renderer) throws -> Renderer {
        if let kept = renderer(width: layout.width, height: layout.height) {
            try refill(kept)
            return kept
        }
        let made = try make()
        insert(made, width: layout.width, height: layout.height)
        return made
    }

    /// The renderer for a size, marked as most recently used; nil when none is kept.
    private mutating func renderer(width: Int, height: Int) -> Renderer? {
        guard let i = entries.firstIndex(where: { $0.width == width && $0.height == height }) else { return nil }
        let entry = entries.remove(at: i)
        entries.append(entry)
        return entry.renderer
    }

    /// Keeps `renderer` for its size, dropping the least recently used beyond the capacity.
    private mutating func insert(_ renderer: Renderer, width: Int, height: Int) {
        entries.removeAll { $0.width == width && $0.height == height }
        entries.append((width, height, renderer))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    /// Drops every renderer (their settings changed).
    mutating func removeAll() { entries.removeAll() }
}
