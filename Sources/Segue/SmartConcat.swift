// Smart rendering (placeholder until implemented).
import Foundation

/// What a smart render did.
public struct SmartReport: Sendable {
    /// Why everything was re-encoded, nil when stretches were copied.
    public let fallbackReason: String?
}

extension ConcatRenderer {
    /// Renders, copying untouched stretches where the inputs allow.
    public func renderSmart(progress: (ConcatProgress) -> Void = { _ in }) throws -> SmartReport {
        try render(progress: progress)
        return SmartReport(fallbackReason: "smart rendering is not implemented yet")
    }
}
