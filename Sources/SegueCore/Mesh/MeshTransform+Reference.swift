// The reference meshes of mesh-transforms.md (after BCMeshTransformView's demos): good tests
// and built-in demos. Touch points and sizes are in points; everything else in unit coordinates.

import SegueMath

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension MeshTransform {
    /// A curtain pulled toward the touch point: identity 20 rows × 50 columns, `average`.
    ///
    /// With `np = (min(px, W)/W, py/H)`, per vertex with `x = to.x`: `dy = to.y − np.y`,
    /// `bend = 0.25·(1 − e^(−10·dy²))`, `to.z = 0.1 + 0.1·sin(−1.4·cos(x²·3·2π))·(1 − np.x)`,
    /// `to.x = x·np.x + x·bend·(1 − np.x)`. Show it with ``MeshAppearance/curtain``.
    ///
    /// - Throws: ``MeshError`` (`.invalidParameter`) for a non-positive or non-finite layer
    ///   size or a non-finite touch point.
    public static func curtain(touchPoint: Vector2, layerWidth: Double, layerHeight: Double) throws -> MeshTransform {
        try checkReference(touchPoint: touchPoint, width: layerWidth, height: layerHeight)
        let np = Vector2(Swift.min(touchPoint.x, layerWidth) / layerWidth, touchPoint.y / layerHeight)
        return try identity(rows: 20, columns: 50).mappingVertices { vertex, _ in
            var v = vertex
            let x = v.to.x
            let dy = v.to.y - np.y
            let bend = 0.25 * (1 - exp(-10 * dy * dy))
            v.to.z = 0.1 + 0.1 * sin(-1.4 * cos(x * x * 3 * 2 * Double.pi)) * (1 - np.x)
            v.to.x = x * np.x + x * bend * (1 - np.x)
            return v
        }
    }

    /// A bulge under the touch point: identity 36×36, `average`, within `radius` points.
    ///
    /// With `rMax = R/W`, `ys = H/W`, `dx = to.x − px/W`, `dy = (to.y − py/H)·ys`,
    /// `r = √(dx² + dy²)`: vertices with `r > rMax` stay; the others move by
    /// `s = 0.4·(cos(π·r/rMax) + 1)`: `to.x += dx·s`, `to.y += dy·s/ys`, `to.z = 0.2·s`.
    /// Show it with ``MeshAppearance/bulge``.
    ///
    /// - Throws: ``MeshError`` (`.invalidParameter`) for a non-positive or non-finite layer
    ///   size or radius, or a non-finite touch point.
    public static func bulge(touchPoint: Vector2, radius: Double = 120, layerWidth: Double, layerHeight: Double) throws -> MeshTransform {
        try checkReference(touchPoint: touchPoint, width: layerWidth, height: layerHeight)
        guard radius > 0, radius.isFinite else {
            throw MeshError(
                .invalidParameter, "bulge radius must be a positive, finite number of points, got \(MessageText.number(radius))")
        }
        let rMax = radius / layerWidth
        let ys = layerHeight / layerWidth
        return try identity(rows: 36, columns: 36).mappingVertices { vertex, _ in
            var v = vertex
            let dx = v.to.x - touchPoint.x / layerWidth
            let dy = (v.to.y - touchPoint.y / layerHeight) * ys
            let r = (dx * dx + dy * dy).squareRoot()
            guard r <= rMax else { return v }
            let s = 0.4 * (cos(Double.pi * r / rMax) + 1)
            v.to.x += dx * s
            v.to.y += dy * s / ys
            v.to.z = 0.2 * s
            return v
        }
    }

    /// A wobbling disc: 100 rim vertices and a centre vertex, 50 faces, depth `none`.
    ///
    /// Rim vertex i: `t = i/100`, `a = 2πt`, `R = √2/2`, `from = (0.5 + R·sin a, 0.5 + R·cos a)`,
    /// `r = R + m·sin(π·cos(4πt + φ))·cos(2πt + φ)`, `to = (0.5 + r·sin a, 0.5 + r·cos a, 0)`.
    /// Centre (vertex 100): `from = (0.5, 0.5)`, `to = (0.5 + 0.02·cos φ, 0.5 + 0.02·sin φ, 0)`.
    /// Face i: `{(2i+1) mod 100, 2i, 100, (2i+2) mod 100}`.
    ///
    /// - Parameters:
    ///   - phase: φ in radians (animate it for the wobble).
    ///   - magnitude: m, the rim's displacement in unit coordinates.
    /// - Throws: ``MeshError`` (`.invalidParameter`) for a non-finite phase or magnitude.
    public static func jelly(phase: Double, magnitude: Double) throws -> MeshTransform {
        guard phase.isFinite, magnitude.isFinite else {
            throw MeshError(
                .invalidParameter,
                "jelly phase and magnitude must be finite, got \(MessageText.number(phase)) and \(MessageText.number(magnitude))")
        }
        let rim = 100
        let radius = 2.0.squareRoot() / 2
        return try MeshTransform(
            vertexCount: rim + 1,
            vertex: { i in
                guard i < rim else {
                    return MeshVertex(from: Vector2(0.5, 0.5), to: Vector3(0.5 + 0.02 * cos(phase), 0.5 + 0.02 * sin(phase), 0))
                }
                let t = Double(i) / Double(rim)
                let a = 2 * Double.pi * t
                let r = radius + magnitude * sin(Double.pi * cos(4 * Double.pi * t + phase)) * cos(2 * Double.pi * t + phase)
                return MeshVertex(
                    from: Vector2(0.5 + radius * sin(a), 0.5 + radius * cos(a)),
                    to: Vector3(0.5 + r * sin(a), 0.5 + r * cos(a), 0))
            }, faceCount: rim / 2,
            face: { i in
                MeshFace((2 * i + 1) % rim, 2 * i, rim, (2 * i + 2) % rim)
            }, depthNormalization: .none)
    }

    /// Concentric ripples in depth: identity 50×50, `to.z = 0.05·sin(8π·|from − (0.5, 0.5)| − φ)`.
    ///
    /// - Parameter phase: φ in radians; the reference mesh is φ = 0, and a growing φ moves the
    ///   rings outward (animate it for running waves). A non-finite phase counts as 0.
    public static func ripple(phase: Double = 0) -> MeshTransform {
        let phase = phase.isFinite ? phase : 0
        // The formula is finite everywhere, so the mapping cannot fail.
        return try! identity(rows: 50, columns: 50).mappingVertices { vertex, _ in
            var v = vertex
            v.to.z = 0.05 * sin(8 * Double.pi * (v.from - Vector2(0.5, 0.5)).length - phase)
            return v
        }
    }

    /// The square squeezed into a rounded, ellipse-like shape: identity 30×30; with
    /// `x = 2(from.x − 0.5)`, `y = 2(from.y − 0.5)`:
    /// `to = (0.5 + 0.5·x·√(1 − y²/2), 0.5 + 0.5·y·√(1 − x²/2), 0)`.
    public static func ellipse() -> MeshTransform {
        // |x|, |y| ≤ 1, so the square roots are real and the mapping cannot fail.
        try! identity(rows: 30, columns: 30).mappingVertices { vertex, _ in
            let x = 2 * (vertex.from.x - 0.5), y = 2 * (vertex.from.y - 0.5)
            return MeshVertex(
                from: vertex.from,
                to: Vector3(
                    0.5 + 0.5 * x * (1 - y * y / 2).squareRoot(),
                    0.5 + 0.5 * y * (1 - x * x / 2).squareRoot(), 0))
        }
    }

    /// The identity quad (4 vertices, one face, depth `none`) with the top-left corner's `to`
    /// moved to (0.5, 0).
    public static func skew() -> MeshTransform {
        let identity = MeshTransform.identity(rows: 1, columns: 1)
        var builder = Builder(identity)
        builder.depthNormalization = .none
        builder.replaceVertex(at: 0, with: MeshVertex(from: Vector2(0, 0), to: Vector3(0.5, 0, 0)))
        return try! builder.build()
    }

    private static func checkReference(touchPoint: Vector2, width: Double, height: Double) throws {
        guard width > 0, height > 0, width.isFinite, height.isFinite else {
            throw MeshError(
                .invalidParameter,
                "layer size must be positive and finite, got \(MessageText.number(width))×\(MessageText.number(height)) points")
        }
        guard touchPoint.x.isFinite, touchPoint.y.isFinite else {
            throw MeshError(.invalidParameter, "touch point must be finite, got (\(touchPoint.x), \(touchPoint.y))")
        }
    }
}

extension MeshAppearance {
    /// The curtain's appearance: `diffuseLightFactor = 0.5`, perspective `m34 = −1/2000`.
    public static let curtain = MeshAppearance(diffuseLightFactor: 0.5, supplementaryTransform: .perspective(distance: 2000))

    /// The bulge's appearance: no shading (`diffuseLightFactor = 0`).
    public static let bulge = MeshAppearance(diffuseLightFactor: 0)
}
