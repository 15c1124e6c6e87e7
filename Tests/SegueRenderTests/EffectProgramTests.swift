// An effect says what a renderer runs (its program): GLSL for shader effects, a mesh builder for
// mesh effects. The renderer never looks a builder up again by name.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("Effect programs")
struct EffectProgramTests {
    @Test("mesh effects carry a builder and no GLSL; shader effects carry GLSL and no builder")
    func programs() throws {
        for definition in MeshEffects.all {
            #expect(definition.effect.glsl == nil, "\(definition.effect.name)")
            #expect(definition.effect.meshBuilder?.isTransition == definition.isTransition)
        }
        let fade = try #require(EffectCatalog.builtIn(named: "fade"))
        #expect(fade.meshBuilder == nil)
        #expect(fade.glsl?.contains("transition") == true)
    }

    @Test("a mesh transition unknown to the catalogue renders through its own builder")
    func unregisteredMeshTransition() throws {
        // The left half of the layer shows `from`, the right half `to`, whatever the progress.
        let builder = MeshBuilder(isTransition: true) { _, _, _, _ in
            let vertices = [(0.0, 0.0), (0.5, 0.0), (1.0, 0.0), (0.0, 1.0), (0.5, 1.0), (1.0, 1.0)].map { x, y in
                MeshVertex(from: Vector2(x, y), to: Vector3(x, y, 0))
            }
            let faces = [MeshFace(0, 1, 4, 3, texture: .from), MeshFace(1, 2, 5, 4, texture: .to)]
            return (try MeshTransform(vertices: vertices, faces: faces), .default)
        }
        let effect = Effect(name: "split-not-in-any-catalogue", summary: "halves", mesh: builder, parameters: [])
        let red = Image(width: 8, height: 4, fill: Pixel(255, 0, 0, 255)), blue = Image(width: 8, height: 4, fill: Pixel(0, 0, 255, 255))
        let renderer = try TransitionRenderer(effect: effect, from: red, to: blue, context: try TestGPU.context(), framesInFlight: 1)
        let frame = try renderer.frame(progress: 0.5, time: 0.5, duration: 1)
        for y in 0..<4 {
            for x in 0..<4 { #expect(frame[x, y] == Pixel(255, 0, 0, 255), "(\(x), \(y))") }
            for x in 4..<8 { #expect(frame[x, y] == Pixel(0, 0, 255, 255), "(\(x), \(y))") }
        }
    }
}
