// The pixel geometry of fitting an image into an output frame: the size it is scaled to and how
// that lands in the frame (cropped for cover, centred between bars for contain).

extension ResizeMode {
    /// The size an image of `imageWidth`×`imageHeight` (display pixels) is scaled to before it
    /// is cropped (cover) or padded (contain) to `outputWidth`×`outputHeight`:
    /// - stretch: the output size;
    /// - cover: the image scaled by max(W/w, H/h), each side at least the output's;
    /// - contain: the image scaled by min(W/w, H/h), each side at most the output's.
    /// Sides are rounded to the nearest pixel and never below 1.
    public func fittedSize(imageWidth: Int, imageHeight: Int, outputWidth: Int, outputHeight: Int) -> (width: Int, height: Int) {
        precondition(imageWidth > 0 && imageHeight > 0 && outputWidth > 0 && outputHeight > 0, "sizes must be positive")
        let sx = Double(outputWidth) / Double(imageWidth), sy = Double(outputHeight) / Double(imageHeight)
        func side(_ value: Double) -> Int { max(1, Int(value.rounded())) }
        switch self {
        case .stretch:
            return (outputWidth, outputHeight)
        case .cover:
            let s = max(sx, sy)
            return (max(outputWidth, side(Double(imageWidth) * s)), max(outputHeight, side(Double(imageHeight) * s)))
        case .contain:
            let s = min(sx, sy)
            return (min(outputWidth, side(Double(imageWidth) * s)), min(outputHeight, side(Double(imageHeight) * s)))
        }
    }
}
