// How an input image of another aspect ratio is fitted to the output.

/// How an input of another aspect ratio is fitted to the output, as gl-transitions renderers do.
public enum ResizeMode: String, Sendable, CaseIterable, Codable {
    /// Fill the output, cropping the overflowing sides (the default).
    case cover
    /// Show the whole image, leaving transparent bars.
    case contain
    /// Scale each axis independently.
    case stretch

    /// The factor by which an output texture coordinate, measured from the centre, is scaled to
    /// become the image's texture coordinate: `t = 0.5 + (uv − 0.5) · factor`. A factor below 1
    /// crops (cover); above 1 the image lies inside bars (contain).
    public func textureScale(imageWidth: Int, imageHeight: Int, outputWidth: Int, outputHeight: Int) -> (x: Double, y: Double) {
        let imageRatio = Double(imageWidth) / Double(imageHeight)
        let outputRatio = Double(outputWidth) / Double(outputHeight)
        switch self {
        case .stretch:
            return (1, 1)
        case .cover:
            return (min(outputRatio / imageRatio, 1), min(imageRatio / outputRatio, 1))
        case .contain:
            return (max(outputRatio / imageRatio, 1), max(imageRatio / outputRatio, 1))
        }
    }
}
