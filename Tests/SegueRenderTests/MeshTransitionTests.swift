// Mesh transforms end to end on the Vulkan device: the cube transition's geometry and lighting,
// depth normalization measured in rendered output, and the skew mesh's projection.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("Mesh transitions and meshes, rendered")
struct MeshTransitionTests {
    @Test("cube: 0° is from and 90° is to exactly; at 45° both faces, lit by cos 45°, meet at the centre")
    func cube() throws {
        let from = pattern(64, 48, seed: 5), to = pattern(64, 48, seed: 6)
        let effect = EffectCatalog.builtIn(named: "cube")!
        for pop in [false, true] {
            let r = try TransitionRenderer(
                effect: effect, from: from, to: to, parameters: ["pop": .bool(pop)], context: try TestGPU.context(), framesInFlight: 1)
            #expect(try r.frame(progress: 0, time: 0, duration: 0.5).pixels == from.pixels, "pop \(pop)")
            #expect(try r.frame(progress: 1, time: 0.5, duration: 0.5).pixels == to.pixels, "pop \(pop)")
        }
        // Translucent screens: 0 and 1 are exact too, and near them (or past them, as a spring
        // overshoots) the face turned away is not drawn through the other (at 1 the from face,
        // edge-on and darkened, showed through `to`).
        let glassFrom = Image(width: 33, height: 9, fill: Pixel(255, 0, 0, 255)),
            glassTo = Image(width: 33, height: 9, fill: Pixel(0, 128, 0, 128))
        for pop in [false, true] {
            let r = try TransitionRenderer(
                effect: effect, from: glassTo, to: glassTo, parameters: ["pop": .bool(pop)], context: try TestGPU.context(),
                framesInFlight: 1)
            #expect(try r.frame(progress: 0, time: 0, duration: 0.5).pixels == glassTo.pixels, "pop \(pop)")
            #expect(try r.frame(progress: 1, time: 0.5, duration: 0.5).pixels == glassTo.pixels, "pop \(pop)")
            let opaqueFrom = try TransitionRenderer(
                effect: effect, from: glassFrom, to: glassTo, parameters: ["pop": .bool(pop)], context: try TestGPU.context(),
                framesInFlight: 1)
            let end = try opaqueFrom.frame(progress: 1, time: 0.5, duration: 0.5)
            #expect(end.pixels == glassTo.pixels, "pop \(pop): \(end[0, 4]) \(end[32, 4])")
            // Past the end (a spring's overshoot) only `to` faces the viewer: nothing of `from`.
            let past = try opaqueFrom.frame(progress: 1.05, time: 0.5, duration: 0.5)
            #expect((0..<33).allSatisfy { past[$0, 4].r == 0 }, "pop \(pop): \((0..<33).map { past[$0, 4].r })")
        }
        // Solid faces: at 45° each face's normal is 45° from the light (the viewer), so its
        // colour is the texel × cos 45° (diffuse factor 1).
        let grey = Image(width: 64, height: 48, fill: Pixel(200, 200, 200)), white = Image(width: 64, height: 48, fill: .white)
        let push = try TransitionRenderer(effect: effect, from: grey, to: white, context: try TestGPU.context(), framesInFlight: 1)
        let half = try push.frame(progress: 0.5, time: 0.25, duration: 0.5)
        let lit = cos(Double.pi / 4)
        for y in [4, 24, 43] {
            for x in [2, 20, 30] { #expect(abs(Double(half[x, y].r) - 200 * lit) <= 1, "from face at (\(x), \(y)): \(half[x, y])") }
            for x in [33, 44, 61] { #expect(abs(Double(half[x, y].r) - 255 * lit) <= 1, "to face at (\(x), \(y)): \(half[x, y])") }
        }
        // The shared edge lies on the vertical axis through the centre: the nearest part of the
        // cube, magnified by the perspective, so it fills the whole height there.
        #expect(half[31, 0].a == 255 && half[32, 47].a == 255)
        // Pop turns the other way: `to` on the left.
        let pop = try TransitionRenderer(
            effect: effect, from: grey, to: white, parameters: ["pop": .bool(true)], context: try TestGPU.context(), framesInFlight: 1)
        let popHalf = try pop.frame(progress: 0.5, time: 0.25, duration: 0.5)
        #expect(abs(Double(popHalf[10, 24].r) - 255 * lit) <= 1 && abs(Double(popHalf[54, 24].r) - 200 * lit) <= 1)
    }

    @Test("a light direction of any finite length lights as its unit vector: (1e200, 0, 1e200) as (1, 0, 1), |n·L| = √½")
    func longLightDirection() throws {
        let renderer = try MeshSceneRenderer(
            from: Image(width: 16, height: 8, fill: .white), context: try TestGPU.context(), framesInFlight: 1)
        let flat = MeshTransform.identity(rows: 1, columns: 1)
        let unit = try renderer.frame(mesh: flat, appearance: MeshAppearance(lightDirection: Vector3(1, 0, 1), diffuseLightFactor: 1))
        let long = try renderer.frame(
            mesh: flat, appearance: MeshAppearance(lightDirection: Vector3(1e200, 0, 1e200), diffuseLightFactor: 1))
        #expect(abs(Double(unit[8, 4].r) - 255 * 0.5.squareRoot()) <= 1 && unit[8, 4].a == 255, "\(unit[8, 4])")
        #expect(long.pixels == unit.pixels)
    }

    @Test(
        "depth normalization: one unit of z is 1, W, H, min, max or (W+H)/2 points, measured through perspective",
        arguments: DepthNormalization.allCases)
    func depthNormalization(mode: DepthNormalization) throws {
        for (w, h) in [(64, 32), (32, 64)] {
            let renderer = try MeshSceneRenderer(
                from: Image(width: w, height: h, fill: .white), context: try TestGPU.context(), framesInFlight: 1)
            // The middle half of the layer lifted to z = 2 units, seen from d = 400 points.
            let mesh = try MeshTransform(
                vertices: [(0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75)].map {
                    MeshVertex(from: Vector2($0.0, $0.1), to: Vector3($0.0, $0.1, 2))
                }, faces: [MeshFace(0, 1, 2, 3)], depthNormalization: mode)
            let image = try renderer.frame(mesh: mesh, appearance: MeshAppearance(supplementaryTransform: .perspective(distance: 400)))
            let z: Double
            switch mode {
            case .none: z = 1
            case .width: z = Double(w)
            case .height: z = Double(h)
            case .min: z = Double(min(w, h))
            case .max: z = Double(max(w, h))
            case .average: z = Double(w + h) / 2
            }
            let expected = 0.5 * Double(w) * 400 / (400 - 2 * z)
            let measured = Double((0..<w).filter { image[$0, h / 2].a > 127 }.count)
            #expect(abs(measured - expected) <= 1, "\(mode) on \(w)×\(h): width \(measured) vs \(expected)")
        }
    }

    @Test("skew: an opaque white square's edges lie where the projection puts them, within a pixel")
    func skew() throws {
        let (w, h) = (48, 32)
        let renderer = try MeshSceneRenderer(
            from: Image(width: w, height: h, fill: .white), context: try TestGPU.context(), framesInFlight: 1)
        let image = try renderer.frame(mesh: .skew())
        for y in 0..<h {
            // The left edge runs from (W/2, 0) to (0, H); the right edge stays at W.
            let left = Double(w) / 2 * (1 - (Double(y) + 0.5) / Double(h))
            let covered = (0..<w).filter { image[$0, y].a == 255 }
            let first = Double(covered.first ?? w)
            #expect(abs(first - left) <= 1, "row \(y): first covered column \(first) vs edge \(left)")
            #expect(covered.last == w - 1)
        }
    }
}
