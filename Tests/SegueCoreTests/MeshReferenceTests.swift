import Foundation
import SegueCore
import SegueMath
import Testing

@Suite("Reference meshes")
struct MeshReferenceTests {
    @Test("curtain: 20×50, average, vertices follow the spec's formulas")
    func curtain() throws {
        let (w, h) = (300.0, 400.0)
        let mesh = try MeshTransform.curtain(touchPoint: Vector2(150, 100), layerWidth: w, layerHeight: h)
        #expect(mesh.vertices.count == 21 * 51 && mesh.faces.count == 1000 && mesh.depthNormalization == .average)
        let (npx, npy) = (0.5, 0.25)
        for (index, v) in mesh.vertices.enumerated() {
            let (row, col) = (index / 51, index % 51)
            let (x, y) = (Double(col) / 50, Double(row) / 20)
            let bend = 0.25 * (1 - exp(-10 * (y - npy) * (y - npy)))
            let z = 0.1 + 0.1 * sin(-1.4 * cos(x * x * 3 * 2 * .pi)) * (1 - npx)
            #expect(v.from == Vector2(x, y))
            #expect(close(v.to, Vector3(x * npx + x * bend * (1 - npx), y, z), 1e-12))
        }
        // A vertex in the middle, by hand: x = 0.5, dy = 0.25, cos(0.25·6π) = cos(1.5π) = 0.
        let middle = mesh.vertices[10 * 51 + 25]
        #expect(
            close(middle.to.z, 0.1 + 0.1 * sin(-1.4 * 0) * 0.5, 1e-12) && close(middle.to.x, 0.25 + 0.25 * 0.25 * (1 - exp(-0.625)), 1e-12))
        // A touch right of the layer clamps np.x to 1: no bend, z = 0.1.
        let clamped = try MeshTransform.curtain(touchPoint: Vector2(900, 100), layerWidth: w, layerHeight: h)
        #expect(clamped.vertices.allSatisfy { close($0.to.x, $0.from.x) && close($0.to.z, 0.1) })
        #expect(MeshAppearance.curtain.diffuseLightFactor == 0.5)
        #expect(MeshAppearance.curtain.supplementaryTransform.m34 == -1.0 / 2000)
        #expect(meshError { _ = try MeshTransform.curtain(touchPoint: .zero, layerWidth: 0, layerHeight: 10) }?.kind == .invalidParameter)
    }

    @Test("bulge: 36×36, vertices within the radius bulge, others stay")
    func bulge() throws {
        let (w, h, radius) = (320.0, 480.0, 120.0)
        let mesh = try MeshTransform.bulge(touchPoint: Vector2(160, 240), radius: radius, layerWidth: w, layerHeight: h)
        #expect(mesh.vertices.count == 37 * 37 && mesh.depthNormalization == .average)
        let (rMax, ys) = (radius / w, h / w)
        var moved = 0
        for (index, v) in mesh.vertices.enumerated() {
            let p = Vector2(Double(index % 37) / 36, Double(index / 37) / 36)
            let (dx, dy) = (p.x - 0.5, (p.y - 0.5) * ys)
            let r = (dx * dx + dy * dy).squareRoot()
            if r > rMax {
                #expect(v.to == Vector3(p, z: 0))
            } else {
                moved += 1
                let s = 0.4 * (cos(.pi * r / rMax) + 1)
                #expect(close(v.to, Vector3(p.x + dx * s, p.y + dy * s / ys, 0.2 * s), 1e-12))
            }
        }
        #expect(moved > 50)
        #expect(mesh.vertices[18 * 37 + 18].to == Vector3(0.5, 0.5, 0.2 * 0.8))  // at the touch point: s = 0.8
        #expect(MeshAppearance.bulge.diffuseLightFactor == 0)
        #expect(
            meshError { _ = try MeshTransform.bulge(touchPoint: .zero, radius: -1, layerWidth: w, layerHeight: h) }?.kind
                == .invalidParameter)
    }

    @Test("jelly: 100 rim vertices, a centre, 50 faces, depth none")
    func jelly() throws {
        let (phase, m) = (0.4, 0.06)
        let mesh = try MeshTransform.jelly(phase: phase, magnitude: m)
        #expect(mesh.vertices.count == 101 && mesh.faces.count == 50 && mesh.depthNormalization == .none)
        #expect(mesh.faces[0] == MeshFace(1, 0, 100, 2) && mesh.faces[49] == MeshFace(99, 98, 100, 0))
        let big = 2.0.squareRoot() / 2
        // Rim vertex 25: t = 1/4, a = π/2: from = (0.5 + R, 0.5).
        let r25 = big + m * sin(.pi * cos(.pi + phase)) * cos(.pi / 2 + phase)
        #expect(close(mesh.vertices[25].from, Vector2(0.5 + big, 0.5)))
        #expect(close(mesh.vertices[25].to, Vector3(0.5 + r25, 0.5, 0)))
        // Rim vertex 0: a = 0: from = (0.5, 0.5 + R).
        let r0 = big + m * sin(.pi * cos(phase)) * cos(phase)
        #expect(close(mesh.vertices[0].to, Vector3(0.5, 0.5 + r0, 0)))
        #expect(close(mesh.vertices[100].to, Vector3(0.5 + 0.02 * cos(phase), 0.5 + 0.02 * sin(phase), 0)))
        #expect(mesh.vertices[100].from == Vector2(0.5, 0.5))
    }

    @Test("ripple (with its phase), ellipse and skew")
    func others() throws {
        let ripple = MeshTransform.ripple()
        #expect(ripple.vertices.count == 51 * 51)
        for v in ripple.vertices {
            let d = ((v.from.x - 0.5) * (v.from.x - 0.5) + (v.from.y - 0.5) * (v.from.y - 0.5)).squareRoot()
            #expect(close(v.to.z, 0.05 * sin(8 * .pi * d)) && v.to.xy == v.from)
        }
        #expect(close(ripple.vertices[25 * 51 + 28].to.z, 0.05 * sin(0.48 * .pi)))  // distance 0.06
        // A phase moves the rings outward: z = 0.05·sin(8π·d − φ); φ = 0 is the reference mesh.
        #expect(MeshTransform.ripple(phase: 0) == ripple)
        let running = MeshTransform.ripple(phase: 1.3)
        #expect(close(running.vertices[25 * 51 + 28].to.z, 0.05 * sin(0.48 * .pi - 1.3)))
        #expect(close(running.vertices[0].to.z, 0.05 * sin(8 * .pi * 0.5.squareRoot() - 1.3)))
        let built = try MeshEffects.named("ripple")!.scene(parameters: ["phase": .float(1.3)], width: 100, height: 100)
        #expect(built.mesh == running)

        let ellipse = MeshTransform.ellipse()
        #expect(ellipse.vertices.count == 31 * 31)
        let corner = 0.5 - 0.5 * 0.5.squareRoot()
        #expect(close(ellipse.vertices[0].to, Vector3(corner, corner, 0)))
        #expect(close(ellipse.vertices[15].to, Vector3(0.5, 0, 0)))  // top middle: x = 0, y = −1
        #expect(close(ellipse.vertices[15 * 31 + 15].to, Vector3(0.5, 0.5, 0)))

        let skew = MeshTransform.skew()
        #expect(skew.vertices.count == 4 && skew.faces == [MeshFace(0, 1, 3, 2)] && skew.depthNormalization == .none)
        #expect(skew.vertices[0] == MeshVertex(from: Vector2(0, 0), to: Vector3(0.5, 0, 0)))
        #expect(skew.vertices[3] == MeshVertex(from: Vector2(1, 1), to: Vector3(1, 1, 0)))
    }

    @Test("absurd layer sizes and distances are errors, not stopped programs: a scale of 5e-324, an eye at 0 or infinity")
    func absurdSizes() throws {
        let cube = try #require(MeshEffects.named("cube")), curl = try #require(MeshEffects.named("page-curl"))
        // 16 pixels at a scale of 5e-324 are infinitely many points; at a scale of 3, an eye
        // 5e-324 widths away is at 0 points.
        for (width, height) in [(Double.infinity, 16), (16, .infinity), (0, 16), (.nan, 16)] {
            let error = #expect(throws: MeshError.self) { try curl.scene(progress: 0.5, width: width, height: height) }
            #expect(
                error?.kind == .invalidParameter && error?.message.hasPrefix("a mesh needs a layer of a finite size above 0 points") == true
            )
        }
        for (distance, width) in [(Double.leastNonzeroMagnitude, 0.33), (3e38, 1e300), (1e-300, 1e-20)] {
            let error = #expect(throws: MeshError.self) {
                try cube.scene(progress: 0.5, parameters: ["eyeDistance": .float(distance)], width: width, height: 1)
            }
            #expect(error?.message.contains("is no distance a perspective can take") == true, "\(distance) × \(width)")
        }
        #expect(
            try cube.scene(progress: 0.5, parameters: ["eyeDistance": .float(1e-300)], width: 1e-5, height: 1).appearance
                .supplementaryTransform.isFinite)
        // flat keeps a mesh's vertex limit: (rows + 1) × (columns + 1) ≤ 1,000,000 (1000 × 1000 had 1,002,001).
        let flat = try #require(MeshEffects.named("flat"))
        for (rows, columns) in [(1000, 1000), (1, 500_000), (0, 5), (2_147_483_647, 2_147_483_647)] {
            let error = #expect(throws: MeshError.self) {
                try flat.scene(parameters: ["rows": .int(rows), "columns": .int(columns)], width: 10, height: 10)
            }
            #expect(error?.message.hasPrefix("flat needs at least 1 row and column and at most 1000000 vertices") == true)
        }
        #expect(try flat.scene(parameters: ["rows": .int(3), "columns": .int(7)], width: 10, height: 10).mesh.vertices.count == 32)
    }

    @Test("a light direction is a direction however long or short: (1e200, 0, 0) is (1, 0, 0)")
    func longLight() throws {
        #expect(Vector3(1e200, 0, 0).direction == Vector3(1, 0, 0))
        #expect(Vector3(0, -Double.leastNonzeroMagnitude * 2024, 0).direction == Vector3(0, -1, 0))  // subnormal
        let d = Vector3(3e-200, 4e-200, 0).direction
        #expect(abs(d.x - 0.6) < 1e-15 && abs(d.y - 0.8) < 1e-15 && d.z == 0)
        #expect(Vector3.zero.direction == .zero && Vector3(0, 3, 4).direction == Vector3(0, 0.6, 0.8))
        let long = MeshAppearance(lightDirection: Vector3(1e200, 0, 1e200))
        try long.validate()
        #expect(abs(long.normalizedLightDirection.x - 0.5.squareRoot()) < 1e-15)
        #expect(throws: MeshError.self) { try MeshAppearance(lightDirection: .zero).validate() }
        try MeshAppearance(lightDirection: Vector3(0, 1e-200, 0)).validate()  // tiny, not zero
    }
}
