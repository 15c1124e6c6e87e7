import FoundationEssentials
import SegueCore
import SegueRender
import SegueSystem
import SegueVulkan

// A `MessageCard` made ready to show across the top of a live view: drawn on the CPU at the
// window's pixel width and scale, uploaded once and rendered into a GPU image the presenter can
// blit over every frame (`LiveView.present(_:overlay:)`).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A message card on the GPU, ready to present as an overlay; keep it for as long as it shows.
public struct MessageCardOverlay {
    /// What the presenter blits across the top of the window.
    public let source: PresentationSource
    /// The renderer owning the card's GPU image.
    private let renderer: TransitionRenderer

    init(source: PresentationSource, renderer: TransitionRenderer) {
        self.source = source
        self.renderer = renderer
    }
}

extension LiveView {
    /// `text` on a card at the window's width, as tall as its wrapped lines need (at most half
    /// the window), ready to show with `present(_:overlay:)`.
    /// - Throws: `VulkanError`, `RenderError`.
    public func messageCard(_ text: String) throws -> MessageCardOverlay {
        let width = pixelSize.width, scale = window.scale
        let card = MessageCard.image(
            text, width: width,
            height: min(
                MessageCard.height(for: text, width: width, scale: scale),
                max(1, pixelSize.height / 2)), scale: scale)
        // A fade at progress 0 shows its `from` exactly: the card's own pixels.
        let fade = try EffectRequest(effect: "fade").resolve().effect
        let renderer = try TransitionRenderer(effect: fade, from: card, to: card, context: context, framesInFlight: 1, readback: false)
        return MessageCardOverlay(source: try renderer.presentationSource(progress: 0, time: 0, duration: 1), renderer: renderer)
    }
}
