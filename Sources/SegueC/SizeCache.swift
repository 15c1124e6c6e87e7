// The renderers a transition or effect keeps, by frame size.
import SegueSystem

/// A few renderers kept by frame size, the most recently used last; the oldest is dropped
/// beyond `capacity` (a host that alternates sizes keeps its renderers, one that keeps changing
/// size does not hoard GPU memory).
struct SizeCache<Renderer> {
    /// How many sizes a transition or effect keeps renderers for (segue.h says so).
    static var sizesKept: Int { 4 }
    private struct Size: Equatable {
        let width: Int, height: Int
    }
    private var entries: RecentCache<Size, Renderer>

    /// An empty cache keeping up to `capacity` sizes.
    init(capacity: Int) { entries = RecentCache(capacity: capacity) }

    /// The renderer for `layout`'s size: a kept one, marked as most recently used, after `refill`
    /// hands it the caller's new frames; else a new one from `make`, kept.
    mutating func renderer(for layout: FrameLayout, refill: (Renderer) throws -> Void, make: () throws -> Renderer) throws -> Renderer {
        let size = Size(width: layout.width, height: layout.height)
        if let kept = entries.value(for: size) {
            try refill(kept)
            return kept
        }
        return try entries.value(for: size, make: make)
    }

    /// Drops every renderer (their settings changed).
    mutating func removeAll() { entries.removeAll() }
}
