import Foundation
import SegueAnimation
import SegueCore
import SegueMath
import Testing

@Suite("Mesh animation")
struct MeshAnimationTests {
    let a = displacedGrid(0)  // the identity 2×2 grid
    let b = displacedGrid(1)
    let c = displacedGrid(-2)

    /// a + (b − a)·f vertex by vertex, computed from the coordinates.
    func expected(_ a: MeshTransform, _ b: MeshTransform, _ f: Double) -> [MeshVertex] {
        zip(a.vertices, b.vertices).map { u, v in
            MeshVertex(
                from: Vector2(u.from.x + (v.from.x - u.from.x) * f, u.from.y + (v.from.y - u.from.y) * f),
                to: Vector3(u.to.x + (v.to.x - u.to.x) * f, u.to.y + (v.to.y - u.to.y) * f, u.to.z + (v.to.z - u.to.z) * f))
        }
    }

    func matches(_ mesh: MeshTransform, _ vertices: [MeshVertex], _ tolerance: Double = 1e-12) -> Bool {
        mesh.faces == a.faces && zip(mesh.vertices, vertices).allSatisfy { close($0, $1, tolerance) }
    }

    /// The y of a cubic Bézier timing curve at x, by bisection on x(t) (independent of the engine).
    func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        func curve(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
            3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if curve(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return curve(y1, y2, (lo + hi) / 2)
    }

    @Test("interpolation is per vertex and linear in from.xy and to.xyz, exact at the ends")
    func interpolation() {
        #expect(a.interpolated(to: b, fraction: 0) == a)
        #expect(a.interpolated(to: b, fraction: 1) == b)
        for f in [0.25, 0.5, -0.3, 1.4] {
            #expect(matches(a.interpolated(to: b, fraction: f), expected(a, b, f)))
        }
    }

    @Test("zero is the additive identity with the other operand's structure")
    func arithmetic() {
        #expect(MeshTransform.zero + b == b && b + .zero == b && b - .zero == b)
        let negated = MeshTransform.zero - b
        #expect(negated.faces == b.faces && zip(negated.vertices, b.vertices).allSatisfy { $0.to == $1.to * -1 && $0.from == $1.from * -1 })
        #expect(matches(MeshTransform.zero.interpolated(to: b, fraction: 0.5), b.vertices.map { $0 * 0.5 }))
        let difference = b - a
        #expect(matches(a + difference, b.vertices, 1e-15))
        #expect(MeshTransform.zero.scaled(by: 3).isZero)
        // distance: one vertex moved by (3, 0) in from and (0, 0, 4) in to → 5.
        var builder = a.builder
        builder.replaceVertex(at: 4, with: MeshVertex(from: a.vertices[4].from + Vector2(3, 0), to: a.vertices[4].to + Vector3(0, 0, 4)))
        #expect(close(a.distance(to: try! builder.build()), 5))
        #expect(a.distance(to: a) == 0)
    }

    @Test("checked animations refuse incompatible meshes with the failing rule")
    func checkedAnimations() throws {
        let vertexCount = meshError { _ = try MeshTransform.animation(from: a, to: .identity(rows: 3, columns: 3)) }
        #expect(vertexCount?.kind == .vertexCountMismatch)
        #expect(vertexCount?.message.hasPrefix("fromValue and toValue: ") == true)
        let textured = a.withTexture(.to)
        let keyframes = meshError { _ = try MeshTransform.keyframeAnimation(values: [a, b, textured]) }
        #expect(keyframes?.kind == .faceTextureMismatch)
        #expect(keyframes?.message.hasPrefix("values[0] and values[2]: ") == true)
        let spring = meshError {
            _ = try MeshTransform.springAnimation(spring: try Spring(), from: a, by: a.withDepthNormalization(.width))
        }
        #expect(spring?.kind == .depthNormalizationMismatch)
        #expect(try MeshTransform.animation(from: a, to: b).toValue == b)
    }

    @Test("a mesh property animates with a timing function")
    func basicWithTimingFunction() throws {
        let clock = ManualClock()
        let host = AnimationHost(context: AnimationContext(clock: clock))
        let mesh = host.addProperty("mesh", initialValue: a)
        try mesh.addMeshAnimation(
            MeshTransform.animation(from: a, to: b, timing: MediaTiming(duration: 2, timingFunction: .easeIn)), forKey: "m")
        clock.now = 0.5
        #expect(matches(mesh.presentationValue, expected(a, b, bezier(0.42, 0, 1, 1, at: 0.25)), 1e-9))
        clock.now = 1
        #expect(matches(mesh.presentationValue, expected(a, b, bezier(0.42, 0, 1, 1, at: 0.5)), 1e-9))
        clock.now = 3
        #expect(mesh.presentationValue == a)  // removed on completion: back to the model mesh
        // An incompatible animation is refused before it is added.
        let refused = meshError { try mesh.addMeshAnimation(BasicAnimation(toValue: .identity(rows: 1, columns: 1)), forKey: "x") }
        #expect(refused?.kind == .vertexCountMismatch && !mesh.animationKeys.contains("x"))
    }

    @Test("a mesh property animates with a spring")
    func spring() throws {
        let clock = ManualClock()
        let host = AnimationHost(context: AnimationContext(clock: clock))
        let mesh = host.addProperty("mesh", initialValue: a)
        let spring = try Spring(mass: 1, stiffness: 100, damping: 10)
        try mesh.addMeshAnimation(MeshTransform.springAnimation(spring: spring, from: a, to: b), forKey: "s")
        // Under-damped: ω0 = 10, ζ = 0.5, ωd = 10·√0.75; p = 1 − e^(−5t)(cos ωd t + (5/ωd) sin ωd t).
        let wd = 10 * 0.75.squareRoot()
        for t in [0.1, 0.3, 0.6] {
            clock.now = t
            let p = 1 - exp(-5 * t) * (cos(wd * t) + 5 / wd * sin(wd * t))
            #expect(matches(mesh.presentationValue, expected(a, b, p), 1e-12))
        }
        clock.now = 0.3
        #expect(mesh.presentationValue.vertices[8].to.z > b.vertices[8].to.z)  // it overshoots
    }

    @Test("a mesh property animates through keyframes, and additively")
    func keyframesAndAdditive() throws {
        let clock = ManualClock()
        let host = AnimationHost(context: AnimationContext(clock: clock))
        let mesh = host.addProperty("mesh", initialValue: a)
        try mesh.addMeshAnimation(
            MeshTransform.keyframeAnimation(values: [a, b, c], timing: MediaTiming(duration: 2, timingFunction: .linear)), forKey: "k")
        clock.now = 0.5
        #expect(matches(mesh.presentationValue, expected(a, b, 0.5)))
        clock.now = 1.5
        #expect(matches(mesh.presentationValue, expected(b, c, 0.5)))
        host.removeAnimation(forKey: "k")

        // Additive: an offset mesh from zero (nothing) to `offset`, added to the model mesh.
        let offset = b - a
        try mesh.addMeshAnimation(
            MeshTransform.animation(to: offset, timing: MediaTiming(duration: 1, timingFunction: .linear), isAdditive: true), forKey: "add")
        clock.now = 1.75
        #expect(matches(mesh.presentationValue, expected(a, b, 0.25)))
    }

    @Test("an animation started mid-way begins from the current presentation mesh")
    func midwayStart() throws {
        let clock = ManualClock()
        let host = AnimationHost(context: AnimationContext(clock: clock))
        let mesh = host.addProperty("mesh", initialValue: a)
        host.actions["mesh"] = .animation(BasicAnimation<MeshTransform>(timing: MediaTiming(duration: 1, timingFunction: .linear)))
        try mesh.setMesh(b)
        #expect(mesh.modelValue == b && mesh.presentationValue == a)
        clock.now = 0.5
        let middle = expected(a, b, 0.5)
        #expect(matches(mesh.presentationValue, middle))
        try mesh.setMesh(c)
        #expect(matches(mesh.presentationValue, middle))  // no jump
        clock.now = 1
        let middleMesh = try MeshTransform(vertices: middle, faces: a.faces, depthNormalization: a.depthNormalization)
        #expect(matches(mesh.presentationValue, expected(middleMesh, c, 0.5)))
        clock.now = 2
        #expect(mesh.presentationValue == c)

        // An incompatible mesh is refused and leaves the property unchanged.
        let refused = meshError { try mesh.setMesh(.identity(rows: 4, columns: 4)) }
        #expect(refused?.kind == .vertexCountMismatch && refused?.message.contains("the new mesh") == true)
        #expect(mesh.modelValue == c)
    }
}
